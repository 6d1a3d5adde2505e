/**
 * `pantograph fleet update`: a template source followed by branch (`ref: main`) gets a new commit; status
 * and apply keep each repository at the commit its lock records (`--fresh` included), and `fleet update`
 * moves every repository to the new commit as `pantograph update` would there, committed and pushed on
 * the work branch as by apply. Real git repositories throughout.
 */
import { writeFileSync } from 'node:fs';
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
  commit?: string;
  committed?: boolean;
  pushed?: boolean;
}

interface Report {
  mode: string;
  ok: boolean;
  repositories: Record[];
}

let root: string;
let templates: TempRemote;
const remotes: { [name: string]: string } = {};
let first: string;

const hello = (text: string) => ({
  'hello/template.json': JSON.stringify({ name: 'hello', version: '1.0.0', always_apply: true }),
  'hello/files/HELLO.txt.epp': `${text}\n`,
});

function fleet(args: string[]): { status: number | null; report: Report; stderr: string } {
  const r = pantograph(root, ['--format', 'json', 'fleet', ...args]);
  return { status: r.status, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

/** The work branch merged into the base, as when its pull request is merged. */
function merge(bare: string): void {
  git(bare, 'update-ref', 'refs/heads/main', 'refs/heads/pantograph/update');
}

beforeAll(() => {
  templates = tempRemote();
  first = templates.commit(hello('one'));
  root = tempDir('fleet-update-');
  remotes.a = moduleRemote(root, 'a');
  remotes.b = moduleRemote(root, 'b');
  writeFileSync(
    join(root, 'fleet.yml'),
    [
      'version: 1',
      'template_sources:',
      `  - { type: git, location: "${templates.url}", ref: main }`,
      '  - default',
      'repositories: [{ name: a, url: remotes/a.git }, { name: b, url: remotes/b.git }]',
      '',
    ].join('\n'),
  );
  const applied = pantograph(root, ['fleet', 'apply', '--push']);
  if (applied.status !== 0) throw new Error(`fleet apply failed: ${applied.stdout}${applied.stderr}`);
  for (const bare of Object.values(remotes)) merge(bare);
}, 120_000);

describe('fleet update', () => {
  it("status and apply keep the locked commit, even --fresh; update moves to the ref's new commit", () => {
    const second = templates.commit(hello('two'));
    const before = Object.fromEntries(Object.entries(remotes).map(([k, v]) => [k, branches(v)]));

    const status = fleet(['status', '--fresh']);
    expect(status.status).toBe(0);
    expect(status.report.repositories.map((r) => r.result)).toEqual(['in-line', 'in-line']);
    const apply = fleet(['apply', '--fresh', '--push']);
    expect(apply.report.repositories.map((r) => r.result)).toEqual(['in-line', 'in-line']);

    // --noop: what would move and change, nothing written anywhere.
    const noop = fleet(['update', '--noop', '--push']);
    expect(noop.status).toBe(0);
    expect(noop.report.mode).toBe('update');
    for (const r of noop.report.repositories) {
      expect(r.result).toBe('drift');
      expect(r.files).toEqual([{ path: 'HELLO.txt', state: 'changed', template: 'hello' }]);
      expect(r.sources).toEqual([{ location: templates.url, ref: 'main', from: first, to: second }]);
    }
    for (const [name, bare] of Object.entries(remotes)) expect(branches(bare)).toEqual(before[name]);

    const update = fleet(['update', '--push']);
    expect(update.status).toBe(0);
    for (const r of update.report.repositories) {
      expect(r).toMatchObject({ result: 'applied', committed: true, pushed: true });
      const bare = remotes[r.name]!;
      expect(branches(bare).main).toBe(before[r.name]?.main); // the base branch is never written
      expect(git(bare, 'show', 'pantograph/update:HELLO.txt')).toBe('two');
      const lock = JSON.parse(git(bare, 'show', 'pantograph/update:.pantograph.lock'));
      expect(lock.sources).toContainEqual({
        type: 'git',
        location: templates.url,
        ref: 'main',
        commit: second,
      });
      const message = git(bare, 'log', '-1', '--format=%B', 'pantograph/update');
      expect(message).toContain('Applied by `pantograph fleet update`');
      expect(message).toContain(`${templates.url}#main: ${first.slice(0, 12)} -> ${second.slice(0, 12)}`);
    }

    // Again: nothing moves, no commit.
    const after = Object.fromEntries(Object.entries(remotes).map(([k, v]) => [k, branches(v)]));
    const again = fleet(['update', '--push']);
    expect(again.status).toBe(0);
    for (const r of again.report.repositories) {
      expect(r).toMatchObject({ result: 'in-line', committed: false, pushed: false });
      expect(r.sources?.[0]).toMatchObject({ from: second, to: second });
    }
    for (const [name, bare] of Object.entries(remotes)) expect(branches(bare)).toEqual(after[name]);
  });

  it('a new commit that changes no file still moves the lock, committed on its own', () => {
    for (const bare of Object.values(remotes)) merge(bare);
    const was = git(remotes.a!, 'rev-parse', 'main');
    const third = templates.commit({ 'README.md': 'about these templates\n' });
    const text = pantograph(root, ['fleet', 'update', '--push', '--filter', 'a']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`source ${templates.url}#main: `);
    expect(text.stdout).toContain(`-> ${third.slice(0, 12)} (1 repository)`);
    expect(text.stdout).toMatch(/a\s+applied\s+0/);
    expect(git(remotes.a!, 'diff', '--name-only', was, 'pantograph/update')).toBe('.pantograph.lock');
    expect(git(remotes.a!, 'show', 'pantograph/update:.pantograph.lock')).toContain(third);
  });

  it('its JSON reports merge with `fleet report`, shard by shard', () => {
    const files = ['1/2', '2/2'].map((shard) => {
      const r = pantograph(root, ['--format', 'json', 'fleet', 'update', '--noop', '--shard', shard]);
      expect(r.status).toBe(0);
      const file = join(root, `update-${shard.replace('/', '-')}.json`);
      writeFileSync(file, r.stdout);
      return file;
    });
    const merged = pantograph(root, ['--format', 'json', 'fleet', 'report', ...files]);
    expect(merged.status).toBe(0);
    const report = JSON.parse(merged.stdout) as Report & { shards: string[] };
    expect(report.mode).toBe('update');
    expect(report.shards).toEqual(['1/2', '2/2']);
    expect(report.repositories.map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('--noop plans on the work branch a previous update pushed, so it says what update then does', () => {
    // `a`'s work branch was pushed by the update above and not merged: its lock is ahead of the base's.
    const onWorkBranch = JSON.parse(git(remotes.a!, 'show', 'pantograph/update:.pantograph.lock'));
    const fourth = templates.commit(hello('four'));
    const noop = fleet(['update', '--noop']);
    const update = fleet(['update', '--push']);
    expect(update.status).toBe(0);
    const outcome = (r: Record) => ({ name: r.name, files: r.files, sources: r.sources });
    expect(noop.report.repositories.map(outcome)).toEqual(update.report.repositories.map(outcome));
    expect(noop.report.repositories[0]?.sources).toEqual([
      { location: templates.url, ref: 'main', from: onWorkBranch.sources[0].commit, to: fourth },
    ]);
    expect(noop.report.repositories.map((r) => r.result)).toEqual(['drift', 'drift']);
    expect(update.report.repositories.map((r) => r.result)).toEqual(['applied', 'applied']);
  });
});
