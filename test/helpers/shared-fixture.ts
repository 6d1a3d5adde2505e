/**
 * What the built CLI makes the same way for many test files (`pantograph init` of the fleet's module, the
 * browser tests' projects), made once per test run instead of once per file: each file runs in its own
 * process, and a CLI start is ~0.5-1 s on a loaded machine. The fixture is never used in place: callers
 * copy it, so no test sees what another file did. It lives in the run's `sharedFixtures` directory
 * (test/helpers/global-setup.ts), removed when the run ends.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { tempDir } from './fs.js';

/**
 * The directory `make` filled for `key` in this test run, made now if no file made it yet. Two files
 * making it at once each build their own and the first rename wins; the other uses the winner's.
 */
export function sharedFixture(key: string, make: (dir: string) => void): string {
  const target = join(inject('sharedFixtures'), key);
  if (existsSync(target)) return target;
  const built = join(tempDir('pantograph-fixture-'), key);
  make(built);
  try {
    renameSync(built, target);
  } catch (error) {
    if (!existsSync(target)) throw error;
  }
  return target;
}
