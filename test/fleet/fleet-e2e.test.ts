/**
 * Issue 14: `pantograph fleet` on a fleet of real git repositories (bare remotes made here) in different
 * states: in line, drifting, a hand edit meeting a template change, a broken `.sync.yml`, an unreachable
 * remote. Status, apply with push, the re-run that adds nothing, shards that cover every repository once.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { appendSync, branches, git, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

const LINT_OFF = 'puppet_lint:\n  fail_on_warnings: false\n';

let root: string;
const remotes: Record<string, string> = {};

beforeAll(() => {
  root = tempDir('fleet-e2e-');
  remotes.inline = moduleRemote(root, 'inline');
  remotes.drifting = moduleRemote(root, 'drifting', (w) => appendSync(w, LINT_OFF));
  remotes.conflict = moduleRemote(root, 'conflict', (w) => {
    appendSync(w, LINT_OFF);
    writeFileSync(
      join(w, '.puppet-lint.rc'),
      `${readFileSync(join(w, '.puppet-lint.rc'), 'utf8')}--no-foo-check\n`,
    );
  });
  remotes.broken = moduleRemote(root, 'broken', (w) => appendSync(w, 'rubocop: [unclosed\n'));
  writeFileSync(
    join(root, 'fleet.yml'),
    [
      'version: 1',
      'defaults:',
      '  labels: [puppet]',
      'repositories:',
      '  - { name: inline, url: remotes/inline.git, labels: [web] }',
      '  - { name: drifting, url: remotes/drifting.git, labels: [web] }',
      '  - { name: conflict, url: remotes/conflict.git }',
      '  - { name: broken, url: remotes/broken.git }',
      '  - { name: gone, url: remotes/gone.git }',
      '',
    ].join('\n'),
  );
}, 120_000);

interface Report {
  ok: boolean;
  summary: Record<string, number>;
  repositories: {
    name: string;
    result: string;
    files: { path: string; state: string }[];
    commit?: string;
    committed?: boolean;
    pushed?: boolean;
    error?: { code: string; message: string; file?: string; line?: number; column?: number };
  }[];
}

function json(args: string[]): { status: number | null; report: Report; stderr: string } {
  const r = pantograph(root, ['--format', 'json', 'fleet', ...args]);
  return { status: r.status, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

const byName = (report: Report) => Object.fromEntries(report.repositories.map((r) => [r.name, r]));

describe('fleet status', () => {
  it('reports each repository: in line, drift with its files, and failures with their positions', () => {
    const { status, report } = json(['status']);
    expect(status).toBe(1);
    const r = byName(report);
    expect(r.inline?.result).toBe('in-line');
    expect(r.drifting?.result).toBe('drift');
    expect(r.drifting?.files.map((f) => f.path).sort()).toEqual(['.puppet-lint.rc', 'Rakefile']);
    expect(r.conflict?.result).toBe('drift');
    expect(r.conflict?.files).toContainEqual(
      expect.objectContaining({ path: '.puppet-lint.rc', state: 'conflict' }),
    );
    expect(r.broken?.result).toBe('failed');
    // .sync.yml has 5 lines from init, then `rubocop: [unclosed` on line 6: the sequence is unclosed at 7.
    expect(r.broken?.error).toMatchObject({ code: 'SYNC_YAML', line: 7, column: 1 });
    expect(r.broken?.error?.file).toMatch(/broken\/\.sync\.yml$/);
    expect(r.gone?.result).toBe('failed');
    expect(r.gone?.error?.code).toBe('FLEET_GIT');
    expect(report.summary).toMatchObject({ total: 5, 'in-line': 1, drift: 2, failed: 2 });
  });

  it('a second run takes unchanged repositories from the saved state, and redoes failed ones', () => {
    json(['status']);
    const { report } = json(['status']);
    const resumed = Object.fromEntries(
      report.repositories.map((r) => [r.name, (r as { resumed?: boolean }).resumed === true]),
    );
    expect(resumed).toEqual({ inline: true, drifting: true, conflict: true, broken: false, gone: false });
    expect(byName(report).drifting?.files).toHaveLength(2); // the saved record is the whole record
    const fresh = json(['status', '--fresh']).report;
    expect(fresh.repositories.some((r) => (r as { resumed?: boolean }).resumed)).toBe(false);
  });

  it('selects by label and by name glob, and an unknown label is an error with a suggestion', () => {
    const labelled = json(['status', '--label', 'web']);
    expect(labelled.report.repositories.map((r) => r.name)).toEqual(['inline', 'drifting']);
    expect(labelled.status).toBe(1); // drifting drifts
    const only = json(['status', '--filter', 'in*']);
    expect(only.report.repositories.map((r) => r.name)).toEqual(['inline']);
    expect(only.status).toBe(0);
    const typo = pantograph(root, ['fleet', 'status', '--label', 'wbe']);
    expect(typo.status).toBe(1);
    expect(typo.stderr).toContain('no repository of');
    expect(typo.stderr).toContain("did you mean 'web'?");
  });

  it('shows the diffs with --diff, as text', () => {
    const r = pantograph(root, ['fleet', 'status', '--filter', 'drifting', '--diff']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('# drifting');
    expect(r.stdout).toContain('+PuppetLint.configuration.fail_on_warnings = false');
    expect(r.stdout).toMatch(/drifting\s+drift\s+2/);
  });

  it('under --quiet, prints only the failures, with the same exit code', () => {
    const loud = pantograph(root, ['fleet', 'status', '--fresh']);
    const quiet = pantograph(root, ['-q', 'fleet', 'status', '--fresh']);
    expect(quiet.status).toBe(1);
    expect(quiet.status).toBe(loud.status);
    expect(quiet.stdout).toBe('');
    expect(loud.stderr).toContain('[1/5] ');
    expect(quiet.stderr).not.toContain('[1/5] ');
    expect(quiet.stderr).toMatch(/^broken: failed: /m);
    expect(quiet.stderr).toMatch(/^gone: failed: /m);
    expect(loud.stderr.endsWith(quiet.stderr)).toBe(true);
  });
});

describe('fleet apply', () => {
  it('commits and pushes on a branch where needed, leaves the conflict unchanged, and goes on past failures', () => {
    const before = Object.fromEntries(Object.entries(remotes).map(([k, v]) => [k, branches(v)]));
    const { status, report } = json(['apply', '--push']);
    expect(status).toBe(1);
    const r = byName(report);
    expect(r.drifting).toMatchObject({ result: 'applied', committed: true, pushed: true });
    const pushed = branches(remotes.drifting!);
    expect(pushed['pantograph/update']).toBe(r.drifting?.commit);
    expect(pushed.main).toBe(before.drifting?.main); // the base branch is never written
    const changed = git(remotes.drifting!, 'diff', '--name-only', 'main', 'pantograph/update')
      .split('\n')
      .sort();
    expect(changed).toEqual(['.pantograph.lock', '.puppet-lint.rc', 'Rakefile']);
    const message = git(remotes.drifting!, 'log', '-1', '--format=%B', 'pantograph/update');
    expect(message).toContain('Update from templates: default (pantograph');
    expect(message).toContain('- Rakefile (changed)');

    expect(r.inline).toMatchObject({ result: 'in-line', committed: false, pushed: false });
    expect(branches(remotes.inline!)).toEqual(before.inline);
    expect(r.conflict?.result).toBe('conflict');
    expect(r.conflict?.error?.message).toContain('.puppet-lint.rc');
    expect(branches(remotes.conflict!)).toEqual(before.conflict);
    // The clone is left as it was: the hand edit is still there and nothing else was written.
    const clone = join(root, '.pantograph-fleet', 'conflict');
    expect(git(clone, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(clone, '.puppet-lint.rc'), 'utf8')).toContain('--no-foo-check');
    expect(r.broken?.result).toBe('failed');
    expect(r.gone?.result).toBe('failed');
  });

  it('adds no commit when run again, with or without the saved state', () => {
    const before = branches(remotes.drifting!);
    for (const extra of [[], ['--fresh']]) {
      const { report } = json(['apply', '--push', '--filter', 'drifting', ...extra]);
      expect(report.repositories[0]).toMatchObject({ result: 'in-line', committed: false, pushed: false });
      expect(branches(remotes.drifting!)).toEqual(before);
    }
  });

  it('--noop plans on the work branch apply continues, so it says what apply then does', () => {
    // The previous test pushed the drifting repository's work branch; its base still drifts.
    for (const extra of [[], ['--fresh']]) {
      const noop = json(['apply', '--noop', '--filter', 'drifting', ...extra]);
      expect(noop.report.repositories[0]).toMatchObject({ result: 'in-line', files: [] });
    }
    const real = json(['apply', '--filter', 'drifting', '--fresh']);
    expect(real.report.repositories[0]).toMatchObject({ result: 'in-line', files: [], committed: false });
    // Status still reports the base, which the pull request has not changed yet.
    expect(json(['status', '--filter', 'drifting']).report.repositories[0]?.result).toBe('drift');
  });

  it('--noop writes nothing anywhere', () => {
    const fresh = moduleRemote(root, 'noop', (w) => appendSync(w, LINT_OFF));
    const file = join(root, 'noop-fleet.yml');
    writeFileSync(file, 'version: 1\nrepositories:\n  - { name: noop, url: remotes/noop.git }\n');
    const before = branches(fresh);
    const r = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--fleet', file, '--noop', '--push']);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.repositories[0]?.result).toBe('drift');
    expect(branches(fresh)).toEqual(before);
    const clone = join(root, '.pantograph-fleet', 'noop');
    expect(git(clone, 'branch', '--list', 'pantograph/update')).toBe('');
  });
});

describe('shards', () => {
  it('cover every repository exactly once, and their reports merge into one', () => {
    const matrix = pantograph(root, ['fleet', 'plan-matrix', '--shards', '3']);
    expect(JSON.parse(matrix.stdout)).toEqual({
      include: [{ shard: '1/3' }, { shard: '2/3' }, { shard: '3/3' }],
    });
    const files: string[] = [];
    const seen: string[] = [];
    for (const { shard } of (JSON.parse(matrix.stdout) as { include: { shard: string }[] }).include) {
      const r = pantograph(root, ['--format', 'json', 'fleet', 'status', '--shard', shard]);
      const report = JSON.parse(r.stdout) as Report;
      seen.push(...report.repositories.map((x) => x.name));
      const file = join(root, `shard-${shard.replace('/', '-')}.json`);
      writeFileSync(file, r.stdout);
      files.push(file);
    }
    expect(seen.sort()).toEqual(['broken', 'conflict', 'drifting', 'gone', 'inline']);
    const merged = pantograph(root, ['--format', 'json', 'fleet', 'report', ...files]);
    expect(merged.status).toBe(1);
    const report = JSON.parse(merged.stdout) as Report & { shards: string[] };
    expect(report.repositories.map((x) => x.name)).toEqual([
      'broken',
      'conflict',
      'drifting',
      'gone',
      'inline',
    ]);
    expect(report.shards).toEqual(['1/3', '2/3', '3/3']);
    const twice = pantograph(root, ['fleet', 'report', files[0]!, files[0]!]);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toContain(`${files[0]} is given twice`);
  });

  it('shards split from different selections (a fleet file changed between the jobs) are refused, naming them', () => {
    const before = join(root, 'fleet-before.yml');
    writeFileSync(
      before,
      readFileSync(join(root, 'fleet.yml'), 'utf8')
        .split('\n')
        .filter((l) => !l.includes('name: gone'))
        .join('\n'),
    );
    const one = join(root, 'sel-1.json');
    writeFileSync(
      one,
      pantograph(root, ['--format', 'json', 'fleet', 'status', '--fleet', before, '--shard', '1/2']).stdout,
    );
    const two = join(root, 'sel-2.json');
    writeFileSync(two, pantograph(root, ['--format', 'json', 'fleet', 'status', '--shard', '2/2']).stdout);
    for (const extra of [[], ['--allow-missing']]) {
      const r = pantograph(root, ['fleet', 'report', ...extra, one, two]);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('the shard reports were split from different selections of repositories');
      expect(r.stderr).toContain(`${one} (1/2) from a selection of 4 repositories of ${before}`);
      expect(r.stderr).toContain(
        `${two} (2/2) from a selection of 5 repositories of ${join(root, 'fleet.yml')}`,
      );
    }
    // Another selection (--label) on one job: the same.
    const filtered = join(root, 'sel-f.json');
    writeFileSync(
      filtered,
      pantograph(root, ['--format', 'json', 'fleet', 'status', '--label', 'web', '--shard', '1/2']).stdout,
    );
    const json = pantograph(root, ['--format', 'json', 'fleet', 'report', filtered, two]);
    expect(JSON.parse(json.stdout).problems[0]).toMatchObject({ code: 'FLEET_REPORT' });

    // A report cut short (a repository taken out by hand): the selection says one is in no report.
    const whole = join(root, 'sel-1b.json');
    const report = JSON.parse(
      pantograph(root, ['--format', 'json', 'fleet', 'status', '--shard', '1/2']).stdout,
    ) as Report;
    writeFileSync(whole, JSON.stringify({ ...report, repositories: report.repositories.slice(1) }));
    const cut = pantograph(root, ['fleet', 'report', whole, two]);
    expect(cut.status).toBe(1);
    expect(cut.stderr).toContain('1 of the 5 repositories the shards were split from is in no shard report');
  });

  it('plan-matrix never plans a shard without a repository, and says so', () => {
    const matrix = pantograph(root, ['fleet', 'plan-matrix', '--shards', '8']);
    expect(matrix.status).toBe(0);
    expect(JSON.parse(matrix.stdout).include.map((e: { shard: string }) => e.shard)).toEqual([
      '1/5',
      '2/5',
      '3/5',
      '4/5',
      '5/5',
    ]);
    expect(matrix.stderr).toContain('note: 5 shards, not 8: 5 repositories selected');
    const perShard = pantograph(root, ['fleet', 'plan-matrix', '--per-shard', '2', '--label', 'web']);
    expect(JSON.parse(perShard.stdout)).toEqual({ include: [{ shard: '1/1' }] });
    expect(perShard.stderr).toBe('');
    const none = pantograph(root, ['--format', 'json', 'fleet', 'plan-matrix', '--filter', 'nothing*']);
    expect(none.status).toBe(1);
    expect(JSON.parse(none.stdout).problems[0]).toMatchObject({ code: 'FLEET_SELECT' });
  });

  it('plan-matrix refuses --shards with --per-shard, printing no matrix', () => {
    const both = pantograph(root, ['fleet', 'plan-matrix', '--shards', '2', '--per-shard', '1']);
    expect(both.status).toBe(1);
    expect(both.stdout).toBe('');
    expect(both.stderr).toBe(
      'error: --shards and --per-shard both size the shards: give one of them\n' +
        '  hint: --shards N for N shards, --per-shard N for N repositories in each\n',
    );
  });

  it('an empty shard (the fleet shrank since the matrix) reports nothing, exit 0, and merges', () => {
    const empty = pantograph(root, ['--format', 'json', 'fleet', 'status', '--shard', '6/6']);
    expect(empty.status).toBe(0);
    const report = JSON.parse(empty.stdout) as Report & { shards: string[] };
    expect(report).toMatchObject({ ok: true, shards: ['6/6'], repositories: [] });
    expect(report.summary.total).toBe(0);
    const text = pantograph(root, ['fleet', 'apply', '--noop', '--shard', '6/6']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('shard 6/6 has no repository: 5 selected, fewer than its 6 shards');
    const files = ['1/6', '2/6', '3/6', '4/6', '5/6', '6/6'].map((shard) => {
      const r = pantograph(root, ['--format', 'json', 'fleet', 'status', '--shard', shard]);
      const file = join(root, `six-${shard.replace('/', '-')}.json`);
      writeFileSync(file, r.stdout);
      return file;
    });
    const merged = pantograph(root, ['--format', 'json', 'fleet', 'report', ...files]);
    const all = JSON.parse(merged.stdout) as Report & { shards: string[] };
    expect(all.shards).toEqual(['1/6', '2/6', '3/6', '4/6', '5/6', '6/6']);
    expect(all.summary.total).toBe(5);
    const copy = join(root, 'six-6-6-again.json');
    writeFileSync(copy, readFileSync(files[5]!, 'utf8'));
    const twice = pantograph(root, ['fleet', 'report', ...files, copy]);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toContain('shard 6/6 is in');
  });

  it('a missing shard (a job that died before uploading) is an error naming it, unless --allow-missing', () => {
    const half = join(root, 'half-1.json');
    writeFileSync(half, pantograph(root, ['--format', 'json', 'fleet', 'status', '--shard', '1/2']).stdout);
    const missing = pantograph(root, ['fleet', 'report', half]);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('shard 2/2 is missing');
    expect(missing.stderr).toContain('--allow-missing');
    const json = pantograph(root, ['--format', 'json', 'fleet', 'report', half]);
    expect(JSON.parse(json.stdout).problems[0]).toMatchObject({ code: 'FLEET_REPORT' });

    const allowed = pantograph(root, ['--format', 'json', 'fleet', 'report', '--allow-missing', half]);
    const report = JSON.parse(allowed.stdout) as Report & { shards: string[]; missingShards: string[] };
    expect(report.shards).toEqual(['1/2']);
    expect(report.missingShards).toEqual(['2/2']);
    expect(report.repositories.length).toBe(3); // broken, drifting, inline: every other one by name
    const text = pantograph(root, ['fleet', 'report', '--allow-missing', half]);
    expect(text.stderr).toContain('warning: not in this report: the repositories of shard 2/2');

    const third = join(root, 'third-2.json');
    writeFileSync(third, pantograph(root, ['--format', 'json', 'fleet', 'status', '--shard', '2/3']).stdout);
    const mixed = pantograph(root, ['fleet', 'report', half, third]);
    expect(mixed.status).toBe(1);
    expect(mixed.stderr).toContain('is shard 2/3 and');
    expect(mixed.stderr).toContain('shard 1/2: the shards of one run are all of the same total');

    // Shards of two kinds of run: named by their commands.
    const noop = join(root, 'noop-2.json');
    writeFileSync(
      noop,
      pantograph(root, ['--format', 'json', 'fleet', 'apply', '--noop', '--shard', '2/2']).stdout,
    );
    const kinds = pantograph(root, ['fleet', 'report', half, noop]);
    expect(kinds.status).toBe(1);
    expect(kinds.stderr).toContain(
      `${noop} is the report of \`fleet apply --noop\`, ${half} of \`fleet status\``,
    );
  });

  it('under --format json, every error is JSON on standard output', () => {
    const cases: [string[], string][] = [
      [['status', '--filter', 'nothing*'], 'FLEET_SELECT'],
      [['status', '--jobs', '0'], 'FLEET_USAGE'],
      [['status', '--shard', '4/3'], 'FLEET_SHARD'],
      [['plan-matrix', '--shard', '1/2'], 'FLEET_USAGE'],
      [['plan-matrix', '--shards', 'many'], 'FLEET_USAGE'],
      [['plan-matrix', '--shards', '2', '--per-shard', '1'], 'FLEET_USAGE'],
      [['apply', '--pr', '--push'], 'FLEET_FORGE'],
      [['report', join(root, 'fleet.yml')], 'FLEET_REPORT'],
    ];
    for (const [args, code] of cases) {
      const r = pantograph(root, ['--format', 'json', 'fleet', ...args]);
      expect(r.status, args.join(' ')).toBe(1);
      expect(JSON.parse(r.stdout).problems[0], args.join(' ')).toMatchObject({ severity: 'error', code });
    }
  });

  it('refuses a shard that does not exist', () => {
    const r = pantograph(root, ['fleet', 'status', '--shard', '4/3']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--shard must be i/n');
    expect(existsSync(join(root, 'nothing'))).toBe(false);
  });
});
