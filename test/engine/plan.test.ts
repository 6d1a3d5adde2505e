import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { refusedPath } from '../../src/engine/output-files.js';
import { plan, planDetailed } from '../../src/engine/plan.js';
import { loadProject, type ProjectOptions } from '../../src/engine/project.js';
import type { PlannedFile, RenderPlan } from '../../src/engine/render-plan.js';
import { removeTempDirs, snapshotDir, type Tree, tempDir, tempTree } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';

const REPO = fileURLToPath(new URL('../fixtures/example-repo', import.meta.url));

afterEach(() => removeTempDirs());

const fsSource = (dir: string) => `    - type: filesystem\n      location: ${dir}\n`;

function syncYml(body: string, sources = fsSource(REPO)): string {
  return `pdk_template:\n  version: 2\n  template_sources:\n${sources}${body}`;
}

const EXAMPLE = syncYml(`  templates: [gemfile, github_actions, puppet_lint, scripts, motd, ---vscode]
  shared_settings:
    lint_plugins: [puppet-lint-param-docs]
puppet_lint:
  extra_plugins: [puppet-lint-unquoted_string-check]
gemfile:
  optional_gems: [pry]
  required_gems: [---rspec-puppet]
pdkignore:
  paths: [---/spec/, /pkg/]
github_actions:
  ruby_versions: !replace ['3.3']
`);

const METADATA = '{"name": "acme-widget", "version": "1.0.0"}';

const text = (f: PlannedFile | undefined) => Buffer.from(f!.content).toString('utf8');
const fileOf = (p: RenderPlan, path: string) => p.files.find((f) => f.path === path);

/** Loads and plans the project in `tree`, checking that planning wrote nothing into it. */
async function planTree(tree: Tree, options: ProjectOptions = {}) {
  const root = tempTree(tree);
  const before = snapshotDir(root);
  const project = await loadProject(root, options);
  const detailed = await planDetailed(project);
  expect(snapshotDir(root)).toEqual(before);
  return { root, project, ...detailed };
}

/** A template repository from inline templates: name -> files (`template.json` given as an object). */
function repo(templates: Record<string, Record<string, string | object>>): string {
  const tree: Tree = {};
  for (const [name, files] of Object.entries(templates)) {
    for (const [path, content] of Object.entries(files)) {
      tree[`${name}/${path}`] =
        typeof content === 'string' ? content : JSON.stringify({ name, ...content }, null, 2);
    }
  }
  return tempTree(tree, 'pantograph-repo-');
}

describe('the example repository', () => {
  it('plans every file of the composition', async () => {
    const { plan: p, root } = await planTree({ '.sync.yml': EXAMPLE, 'metadata.json': METADATA });
    expect(p.problems).toEqual([]);
    expect(p.projectRoot).toBe(root);
    expect(p.isNew).toBe(true);
    expect(p.sources).toEqual([{ type: 'filesystem', location: REPO }]);
    expect(p.templates.map((t) => [t.name, t.version, t.source])).toEqual([
      ['gemfile', '2.0.1', 0],
      ['github_actions', '0.3.0', 0],
      ['puppet_lint', '1.2.0', 0],
      ['scripts', '0.1.0', 0],
      ['motd', '1.0.0', 0],
      ['pdkignore', '1.0.0', 0],
    ]);
    expect(p.files.map((f) => [f.path, f.template, f.source, f.mode.toString(8), f.kind, f.empty])).toEqual([
      ['Gemfile', 'gemfile', 'files/Gemfile.epp', '644', 'file', false],
      ['.github/dependabot.yml', 'github_actions', 'files/.github/dependabot.yml.epp', '644', 'file', true],
      [
        '.github/workflows/ci.yml',
        'github_actions',
        'files/.github/workflows/ci.yml.epp',
        '644',
        'file',
        false,
      ],
      [
        '.github/workflows/lint.yml',
        'github_actions',
        'files/.github/workflows/lint.yml.epp',
        '644',
        'file',
        false,
      ],
      ['.puppet-lint.rc', 'puppet_lint', 'files/.puppet-lint.rc.epp', '644', 'file', false],
      ['assets/logo.png', 'scripts', 'files/assets/logo.png', '644', 'file', false],
      ['bin/setup.sh', 'scripts', 'files/bin/setup.sh', '755', 'file', false],
      ['README.md', 'scripts', 'files_init/README.md.epp', '644', 'init', false],
      ['templates/motd.epp', 'motd', 'files/templates/motd.epp.epp', '644', 'file', false],
      ['.pdkignore', 'pdkignore', 'files/.pdkignore.epp', '644', 'file', false],
    ]);
  });

  it('merges shared settings, hooks, knockouts and !replace into the output', async () => {
    const { plan: p } = await planTree({ '.sync.yml': EXAMPLE, 'metadata.json': METADATA });
    // puppet_lint's hook publishes extra_plugins; the project adds one; gemfile knocks out rspec-puppet.
    expect(text(fileOf(p, 'Gemfile'))).toBe(
      `source 'https://rubygems.org'

gem 'puppet'
gem 'puppet-lint-trailing_newline-check'
gem 'puppet-lint-unquoted_string-check'
gem 'puppet-lint-param-docs'

group :optional do
  gem 'pry'
end
`,
    );
    expect(text(fileOf(p, '.github/workflows/ci.yml'))).toBe(
      `name: CI
on: [push, pull_request]
jobs:
  spec:
    strategy:
      matrix:
        ruby: ['3.3']
    runs-on: ubuntu-latest
    steps:
      - run: bundle exec rake spec
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: bundle exec rake lint # 3 plugin(s)
# github_actions 0.3.0 for acme-widget
`,
    );
    expect(text(fileOf(p, '.pdkignore'))).toBe(
      '/appveyor.yml\n/.fixtures.yml\n/Gemfile\n/.gitignore\n/.vscode/\n/pkg/\n',
    );
    expect(text(fileOf(p, '.puppet-lint.rc'))).toBe('--no-140chars-check\n--no-documentation-check\n');
    // Other delimiters, also in the partial it calls: the output is itself an EPP template.
    expect(text(fileOf(p, 'templates/motd.epp'))).toBe(
      "<%- | String $host | -%>\nWelcome to <%= $host %>\n-- managed by ops (<%= 'literal' %>)\n",
    );
    expect(text(fileOf(p, 'README.md'))).toBe('# A Puppet module\n\nModule `acme-widget`.\n');
    expect(text(fileOf(p, '.github/dependabot.yml'))).toBe('');
    expect(p.templates.find((t) => t.name === 'github_actions')!.settings).toEqual({
      ruby_versions: ['3.3'],
      run_lint: true,
      dependabot: false,
      lint_plugins: [
        'puppet-lint-trailing_newline-check',
        'puppet-lint-unquoted_string-check',
        'puppet-lint-param-docs',
      ],
      lint_job: true,
    });
  });

  it('copies binary and executable files byte for byte', async () => {
    const { plan: p } = await planTree({ '.sync.yml': EXAMPLE });
    const logo = fileOf(p, 'assets/logo.png')!;
    expect(Buffer.from(logo.content).equals(readFileSync(join(REPO, 'scripts/files/assets/logo.png')))).toBe(
      true,
    );
    expect(logo.content[0]).toBe(0x89);
    const setup = fileOf(p, 'bin/setup.sh')!;
    expect(text(setup)).toBe('#!/bin/sh\nset -e\nbundle install\n');
    expect(setup.mode).toBe(0o755);
    expect(statSync(join(REPO, 'scripts/files/bin/setup.sh')).mode & 0o111).not.toBe(0);
  });

  it('leaves files_init out once the project has a lock file, and names the project after its directory', async () => {
    const { plan: p, root } = await planTree({ '.sync.yml': EXAMPLE, '.pantograph.lock': '{}' });
    expect(p.isNew).toBe(false);
    expect(fileOf(p, 'README.md')).toBeUndefined();
    const name = root.split('/').at(-1);
    expect(text(fileOf(p, '.github/workflows/ci.yml'))).toContain(`# github_actions 0.3.0 for ${name}\n`);
  });

  it('lets a .pp hook drop a file and derive a setting', async () => {
    const { plan: p } = await planTree({
      '.sync.yml': `${EXAMPLE}  run_lint: false\n  dependabot: true\n`,
    });
    expect(p.problems).toEqual([]);
    expect(fileOf(p, '.github/workflows/lint.yml')).toBeUndefined();
    expect(text(fileOf(p, '.github/workflows/ci.yml'))).not.toContain('lint');
    expect(fileOf(p, '.github/dependabot.yml')!.empty).toBe(false);
  });

  it('applies vscode unless excluded, and reports where each setting came from', async () => {
    const { plan: p, templates } = await planTree({
      '.sync.yml': syncYml('  templates: [gemfile, puppet_lint]\ngemfile:\n  optional_gems: [pry]\n'),
    });
    expect(p.templates.map((t) => t.name)).toEqual(['gemfile', 'puppet_lint', 'pdkignore', 'vscode']);
    expect(text(fileOf(p, '.vscode/extensions.json'))).toBe(
      '{\n  "recommendations": [\n    "puppet.puppet-vscode"\n  ]\n}\n',
    );
    const gemfile = templates[0]!;
    expect(gemfile.origins).toEqual({
      source: { layer: 'default' },
      required_gems: { layer: 'default' },
      optional_gems: { layer: 'project' },
      lint_plugins: { layer: 'shared', detail: 'puppet_lint' },
    });
    expect(gemfile.defaults.optional_gems).toEqual([]);
    expect(gemfile.settings.optional_gems).toEqual(['pry']);
    expect(templates[1]!.published).toEqual({ lint_plugins: ['puppet-lint-trailing_newline-check'] });
  });

  it('reports invalid settings at their .sync.yml position and renders nothing of that template', async () => {
    const { plan: p, root } = await planTree({
      '.sync.yml': syncYml(
        '  templates: [puppet_lint]\npuppet_lint:\n  disabled_checks: yes\n  extra_plugin: [x]\n',
      ),
    });
    expect(p.problems).toEqual([
      {
        severity: 'error',
        code: 'SETTINGS_INVALID',
        message: "puppet_lint: setting 'disabled_checks' must be a list",
        file: `${root}/.sync.yml`,
        line: 8,
        column: 20,
      },
      {
        severity: 'error',
        code: 'SETTINGS_UNKNOWN_KEY',
        message: "unknown setting 'extra_plugin' for template 'puppet_lint'",
        file: `${root}/.sync.yml`,
        line: 9,
        column: 3,
        hint: "did you mean 'extra_plugins'?",
      },
      {
        severity: 'warning',
        code: 'SYNC_AMBIGUOUS_SCALAR',
        message: expect.stringContaining('yes'),
        file: `${root}/.sync.yml`,
        line: 8,
        column: 20,
        hint: expect.any(String),
      },
    ]);
    expect(p.files.map((f) => f.template)).toEqual(['pdkignore', 'vscode']);
  });
});

describe('sources: git and filesystem holding the same template', () => {
  /** The example repository as a tree, with gemfile changed, committed to a temporary git remote. */
  function gitCopy(): string {
    const tree: Tree = {};
    const walk = (rel: string) => {
      for (const name of readdirSync(join(REPO, rel))) {
        const r = rel ? `${rel}/${name}` : name;
        const st = statSync(join(REPO, r));
        if (st.isDirectory()) walk(r);
        else tree[r] = { content: readFileSync(join(REPO, r)), mode: st.mode & 0o777 };
      }
    };
    walk('');
    tree['gemfile/template.json'] = JSON.stringify({ name: 'Gemfile (git)', version: '9.0.0' });
    tree['gemfile/files/Gemfile.epp'] = "# from git for <%= $project['name'] %>\n";
    const remote = tempRemote();
    remote.commit(tree);
    return remote.url;
  }

  const gitSource = (url: string, extra = '') => `    - type: git\n      location: ${url}\n${extra}`;

  it('takes a template from the first source that has it', async () => {
    const url = gitCopy();
    const env = { ...process.env, PANTOGRAPH_CACHE_DIR: tempDir('pantograph-cache-') };
    const body = '  templates: [gemfile, scripts]\n';
    const first = await planTree({ '.sync.yml': syncYml(body, gitSource(url) + fsSource(REPO)) }, { env });
    expect(first.plan.problems).toEqual([]);
    expect(first.plan.sources.map((s) => [s.type, typeof s.commit])).toEqual([
      ['git', 'string'],
      ['filesystem', 'undefined'],
    ]);
    expect(first.plan.templates.map((t) => [t.name, t.version, t.source])).toEqual([
      ['gemfile', '9.0.0', 0],
      ['scripts', '0.1.0', 0],
      ['pdkignore', '1.0.0', 0],
      ['vscode', '1.0.0', 0],
    ]);
    expect(text(fileOf(first.plan, 'Gemfile'))).toMatch(/^# from git for /);
    expect(first.project.shadowed.map((l) => [l.name, l.source.index])).toContainEqual(['gemfile', 1]);
    // Copied through git, the script keeps its executable bit.
    expect(fileOf(first.plan, 'bin/setup.sh')!.mode).toBe(0o755);

    const second = await planTree({ '.sync.yml': syncYml(body, fsSource(REPO) + gitSource(url)) }, { env });
    expect(second.plan.templates.map((t) => [t.name, t.version, t.source])[0]).toEqual([
      'gemfile',
      '2.0.1',
      0,
    ]);
    expect(text(fileOf(second.plan, 'Gemfile'))).toMatch(/^source 'https:\/\/rubygems.org'/);
  });

  it('refuses JavaScript hooks from an untrusted git source, naming trusted: true and --trust', async () => {
    const remote = tempRemote();
    remote.commit({
      'js/template.json': JSON.stringify({ name: 'js', default_settings: { word: 'plain' } }),
      'js/files/out.txt.epp': '<%= $word %>\n',
      'js/hooks/after_default_settings.mjs':
        "export default (s) => ({ ...s, settings: { word: 'hooked' } });\n",
    });
    const env = { ...process.env, PANTOGRAPH_CACHE_DIR: tempDir('pantograph-cache-') };
    const untrusted = await planTree(
      { '.sync.yml': syncYml('  templates: [js]\n', gitSource(remote.url)) },
      { env },
    );
    expect(untrusted.plan.problems).toEqual([
      {
        severity: 'error',
        code: 'HOOK_UNTRUSTED',
        message: expect.stringMatching(
          /^template 'js' has JavaScript hooks \(.*after_default_settings\.mjs\) but its source .* is not trusted$/,
        ),
        file: `${untrusted.root}/.sync.yml`,
        line: 4,
        column: 7,
        hint: 'if you trust this source, set `trusted: true` on it in .sync.yml or run with --trust',
      },
    ]);
    expect(untrusted.plan.files).toEqual([]);

    const trusted = await planTree(
      { '.sync.yml': syncYml('  templates: [js]\n', gitSource(remote.url, '      trusted: true\n')) },
      { env },
    );
    expect(trusted.plan.problems).toEqual([]);
    expect(text(fileOf(trusted.plan, 'out.txt'))).toBe('hooked\n');
    const flag = await planTree(
      { '.sync.yml': syncYml('  templates: [js]\n', gitSource(remote.url)) },
      { env, trust: true },
    );
    expect(text(fileOf(flag.plan, 'out.txt'))).toBe('hooked\n');
  });
});

describe('rendering', () => {
  it('gives declared parameters only declared names, defaults for undef, and the four top-scope names', async () => {
    const dir = repo({
      tpl: {
        'template.json': {
          version: '1.2.3',
          default_settings: { greeting: 'hi', 'odd-name': 'x' },
          setting_subscriptions: ['gems'],
        },
        'files/params.txt.epp':
          "<%- | String $greeting, Array $gems = ['dflt'] | -%>\n<%= $greeting %> <%= $gems %> <%= $settings['odd-name'] %> <%= $metadata %> <%= $project %> <%= $template %>\n",
        'files/free.txt.epp': '<%= $greeting %> <%= $gems %>|\n',
      },
    });
    const { plan: p, root } = await planTree({ '.sync.yml': syncYml('  templates: [tpl]\n', fsSource(dir)) });
    // Nothing publishes 'gems' here, on purpose: the parameter's default is what renders.
    expect(p.problems).toEqual([
      {
        severity: 'warning',
        code: 'SHARED_NOT_PUBLISHED',
        message: "template 'tpl' subscribes to 'gems', which no template of the sources publishes",
        file: join(dir, 'tpl/template.json'),
        line: 9,
        column: 5,
        hint: 'publish it from a template (under "shared_settings" in its template.json), or remove the subscription',
      },
    ]);
    const name = root.split('/').at(-1);
    expect(text(fileOf(p, 'params.txt'))).toBe(
      `hi [dflt] x {} {name => ${name}, is_new => true} {name => tpl, version => 1.2.3, source => ${dir}}\n`,
    );
    expect(text(fileOf(p, 'free.txt'))).toBe('hi |\n');
  });

  it('reports a required parameter without value naming template, file and parameter', async () => {
    const dir = repo({
      tpl: {
        'template.json': { setting_subscriptions: ['gems'] },
        'files/a.txt.epp': '<%- |\n  Array $gems,\n  String $other = "x",\n| -%>\n<%= $gems %>\n',
        'files/b.txt': 'still planned\n',
      },
    });
    const { plan: p } = await planTree({ '.sync.yml': syncYml('  templates: [tpl]\n', fsSource(dir)) });
    expect(p.problems).toEqual(
      [
        {
          severity: 'error',
          code: 'RENDER_MISSING_PARAMETER',
          message: "template 'tpl', file files/a.txt.epp: required parameter 'gems' has no value",
          file: join(dir, 'tpl/files/a.txt.epp'),
          line: 2,
          column: 3,
          hint: "set 'gems' in the 'tpl' section of .sync.yml, or give the parameter a default",
        },
        {
          severity: 'warning',
          code: 'RENDER_UNKNOWN_PARAMETER',
          message: "parameter 'other' of tpl/files/a.txt.epp matches no setting of template 'tpl'",
          file: join(dir, 'tpl/files/a.txt.epp'),
          line: 3,
          column: 3,
          hint: undefined,
        },
        {
          severity: 'warning',
          code: 'SHARED_NOT_PUBLISHED',
          message: "template 'tpl' subscribes to 'gems', which no template of the sources publishes",
          file: join(dir, 'tpl/template.json'),
          line: 4,
          column: 5,
          hint: 'publish it from a template (under "shared_settings" in its template.json), or remove the subscription',
        },
      ].map(({ hint, ...rest }) => (hint === undefined ? rest : { hint, ...rest })),
    );
    expect(p.files.map((f) => f.path)).toEqual(['b.txt']);
  });

  it('suggests the setting a declared parameter probably meant', async () => {
    const dir = repo({
      tpl: {
        'template.json': { default_settings: { colour: 'red' } },
        'files/a.epp': '<%- | $color = "blue" | -%><%= $color %>',
      },
    });
    const { plan: p } = await planTree({ '.sync.yml': syncYml('  templates: [tpl]\n', fsSource(dir)) });
    expect(p.problems).toMatchObject([
      { severity: 'warning', code: 'RENDER_UNKNOWN_PARAMETER', hint: "did you mean 'colour'?" },
    ]);
    expect(text(fileOf(p, 'a'))).toBe('blue');
  });

  it('reports EPP errors with their code and position, and plans the other files', async () => {
    const dir = repo({
      tpl: {
        'template.json': {},
        'files/bad.epp': 'ok\n<%= $nosuch %>\n',
        'files/syntax.epp': '<% if { %>',
        'files/good.epp': 'good\n',
      },
    });
    const { plan: p } = await planTree({ '.sync.yml': syncYml('  templates: [tpl]\n', fsSource(dir)) });
    expect(p.problems.map((x) => [x.code, x.file, x.line, x.column])).toEqual([
      ['EPP_UNKNOWN_VARIABLE', join(dir, 'tpl/files/bad.epp'), 2, 5],
      ['EPP_SYNTAX', join(dir, 'tpl/files/syntax.epp'), 1, expect.any(Number)],
    ]);
    expect(p.files.map((f) => f.path)).toEqual(['good']);

    const lax = await planTree(
      { '.sync.yml': syncYml('  templates: [tpl]\n', fsSource(dir)) },
      { strict: false },
    );
    expect(text(fileOf(lax.plan, 'bad'))).toBe('ok\n\n');
    expect(lax.plan.problems.map((x) => [x.severity, x.code])).toContainEqual([
      'warning',
      expect.any(String),
    ]);
  });

  it('gives a path two templates produce to the earliest with non-empty output, with a warning', async () => {
    const dir = repo({
      first: {
        'template.json': { default_settings: { on: false } },
        'files/README.md.epp': '<% if $on { %>first<% } %>',
      },
      second: { 'template.json': {}, 'files/README.md': 'second\n' },
      third: { 'template.json': {}, 'files/README.md': 'third\n' },
    });
    const off = await planTree({
      '.sync.yml': syncYml('  templates: [first, second, third]\n', fsSource(dir)),
    });
    expect(off.plan.files.map((f) => [f.path, f.template, text(f)])).toEqual([
      ['README.md', 'second', 'second\n'],
    ]);
    expect(off.plan.problems).toEqual([
      {
        severity: 'warning',
        code: 'COMPOSITION_PATH_CLAIMED',
        message: "'README.md' is produced by templates 'second' and 'first', 'third'; 'second' wins",
        file: join(dir, 'first/files/README.md.epp'),
        line: 1,
        column: 1,
        hint: 'the earliest template in the applied order with non-empty output wins',
      },
    ]);
    const on = await planTree({
      '.sync.yml': syncYml('  templates: [first, second]\nfirst:\n  on: true\n', fsSource(dir)),
    });
    expect(on.plan.files.map((f) => [f.template, text(f)])).toEqual([['first', 'first']]);
  });

  it('applies before_file_render changes to that file only', async () => {
    const dir = repo({
      tpl: {
        'template.json': { default_settings: { word: 'plain' } },
        'files/a.txt.epp': '<%= $word %>',
        'files/b.txt.epp': '<%= $word %>',
        'hooks/before_file_render.pp':
          "if $state['file']['path'] == 'b.txt' { $state + { 'settings' => { 'word' => 'special' } } } else { $state }",
      },
    });
    const { plan: p } = await planTree({ '.sync.yml': syncYml('  templates: [tpl]\n', fsSource(dir)) });
    expect(p.problems).toEqual([]);
    expect(p.files.map((f) => [f.path, text(f)])).toEqual([
      ['a.txt', 'plain'],
      ['b.txt', 'special'],
    ]);
  });

  it('reports a shared-settings cycle and still returns a plan', async () => {
    const dir = repo({
      a: {
        'template.json': { shared_settings: { x: { value: 1 } }, setting_subscriptions: ['y'] },
        'files/a.epp': 'a',
      },
      b: {
        'template.json': { shared_settings: { y: { value: 2 } }, setting_subscriptions: ['x'] },
        'files/b.epp': '<%= $x %>',
      },
    });
    const { plan: p } = await planTree({ '.sync.yml': syncYml('  templates: [a, b]\n', fsSource(dir)) });
    expect(p.problems.map((x) => [x.code, x.message])).toEqual([
      ['SHARED_CYCLE', 'shared settings form a cycle: a -> b -> a'],
    ]);
  });
});

describe('problems while resolving', () => {
  it("blames a publisher's wrong value on the publisher alone, not on the subscriber's valid default", async () => {
    const dir = repo({
      app: {
        'template.json': {
          shared_settings: {
            checks: { schema: { type: 'array', items: { type: 'string' } }, value: 'lint' },
          },
        },
      },
      ci: {
        'template.json': { default_settings: { checks: [] }, setting_subscriptions: ['checks'] },
        'template_schema.json': JSON.stringify({ type: 'object', properties: { checks: { type: 'array' } } }),
      },
    });
    const { plan: p, project } = await planTree({
      '.sync.yml': syncYml('  templates: [app, ci]\n', fsSource(dir)),
    });
    expect(p.problems).toEqual([
      {
        severity: 'error',
        code: 'SETTINGS_INVALID',
        message: "shared setting 'checks' must be a list, by the schema template 'app' publishes it with",
        hint: "fix the value here (or the schema, app/template.json:5:17): until it fits, the templates subscribing to 'checks' render nothing",
        file: project.applied[0]!.manifestFile,
        line: 11,
        column: 16,
      },
    ]);
  });

  it("reports a published value the subscriber's schema refuses at the publisher's value", async () => {
    const dir = repo({
      app: {
        'template.json': { shared_settings: { checks: { schema: { type: 'array' }, value: ['lint'] } } },
      },
      ci: {
        'template.json': { default_settings: { checks: [] }, setting_subscriptions: ['checks'] },
        'template_schema.json': JSON.stringify({
          type: 'object',
          properties: { checks: { type: 'array', items: { type: 'integer' } } },
        }),
      },
    });
    const { plan: p, project } = await planTree({
      '.sync.yml': syncYml('  templates: [app, ci]\n', fsSource(dir)),
    });
    expect(p.problems).toEqual([
      {
        severity: 'error',
        code: 'SETTINGS_INVALID',
        message: "ci: setting 'checks.0' must be a whole number",
        file: project.applied[0]!.manifestFile,
        line: 9,
        column: 9,
      },
    ]);
  });

  it('warns about a knockout that matches nothing, at its .sync.yml position', async () => {
    const { plan: p, root } = await planTree({
      '.sync.yml': syncYml('  templates: [gemfile]\ngemfile:\n  required_gems: [---nosuch]\n'),
    });
    expect(p.problems).toEqual([
      {
        severity: 'warning',
        code: 'SETTINGS_KNOCKOUT_UNMATCHED',
        message: "knockout '---nosuch' matches no inherited item; it is dropped",
        file: `${root}/.sync.yml`,
        line: 8,
        column: 19,
      },
    ]);
    expect(p.templates[0]!.settings.required_gems).toEqual(['puppet', 'rspec-puppet']);
  });

  it('reports a malformed metadata.json with its position, and renders with {}', async () => {
    const { plan: p, root } = await planTree({
      '.sync.yml': syncYml('  templates: [scripts]\n'),
      'metadata.json': '{\n  "name": "x",\n  oops\n}\n',
    });
    expect(p.problems.map((x) => [x.severity, x.code, x.file, x.line])).toEqual([
      ['error', 'PROJECT_METADATA', `${root}/metadata.json`, 3],
    ]);
    expect(text(fileOf(p, 'README.md'))).toContain(`Module \`${root.split('/').at(-1)}\`.`);
  });

  it('reports a key given twice in metadata.json where it is, and renders with {}', async () => {
    const { plan: p, root } = await planTree({
      '.sync.yml': syncYml('  templates: [scripts]\n'),
      'metadata.json': '{\n  "name": "x",\n  "name": "y"\n}\n',
    });
    expect(p.problems.map((x) => [x.code, x.file, x.line, x.column, x.message])).toEqual([
      [
        'PROJECT_METADATA',
        `${root}/metadata.json`,
        3,
        3,
        'metadata.json is not valid JSON: Map keys must be unique',
      ],
    ]);
  });

  it("gives templates metadata.json's values as Puppet reads JSON: Integers and Floats apart", async () => {
    const dir = repo({
      meta: {
        'template.json': {},
        'files/meta.txt.epp':
          "<%= $metadata['n'] %> <%= $metadata['f'] %> <%= $metadata['big'] %> <%= $metadata['f'] =~ Float %>",
      },
    });
    const { plan: p } = await planTree({
      '.sync.yml': syncYml('  templates: [meta]\n', fsSource(dir)),
      'metadata.json': '{"name": "x", "n": 1, "f": 1.0, "big": 9223372036854775807}',
    });
    expect(p.problems).toEqual([]);
    expect(text(fileOf(p, 'meta.txt'))).toBe('1 1.0 9223372036854775807 true');
  });

  it('reports an unusable template_schema.json once, without inferring another schema', async () => {
    const dir = repo({
      tpl: {
        'template.json': { default_settings: { a: 1 } },
        'template_schema.json': '{ "type": "object", "properties": { "a": { "type": "integr" } } }',
        'files/a.txt': 'a',
      },
    });
    const { plan: p } = await planTree({
      '.sync.yml': syncYml('  templates: [tpl]\ntpl:\n  b: 2\n', fsSource(dir)),
    });
    // The loader's report only: no SETTINGS_UNKNOWN_KEY for `b` from an inferred schema.
    expect(p.problems.length).toBeGreaterThan(0);
    expect(new Set(p.problems.map((x) => `${x.code} ${x.file}`))).toEqual(
      new Set([`TEMPLATE_SCHEMA ${join(dir, 'tpl/template_schema.json')}`]),
    );
  });

  it('stops a template whose hook fails, and plans the others', async () => {
    const dir = repo({
      broken: {
        'template.json': {},
        'files/a.txt': 'a',
        'hooks/after_default_settings.pp': "$state + { 'project' => { 'name' => 'other' } }",
      },
      fine: { 'template.json': {}, 'files/b.txt': 'b' },
    });
    const { plan: p } = await planTree({
      '.sync.yml': syncYml('  templates: [broken, fine]\n', fsSource(dir)),
    });
    expect(p.problems).toEqual([
      {
        severity: 'error',
        code: 'HOOK_CHANGED_READONLY',
        message: "hook after_default_settings: changed 'project', which is read-only",
        file: join(dir, 'broken/hooks/after_default_settings.pp'),
        line: 1,
        column: 1,
      },
    ]);
    expect(p.files.map((f) => f.path)).toEqual(['b.txt']);
  });
});

describe('plan()', () => {
  it('returns the RenderPlan alone, with the .sync.yml lists', async () => {
    const root = tempTree({
      '.sync.yml': syncYml(
        "  templates: [scripts]\n  unmanaged: [Gemfile]\n  delete: [.travis.yml]\n  purge: true\n  post: [{ '*.sh': 'chmod +x {}' }]\n",
      ),
    });
    const p = await plan(await loadProject(root));
    expect(p.unmanaged).toEqual(['Gemfile']);
    expect(p.delete).toEqual(['.travis.yml']);
    expect(p.purge).toBe(true);
    expect(p.post).toEqual([{ glob: '*.sh', command: 'chmod +x {}' }]);
    expect(p.engineVersion).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('refuses output paths that leave the project or are reserved', () => {
    expect(refusedPath('../x')).toBe('leaves the project or is not normalised');
    expect(refusedPath('a/../../x')).toBe('leaves the project or is not normalised');
    expect(refusedPath('/etc/passwd')).toBe('is not a relative POSIX path');
    expect(refusedPath('C:/x')).toBe('is not a relative POSIX path');
    expect(refusedPath('.git/config')).toBe('is reserved for Pantograph');
    expect(refusedPath('.sync.yml')).toBe('is reserved for Pantograph');
    expect(refusedPath('.pantograph.lock')).toBe('is reserved for Pantograph');
    expect(refusedPath('.SYNC.YML')).toBe('is reserved for Pantograph');
    expect(refusedPath('a\nb.rb')).toBe('contains a control character (U+000A): rename the file');
    expect(refusedPath('x/\u001b[2Jy')).toBe('contains a control character (U+001B): rename the file');
    expect(refusedPath('.github/x')).toBeUndefined();
    expect(refusedPath('a/b.txt')).toBeUndefined();
  });
});
