/**
 * The fleet checks out and cleans its clones at will (`git checkout --force`, `git clean -ffdx`), so it
 * must only ever do that to a clone it made: a `workdir:` that reaches a checkout of the user's (found by
 * the security review: `workdir: ..` beside the user's own clone wiped its uncommitted, untracked and
 * ignored files) is refused, and nothing in it changes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fs.js';
import { git, moduleRemote, pantograph, pantographAsync } from './fleet-helpers.js';

describe('the fleet workdir', () => {
  it("refuses a directory it did not clone, and leaves the user's work in it as it was", () => {
    const root = tempDir('fleet-workdir-');
    const remote = moduleRemote(root, 'work');
    // The user's own checkout of the same repository, with work in progress, where the fleet would clone.
    const mine = join(root, 'checkouts', 'work');
    mkdirSync(join(root, 'checkouts'));
    git(root, 'clone', '--quiet', remote, mine);
    writeFileSync(join(mine, '.gitignore'), '*.log\n');
    writeFileSync(join(mine, 'metadata.json'), `${readFileSync(join(mine, 'metadata.json'), 'utf8')}\n`);
    writeFileSync(join(mine, 'notes.txt'), 'untracked\n');
    writeFileSync(join(mine, 'debug.log'), 'ignored\n');
    const head = git(mine, 'rev-parse', 'HEAD');
    const status = git(mine, 'status', '--porcelain', '--ignored');
    const fleetDir = join(root, 'fleet');
    mkdirSync(fleetDir);
    writeFileSync(
      join(fleetDir, 'fleet.yml'),
      `version: 1\nworkdir: ../checkouts\nrepositories:\n  - { name: work, url: ${remote} }\n`,
    );

    for (const command of [['status'], ['apply']]) {
      const r = pantograph(fleetDir, ['fleet', ...command]);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout + r.stderr).toContain(`${mine} is in the way: it is not a clone made by the fleet`);
      expect(r.stdout + r.stderr).toContain(`${join(fleetDir, 'fleet.yml')}:4:5`);
    }
    const json = pantograph(fleetDir, ['--format', 'json', 'fleet', 'status']);
    const report = JSON.parse(json.stdout) as { repositories: { error?: { code: string; line?: number } }[] };
    expect(report.repositories[0]!.error).toMatchObject({ code: 'FLEET_PATH', line: 4 });
    expect(git(mine, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(mine, 'status', '--porcelain', '--ignored')).toBe(status);
    expect(readFileSync(join(mine, 'notes.txt'), 'utf8')).toBe('untracked\n');
    expect(readFileSync(join(mine, 'debug.log'), 'utf8')).toBe('ignored\n');
  });

  it('reuses the clones it made, run after run', () => {
    const root = tempDir('fleet-workdir-');
    const remote = moduleRemote(root, 'mod');
    writeFileSync(join(root, 'fleet.yml'), `version: 1\nrepositories:\n  - { name: mod, url: ${remote} }\n`);
    for (let run = 0; run < 2; run++) {
      const r = pantograph(root, ['fleet', 'status']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('in the way');
    }
  });

  it('a second run on the same repositories is refused, naming the other run; a killed run does not block', () => {
    const root = tempDir('fleet-lock-');
    moduleRemote(root, 'a');
    moduleRemote(root, 'b');
    writeFileSync(
      join(root, 'fleet.yml'),
      'version: 1\nrepositories:\n  - { name: a, url: remotes/a.git }\n  - { name: b, url: remotes/b.git }\n',
    );
    const runs = join(root, '.pantograph-fleet', '.fleet-runs');
    mkdirSync(runs, { recursive: true });
    // A live process on this host (a sleeping child) holds repository b.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const lock = join(runs, `other.${other.pid}.json`);
      const owner = { pid: other.pid, host: hostname(), command: 'apply', started: 'then' };
      writeFileSync(lock, JSON.stringify({ ...owner, repositories: ['b'] }));
      const refused = pantograph(root, ['fleet', 'status']);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(
        `another fleet run (pid ${other.pid} on ${hostname()}: \`fleet apply\``,
      );
      expect(refused.stderr).toContain('is working on a repository of this run');
      expect(refused.stderr).toContain('[FLEET_LOCKED]');
      expect(refused.stderr).toContain(`delete ${lock}`);
      expect(existsSync(join(root, '.pantograph-fleet', 'a'))).toBe(false); // nothing cloned
      // A run on other repositories (another shard) goes on.
      const beside = pantograph(root, ['fleet', 'status', '--filter', 'a']);
      expect(beside.status, beside.stderr).toBe(0);
      // The same under --format json: a problem, as every fleet error.
      const asJson = pantograph(root, ['--format', 'json', 'fleet', 'status']);
      expect(JSON.parse(asJson.stdout).problems[0]).toMatchObject({ code: 'FLEET_LOCKED' });
    } finally {
      other.kill();
    }
    // The holder died (a killed run): its lock is stale, taken away, and the run goes on.
    const dead = spawn('true', { stdio: 'ignore' });
    return new Promise<void>((done) => dead.on('exit', () => done())).then(() => {
      writeFileSync(
        join(runs, `other.${dead.pid}.json`),
        JSON.stringify({
          pid: dead.pid,
          host: hostname(),
          command: 'apply',
          started: 'then',
          repositories: ['b'],
        }),
      );
      const r = pantograph(root, ['fleet', 'status']);
      expect(r.status, r.stderr).toBe(0);
      expect(readdirSync(runs)).toEqual([]);
    });
  });

  it("the shards of one run, at once in one workdir, keep every repository's record for the next run", async () => {
    const root = tempDir('fleet-shards-');
    const names = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'];
    for (const name of names) moduleRemote(root, name);
    writeFileSync(
      join(root, 'fleet.yml'),
      `version: 1\nrepositories:\n${names.map((n) => `  - { name: ${n}, url: remotes/${n}.git }\n`).join('')}`,
    );
    const shards = await Promise.all(
      [1, 2, 3].map((i) =>
        pantographAsync(root, ['--format', 'json', 'fleet', 'status', '--shard', `${i}/3`]),
      ),
    );
    for (const r of shards) expect(r.status, r.stdout + r.stderr).toBe(0);
    const again = JSON.parse(pantograph(root, ['--format', 'json', 'fleet', 'status']).stdout) as {
      repositories: { name: string; resumed?: boolean }[];
    };
    expect(again.repositories.map((r) => [r.name, r.resumed])).toEqual(names.map((n) => [n, true]));
  });

  it('clones made at once: one that finishes never removes the directory another is being cloned into', () => {
    const root = tempDir('fleet-clones-');
    moduleRemote(root, 'first');
    moduleRemote(root, 'second');
    writeFileSync(
      join(root, 'fleet.yml'),
      'version: 1\nrepositories:\n  - { name: first, url: remotes/first.git }\n  - { name: second, url: remotes/second.git }\n',
    );
    // `git clone` makes the leading directories of its destination, then the destination itself, unless
    // it is there already. This git does the same for 'second', slowly, as on a loaded machine: between
    // the two it waits until 'first' (which waits for it to start) is cloned and moved into place. That
    // once removed the directory of clones in the gap, failing 'second' ("could not create work tree dir").
    const workdir = join(root, '.pantograph-fleet');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = join(root, 'slow-bin');
    const started = join(bin, 'second-started');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh
for dest; do :; done
wait_for() { i=0; while [ ! -e "$1" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; }
case "$1 $dest" in
  "clone "*/first) wait_for "${started}" ;;
  "clone "*/second)
    if [ ! -d "$dest" ]; then
      mkdir -p "$(dirname "$dest")"
      touch "${started}"
      wait_for "${workdir}/first"
      sleep 0.2
      mkdir "$dest" || { echo "fatal: could not create work tree dir '$dest'" >&2; exit 128; }
    fi
    touch "${started}" ;;
esac
exec "${realGit}" "$@"
`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    const r = pantograph(root, ['--format', 'json', 'fleet', 'status', '--jobs', '2'], {
      PATH: `${bin}:${process.env.PATH}`,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { repositories: { name: string; result: string }[] };
    expect(report.repositories.map((x) => [x.name, x.result])).toEqual([
      ['first', 'in-line'],
      ['second', 'in-line'],
    ]);
  });

  it('has no name of its own in the workdir: a repository named fleet-state.json is a repository like any other', () => {
    const root = tempDir('fleet-names-');
    moduleRemote(root, 'a');
    moduleRemote(root, 'b');
    writeFileSync(
      join(root, 'fleet.yml'),
      'version: 1\nrepositories:\n  - { name: a, url: remotes/a.git }\n  - { name: fleet-state.json, url: remotes/b.git }\n',
    );
    // An older version's state file, where the repository goes: the fleet's own, removed.
    mkdirSync(join(root, '.pantograph-fleet'));
    writeFileSync(join(root, '.pantograph-fleet', 'fleet-state.json'), '{"version":1,"repositories":{}}\n');
    for (const resumed of [undefined, true]) {
      const r = pantograph(root, ['--format', 'json', 'fleet', 'status']);
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as {
        repositories: { name: string; result: string; resumed?: boolean }[];
      };
      expect(report.repositories.map((x) => [x.name, x.result, x.resumed])).toEqual([
        ['a', 'in-line', resumed],
        ['fleet-state.json', 'in-line', resumed],
      ]);
    }
    expect(readdirSync(join(root, '.pantograph-fleet')).sort()).toEqual([
      '.fleet-runs',
      'a',
      'fleet-state.json',
    ]);
  });
});
