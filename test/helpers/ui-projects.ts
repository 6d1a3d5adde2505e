/**
 * Projects for the web interface's tests, made by the built CLI as a user makes them. Apart from
 * ui-pages.ts, which re-exports them, so that a test of the server alone (ui-hostile) does not load
 * playwright-core: ~1.3 s of CPU per file on CI's machine (session 31).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './fs.js';
import { sharedFixture } from './shared-fixture.js';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'dist/cli/bin.cjs');

/** The built command line, run in `cwd`. */
export function cli(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
}

/**
 * A new project made by `pantograph init` (its files applied), in a temp dir named from `prefix`. The CLI
 * runs once per name in a test run (test/helpers/shared-fixture.ts) and each call gets a fresh copy of
 * what it made: the same real project every time, without a process start (~0.5 s on a loaded machine)
 * per test.
 */
export function initProject(prefix: string, name: string): string {
  const made = sharedFixture(`ui-init-${name}`, (dir) => {
    const result = cli(root, 'init', dir, '--name', name, '--yes');
    if (result.status !== 0) throw new Error(result.stderr);
  });
  const dir = join(tempDir(prefix), 'module');
  cpSync(made, dir, { recursive: true });
  return dir;
}

/**
 * A new template repository holding template `name` as `pantograph new template` makes it, in a temp
 * dir named from `prefix`: like `initProject`, the CLI runs once per name in a test run and each call
 * gets a fresh copy.
 */
export function newTemplateRepository(prefix: string, name: string): string {
  const made = sharedFixture(`ui-new-template-${name}`, (dir) => {
    mkdirSync(dir);
    const result = cli(dir, 'new', 'template', name, '-C', dir);
    if (result.status !== 0) throw new Error(result.stderr);
  });
  const repo = tempDir(prefix);
  cpSync(made, repo, { recursive: true });
  return repo;
}
