/**
 * A fleet run interrupted as a user interrupts it (Ctrl-C: SIGINT) or as a CI job's cancel does (SIGTERM),
 * with real processes and real git repositories: a `git` wrapper holds one repository's step until the
 * test has sent the signal, so the signal comes at a known point (the test waits on the run's output and
 * on the wrapper's mark, never on a timer). The run prints its partial report and exits 130 / 143,
 * leaves no lock, no half clone, no staged change, and the next run carries on.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { bin, branches, git, gitEnv, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs, 60_000);

const NAMES = ['alpha', 'beta', 'gamma'];

function threeRepositories(): { root: string; workdir: string } {
  const root = tempDir('fleet-interrupt-');
  const entries = NAMES.map((name) => `  - { name: ${name}, url: ${moduleRemote(root, name)} }\n`);
  writeFileSync(
    join(root, 'fleet.yml'),
    `version: 1\ndefaults:\n  settings:\n    puppet_lint: { fail_on_warnings: true }\nrepositories:\n${entries.join('')}`,
  );
  return { root, workdir: join(root, '.pantograph-fleet') };
}

/**
 * A `git` first on PATH that, for `git <command>` whose directory and arguments contain `where`, writes
 * the file `held` and waits until the file `release` exists before running the real git.
 */
function holdingGit(root: string, command: string, where: string) {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const dir = join(root, 'holding-bin');
  mkdirSync(dir, { recursive: true });
  const held = join(root, 'held');
  const release = join(root, 'release');
  writeFileSync(
    join(dir, 'git'),
    `#!/bin/sh
if [ "$1" = "${command}" ]; then
  case "$PWD $*" in *"${where}"*)
    : > "${held}"
    while [ ! -e "${release}" ]; do sleep 0.05; done ;;
  esac
fi
exec "${realGit}" "$@"
`,
  );
  chmodSync(join(dir, 'git'), 0o755);
  return {
    env: { PATH: `${dir}:${process.env.PATH}` },
    held,
    release: () => writeFileSync(release, ''),
  };
}

interface Running {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exit: Promise<number | null>;
}

function start(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...gitEnv, ...env } });
  const running: Running = {
    child,
    stdout: '',
    stderr: '',
    exit: new Promise((resolve) => child.on('close', (code) => resolve(code))),
  };
  child.stdout!.on('data', (d: Buffer) => {
    running.stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    running.stderr += d.toString();
  });
  return running;
}

/** Waits until `ready` holds (the run's output, the wrapper's mark); fails with what the run said. */
async function until(ready: () => boolean, run: Running): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`never ready; stderr so far:\n${run.stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Nothing held in the workdir: no run lock, no clone being made aside (their directory may stay, empty). */
function expectNoLockNorHalfClone(workdir: string): void {
  const runs = join(workdir, '.fleet-runs');
  const left = existsSync(runs) ? readdirSync(runs) : [];
  expect(left.filter((f) => f !== 'clones')).toEqual([]);
  const clones = join(runs, 'clones');
  expect(existsSync(clones) ? readdirSync(clones) : []).toEqual([]);
}

/** A clone as a run leaves it: nothing staged or changed, no index lock, not marked as being written. */
function expectClean(clone: string): void {
  expect(git(clone, 'status', '--porcelain')).toBe('');
  expect(existsSync(join(clone, '.git', 'index.lock'))).toBe(false);
  expect(existsSync(join(clone, '.git', 'pantograph-writing'))).toBe(false);
}

describe('an interrupted fleet run', () => {
  it('Ctrl-C (SIGINT) during apply --push: the partial report, exit 130, the repository under way reset, and the next run carries on', async () => {
    const { root, workdir } = threeRepositories();
    const hold = holdingGit(root, 'checkout', '/beta ');
    const run = start(root, ['fleet', 'apply', '--push', '--jobs', '1'], { ...hold.env, COLUMNS: '200' });
    await until(() => run.stderr.includes('[1/3] alpha: applied') && existsSync(hold.held), run);
    run.child.kill('SIGINT');
    await until(() => run.stderr.includes('interrupted (SIGINT)'), run);
    hold.release();
    expect(await run.exit).toBe(130);

    expect(run.stderr).toContain('press Ctrl-C again to stop at once');
    expect(run.stderr).toContain('[2/3] beta: interrupted: the run was interrupted before planning');
    expect(run.stderr).toContain(
      'interrupted (SIGINT): 1 done; 1 stopped and reset, nothing kept (beta); 1 not started (gamma)',
    );
    expect(run.stderr).toContain('hint: run the same command again to carry on');
    expect(run.stdout).toMatch(/beta\s+interrupted\s+0/);
    expect(run.stdout).toMatch(/gamma\s+not-started\s+0/);
    expect(run.stdout).toContain('3 repositories: 1 applied, 1 interrupted, 1 not-started');

    // Done is done (pushed); the one under way and the one not started are as they were.
    const remote = (name: string) => join(root, 'remotes', `${name}.git`);
    expect(Object.keys(branches(remote('alpha'))).sort()).toEqual(['main', 'pantograph/update']);
    expect(Object.keys(branches(remote('beta')))).toEqual(['main']);
    expect(Object.keys(branches(remote('gamma')))).toEqual(['main']);
    expectClean(join(workdir, 'beta'));
    expect(existsSync(join(workdir, 'gamma'))).toBe(false);
    expectNoLockNorHalfClone(workdir);

    const again = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--push']);
    expect(again.status).toBe(0);
    const records = JSON.parse(again.stdout).repositories as {
      name: string;
      result: string;
      resumed?: boolean;
    }[];
    expect(records.map((r) => [r.name, r.result, r.resumed === true])).toEqual([
      ['alpha', 'in-line', true],
      ['beta', 'applied', false],
      ['gamma', 'applied', false],
    ]);
    for (const name of NAMES)
      expect(Object.keys(branches(remote(name))).sort()).toEqual(['main', 'pantograph/update']);
  }, 120_000);

  it('SIGTERM (a CI job cancelled) during a clone: the clone is stopped and removed, exit 143, a JSON report that fleet report reads', async () => {
    const { root, workdir } = threeRepositories();
    const hold = holdingGit(root, 'clone', '/beta.git');
    const run = start(root, ['--format', 'json', 'fleet', 'status', '--jobs', '1'], hold.env);
    await until(() => existsSync(hold.held), run);
    run.child.kill('SIGTERM');
    // Not released: the held clone is stopped by the run itself.
    expect(await run.exit).toBe(143);

    const report = JSON.parse(run.stdout) as {
      interrupted: string;
      ok: boolean;
      repositories: { name: string; result: string; error?: { code: string; message: string } }[];
      summary: Record<string, number>;
    };
    expect(report.interrupted).toBe('SIGTERM');
    expect(report.ok).toBe(false);
    expect(report.repositories.map((r) => [r.name, r.result])).toEqual([
      ['alpha', 'drift'],
      ['beta', 'interrupted'],
      ['gamma', 'not-started'],
    ]);
    expect(report.repositories[1]!.error).toMatchObject({ code: 'FLEET_INTERRUPTED' });
    expect(report.repositories[1]!.error!.message).toContain('git clone');
    expect(report.summary).toMatchObject({ drift: 1, interrupted: 1, 'not-started': 1, total: 3 });
    expect(run.stderr).toContain('interrupted (SIGTERM)');
    expect(existsSync(join(workdir, 'beta'))).toBe(false);
    expectNoLockNorHalfClone(workdir);

    // The shard's report merges: the run is said to be interrupted, and fails.
    writeFileSync(join(root, 'report.json'), run.stdout);
    const merged = pantograph(root, ['fleet', 'report', 'report.json']);
    expect(merged.status).toBe(1);
    expect(merged.stderr).toContain(
      'interrupted (SIGTERM): 1 done; 1 stopped and reset, nothing kept (beta); 1 not started (gamma)',
    );

    const again = pantograph(root, ['--format', 'json', 'fleet', 'status']);
    expect(again.status).toBe(1); // drift, as status says of every repository here
    const records = JSON.parse(again.stdout).repositories as { name: string; result: string }[];
    expect(records.map((r) => [r.name, r.result])).toEqual([
      ['alpha', 'drift'],
      ['beta', 'drift'],
      ['gamma', 'drift'],
    ]);
  }, 120_000);

  it('a second Ctrl-C stops at once (exit 130) and leaves no lock; the next run resets the clone left half way', async () => {
    const { root, workdir } = threeRepositories();
    const hold = holdingGit(root, 'checkout', '/beta ');
    const run = start(root, ['fleet', 'apply', '--jobs', '1'], hold.env);
    await until(() => existsSync(hold.held), run);
    run.child.kill('SIGINT');
    await until(() => run.stderr.includes('interrupted (SIGINT)'), run);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    expect(run.stderr).toContain('interrupted again (SIGINT): stopping at once');
    expectNoLockNorHalfClone(workdir);
    hold.release(); // the held git, in its own process group, was not stopped: let it end

    const again = pantograph(root, ['--format', 'json', 'fleet', 'apply']);
    expect(again.status).toBe(0);
    const records = JSON.parse(again.stdout).repositories as { name: string; result: string }[];
    expect(records.map((r) => r.result)).toEqual(['in-line', 'applied', 'applied']);
    for (const name of NAMES) expectClean(join(workdir, name));
  }, 120_000);
});
