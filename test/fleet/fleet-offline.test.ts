/**
 * `fleet status|apply --offline`, msync's `update --offline`: each repository from the clone a previous run
 * made, as its last fetch saw it, with no clone, fetch or push; one not cloned yet is refused at its entry
 * in fleet.yml, nothing made for it (the built CLI, real bare remotes that move on or disappear).
 */
import { existsSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { appendSync, branches, git, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

const LINT_OFF = 'puppet_lint:\n  fail_on_warnings: false\n';

interface Record {
  name: string;
  result: string;
  files: { path: string }[];
  baseCommit?: string;
  committed?: boolean;
  pushed?: boolean;
  error?: { code: string; message: string; file?: string; line?: number; column?: number; hint?: string };
}

/** Two remotes: `cached` (drifting) is fetched once; `never` is never cloned. */
function fleetWithOneClone(): { root: string; workdir: string } {
  const root = tempDir('fleet-offline-');
  moduleRemote(root, 'cached', (w) => appendSync(w, LINT_OFF));
  moduleRemote(root, 'never');
  writeFileSync(
    join(root, 'fleet.yml'),
    [
      'version: 1',
      'repositories:',
      '  - { name: cached, url: remotes/cached.git }',
      '  - { name: never, url: remotes/never.git }',
      '',
    ].join('\n'),
  );
  const first = pantograph(root, ['fleet', 'status', '--filter', 'cached']);
  expect(first.status, first.stderr).toBe(1); // drift
  return { root, workdir: join(root, '.pantograph-fleet') };
}

function records(stdout: string): Map<string, Record> {
  const report = JSON.parse(stdout) as { repositories: Record[] };
  return new Map(report.repositories.map((r) => [r.name, r]));
}

describe('fleet --offline', () => {
  it('plans each cloned repository as its last fetch saw it, without reaching the remote', () => {
    const { root } = fleetWithOneClone();
    const seen = git(join(root, 'remotes', 'cached.git'), 'rev-parse', 'main');
    // The remote moves on after the fetch: a fetch would see its new commit.
    const work = join(root, 'work', 'cached');
    writeFileSync(join(work, 'NOTES.md'), 'moved on\n');
    git(work, 'add', 'NOTES.md');
    git(work, 'commit', '--quiet', '-m', 'moved on');
    git(work, 'push', '--quiet', join(root, 'remotes', 'cached.git'), 'main');
    const r = pantograph(root, ['--format', 'json', 'fleet', 'status', '--offline', '--filter', 'cached']);
    expect(r.status, r.stderr).toBe(1);
    expect(records(r.stdout).get('cached')).toMatchObject({ result: 'drift', baseCommit: seen });

    // Then the remote is gone altogether (unreachable): status still answers from the clone.
    renameSync(join(root, 'remotes'), join(root, 'remotes-gone'));
    const gone = pantograph(root, ['--format', 'json', 'fleet', 'status', '--offline', '--filter', 'cached']);
    expect(records(gone.stdout).get('cached')).toMatchObject({ result: 'drift', baseCommit: seen });
    // Without --offline the same run fails at the fetch: the option is what kept it off the network.
    const online = pantograph(root, ['--format', 'json', 'fleet', 'status', '--filter', 'cached']);
    expect(records(online.stdout).get('cached')).toMatchObject({
      result: 'failed',
      error: { code: 'FLEET_GIT' },
    });
  });

  it('refuses a repository not cloned yet at its entry in fleet.yml, makes nothing for it, and goes on', () => {
    const { root, workdir } = fleetWithOneClone();
    renameSync(join(root, 'remotes'), join(root, 'remotes-gone'));
    const r = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--offline']);
    expect(r.status).toBe(1);
    const byName = records(r.stdout);
    expect(byName.get('never')).toMatchObject({
      result: 'failed',
      files: [],
      error: {
        code: 'FLEET_OFFLINE',
        message: `'never' has no clone in ${workdir} yet, and --offline fetches nothing`,
        file: join(root, 'fleet.yml'),
        line: 4,
        column: 5,
      },
    });
    expect(byName.get('never')?.error?.hint).toContain('run once without --offline to clone it');
    expect(existsSync(join(workdir, 'never'))).toBe(false);
    expect(readdirSync(workdir).sort()).toEqual(['.fleet-runs', 'cached']);
    // The cached one is applied and committed on its work branch in the clone; nothing pushed.
    expect(byName.get('cached')).toMatchObject({ result: 'applied', committed: true, pushed: false });
    const clone = join(workdir, 'cached');
    expect(git(clone, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('pantograph/update');
    expect(git(clone, 'log', '-1', '--format=%s')).not.toBe('module');

    // The text report says where and what to do.
    const text = pantograph(root, ['fleet', 'status', '--offline', '--filter', 'never']);
    expect(text.status).toBe(1);
    expect(text.stderr).toContain(
      `never: failed: 'never' has no clone in ${workdir} yet, and --offline fetches nothing (${join(root, 'fleet.yml')}:4:5)`,
    );
    expect(text.stderr).toContain('hint: run once without --offline to clone it');
  });

  it('refuses --push and --pr with --offline before anything is cloned or written', () => {
    const { root, workdir } = fleetWithOneClone();
    const bare = join(root, 'remotes', 'cached.git');
    const before = branches(bare);
    const head = git(join(workdir, 'cached'), 'rev-parse', 'HEAD');
    for (const flags of [['--push'], ['--push', '--pr']]) {
      const r = pantograph(root, ['fleet', 'apply', '--offline', ...flags]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        `error: ${flags.at(-1)} needs the network, and --offline reaches no remote [FLEET_USAGE]`,
      );
      expect(r.stderr).toContain('hint: leave --offline out to push and propose');
    }
    const json = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--offline', '--push']);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).problems[0]).toMatchObject({ code: 'FLEET_USAGE' });
    expect(branches(bare)).toEqual(before);
    expect(git(join(workdir, 'cached'), 'rev-parse', 'HEAD')).toBe(head);
    expect(existsSync(join(workdir, 'never'))).toBe(false);
  });
});
