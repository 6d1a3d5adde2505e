/**
 * Issue 14: what a fleet file says, and says wrong. Bad fleet files are errors at file:line:col before any
 * repository is touched; a fleet-wide template source moves every repository to a new template release
 * in one run; `path:` repositories are used in place; a modulesync configuration becomes a fleet file.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFleet, matrixOf, selectRepositories, shardOf } from '../../src/fleet/index.js';
import { remoteKey } from '../../src/fleet/repository-identity.js';
import { removeTempDirs, tempDir, tempTree } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';
import { appendSync, branches, git, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

function fleetIn(root: string, text: string): string {
  writeFileSync(join(root, 'fleet.yml'), text);
  return root;
}

/** fleet.yml in `root`: `version: 1`, then `lines`, one a line; returns `root`. */
function fleetOf(root: string, ...lines: string[]): string {
  return fleetIn(root, ['version: 1', ...lines, ''].join('\n'));
}

describe('bad fleet files', () => {
  it('a YAML syntax error is reported at its line and column', () => {
    const root = fleetIn(tempDir(), 'version: 1\nrepositories:\n  - name: a\n    url: [x\n');
    const r = pantograph(root, ['fleet', 'status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/fleet\.yml:5:1: error: .*\[FLEET_YAML\]/);
  });

  it('a missing key is said in words, the file naming itself at its root; nothing is written', () => {
    const root = fleetIn(tempDir(), 'repositories:\n  - {name: a}\n');
    const r = pantograph(root, ['fleet', 'status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "fleet.yml:1:1: error: fleet.yml has no 'version', which is required [FLEET_INVALID]",
    );
    expect(r.stderr).not.toContain('must have required property');
    expect(readdirSync(root)).toEqual(['fleet.yml']);
  });

  it('an unknown key is reported where it is, with the key meant', () => {
    const root = fleetIn(tempDir(), 'version: 1\nrepositorys: []\n');
    const r = pantograph(root, ['fleet', 'status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('fleet.yml:2:1: error:');
    expect(r.stderr).toContain("did you mean 'repositories'?");
  });

  it('a file:// URL naming a host, or no path, is an error at its place, before anything is cloned', () => {
    const root = fleetIn(
      tempDir(),
      'version: 1\nrepositories:\n  - name: a\n    url: file://host/srv/git/a.git\n  - name: b\n    url: "file:///srv/%2Fb"\n',
    );
    for (const command of [
      ['fleet', 'status'],
      ['fleet', 'plan-matrix'],
    ]) {
      const r = pantograph(root, command);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        "fleet.yml:4:10: error: 'file://host/srv/git/a.git' names the host 'host': a file:// URL is a directory on this machine [FLEET_INVALID]",
      );
      expect(r.stderr).toContain('hint: write file:///path/to/repo.git (three slashes) or the path itself');
      expect(r.stderr).toContain(
        "fleet.yml:6:10: error: 'file:///srv/%2Fb' is not a file:// URL of a directory",
      );
      expect(r.stderr).not.toContain('ERR_INVALID_FILE_URL');
    }
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);
  });

  it('a repository name that would escape the workdir is refused, and nothing is cloned', () => {
    const root = fleetIn(
      tempDir(),
      'version: 1\nrepositories:\n  - name: ../../escape\n    url: /nowhere.git\n',
    );
    const r = pantograph(root, ['fleet', 'apply', '--push']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'fleet.yml:3:11: error: /repositories/0/name must be a plain name (letters, digits, . _ -, starting with a letter or digit)',
    );
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);
  });

  it('a branch name git would refuse is an error once, at its place or as a flag, before anything is cloned', () => {
    const root = tempDir();
    moduleRemote(root, 'm');
    fleetIn(
      root,
      'version: 1\ndefaults:\n  branch: "x.lock"\nrepositories:\n  - { name: m, url: remotes/m.git, branch: "a..b" }\n  - { name: n, url: remotes/m.git, base: "rel/", branch: other }\n',
    );
    const r = pantograph(root, ['fleet', 'apply', '--push']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "fleet.yml:3:11: error: 'x.lock' is not a valid branch name for git: it has a part ending with '.lock' ('x.lock') [FLEET_INVALID]",
    );
    expect(r.stderr).toContain(
      "fleet.yml:5:44: error: 'a..b' is not a valid branch name for git: it holds '..'",
    );
    expect(r.stderr).toContain(
      "fleet.yml:6:42: error: 'rel/' is not a valid branch name for git: it starts or ends with '/'",
    );
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);

    fleetIn(root, 'version: 1\nrepositories:\n  - { name: m, url: remotes/m.git }\n');
    for (const bad of ['bad..name', '-x', 'feature/', 'a b', '.hidden']) {
      const flag = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--push', `--branch=${bad}`]);
      expect(flag.status, bad).toBe(1);
      expect(JSON.parse(flag.stdout).problems[0], bad).toMatchObject({
        code: 'FLEET_USAGE',
        message: expect.stringContaining(`--branch '${bad}' is not a valid branch name for git`),
      });
      expect(existsSync(join(root, '.pantograph-fleet', 'm')), bad).toBe(false);
    }
    const good = pantograph(root, ['fleet', 'apply', '--noop', '--branch', 'feature/x-1.2']);
    expect(good.status, good.stderr).toBe(0);
  });

  it('a repository listed twice, a repository with neither url nor path or with both, an unknown group', () => {
    const twice = pantograph(
      fleetIn(tempDir(), 'version: 1\nrepositories:\n  - { name: a, path: x }\n  - { name: a, path: y }\n'),
      ['fleet', 'status'],
    );
    expect(twice.stderr).toContain("fleet.yml:4:13: error: repository 'a' is listed twice");
    const neither = pantograph(fleetIn(tempDir(), 'version: 1\nrepositories:\n  - { name: a }\n'), [
      'fleet',
      'status',
    ]);
    expect(neither.status).toBe(1);
    expect(neither.stderr).toContain(
      'fleet.yml:3:5: error: /repositories/0 needs `url:` (a git remote) or `path:` (a directory) [FLEET_INVALID]',
    );
    expect(neither.stderr.match(/error:/g)).toHaveLength(1);
    const both = pantograph(
      fleetIn(tempDir(), 'version: 1\nrepositories:\n  - { name: a, url: r.git, path: x }\n'),
      ['fleet', 'status'],
    );
    expect(both.status).toBe(1);
    expect(both.stderr).toContain(
      'fleet.yml:3:5: error: /repositories/0 has both `url:` and `path:`: keep one, `url:` for a git remote',
    );
    expect(both.stderr.match(/error:/g)).toHaveLength(1);
    const group = pantograph(
      fleetIn(tempDir(), 'version: 1\ngroups: { web: [a] }\nrepositories:\n  - { name: a, path: x }\n'),
      ['fleet', 'status', '--group', 'wbe'],
    );
    expect(group.stderr).toContain("has no group 'wbe'");
    expect(group.stderr).toContain("did you mean 'web'?");
  });

  it('one directory or one remote under two names is FLEET_DUPLICATE at the second, naming the first', () => {
    const base = tempDir();
    mkdirSync(join(base, 'local'));
    mkdirSync(join(base, 'run'));
    symlinkSync(join(base, 'local'), join(base, 'link'));
    const root = fleetOf(
      join(base, 'run'),
      'repositories:',
      `  - { name: one, path: ${base}/local }`,
      `  - { name: two, path: ${base}/local/ }`,
      '  - { name: three, path: ../local }',
      '  - { name: four, path: ../link }',
      '  - { name: a, url: "https://bot:s3cret@GitHub.com/acme/x.git" }',
      '  - { name: b, url: "https://github.com/acme/x/" }',
      '  - { name: c, url: "git@github.com:acme/x" }',
      '  - { name: d, url: "ssh://git@github.com:22/acme/x.git", base: v1, branch: pantograph/v1 }',
      '  - { name: e, url: "https://github.com/acme/x.git", base: v1, branch: other }',
    );
    const r = pantograph(root, ['--format', 'json', 'fleet', 'status']);
    expect(r.status).toBe(1);
    const problems = JSON.parse(r.stdout).problems as {
      code: string;
      message: string;
      line: number;
      column: number;
    }[];
    expect(problems.map((p) => [p.code, p.line, p.column])).toEqual([
      ['FLEET_DUPLICATE', 4, 24],
      ['FLEET_DUPLICATE', 5, 26],
      ['FLEET_DUPLICATE', 6, 25],
      ['FLEET_DUPLICATE', 8, 21],
      ['FLEET_DUPLICATE', 9, 21],
      ['FLEET_DUPLICATE', 11, 21],
    ]);
    expect(problems[0]?.message).toBe(
      `repository 'two' is the same directory as 'one' (entry 1, line 3): ${realpathSync(join(base, 'local'))}`,
    );
    expect(problems[2]?.message).toContain("repository 'four' is the same directory as 'one'");
    expect(problems[3]?.message).toBe(
      "repository 'b' has the same remote as 'a' (entry 5, line 7): github.com/acme/x, branch 'pantograph/update'",
    );
    expect(problems[4]?.message).toContain("repository 'c' has the same remote as 'a'");
    // d keeps another base branch in line on its own branch: allowed; e shares d's base.
    expect(problems[5]?.message).toBe(
      "repository 'e' has the same remote as 'd' (entry 8, line 10): github.com/acme/x, base branch 'v1'",
    );
    expect(r.stdout).not.toContain('s3cret');
    const text = pantograph(root, ['fleet', 'status']);
    expect(text.stderr).toContain("fleet.yml:4:24: error: repository 'two' is the same directory as 'one'");
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);
  });

  it('--branch for every entry: one remote kept on two base branches would push to one branch', () => {
    const root = fleetOf(
      tempDir(),
      'repositories:',
      '  - { name: x, url: "https://git.example.com/acme/x.git" }',
      '  - { name: x-v1, url: "https://git.example.com/acme/x", base: v1, branch: pantograph/v1 }',
    );
    const r = pantograph(root, ['fleet', 'apply', '--push', '--branch', 'templates']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "fleet.yml:4:5: error: repository 'x-v1' has the same remote as 'x' (entry 1, line 3): git.example.com/acme/x, branch 'templates'",
    );
    expect(r.stderr).toContain('leave --branch out');
    // Also when the two fall into different shards: each job checks the whole selection.
    const sharded = pantograph(root, ['fleet', 'apply', '--push', '--branch', 'templates', '--shard', '1/2']);
    expect(sharded.status).toBe(1);
    expect(sharded.stderr).toContain("repository 'x-v1' has the same remote as 'x'");
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);
  });

  it('no fleet file: says how to make one', () => {
    const r = pantograph(tempDir(), ['fleet', 'status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no fleet file');
    expect(r.stderr).toContain('hint:');
  });
});

describe('selection and shards (library)', () => {
  it('shards split deterministically, balanced, and cover the selection exactly once', () => {
    const names = Array.from({ length: 23 }, (_, i) => ({ name: `repo-${String(i).padStart(2, '0')}` }));
    const shuffled = [...names].reverse();
    const all: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const part = shardOf(names, { index: i, count: 4 }).map((r) => r.name);
      expect(shardOf(shuffled, { index: i, count: 4 }).map((r) => r.name)).toEqual(part); // order-proof
      expect(part.length === 5 || part.length === 6).toBe(true);
      all.push(...part);
    }
    expect(all.sort()).toEqual(names.map((n) => n.name));
  });

  it('plan-matrix says when the 256-shard cap makes shards larger than --per-shard', () => {
    const root = fleetIn(
      tempDir(),
      `version: 1\nrepositories:\n${Array.from({ length: 300 }, (_, i) => `  - { name: r${i}, url: https://example.com/r${i}.git }\n`).join('')}`,
    );
    const r = pantograph(root, ['fleet', 'plan-matrix', '--per-shard', '1']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).include).toHaveLength(256);
    expect(r.stderr).toBe(
      'note: 256 shards of up to 2 repositories, not 1 a shard: 256 is the most a CI matrix takes\n',
    );
  });

  it('the matrix has at most one shard per repository, and none for no repository', () => {
    const shards = (selected: number, split: Parameters<typeof matrixOf>[1]) =>
      matrixOf(selected, split).include.map((e) => e.shard);
    expect(shards(3, { shards: 4 })).toEqual(['1/3', '2/3', '3/3']);
    expect(shards(10, { shards: 4 })).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(shards(45, { perShard: 20 })).toEqual(['1/3', '2/3', '3/3']);
    expect(shards(2, { perShard: 20 })).toEqual(['1/1']);
    expect(shards(0, { perShard: 20 })).toEqual([]);
    expect(shards(1000, { shards: 500 })).toHaveLength(256);
  });

  it('remotes are one repository whatever the spelling: credentials, host case, .git, slash, scheme, a forge’s name case', () => {
    const same = [
      'https://github.com/acme/x',
      'https://bot:token@GitHub.com/acme/x.git',
      'https://github.com/acme/x/',
      'git@github.com:acme/x.git',
      'ssh://git@github.com:22/acme/x',
      // GitHub takes names in any case; a doubled slash or `.GIT` is the same path.
      'https://github.com/Acme/X.git',
      'https://github.com/acme//x.GIT',
    ];
    expect(new Set(same.map(remoteKey))).toEqual(new Set(['github.com/acme/x']));
    expect(remoteKey('https://github.com/acme/y')).not.toBe(remoteKey(same[0]!));
    expect(remoteKey('https://gitlab.com/acme/x')).not.toBe(remoteKey(same[0]!));
    // Another server may tell names apart by case.
    expect(remoteKey('https://git.example.com/Acme/x')).not.toBe(remoteKey('https://git.example.com/acme/x'));
    const dir = tempDir();
    expect(remoteKey(`${dir}/r.git/`)).toBe(remoteKey(pathToFileURL(`${dir}/r.git`).href));
  });

  it('labels narrow (every label given), groups and name globs widen', () => {
    const root = fleetOf(
      tempDir(),
      'defaults: { labels: [puppet] }',
      'groups: { core: [ntp, "db-*"] }',
      'repositories:',
      '  - { name: ntp, path: ntp, labels: [base] }',
      '  - { name: db-a, path: a, labels: [base, data] }',
      '  - { name: web, path: w }',
    );
    const fleet = loadFleet(join(root, 'fleet.yml'));
    const names = (s: Parameters<typeof selectRepositories>[1]) =>
      selectRepositories(fleet, s).map((r) => r.name);
    expect(names({ labels: ['puppet', 'base'] })).toEqual(['ntp', 'db-a']);
    expect(names({ labels: ['base', 'data'] })).toEqual(['db-a']);
    expect(names({ groups: ['core'] })).toEqual(['ntp', 'db-a']);
    expect(names({ filters: ['w*', 'ntp'] })).toEqual(['ntp', 'web']);
  });
});

describe('a fleet-wide template source', () => {
  it('moves every repository to a new template release in one run, .sync.yml included', () => {
    const templates = tempRemote();
    const hello = (text: string) => ({
      'hello/template.json': JSON.stringify({
        name: 'hello',
        version: text === 'one' ? '1.0.0' : '2.0.0',
        always_apply: true,
      }),
      'hello/files/HELLO.txt.epp': `${text}\n`,
    });
    templates.tag('v1', templates.commit(hello('one')));
    templates.tag('v2', templates.commit(hello('two')));
    const root = tempDir('fleet-release-');
    const a = moduleRemote(root, 'a');
    const b = moduleRemote(root, 'b');
    const fleet = (ref: string) =>
      fleetOf(
        root,
        'template_sources:',
        `  - { type: git, location: "${templates.url}", ref: ${ref}, trusted: true }`,
        '  - default',
        'repositories: [{ name: a, url: remotes/a.git }, { name: b, url: remotes/b.git }]',
      );
    fleet('v1');
    expect(pantograph(root, ['fleet', 'apply', '--push']).status).toBe(0);
    fleet('v2');
    const status = pantograph(root, ['--format', 'json', 'fleet', 'status']);
    // status looks at the base branch, where neither release is merged yet
    expect(JSON.parse(status.stdout).summary.drift).toBe(2);
    const r = pantograph(root, ['fleet', 'apply', '--push']);
    expect(r.status).toBe(0);
    for (const bare of [a, b]) {
      expect(git(bare, 'show', 'pantograph/update:HELLO.txt')).toBe('two');
      expect(git(bare, 'show', 'pantograph/update:.sync.yml')).toContain('ref: v2');
      expect(git(bare, 'rev-list', '--count', 'main..pantograph/update')).toBe('2');
      expect(git(bare, 'log', '-1', '--format=%s', 'pantograph/update')).toContain(`${templates.url}@v2`);
    }
    // The .sync.yml keeps its comments: only the sources changed.
    const sync = git(a, 'show', 'pantograph/update:.sync.yml');
    expect(sync).toContain('# Pantograph keeps this module in line with its templates');
  });
});

describe('a problem with what the fleet file sets', () => {
  it('in a template source: at its place in fleet.yml, whose name the hint gives, and nothing is written', () => {
    const templates = tempRemote();
    templates.commit({
      't/template.json': JSON.stringify({ name: 't', version: '1.0.0', always_apply: true }),
      't/files/T.txt.epp': 't\n',
    });
    const root = tempDir('fleet-source-position-');
    const remotes = { applied: moduleRemote(root, 'applied'), fresh: moduleRemote(root, 'fresh') };
    const fleet = (names: string[]) =>
      fleetOf(
        root,
        'template_sources:',
        '  - default',
        `  - { type: git, location: "${templates.url}", ref: main }`,
        `repositories: [${names.map((n) => `{ name: ${n}, url: remotes/${n}.git }`).join(', ')}]`,
      );
    // `applied` gets the source into its .sync.yml (merged), before the templates gain a JavaScript hook.
    fleet(['applied']);
    expect(pantograph(root, ['fleet', 'apply', '--push']).status).toBe(0);
    git(remotes.applied, 'update-ref', 'refs/heads/main', 'refs/heads/pantograph/update');
    templates.commit({ 't/hooks/after_default_settings.mjs': 'export default (settings) => settings;\n' });
    fleet(['applied', 'fresh']);
    const before = { applied: branches(remotes.applied), fresh: branches(remotes.fresh) };

    // In .sync.yml already (`applied`) or written there by this run (`fresh`): the source is fleet.yml's.
    const r = pantograph(root, ['--format', 'json', 'fleet', 'update', '--push']);
    expect(r.status).toBe(1);
    const records = JSON.parse(r.stdout).repositories as {
      name: string;
      result: string;
      error: { code: string; file: string; line: number; column: number; hint: string };
    }[];
    for (const record of records) {
      expect(record.result).toBe('failed');
      expect(record.error).toMatchObject({
        code: 'HOOK_UNTRUSTED',
        file: join(root, 'fleet.yml'),
        line: 4,
        column: 5,
      });
      expect(record.error.hint).toBe(
        'if you trust this source, set `trusted: true` on it in fleet.yml or run with --trust',
      );
    }
    expect(records.map((x) => x.name)).toEqual(['applied', 'fresh']);
    expect({ applied: branches(remotes.applied), fresh: branches(remotes.fresh) }).toEqual(before);

    const text = pantograph(root, ['fleet', 'status', '--filter', 'fresh']);
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(/fresh\s+failed/);
    expect(text.stderr).toContain(`is not trusted (${join(root, 'fleet.yml')}:4:5)`);
    expect(text.stderr).toContain('set `trusted: true` on it in fleet.yml');
  });

  it("in a setting: at its place in fleet.yml, the entry's own or the defaults'", () => {
    const root = tempDir('fleet-setting-position-');
    moduleRemote(root, 'inherits');
    moduleRemote(root, 'overrides');
    // A setting of the repository's own .sync.yml stays reported there, in a section the fleet adds to.
    moduleRemote(root, 'own', (w) => appendSync(w, 'puppet_lint:\n  relative: 7\n'));
    const lines = [
      'version: 1',
      'defaults:',
      '  settings:',
      '    puppet_lint: { fail_on_warnings: maybe }',
      'repositories:',
      '  - { name: inherits, url: remotes/inherits.git }',
      '  - name: overrides',
      '    url: remotes/overrides.git',
      '    settings: { puppet_lint: { fail_on_warnings: 3 } }',
      '  - { name: own, url: remotes/own.git, settings: { puppet_lint: { fail_on_warnings: true } } }',
      '',
    ];
    fleetIn(root, lines.join('\n'));
    const r = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--push']);
    expect(r.status).toBe(1);
    const errors = Object.fromEntries(
      (JSON.parse(r.stdout).repositories as { name: string; error: Record<string, unknown> }[]).map((x) => [
        x.name,
        x.error,
      ]),
    );
    const fleetFile = join(root, 'fleet.yml');
    expect(errors.inherits).toMatchObject({
      message: "puppet_lint: setting 'fail_on_warnings' must be true or false",
      file: fleetFile,
      line: 4,
      column: lines[3]!.indexOf('maybe') + 1,
    });
    expect(errors.overrides).toMatchObject({
      message: "puppet_lint: setting 'fail_on_warnings' must be true or false",
      file: fleetFile,
      line: 9,
      column: lines[8]!.indexOf('3 }') + 1,
    });
    const sync = join(root, '.pantograph-fleet', 'own', '.sync.yml');
    const syncLines = readFileSync(sync, 'utf8').split('\n');
    expect(errors.own).toMatchObject({
      message: "puppet_lint: setting 'relative' must be true or false",
      file: sync,
      line: syncLines.indexOf('  relative: 7') + 1,
      column: 13,
    });
    // Nothing was pushed: each remote has its base branch only.
    for (const name of ['inherits', 'overrides', 'own']) {
      expect(Object.keys(branches(join(root, 'remotes', `${name}.git`)))).toEqual(['main']);
    }
  });
});

describe('path repositories', () => {
  it('are planned and applied in place, with no git at all', () => {
    const root = tempDir('fleet-path-');
    const work = join(root, 'mod');
    const r0 = pantograph(root, ['init', '--name', 'acme-mod', '--yes', work]);
    expect(r0.status).toBe(0);
    appendSync(work, 'puppet_lint:\n  fail_on_warnings: false\n');
    fleetIn(root, 'version: 1\nrepositories: [{ name: mod, path: mod }]\n');
    const status = pantograph(root, ['fleet', 'status']);
    expect(status.status).toBe(1);
    expect(status.stdout).toMatch(/mod\s+drift\s+2/);
    const apply = pantograph(root, ['fleet', 'apply']);
    expect(apply.status).toBe(0);
    expect(readFileSync(join(work, 'Rakefile'), 'utf8')).toContain('fail_on_warnings = false');
    expect(existsSync(join(work, '.git'))).toBe(false);
    expect(pantograph(work, ['status', '--check']).status).toBe(0);
    // A hand edit is kept, as `apply` keeps it: nothing changes, and the record says so.
    writeFileSync(join(work, 'Rakefile'), `${readFileSync(join(work, 'Rakefile'), 'utf8')}# mine\n`);
    const again = pantograph(root, ['--format', 'json', 'fleet', 'apply']);
    expect(JSON.parse(again.stdout).repositories[0]).toMatchObject({ result: 'in-line', files: [] });
    expect(readFileSync(join(work, 'Rakefile'), 'utf8')).toContain('# mine');
  });

  it("a modulesync module's .sync.yml is said to be modulesync's, at its first key, and nothing is written", () => {
    const root = tempDir('fleet-msync-');
    const sync = '---\n.github/workflows/ci.yml:\n  with:\n    timeout_minutes: 60\n';
    const mod = tempTree({
      '.sync.yml': sync,
      '.msync.yml': '---\nmodulesync_config_version: 9.0.0\n',
      'metadata.json': '{"name": "puppet-nginx", "version": "1.0.0"}',
    });
    fleetIn(
      root,
      `version: 1\ntemplate_sources: [default]\nrepositories: [{ name: nginx, path: ${JSON.stringify(mod)} }]\n`,
    );
    const r = pantograph(root, ['--format', 'json', 'fleet', 'apply']);
    expect(r.status).toBe(1);
    const record = JSON.parse(r.stdout).repositories[0];
    expect(record).toMatchObject({
      result: 'failed',
      error: { code: 'SYNC_MODULESYNC', file: join(mod, '.sync.yml'), line: 2, column: 1 },
    });
    expect(record.error.hint).toContain(
      "write `pdk_template: {version: 2, templates: [...]}` into the module's .sync.yml",
    );
    expect(readFileSync(join(mod, '.sync.yml'), 'utf8')).toBe(sync);
  });
});

describe("a template's failure in a fleet run", () => {
  it('is named by its git source and path, not only by the cache it was read from', () => {
    const templates = tempRemote();
    const commit = templates.commit({
      'hooky/template.json': JSON.stringify({
        name: 'hooky',
        version: '1.0.0',
        default_settings: { boom: false },
      }),
      'hooky/hooks/after_project_settings.pp':
        'if $state["settings"]["boom"] { fail("boom requested") }\n$state\n',
      'hooky/files/x.txt': 'hi\n',
    });
    const root = tempDir('fleet-hook-origin-');
    const work = join(root, 'mod');
    expect(pantograph(root, ['init', '--name', 'acme-mod', '--yes', work]).status).toBe(0);
    fleetOf(
      root,
      'template_sources:',
      '  - default',
      `  - { type: git, location: "${templates.url}", ref: main }`,
      'repositories:',
      '  - name: mod',
      '    path: mod',
      '    settings: { hooky: { boom: true } }',
    );
    // The repository applies the template; the fleet's setting makes its hook fail.
    writeFileSync(
      join(work, '.sync.yml'),
      readFileSync(join(work, '.sync.yml'), 'utf8').replace('  templates: [', '  templates: [hooky, '),
    );
    const r = pantograph(root, ['fleet', 'status'], { PANTOGRAPH_CACHE_DIR: tempDir('fleet-cache-') });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('boom requested');
    expect(r.stderr).toContain(
      `  in: hooky/hooks/after_project_settings.pp of git source ${templates.url} at ${commit.slice(0, 7)}`,
    );
  });
});

describe('import-modulesync', () => {
  it('writes the equivalent fleet file and says what it could not carry over', () => {
    const dir = tempTree({
      'managed_modules.yml': '---\n- puppet-ntp\n- puppet-nginx\n',
      'modulesync.yml':
        "---\nnamespace: voxpupuli\ngit_base: 'git@github.com:'\nbranch: modulesync\nmessage: modulesync 9.0\npr_title: modulesync 9.0\npr_labels: [modulesync]\npre_commit_script: fix.sh\n",
      'config_defaults.yml': '---\n.travis.yml: {}\n',
    });
    const r = pantograph(dir, ['fleet', 'import-modulesync']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('wrote fleet.yml: 2 repositories');
    expect(r.stderr).toContain('`pre_commit_script` is not carried over');
    expect(r.stderr).toContain('config_defaults.yml and moduleroot/');
    const fleet = loadFleet(join(dir, 'fleet.yml'));
    expect(fleet.repositories.map((x) => [x.name, x.url, x.branch, x.forgeProject])).toEqual([
      ['puppet-ntp', 'git@github.com:voxpupuli/puppet-ntp.git', 'modulesync', 'voxpupuli/puppet-ntp'],
      ['puppet-nginx', 'git@github.com:voxpupuli/puppet-nginx.git', 'modulesync', 'voxpupuli/puppet-nginx'],
    ]);
    expect(fleet.forge?.type).toBe('github');
    expect(fleet.pullRequest).toEqual({ title: 'modulesync 9.0', labels: ['modulesync'] });
    expect(fleet.commit.message).toBe('modulesync 9.0');
    const again = pantograph(dir, ['fleet', 'import-modulesync']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('pass --force');
  });

  it("reads the list modulesync.yml's managed_modules_conf names, in either of msync's key spellings", () => {
    for (const key of ['managed_modules_conf', ':managed_modules_conf']) {
      const dir = tempTree({
        'managed_modules.yml': '---\n- puppet-unrelated\n',
        'our modules.yml': '---\n- puppet-ntp\n- puppet-nginx\n',
        'modulesync.yml': `---\n${key}: 'our modules.yml'\nnamespace: voxpupuli\nbranch: modulesync\n`,
      });
      const r = pantograph(dir, ['fleet', 'import-modulesync']);
      expect(r.stdout, key).toContain('wrote fleet.yml: 2 repositories');
      expect(r.stderr, key).not.toContain('managed_modules_conf');
      expect(loadFleet(join(dir, 'fleet.yml')).repositories.map((x) => x.name)).toEqual([
        'puppet-ntp',
        'puppet-nginx',
      ]);
    }
  });

  it('names the fleet takes: renamed modules noted at their place, a collision suffixed, a path refused', () => {
    const dir = tempTree({
      'managed_modules.yml': '---\n- acme/puppet-ntp\n- acme-puppet-ntp\n- other/puppet-x\n',
      'modulesync.yml':
        "---\nnamespace: acme\nbranch: msync\npr_labels: 'tooling, modulesync'\nproject_root: work/\n",
    });
    const r = pantograph(dir, ['fleet', 'import-modulesync']);
    expect(r.status, r.stderr).toBe(0);
    const managed = join(dir, 'managed_modules.yml');
    expect(r.stderr).toContain(
      `note: ${managed}:2:3: module 'acme/puppet-ntp' is named 'acme-puppet-ntp-2' in the fleet file: 'acme-puppet-ntp' names another module`,
    );
    expect(r.stderr).toContain(
      `note: ${managed}:4:3: module 'other/puppet-x' is named 'other-puppet-x' in the fleet file`,
    );
    const fleet = loadFleet(join(dir, 'fleet.yml'));
    expect(fleet.repositories.map((x) => [x.name, x.url])).toEqual([
      ['acme-puppet-ntp-2', 'git@github.com:acme/puppet-ntp.git'],
      ['acme-puppet-ntp', 'git@github.com:acme/acme-puppet-ntp.git'],
      ['other-puppet-x', 'git@github.com:other/puppet-x.git'],
    ]);
    // pr_labels as modulesync reads it (a string split on commas); project_root is the workdir.
    expect(fleet.pullRequest.labels).toEqual(['tooling', 'modulesync']);
    expect(fleet.workdir).toBe(join(dir, 'work'));
    expect(r.stderr).not.toContain('project_root');

    const bad = tempTree({
      'managed_modules.yml': '---\n- ../../etc\n- puppet-ok\n- acme/.git\n',
      'modulesync.yml': '---\nnamespace: acme\n',
    });
    const refused = pantograph(bad, ['fleet', 'import-modulesync']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      "managed_modules.yml:2:3: error: module '../../etc' is not a repository path: a part of it is empty or starts with '.' [FLEET_MODULESYNC]",
    );
    expect(refused.stderr).toContain(
      "managed_modules.yml:4:3: error: module 'acme/.git' is not a repository path",
    );
    expect(existsSync(join(bad, 'fleet.yml'))).toBe(false);
  });

  it('says what modulesync does otherwise, and a file it cannot write is a clear error', () => {
    const dir = tempTree({
      'managed_modules.yml': '---\n- puppet-ntp\n',
      'modulesync.yml': "---\ngit_base: 'https://oauth2:glpat-SECRET123@gitlab.example.com/'\n",
    });
    const r = pantograph(dir, ['fleet', 'import-modulesync', '--output', '-']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      "modulesync.yml has no `branch`: modulesync would commit to each module's default branch",
    );
    expect(r.stderr).toContain('modulesync.yml `git_base` holds credentials');
    expect(r.stderr).not.toContain('SECRET123');
    const nowhere = pantograph(dir, [
      'fleet',
      'import-modulesync',
      '--output',
      join(dir, 'no', 'such', 'f.yml'),
    ]);
    expect(nowhere.status).toBe(1);
    expect(nowhere.stderr).toContain('cannot write no/such/f.yml (ENOENT)');
    expect(nowhere.stderr).toContain('its directory does not exist');
  });

  it("a list item naming a module with its options is that module; a module's own branch, which modulesync does not read, is noted and not carried", () => {
    const dir = tempTree({
      'managed_modules.yml':
        '---\n- puppet-ntp\n- puppet-nginx:\n    branch: develop\n    remote_branch: next\n- other/puppet-apache\n- puppet-x:\n    namespace: elsewhere\n',
      'modulesync.yml': "---\nnamespace: acme\ngit_base: 'git@github.com:'\nbranch: msync\n",
    });
    const r = pantograph(dir, ['fleet', 'import-modulesync']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('wrote fleet.yml: 4 repositories');
    const fleet = loadFleet(join(dir, 'fleet.yml'));
    // As modulesync makes them (source_code.rb): namespace and remote per module, branch for all.
    expect(fleet.repositories.map((x) => [x.name, x.url, x.branch, x.forgeProject])).toEqual([
      ['puppet-ntp', 'git@github.com:acme/puppet-ntp.git', 'msync', 'acme/puppet-ntp'],
      ['puppet-nginx', 'git@github.com:acme/puppet-nginx.git', 'msync', 'acme/puppet-nginx'],
      // `namespace/module` is that namespace's module, as modulesync reads it.
      ['other-puppet-apache', 'git@github.com:other/puppet-apache.git', 'msync', 'other/puppet-apache'],
      ['puppet-x', 'git@github.com:elsewhere/puppet-x.git', 'msync', 'elsewhere/puppet-x'],
    ]);
    // What it could not carry over is said, and so is the form modulesync itself would misread.
    expect(r.stderr).toContain(
      "`puppet-nginx` option `branch` is not carried over: modulesync reads `branch` only from modulesync.yml (or --branch), so this module was committed to that branch like every other; give this repository's fleet entry a `branch:` if it needs its own",
    );
    expect(r.stderr).toContain('`puppet-nginx` option `remote_branch` is not carried over');
    expect(r.stderr).toContain(
      `note: ${join(dir, 'managed_modules.yml')}:3:3: module 'puppet-nginx' is given as a name with its options in a list`,
    );
  });

  it('voxpupuli/modulesync_config: every module, with the URL modulesync clones (.git added, none under file://)', () => {
    const real = resolve(import.meta.dirname, '../fixtures/modulesync/voxpupuli-modulesync_config');
    const dir = tempDir('msync-vox-');
    for (const f of ['modulesync.yml', 'managed_modules.yml']) cpSync(join(real, f), join(dir, f));
    const r = pantograph(dir, ['fleet', 'import-modulesync']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('wrote fleet.yml: 204 repositories');
    const fleet = loadFleet(join(dir, 'fleet.yml'));
    expect(fleet.repositories).toHaveLength(204);
    expect(fleet.repositories[0]).toMatchObject({
      name: 'puppet-allknowingdns',
      url: 'git@github.com:voxpupuli/puppet-allknowingdns.git',
      branch: 'modulesync',
      forgeProject: 'voxpupuli/puppet-allknowingdns',
    });
    expect(fleet.repositories.every((x) => x.url === `git@github.com:voxpupuli/${x.name}.git`)).toBe(true);
    expect(fleet.commit.message).toBe('Update from voxpupuli modulesync_config');
    expect(fleet.forge?.type).toBe('github');
    // The note on each module's .sync.yml says what the fleet needs of it.
    expect(r.stderr).toContain('needs a `pdk_template: {version: 2}` section');
    // The file:// base modulesync uses as it is (its _repository_remote adds no .git there).
    writeFileSync(join(dir, 'modulesync.yml'), "---\nnamespace: voxpupuli\ngit_base: 'file:///srv/git/'\n");
    const local = pantograph(dir, ['fleet', 'import-modulesync', '--output', '-']);
    expect(local.status, local.stderr).toBe(0);
    expect(local.stdout).toContain('url: file:///srv/git/voxpupuli/puppet-allknowingdns\n');
  });

  it('any other shape of module is an error at its file:line:col, every one, and nothing is written', () => {
    const dir = tempTree({
      'managed_modules.yml': [
        '---',
        '- puppet-ntp',
        '- 42',
        '- { puppet-a: {}, puppet-b: {} }',
        '- puppet-c: develop',
        '- puppet-d:',
        '    namespace: [main]',
        '',
      ].join('\n'),
    });
    const r = pantograph(dir, ['fleet', 'import-modulesync']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'managed_modules.yml:3:3: error: list item 2 is the number 42: a module is a name (`- puppet-ntp`), or a name with its options',
    );
    expect(r.stderr).toContain(
      'hint: write the module repository name (quoted if YAML reads it as something else)',
    );
    expect(r.stderr).toContain('managed_modules.yml:4:3: error: list item 3 is a mapping of 2 keys');
    expect(r.stderr).toContain('hint: write one module per item, its name as the only key');
    expect(r.stderr).toContain(
      "managed_modules.yml:5:13: error: the options of module 'puppet-c' are 'develop', not a mapping",
    );
    expect(r.stderr).toContain(
      "managed_modules.yml:7:16: error: option `namespace` of module 'puppet-d' is a list, not a string",
    );
    expect(existsSync(join(dir, 'fleet.yml'))).toBe(false);

    const json = pantograph(dir, ['--format', 'json', 'fleet', 'import-modulesync', '--output', '-']);
    expect(json.status).toBe(1);
    const problems = (
      JSON.parse(json.stdout) as { problems: { code: string; line: number; column: number }[] }
    ).problems;
    expect(problems.map((p) => [p.code, p.line, p.column])).toEqual([
      ['FLEET_MODULESYNC', 3, 3],
      ['FLEET_MODULESYNC', 4, 3],
      ['FLEET_MODULESYNC', 5, 13],
      ['FLEET_MODULESYNC', 7, 16],
    ]);

    // A file that is neither a list nor a mapping of modules: at its start.
    writeFileSync(join(dir, 'managed_modules.yml'), 'puppet-ntp puppet-nginx\n');
    const text = pantograph(dir, ['fleet', 'import-modulesync']);
    expect(text.status).toBe(1);
    expect(text.stderr).toContain(
      "managed_modules.yml:1:1: error: managed_modules.yml is 'puppet-ntp puppet-nginx'",
    );
    expect(existsSync(join(dir, 'fleet.yml'))).toBe(false);
  });

  it('a broken managed_modules.yml is an error at its position', () => {
    const dir = tempTree({ 'managed_modules.yml': '---\n- a\n- [b\n' });
    const r = pantograph(dir, ['fleet', 'import-modulesync', '--output', '-']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/managed_modules\.yml:\d+:\d+: error:/);
  });
});
