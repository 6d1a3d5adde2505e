/**
 * The fleet driven as a user drives it: ten real git repositories, one whose remote is gone and one whose
 * `.sync.yml` is broken in the middle of the list; status, apply --noop, apply over a three-shard matrix
 * merged by `fleet report`; and runs killed half way (`kill -9` from a git wrapper at the step named),
 * then run again.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { git, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs, 60_000);

const NAMES = ['mod01', 'mod02', 'mod03', 'mod04', 'mod05', 'mod06', 'mod07', 'mod08', 'mod09', 'mod10'];

interface Record_ {
  name: string;
  result: string;
  error?: { code: string; message: string; hint?: string; file?: string; line?: number; column?: number };
}

/** The fleet `userFleet` copies, made by the first test that asks for it. */
let made: { root: string; fleetFile: string } | undefined;

/**
 * Ten module remotes (mod05's `.sync.yml` broken), plus `gone`, listed sixth, whose remote does not exist:
 * a fresh copy for each test of the fleet made once (forty git commands, seconds on a loaded machine), its
 * fleet file naming the copy's remotes.
 */
function userFleet(): { root: string; fleetFile: string } {
  made ??= makeUserFleet();
  const root = tempDir('fleet-user-');
  cpSync(made.root, root, { recursive: true });
  const fleetFile = join(root, 'fleet.yml');
  writeFileSync(fleetFile, readFileSync(made.fleetFile, 'utf8').replaceAll(made.root, root));
  return { root, fleetFile };
}

function makeUserFleet(): { root: string; fleetFile: string } {
  const root = tempDir('fleet-user-made-');
  const entries = NAMES.map((name) => {
    const remote = moduleRemote(root, name, (work) => {
      if (name === 'mod05') {
        writeFileSync(join(work, '.sync.yml'), 'pdk_template:\n  version: 2\n  templates: [\n');
      }
    });
    return `  - { name: ${name}, url: ${remote} }\n`;
  });
  entries.splice(5, 0, `  - { name: gone, url: ${join(root, 'remotes', 'gone.git')} }\n`);
  const fleetFile = join(root, 'fleet.yml');
  writeFileSync(
    fleetFile,
    `version: 1\ndefaults:\n  settings:\n    puppet_lint: { fail_on_warnings: true }\nrepositories:\n${entries.join('')}`,
  );
  return { root, fleetFile };
}

function byName(stdout: string): Map<string, Record_> {
  return new Map((JSON.parse(stdout) as { repositories: Record_[] }).repositories.map((r) => [r.name, r]));
}

function expectTheTwoFailures(records: Map<string, Record_>, root: string, fleetFile: string): void {
  // The missing remote: at its entry in fleet.yml (line 11), with what to do.
  expect(records.get('gone')).toMatchObject({
    result: 'failed',
    error: { code: 'FLEET_GIT', file: fleetFile, line: 11, column: 5 },
  });
  expect(records.get('gone')!.error!.message).toContain('does not exist');
  expect(records.get('gone')!.error!.hint).toContain("check the `url:` of 'gone' in the fleet file");
  // The broken .sync.yml: at its line in the clone.
  expect(records.get('mod05')).toMatchObject({
    result: 'failed',
    error: { code: 'SYNC_YAML', file: join(root, '.pantograph-fleet', 'mod05', '.sync.yml'), line: 4 },
  });
}

/**
 * A `git` first on PATH that runs the real one, then kills the fleet's process (the nearest `node`
 * ancestor, and the shell running git's steps between) with SIGKILL after the command whose arguments include `step`, in the clone named `where`
 * (any when empty): a run that dies there, as on a machine that goes down.
 */
function killingGit(root: string, step: string, where: string): NodeJS.ProcessEnv {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = join(root, 'killing-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'git'),
    `#!/bin/sh
"${realGit}" "$@"; status=$?
case " $* " in *" ${step} "*) ;; *) exit $status ;; esac
case "$PWD $*" in *"${where}"*) ;; *) exit $status ;; esac
p=$PPID
while [ "$p" -gt 1 ] && [ "$(cat /proc/$p/comm)" != node ]; do n=$(cut -d" " -f4 /proc/$p/stat); kill -9 "$p"; p=$n; done
[ "$p" -gt 1 ] && kill -9 "$p"
exit $status
`,
  );
  chmodSync(join(bin, 'git'), 0o755);
  return { PATH: `${bin}:${process.env.PATH}` };
}

// Ten repositories made, then two or three fleet runs over them: ~40 s on a loaded machine.
describe('a fleet of ten repositories, driven as a user', { timeout: 120_000 }, () => {
  it('status and apply --noop: a missing remote and a broken .sync.yml fail alone, each said where and why; the others go on', () => {
    const { root, fleetFile } = userFleet();
    const status = pantograph(root, ['--format', 'json', 'fleet', 'status', '--jobs', '3']);
    expect(status.status).toBe(1);
    const records = byName(status.stdout);
    expect(records.size).toBe(11);
    expectTheTwoFailures(records, root, fleetFile);
    for (const name of NAMES.filter((n) => n !== 'mod05'))
      expect(records.get(name)!.result, name).toBe('drift');
    const text = pantograph(root, ['fleet', 'status']);
    expect(text.stdout).toContain('11 repositories: 9 drift, 2 failed');
    expect(text.stderr).toContain(`(${fleetFile}:11:5)`);
    expect(text.stderr).toContain("hint: check the `url:` of 'gone' in the fleet file");

    const noop = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--noop']);
    expect(noop.status).toBe(1);
    expectTheTwoFailures(byName(noop.stdout), root, fleetFile);
    for (const name of NAMES)
      expect(git(join(root, 'remotes', `${name}.git`), 'branch', '--list')).toBe('* main');
  });

  it('apply over a three-shard matrix: each repository once, the merged report says what each did', () => {
    const { root, fleetFile } = userFleet();
    const matrix = JSON.parse(pantograph(root, ['fleet', 'plan-matrix', '--shards', '3']).stdout) as {
      include: { shard: string }[];
    };
    expect(matrix.include.map((m) => m.shard)).toEqual(['1/3', '2/3', '3/3']);
    const files = matrix.include.map(({ shard }, i) => {
      const r = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--shard', shard]);
      const file = join(root, `report-${i + 1}.json`);
      writeFileSync(file, r.stdout);
      return file;
    });
    const shardNames = files.map((f) => byName(readFileSync(f, 'utf8')).size);
    expect(shardNames.reduce((a, b) => a + b)).toBe(11);
    const merged = pantograph(root, ['--format', 'json', 'fleet', 'report', ...files]);
    expect(merged.status).toBe(1);
    const records = byName(merged.stdout);
    expect([...records.keys()].sort()).toEqual([...NAMES, 'gone'].sort());
    expectTheTwoFailures(records, root, fleetFile);
    for (const name of NAMES.filter((n) => n !== 'mod05'))
      expect(records.get(name)!.result, name).toBe('applied');
    const text = pantograph(root, ['fleet', 'report', ...files]);
    expect(text.stdout).toContain('11 repositories: 9 applied, 2 failed');
  });

  it('a run killed while cloning leaves nothing in the way: the next run clones again and goes on', () => {
    const { root } = userFleet();
    const killed = pantograph(root, ['fleet', 'status', '--jobs', '1'], killingGit(root, 'clone', 'mod03'));
    expect(killed.status).toBe(null); // killed
    expect(existsSync(join(root, '.pantograph-fleet', 'mod01'))).toBe(true);
    const again = pantograph(root, ['--format', 'json', 'fleet', 'status']);
    const records = byName(again.stdout);
    expect(records.get('mod03')!.result, again.stdout).toBe('drift');
    expect(again.stdout).not.toContain('in the way');
    expect(
      [...records.values()]
        .filter((r) => r.result === 'failed')
        .map((r) => r.name)
        .sort(),
    ).toEqual(['gone', 'mod05']);
  });

  it('a run killed between applying and committing: the next run starts that clone again and commits once', () => {
    const { root } = userFleet();
    const killed = pantograph(root, ['fleet', 'apply', '--jobs', '1'], killingGit(root, 'add', 'mod03'));
    expect(killed.status).toBe(null);
    const clone = join(root, '.pantograph-fleet', 'mod03');
    expect(git(clone, 'status', '--porcelain')).not.toBe(''); // left half done
    const again = pantograph(root, ['--format', 'json', 'fleet', 'apply']);
    const records = byName(again.stdout);
    // Done before the kill: resumed as in line; mod03 and the rest: applied now.
    expect(records.get('mod01')!.result).toBe('in-line');
    expect(records.get('mod03')!.result).toBe('applied');
    expect(records.get('mod10')!.result).toBe('applied');
    expect(git(clone, 'status', '--porcelain')).toBe('');
    expect(git(clone, 'rev-list', '--count', 'main..HEAD')).toBe('1');
    const third = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--fresh']);
    expect(byName(third.stdout).get('mod03')!.result).toBe('in-line');
  });
});
