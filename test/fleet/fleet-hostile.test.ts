/**
 * Every repository of a fleet is someone else's input, cloned beside the others in the fleet's workdir.
 * None may make the fleet run templates (hooks, Ruby) or read files the fleet file does not grant: a
 * directory its own files name as templates may not lie in the workdir or in itself, its `trusted: true`
 * counts for nothing, and its metadata.json and lock may not be links elsewhere. Real git remotes, the
 * built CLI, real Ruby; each hostile template leaves a marker file if it ever runs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, type Tree, tempDir, writeTree } from '../helpers/fs.js';
import { branches, git, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

interface Fleet {
  readonly root: string;
  readonly workdir: string;
  /** Where the Ruby template writes when it runs. */
  readonly rubyMarker: string;
  /** Where the JavaScript hook writes when it runs. */
  readonly hookMarker: string;
}

/** A repository committed on `main` and served from `remotes/<name>.git`. */
function remote(root: string, name: string, tree: Tree): string {
  const work = writeTree(join(root, 'work', name), tree);
  git(work, 'init', '--quiet', '--initial-branch=main');
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', name);
  const bare = join(root, 'remotes', `${name}.git`);
  git(root, 'clone', '--quiet', '--bare', work, bare);
  return bare;
}

const metadata = (extra: Record<string, string> = {}) =>
  `${JSON.stringify({ name: 'acme-hostile', version: '0.1.0', ...extra }, null, 2)}\n`;

const v2Sync = (source: string) => `pdk_template:\n  version: 2\n  template_sources:\n    - ${source}\n`;

/** A V1 lock, as a V1 run writes it, recording `location` as the repository it rendered with. */
const v1Lock = (location: string) =>
  `${JSON.stringify(
    {
      lockVersion: 1,
      engineVersion: '0.1.0',
      sources: [{ type: 'filesystem', location }],
      templates: [{ name: 'v1', source: 0, settings: {} }],
      directories: [],
      files: {},
    },
    null,
    2,
  )}\n`;

/**
 * Two template repositories in the fleet (so cloned into its workdir) and the repositories that try to
 * use them, or themselves, as templates.
 */
function hostileFleet(): Fleet {
  const root = tempDir('fleet-hostile-');
  const workdir = join(root, '.pantograph-fleet');
  const rubyMarker = join(root, 'RUBY_RAN');
  const hookMarker = join(root, 'HOOK_RAN');
  const v1Repository: Tree = {
    'config_defaults.yml': '---\ncommon: {}\n',
    'moduleroot/README.md.erb': `<% File.write(${JSON.stringify(rubyMarker)}, 'ran') %>readme\n`,
    'moduleroot_init/.keep': '',
  };
  const v2Template = (dir: string): Tree => ({
    [`${dir}evil/template.json`]: JSON.stringify({ name: 'evil', always_apply: true, default_settings: {} }),
    [`${dir}evil/files/hello.txt`]: 'hello\n',
    [`${dir}evil/hooks/after_default_settings.mjs`]: `import { writeFileSync } from 'node:fs';\nexport default (state) => { writeFileSync(${JSON.stringify(hookMarker)}, 'ran'); return state; };\n`,
  });
  writeFileSync(join(root, 'secret.json'), '{"name": "acme-secret", "token": "TOPSECRET"}\n');
  const repos: Record<string, Tree> = {
    'tpl-v1': { ...v1Repository, '.sync.yml': v2Sync('default') },
    'tpl-v2': { ...v2Template(''), '.sync.yml': v2Sync('default') },
    'meta-sibling': { 'metadata.json': metadata({ 'template-url': '../tpl-v1' }), '.sync.yml': '---\n' },
    'meta-file-url': {
      'metadata.json': metadata({ 'template-url': `file://${workdir}/tpl-v1#main` }),
      '.sync.yml': '---\n',
    },
    'meta-self': {
      ...Object.fromEntries(Object.entries(v1Repository).map(([k, v]) => [`tpl/${k}`, v])),
      'metadata.json': metadata({ 'template-url': './tpl' }),
      '.sync.yml': '---\n',
    },
    'meta-link': {
      tpl: { symlink: '../tpl-v1' },
      'metadata.json': metadata({ 'template-url': './tpl' }),
      '.sync.yml': '---\n',
    },
    'meta-remote': {
      'metadata.json': metadata({ 'template-url': `${join(root, 'remotes', 'tpl-v1.git')}#main` }),
      '.sync.yml': '---\n',
    },
    'meta-git-url': {
      'metadata.json': metadata({ 'template-url': 'https://example.invalid/acme/evil-templates.git#main' }),
      '.sync.yml': '---\n',
    },
    'lock-sibling': {
      'metadata.json': metadata(),
      '.sync.yml': '---\n',
      '.pantograph.lock': v1Lock('../tpl-v1'),
    },
    'sync-fs-sibling': { '.sync.yml': v2Sync('{ type: filesystem, location: ../tpl-v2 }') },
    'sync-fs-self': { ...v2Template('tpl/'), '.sync.yml': v2Sync('{ type: filesystem, location: ./tpl }') },
    'sync-git-sibling': { '.sync.yml': v2Sync('{ type: git, location: ../tpl-v2, ref: main }') },
    'sync-git-trusted': {
      '.sync.yml': v2Sync(
        `{ type: git, location: ${join(root, 'elsewhere', 'tpl-v2.git')}, ref: main, trusted: true }`,
      ),
    },
    'meta-linked': {
      'metadata.json': { symlink: join(root, 'secret.json') },
      '.sync.yml': v2Sync('{ type: git, location: ../tpl-v2, ref: main }'),
    },
  };
  const entries = Object.keys(repos).map((name) => {
    remote(root, name, repos[name]!);
    return `  - { name: ${name}, url: ${join(root, 'remotes', `${name}.git`)} }\n`;
  });
  writeFileSync(join(root, 'fleet.yml'), `version: 1\nrepositories:\n${entries.join('')}`);
  // A copy of tpl-v2 that is no repository of the fleet: a git source a repository may name (untrusted).
  const elsewhere = join(root, 'elsewhere', 'tpl-v2.git');
  git(root, 'clone', '--quiet', '--bare', join(root, 'remotes', 'tpl-v2.git'), elsewhere);
  return { root, workdir, rubyMarker, hookMarker };
}

interface Record_ {
  name: string;
  result: string;
  error?: { code: string; message: string; hint?: string; file?: string; line?: number; column?: number };
}

function records(stdout: string): Map<string, Record_> {
  const report = JSON.parse(stdout) as { repositories: Record_[] };
  return new Map(report.repositories.map((r) => [r.name, r]));
}

const HINT = 'name the templates in the fleet file fleet.yml instead';

describe('a fleet repository may not make the fleet run templates it names itself', () => {
  let fleet: Fleet;
  let status: ReturnType<typeof pantograph>;
  beforeAll(() => {
    fleet = hostileFleet();
    // --trust: what it grants is the fleet file's templates, none a repository names.
    status = pantograph(fleet.root, ['--format', 'json', 'fleet', 'status', '--trust', '--jobs', '2']);
    // Fourteen repositories made, and a fleet run over them: longer than a hook's 10 s on a loaded machine.
  }, 120_000);

  it('fleet status: each is refused at the key that names the directory, saying why and what to do; nothing ran', () => {
    expect(existsSync(fleet.rubyMarker)).toBe(false);
    expect(existsSync(fleet.hookMarker)).toBe(false);
    expect(status.status).toBe(1);
    const byName = records(status.stdout);
    const clone = (name: string, file: string) => join(fleet.workdir, name, file);
    const fenced = (name: string, file: string, line: number, column: number, message: string) => {
      const r = byName.get(name)!;
      expect(r.result, name).toBe('failed');
      expect(r.error, name).toMatchObject({ code: 'TEMPLATE_FENCED', file: clone(name, file), line, column });
      expect(r.error!.message, name).toContain(message);
      expect(r.error!.hint, name).toContain(HINT);
    };
    const sibling = `inside the fleet's workdir ${fleet.workdir}, where the other repositories are cloned`;
    fenced(
      'meta-sibling',
      'metadata.json',
      4,
      3,
      `metadata.json's template-url '../tpl-v1' is the directory ${join(fleet.workdir, 'tpl-v1')}, ${sibling}`,
    );
    fenced('meta-file-url', 'metadata.json', 4, 3, sibling);
    fenced('meta-self', 'metadata.json', 4, 3, 'inside the repository itself');
    fenced('meta-link', 'metadata.json', 4, 3, 'inside the repository itself');
    fenced(
      'meta-remote',
      'metadata.json',
      4,
      3,
      `inside the fleet's repository 'tpl-v1' (${join(fleet.root, 'remotes', 'tpl-v1.git')})`,
    );
    fenced(
      'lock-sibling',
      '.pantograph.lock',
      7,
      7,
      `an earlier run recorded in .pantograph.lock is the directory ${join(fleet.workdir, 'tpl-v1')}`,
    );
    fenced(
      'sync-fs-sibling',
      '.sync.yml',
      4,
      7,
      `template source '../tpl-v2' is the directory ${join(fleet.workdir, 'tpl-v2')}`,
    );
    fenced('sync-fs-self', '.sync.yml', 4, 7, 'inside the repository itself');
    fenced('sync-git-sibling', '.sync.yml', 4, 7, sibling);
    expect(byName.get('meta-sibling')!.error!.message).toContain(
      'their hooks and Ruby would run with your rights',
    );
  });

  it('a git template repository in metadata.json is not trusted by --trust: its Ruby runs only when the fleet file names it', () => {
    const r = records(status.stdout).get('meta-git-url')!;
    expect(r.result).toBe('failed');
    expect(r.error).toMatchObject({
      code: 'V1_UNTRUSTED',
      file: join(fleet.workdir, 'meta-git-url', 'metadata.json'),
      line: 4,
      column: 3,
    });
    expect(r.error!.hint).toContain(
      'a fleet trusts no template repository a repository names itself (--trust does not count for it)',
    );
    expect(r.error!.hint).toContain(HINT);
  });

  it("neither a repository's own `trusted: true` nor --trust trusts its git source: its JavaScript hooks do not run, and the hint says where trust comes from", () => {
    const r = records(status.stdout).get('sync-git-trusted')!;
    expect(r.result).toBe('failed');
    expect(r.error).toMatchObject({
      code: 'HOOK_UNTRUSTED',
      file: join(fleet.workdir, 'sync-git-trusted', '.sync.yml'),
      line: 4,
    });
    expect(r.error!.hint).toContain(
      'a fleet trusts no template source a repository names itself (neither its `trusted: true` nor --trust counts for it)',
    );
    expect(r.error!.hint).toContain(HINT);
  });

  it('a metadata.json that links elsewhere on the machine is refused before anything reads it', () => {
    const r = records(status.stdout).get('meta-linked')!;
    expect(r.result).toBe('failed');
    expect(r.error).toMatchObject({
      code: 'FLEET_PATH',
      file: join(fleet.workdir, 'meta-linked', 'metadata.json'),
      line: 1,
      column: 1,
    });
    expect(r.error!.message).toContain('metadata.json is a symbolic link');
    expect(status.stdout).not.toContain('TOPSECRET');
    expect(status.stdout).not.toContain('acme-secret');
  });

  it('fleet apply --yes: the same refusals, exit 1, nothing ran, committed, pushed or left in a clone', () => {
    const before = Object.fromEntries(
      ['meta-sibling', 'lock-sibling', 'sync-fs-self', 'sync-git-trusted', 'meta-linked'].map((n) => [
        n,
        branches(join(fleet.root, 'remotes', `${n}.git`)),
      ]),
    );
    const apply = pantograph(fleet.root, [
      '--format',
      'json',
      'fleet',
      'apply',
      '--trust',
      '--yes',
      '--push',
      '--jobs',
      '2',
    ]);
    expect(apply.status).toBe(1);
    expect(existsSync(fleet.rubyMarker)).toBe(false);
    expect(existsSync(fleet.hookMarker)).toBe(false);
    const byName = records(apply.stdout);
    for (const [name, refs] of Object.entries(before)) {
      expect(byName.get(name)!.result, name).toBe('failed');
      expect(branches(join(fleet.root, 'remotes', `${name}.git`)), name).toEqual(refs);
      const clone = join(fleet.workdir, name);
      expect(git(clone, 'status', '--porcelain'), name).toBe('');
      expect(git(clone, 'rev-parse', 'HEAD'), name).toBe(refs.main);
    }
    expect(existsSync(join(fleet.workdir, 'sync-fs-self', 'hello.txt'))).toBe(false);
  });

  it('the same templates run when the fleet file names them (the grant): the markers above were kept away by the refusals', () => {
    const file = join(fleet.root, 'fleet.yml');
    const text = readFileSync(file, 'utf8');
    const only = (name: string) =>
      `  - { name: ${name}, url: ${join(fleet.root, 'remotes', `${name}.git`)} }\n`;
    writeFileSync(
      file,
      `version: 1\ntemplate_url: ${join(fleet.root, 'work', 'tpl-v1')}\nrepositories:\n${only('meta-sibling')}`,
    );
    const ruby = pantograph(fleet.root, ['--format', 'json', 'fleet', 'status']);
    expect(records(ruby.stdout).get('meta-sibling')!.result, ruby.stdout).toBe('drift');
    expect(readFileSync(fleet.rubyMarker, 'utf8')).toBe('ran');
    writeFileSync(
      file,
      `version: 1\ntemplate_sources:\n  - { type: filesystem, location: ${join(fleet.root, 'work', 'tpl-v2')} }\nrepositories:\n${only('sync-fs-sibling')}`,
    );
    const hook = pantograph(fleet.root, ['--format', 'json', 'fleet', 'status']);
    expect(records(hook.stdout).get('sync-fs-sibling')!.result, hook.stdout).toBe('drift');
    expect(readFileSync(fleet.hookMarker, 'utf8')).toBe('ran');
    writeFileSync(file, text);
  });
});
