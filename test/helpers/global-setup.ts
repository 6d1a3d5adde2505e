/**
 * Gives each test run its own cache root (`PANTOGRAPH_CACHE_DIR`: compiled schema validators, git
 * clones), removed at the end: tests never read or write the user's cache, nor depend on an earlier run.
 * Suites that need a cache of their own stub the variable per test (see `useFreshGitCache`).
 * `COLUMNS` is removed: the CLI folds its messages at that width wherever they go (src/cli/wrap.ts), so a
 * shell that exports it would change every exact text a test asserts; tests that fold set it themselves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-test-cache-'));
  process.env.PANTOGRAPH_CACHE_DIR = dir;
  delete process.env.COLUMNS;
  return () => rmSync(dir, { recursive: true, force: true });
}
