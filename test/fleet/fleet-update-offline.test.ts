/**
 * `fleet update --offline`: each repository from the clone an earlier run made, every git template source
 * moved to the latest commit the cache holds (an earlier fetch's), committed on the work branch in the
 * clone; no git command that reaches a remote runs (a logging `git` first on PATH, and remotes that are
 * gone). A repository never cloned is FLEET_OFFLINE at its entry, a source never fetched is GIT_OFFLINE at
 * its entry, and `--push`/`--pr` are refused. The built CLI on real git repositories.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { type TempRemote, tempRemote } from '../helpers/git.js';
import { branches, git, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

interface Record {
  name: string;
  result: string;
  files: { path: string; state: string }[];
  sources?: { location: string; ref?: string; from?: string; to: string }[];
  committed?: boolean;
  pushed?: boolean;
  error?: { code: string; message: string; file?: string; line?: number; column?: number; hint?: string };
}

const hello = (text: string) => ({
  'hello/template.json': JSON.stringify({ name: 'hello', version: '1.0.0', always_apply: true }),
  'hello/files/HELLO.txt.epp': `${text}\n`,
});

/** git's commands that reach a remote. */
const NETWORK = ['fetch', 'clone', 'push', 'pull', 'ls-remote', 'remote'];

let root: string;
let templates: TempRemote;
let cache: string;
let clone: string;
let first: string;
let second: string;
/** A `git` first on PATH that logs each call's arguments, one call a line, then runs the real git. */
let wrapperPath: string;
let log: string;

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  return pantograph(root, args, { PANTOGRAPH_CACHE_DIR: cache, ...env });
}

function records(stdout: string): Map<string, Record> {
  const report = JSON.parse(stdout) as { repositories: Record[] };
  return new Map(report.repositories.map((r) => [r.name, r]));
}

/** The git calls the wrapper saw since the log was last cleared, each as its list of arguments. */
function gitCalls(): string[][] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\0\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\0'));
}

beforeAll(() => {
  templates = tempRemote();
  first = templates.commit(hello('one'));
  root = tempDir('fleet-update-offline-');
  cache = tempDir('fleet-update-offline-cache-');
  moduleRemote(root, 'cached');
  moduleRemote(root, 'never');
  writeFileSync(
    join(root, 'fleet.yml'),
    [
      'version: 1',
      'template_sources:',
      `  - { type: git, location: "${templates.url}", ref: main }`,
      '  - default',
      'repositories:',
      '  - { name: cached, url: remotes/cached.git }',
      '  - { name: never, url: remotes/never.git }',
      '',
    ].join('\n'),
  );
  const applied = run(['fleet', 'apply', '--push', '--filter', 'cached']);
  if (applied.status !== 0) throw new Error(`fleet apply failed: ${applied.stdout}${applied.stderr}`);
  // Its pull request merged.
  git(join(root, 'remotes', 'cached.git'), 'update-ref', 'refs/heads/main', 'refs/heads/pantograph/update');
  clone = join(root, '.pantograph-fleet', 'cached');

  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  wrapperPath = tempDir('fleet-update-offline-bin-');
  log = join(wrapperPath, 'calls.log');
  writeFileSync(
    join(wrapperPath, 'git'),
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a" >> '${log}'; done\nprintf '\\n' >> '${log}'\nexec '${realGit}' "$@"\n`,
  );
  chmodSync(join(wrapperPath, 'git'), 0o755);
}, 120_000);

describe('fleet update --offline', () => {
  it('moves each clone to the latest commit the cache holds and commits it there, reaching no remote', () => {
    // The templates move on; an online --noop fetches that commit into the cache (and writes nothing).
    second = templates.commit(hello('two'));
    const noop = run(['fleet', 'update', '--noop', '--filter', 'cached']);
    expect(noop.status, noop.stderr).toBe(0);
    // Then once more, which no fetch saw; and every remote goes away.
    templates.commit(hello('three'));
    renameSync(join(root, 'remotes'), join(root, 'remotes-gone'));
    renameSync(templates.bare, `${templates.bare}-gone`);
    const bare = join(root, 'remotes-gone', 'cached.git');
    const before = branches(bare);
    const offline = { PATH: `${wrapperPath}:${process.env.PATH}` };

    const r = run(['fleet', 'update', '--offline'], offline);
    expect(r.status, r.stderr).toBe(1); // `never` fails; `cached` is applied
    expect(r.stdout).toContain(
      `source ${templates.url}#main: ${first.slice(0, 12)} -> ${second.slice(0, 12)} (1 repository)\n`,
    );
    expect(r.stdout).toContain(
      'note: --offline takes the latest commits the cache holds (fetched by an earlier run); the remotes may have newer ones',
    );
    expect(r.stdout).toMatch(/cached +applied +1 +pantograph\/update@[0-9a-f]{10}\n/);
    expect(r.stderr).toContain(
      `never: failed: 'never' has no clone in ${join(root, '.pantograph-fleet')} yet, and --offline fetches nothing (${join(root, 'fleet.yml')}:7:5)`,
    );

    // Committed on the work branch in the clone, the lock at the cached commit; nothing pushed.
    expect(git(clone, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('pantograph/update');
    expect(git(clone, 'status', '--porcelain')).toBe('');
    expect(git(clone, 'show', 'HEAD:HELLO.txt')).toBe('two');
    const lock = JSON.parse(git(clone, 'show', 'HEAD:.pantograph.lock'));
    expect(lock.sources).toContainEqual({
      type: 'git',
      location: templates.url,
      ref: 'main',
      commit: second,
    });
    expect(git(clone, 'log', '-1', '--format=%B')).toContain(
      `${templates.url}#main: ${first.slice(0, 12)} -> ${second.slice(0, 12)}`,
    );
    expect(branches(bare)).toEqual(before);
    expect(readdirSync(join(root, '.pantograph-fleet')).sort()).toEqual(['.fleet-runs', 'cached']);

    // The wrapper saw the run's git calls (the commit among them), and not one that reaches a remote.
    const calls = gitCalls();
    expect(calls.some((c) => c.includes('commit'))).toBe(true);
    expect(calls.filter((c) => c.some((a) => NETWORK.includes(a)))).toEqual([]);

    // Again: at the cached commit already, nothing committed.
    const again = run(['--format', 'json', 'fleet', 'update', '--offline', '--filter', 'cached'], offline);
    expect(again.status, again.stderr).toBe(0);
    expect(records(again.stdout).get('cached')).toMatchObject({
      result: 'in-line',
      committed: false,
      pushed: false,
      sources: [{ location: templates.url, ref: 'main', from: second, to: second }],
    });
    expect(gitCalls().filter((c) => c.some((a) => NETWORK.includes(a)))).toEqual([]);
  });

  it('fails a repository whose template source the cache never fetched at that source, its clone untouched', () => {
    const head = git(clone, 'rev-parse', 'HEAD');
    const branch = git(clone, 'rev-parse', '--abbrev-ref', 'HEAD');
    const empty = tempDir('fleet-update-offline-empty-cache-');
    const r = run(['--format', 'json', 'fleet', 'update', '--offline', '--filter', 'cached'], {
      PANTOGRAPH_CACHE_DIR: empty,
      PATH: `${wrapperPath}:${process.env.PATH}`,
    });
    expect(r.status).toBe(1);
    expect(records(r.stdout).get('cached')).toMatchObject({
      result: 'failed',
      files: [],
      error: {
        code: 'GIT_OFFLINE',
        message: `git source '${templates.url}' is not in the cache and --offline forbids fetching it`,
        file: join(root, 'fleet.yml'),
        line: 3,
        column: 5,
        hint: 'run once without --offline',
      },
    });
    expect(git(clone, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(clone, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(branch);
    expect(git(clone, 'status', '--porcelain')).toBe('');
    expect(readdirSync(empty)).not.toContain('git');
    expect(gitCalls().filter((c) => c.some((a) => NETWORK.includes(a)))).toEqual([]);
  });

  it('refuses --push and --pr before anything runs', () => {
    const head = git(clone, 'rev-parse', 'HEAD');
    for (const flags of [['--push'], ['--push', '--pr']]) {
      const r = run(['fleet', 'update', '--offline', ...flags]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        `error: ${flags.at(-1)} needs the network, and --offline reaches no remote [FLEET_USAGE]`,
      );
    }
    expect(git(clone, 'rev-parse', 'HEAD')).toBe(head);
  });
});
