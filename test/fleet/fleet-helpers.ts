/**
 * A fleet made of real git repositories for the fleet tests: a module made once by `pantograph init`,
 * copied into bare remotes in different states, and the built CLI run as a user runs it.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers/fs.js';
import { sharedFixture } from '../helpers/shared-fixture.js';

export const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

export const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  NO_COLOR: '1',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: gitEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function pantograph(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...gitEnv, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A module as `pantograph init` makes it (made once per test run; copy it, never change it). */
export function initModule(): string {
  return sharedFixture('fleet-module', (dir) => {
    const r = pantograph(tempDir(), ['init', '--name', 'acme-module', '--yes', dir]);
    if (r.status !== 0) throw new Error(`init failed: ${r.stderr}`);
  });
}

/**
 * A bare remote holding the module on `main`, after `change` edits a work copy of it. Returns the bare
 * repository's path.
 */
export function moduleRemote(root: string, name: string, change: (work: string) => void = () => {}): string {
  const work = join(root, 'work', name);
  cpSync(initModule(), work, { recursive: true });
  change(work);
  git(work, 'init', '--quiet', '--initial-branch=main');
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'module');
  // The bare remote is a copy of the work clone's repository made bare: what `git clone --bare` of a
  // local path makes (objects, refs, HEAD on main), without a git process per remote.
  const bare = join(root, 'remotes', `${name}.git`);
  cpSync(join(work, '.git'), bare, { recursive: true });
  rmSync(join(bare, 'index'));
  const config = join(bare, 'config');
  const text = readFileSync(config, 'utf8');
  if (!text.includes('\tbare = false\n')) throw new Error(`no 'bare = false' in ${config}:\n${text}`);
  writeFileSync(config, text.replace('\tbare = false\n', '\tbare = true\n'));
  return bare;
}

/** Appends settings to a module's .sync.yml (a change made without applying it: drift). */
export function appendSync(work: string, text: string): void {
  const file = join(work, '.sync.yml');
  writeFileSync(file, `${readFileSync(file, 'utf8')}${text}`);
}

export function branches(bare: string): Record<string, string> {
  const out = git(bare, 'for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads');
  return Object.fromEntries(
    out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split(' ') as [string, string]),
  );
}

/** The CLI without blocking this process: a server the test runs (a fake forge) can answer meanwhile. */
export function pantographAsync(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd, encoding: 'utf8', timeout: 120_000, env: { ...gitEnv, ...env } },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolvePromise({ status, stdout, stderr });
      },
    );
  });
}
