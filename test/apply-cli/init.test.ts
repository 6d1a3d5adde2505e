import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { initWith } from '../../src/cli/commands/init.js';
import { memoryIo } from '../../src/cli/io.js';
import { run, runJson, templates } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { read, repoTree } from './fixtures.js';

afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

/** The small test repository as the default source. */
function smallDefault(): string {
  const repo = tempTree(repoTree());
  vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', repo);
  return repo;
}

describe('pantograph init with the default templates', () => {
  it('creates a working module that is in line afterwards', async () => {
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', '');
    const base = tempDir();
    const r = await run(base, 'init', 'ntp', '--name', 'acme-ntp', '--templates', 'github_actions');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('create    Gemfile\n');
    expect(r.stdout).toContain('create    README.md  (init file for the new project)\n');
    expect(r.stdout).toContain(
      'Created module acme-ntp in ntp with 9 templates: github_actions, gemfile, git, module_init, pdk_ignore, puppet_lint, rakefile, rspec, yardopts.\n',
    );
    expect(r.stdout).toContain('\nNext steps:\n  cd ntp\n');
    const root = join(base, 'ntp');
    expect(JSON.parse(read(root, 'metadata.json'))).toMatchObject({
      name: 'acme-ntp',
      version: '0.1.0',
      author: 'acme',
      license: 'Apache-2.0',
      requirements: [{ name: 'puppet', version_requirement: '>= 7.0.0 < 9.0.0' }],
    });
    expect(read(root, 'README.md')).toMatch(/^# ntp\n/);
    expect(parse(read(root, '.github/workflows/ci.yml'))).toBeTypeOf('object');
    expect(existsSync(join(root, '.pantograph.lock'))).toBe(true);
    expect((await run(root, 'status', '--check')).code).toBe(0);
    expect(await run(root, 'apply')).toEqual({ code: 0, stderr: '', stdout: 'Nothing to change\n' });
    // the newcomer's next step: an opt-in template, which also adds its check to CI (its gems are in the
    // Gemfile already, as in PDK's)
    expect(read(root, 'Gemfile')).toContain('gem "rubocop"');
    expect((await run(root, 'add', 'template', 'rubocop')).code).toBe(0);
    const applied = await run(root, 'apply');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('create    .rubocop.yml\n');
    expect(applied.stdout).toContain('changed   .github/workflows/ci.yml  (template output changed)\n');
    expect(applied.stdout).not.toContain('Gemfile');
    expect((await run(root, 'status', '--check')).code).toBe(0);
  });
});

describe('pantograph init', () => {
  it('shows a directory outside the working directory as an absolute path', async () => {
    smallDefault();
    const elsewhere = join(tempDir(), 'mod');
    const r = await run(tempDir(), 'init', elsewhere, '--name', 'acme-mod', '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Created module acme-mod in ${elsewhere} with`);
    expect(r.stdout).toContain(`\nNext steps:\n  cd ${elsewhere}\n`);
  });

  it('writes metadata.json and .sync.yml from flags, then applies (init files included)', async () => {
    smallDefault();
    const base = tempDir();
    const r = await run(
      base,
      'init',
      'deep/mod',
      '--name',
      'acme/mod',
      '--templates',
      'extra',
      '--summary',
      'Mods.',
    );
    expect(r.code).toBe(0);
    const root = join(base, 'deep/mod');
    expect(
      read(root, '.sync.yml'),
    ).toBe(`# Pantograph keeps this module in line with its templates: change settings here, then run
# \`pantograph apply --diff\`. \`pantograph show <template>\` lists the settings of a template.
pdk_template:
  version: 2
  templates: [extra]
`);
    expect(JSON.parse(read(root, 'metadata.json'))).toEqual({
      name: 'acme-mod',
      version: '0.1.0',
      author: 'acme',
      summary: 'Mods.',
      license: 'Apache-2.0',
      source: '',
      dependencies: [],
      operatingsystem_support: [
        { operatingsystem: 'Debian', operatingsystemrelease: ['12'] },
        { operatingsystem: 'RedHat', operatingsystemrelease: ['9'] },
        { operatingsystem: 'Ubuntu', operatingsystemrelease: ['22.04'] },
      ],
      requirements: [{ name: 'puppet', version_requirement: '>= 7.0.0 < 9.0.0' }],
    });
    expect(read(root, 'README.md')).toBe('# acme-mod\n');
    expect(read(root, 'extra/extra.txt')).toBe('extra\n');
    expect(r.stdout).toBe(`create    README.md  (init file for the new project)
create    config.txt
create    extra/extra.txt
create    static.txt
Changed 4 files
Created module acme-mod in deep/mod with 2 templates: extra, base.

Next steps:
  cd deep/mod
  pantograph show <template>        # its settings; change them under its name in .sync.yml
  pantograph apply --diff           # apply what you changed, showing the diffs
  pantograph status --check         # in CI: fails when files drift from the templates
`);
  });

  it('gives one JSON document', async () => {
    smallDefault();
    const base = tempDir();
    const { code, json } = await runJson(base, 'init', 'm', '--name', 'acme-m');
    expect(code).toBe(0);
    expect(json).toMatchObject({
      directory: join(base, 'm'),
      name: 'acme-m',
      templates: [],
      ok: true,
      written: ['README.md', 'config.txt', 'static.txt'],
    });
  });

  it('initialises the current directory, keeping files that are there', async () => {
    smallDefault();
    const root = tempTree({ 'README.md': 'my readme\n', 'notes.txt': 'x' });
    const r = await run(root, 'init', '--name', 'acme-here');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('cd ');
    expect(read(root, 'README.md')).toBe('my readme\n');
    expect(read(root, 'static.txt')).toBe('static\n');
  });

  it('asks on a terminal', async () => {
    smallDefault();
    const base = tempDir();
    const answers = ['acme-asked', 'Ann', '', 'MIT', 'extra'];
    const questions: string[] = [];
    const mem = memoryIo(base);
    const io = { ...mem, interactive: true };
    const code = await initWith(io, { format: 'text' }, 'asked', {}, async (q) => {
      questions.push(q);
      return answers.shift() ?? '';
    });
    expect(code).toBe(0);
    expect(questions).toEqual([
      'Module name (author-module) [acme-asked]: ',
      'Author [acme]: ',
      'Summary [A Puppet module to manage asked.]: ',
      'License (SPDX identifier) [Apache-2.0]: ',
      'Templates to apply, comma-separated: ',
    ]);
    expect(mem.stderr).toBe('Opt-in templates:\n  extra            extra\n');
    const root = join(base, 'asked');
    expect(JSON.parse(read(root, 'metadata.json'))).toMatchObject({
      name: 'acme-asked',
      author: 'Ann',
      summary: 'A Puppet module to manage asked.',
      license: 'MIT',
    });
    expect(read(root, '.sync.yml')).toContain('templates: [extra]\n');
  });

  it('--stub writes only a commented .sync.yml', async () => {
    smallDefault();
    const base = tempDir();
    const r = await run(base, 'init', 'stubbed', '--stub');
    expect(r.code).toBe(0);
    expect(readdirSync(join(base, 'stubbed'))).toEqual(['.sync.yml']);
    expect(read(join(base, 'stubbed'), '.sync.yml')).toContain('# greeting: hello');
  });
});

describe('pantograph init refuses bad input, writing nothing', () => {
  const refused = async (base: string, args: string[]) => {
    const before = snapshotDir(base);
    const r = await run(base, 'init', ...args);
    expect(r.code).toBe(1);
    expect(snapshotDir(base)).toEqual(before);
    return r.stderr;
  };

  it('without a terminal and without --name', async () => {
    smallDefault();
    expect(await refused(tempDir(), ['puppet-ntp'])).toBe(
      'error: init needs the module name: pass --name author-module\n  hint: for example `pantograph init puppet-ntp --name acme-ntp`\n',
    );
  });

  it('a name that is not author-module', async () => {
    smallDefault();
    expect(await refused(tempDir(), ['x', '--name', 'ntp'])).toMatch(
      /^error: 'ntp' is not a module name of the form author-module\n/,
    );
  });

  it('an unknown template, with a suggestion', async () => {
    smallDefault();
    expect(await refused(tempDir(), ['x', '--name', 'acme-x', '--templates', 'extar'])).toBe(
      "error: unknown template 'extar': no template source has it\n  hint: did you mean 'extra'?\n",
    );
  });

  it('a directory that already holds a project', async () => {
    smallDefault();
    const base = tempTree({ 'x/metadata.json': '{}' });
    expect(await refused(base, ['x', '--name', 'acme-x'])).toBe(
      'error: x already holds a project: it has a metadata.json\n  hint: for an existing module, write a .sync.yml with `pantograph init --stub`, then run `pantograph apply`\n',
    );
  });

  it('a plan with errors: positioned, and the new files are taken back', async () => {
    const repo = tempTree(
      templates('', { broken: { 'template.json': { always_apply: true }, 'files/a.epp': '<%= $x' } }),
    );
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', repo);
    const base = tempDir();
    const stderr = await refused(base, ['x', '--name', 'acme-x']);
    expect(stderr).toContain(`${join(repo, 'broken/files/a.epp')}:1:`);
    expect(stderr).toMatch(/1 error in the plan: nothing was written\n$/);
    expect(existsSync(join(base, 'x'))).toBe(false);
  });

  it('existing files that differ and no one confirmed; --yes overwrites them', async () => {
    smallDefault();
    const root = tempTree({ 'static.txt': 'mine\n' });
    const stderr = await refused(root, ['--name', 'acme-x']);
    expect(stderr).toContain('1 file exists and differs from the template output');
    expect((await run(root, 'init', '--name', 'acme-x', '--yes')).code).toBe(0);
    expect(readFileSync(join(root, 'static.txt'), 'utf8')).toBe('static\n');
  });
});

describe('init --source DIR, typed from where the user stands', () => {
  /** A template repository `tpl/` (template `site`) in a directory of the user's. */
  const siteTemplates = () =>
    templates('tpl', { site: { 'template.json': { version: '1.0.0' }, 'files/site.txt': 'site\n' } });

  it('is written relative to the project, so that every checkout finds the templates beside it', async () => {
    smallDefault();
    const base = tempTree(siteTemplates(), 'pantograph-init-source-');
    const r = await run(base, 'init', 'mod', '--name', 'acme-mod', '--source', 'tpl', '--templates', 'site');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(read(join(base, 'mod'), '.sync.yml')).toContain('- { type: filesystem, location: "../tpl" }\n');
    expect(read(join(base, 'mod'), 'site.txt')).toBe('site\n');
    // the templates and the module moved together (another checkout, another machine): still in line
    const moved = `${base}-moved`;
    renameSync(base, moved);
    try {
      expect(await run(join(moved, 'mod'), 'status', '--check')).toMatchObject({ code: 0, stderr: '' });
    } finally {
      renameSync(moved, base);
    }
  });

  it('--stub takes it from where the user stands too, written relative to the new project', async () => {
    smallDefault();
    const base = tempTree({ ...siteTemplates(), 'work/.keep': '' });
    const r = await run(base, 'init', 'work/stubbed', '--stub', '--source', 'tpl', '--templates', 'site');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const text = read(join(base, 'work/stubbed'), '.sync.yml');
    expect(text).toContain('    - { type: filesystem, location: ../../tpl }\n');
    expect((await run(join(base, 'work/stubbed'), 'status')).code).toBe(0);
  });
});

describe('init --stub refuses bad input, creating nothing', () => {
  it('an unknown template: the new directory is not made', async () => {
    smallDefault();
    const base = tempDir();
    const r = await run(base, 'init', 'stubbed', '--stub', '--templates', 'extar');
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: unknown template 'extar': no template source has it [COMPOSITION_UNKNOWN_TEMPLATE]\n  hint: did you mean 'extra'?\n",
    });
    expect(readdirSync(base)).toEqual([]);
  });

  it('a --source that is not there: the new directory is not made', async () => {
    smallDefault();
    const base = tempDir();
    const r = await run(base, 'init', 'stubbed', '--stub', '--source', 'nosuch');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(base, 'nosuch')} is not a directory [SOURCE_NOT_FOUND]`);
    expect(readdirSync(base)).toEqual([]);
  });
});

describe('init on a narrow terminal', () => {
  const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
  /** `pantograph init m --name acme-m` with the default templates, its output piped, at `columns`. */
  function initAt(columns: string): string {
    const { COLUMNS: _, PANTOGRAPH_DEFAULT_SOURCE: __, ...env } = process.env;
    const r = spawnSync(process.execPath, [bin, 'init', 'm', '--name', 'acme-m'], {
      cwd: tempDir(),
      encoding: 'utf8',
      env: { ...env, NO_COLOR: '1', COLUMNS: columns },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return r.stdout.slice(r.stdout.indexOf('Created module'));
  }

  it("folds the next steps' comments under their column, the commands whole", () => {
    expect(initAt('100')).toBe(
      'Created module acme-m in m with 8 templates: gemfile, git,\n' +
        '  module_init, pdk_ignore, puppet_lint, rakefile, rspec, yardopts.\n' +
        '\n' +
        'Next steps:\n' +
        '  cd m\n' +
        '  pantograph show <template>        # its settings; change them under its name in .sync.yml\n' +
        '  pantograph apply --diff           # apply what you changed, showing the diffs\n' +
        '  pantograph add template NAME      # opt-in: devcontainer, editorconfig,\n' +
        '                                      github_actions, gitlab_ci, litmus, rubocop, vscode\n' +
        '  pantograph status --check         # in CI: fails when files drift from the templates\n',
    );
  });

  it('puts each comment above its command where beside it would be a column of words', () => {
    expect(initAt('60')).toBe(
      'Created module acme-m in m with 8 templates:\n' +
        '  gemfile, git, module_init, pdk_ignore,\n' +
        '  puppet_lint, rakefile, rspec, yardopts.\n' +
        '\n' +
        'Next steps:\n' +
        '  cd m\n' +
        '  # its settings; change them under its name in .sync.yml\n' +
        '  pantograph show <template>\n' +
        '  # apply what you changed, showing the diffs\n' +
        '  pantograph apply --diff\n' +
        '  # opt-in: devcontainer, editorconfig,\n' +
        '  # github_actions, gitlab_ci, litmus, rubocop, vscode\n' +
        '  pantograph add template NAME\n' +
        '  # in CI: fails when files drift from the templates\n' +
        '  pantograph status --check\n',
    );
  });

  it("folds the opt-in templates' descriptions under their column when it asks", async () => {
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', '');
    const mem = memoryIo(tempDir());
    const io = { ...mem, interactive: true, widths: { out: 60, err: 60 } };
    const answers = ['acme-asked', '', '', '', 'vscode'];
    expect(await initWith(io, { format: 'text' }, 'asked', {}, async () => answers.shift() ?? '')).toBe(0);
    expect(mem.stderr).toBe(
      'Opt-in templates:\n' +
        '  devcontainer     A development container\n' +
        '                   (.devcontainer/devcontainer.json\n' +
        '                   and its Dockerfile)\n' +
        '  editorconfig     An .editorconfig, so that every editor\n' +
        "                   writes the module's files alike\n" +
        '  github_actions   GitHub Actions workflows\n' +
        '  gitlab_ci        GitLab CI/CD pipeline (.gitlab-ci.yml)\n' +
        '  litmus           Acceptance tests with puppet_litmus\n' +
        "  rubocop          RuboCop for the module's Ruby code\n" +
        "  vscode           Visual Studio Code's workspace\n" +
        '                   recommendations (.vscode/extensions.json)\n',
    );
  });
});
