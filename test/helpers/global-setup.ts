/**
 * Gives each test run its own cache root (`PANTOGRAPH_CACHE_DIR`: compiled schema validators, git
 * clones), removed at the end: tests never read or write the user's cache, nor depend on an earlier run.
 * Suites that need a cache of their own stub the variable per test (see `useFreshGitCache`).
 * `COLUMNS` is removed: the CLI folds its messages at that width wherever they go (src/cli/wrap.ts), so a
 * shell that exports it would change every exact text a test asserts; tests that fold set it themselves.
 * `sharedFixtures` is a directory for what the CLI makes the same way for several test files (see
 * test/helpers/shared-fixture.ts), also removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedFixtures: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-test-cache-'));
  process.env.PANTOGRAPH_CACHE_DIR = dir;
  delete process.env.COLUMNS;
  const fixtures = mkdtempSync(join(tmpdir(), 'pantograph-test-fixtures-'));
  project.provide('sharedFixtures', fixtures);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(fixtures, { recursive: true, force: true });
  };
}
