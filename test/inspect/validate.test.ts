import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../src/engine/render-plan.js';
import { validateProject } from '../../src/engine/validate.js';
import { run, templates } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const SCALAR = { type: 'string' };

/** A repository with one of each problem validate finds, and a project applying it. */
function brokenProject(): string {
  return tempTree({
    ...templates('repo', {
      broken: {
        'template.json': {
          default_settings: { flag: false, name: 'x', level: 'low' },
          shared_settings: { level: { description: 'How loud.', schema: SCALAR, value: 'low' } },
          setting_subscriptions: [],
        },
        // two syntax errors in one file, both reported
        'files/syntax.txt.epp': 'a <%= 1 + %> b\n<% if { %>\n<%= 2 %>\n',
        // two files on one path
        'files/twice.epp': 'x',
        'files/twice': 'y',
        // a required parameter no setting fills
        'files/needs.txt.epp': '<%- | String $name, String $needed | -%>\n<%= $name %> <%= $needed %>\n',
        // a branch the settings do not reach: unknown function and a variable typo
        'files/branch.txt.epp': '<% if $flag { -%>\n<%= upcasee($nmae) %>\n<% } -%>\nok\n',
        // epp() calls: a missing target, a missing and an unknown argument
        'files/calls.txt.epp':
          "<% if $flag { -%>\n<%= epp('partials/missing.epp') %>\n<% } -%>\n<%= epp('partials/p.epp', { 'nmae' => 'x' }) %>\n",
        'partials/p.epp': '<%- | String $name | -%>\n<%= $name %>\n',
        // a partial nobody calls, with syntax errors in a nested call
        'partials/unused.epp': "<%= epp('partials/p.epp', { 'name' => ) %>\n",
        'files/shared.txt': 'broken',
      },
      other: {
        'template.json': {
          default_settings: { level: 'high' },
          shared_settings: { level: { description: 'How loud.', schema: SCALAR, value: 'high' } },
        },
        'files/shared.txt': 'other',
      },
      hooked: { 'template.json': {}, 'hooks/after_default_settings.pp': '$state + {\n' },
      listener: { 'template.json': { setting_subscriptions: ['level'] } },
      unused: { 'template.json': { default_settings: { a: 1 } } },
      not_always: { 'template.json': {} },
    }),
    'project/.sync.yml': `pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: ../repo
  templates: [broken, other, hooked, listener, ---not_always]
  purge: yes
unused:
  a: 2
`,
  });
}

type Row = [
  severity: string,
  code: string,
  file: string,
  line: number | undefined,
  column: number | undefined,
];

function rows(root: string, problems: readonly Problem[]): Row[] {
  return problems.map((p) => [
    p.severity,
    p.code,
    p.file === undefined ? '' : p.file.slice(root.length + 1),
    p.line,
    p.column,
  ]);
}

describe('validate: the whole tree at once', () => {
  it('reports every error and warning with its code and position, and writes nothing', async () => {
    const root = brokenProject();
    const before = snapshotDir(root);
    const { problems } = await validateProject(join(root, 'project'));
    const found = rows(root, problems);
    const expected: Row[] = [
      ['error', 'EPP_SYNTAX', 'repo/broken/files/syntax.txt.epp', 1, 11],
      ['error', 'EPP_SYNTAX', 'repo/broken/files/syntax.txt.epp', 2, 11],
      ['error', 'TEMPLATE_FILE_CONFLICT', 'repo/broken/files/twice.epp', 1, 1],
      ['error', 'RENDER_MISSING_PARAMETER', 'repo/broken/files/needs.txt.epp', 1, 21],
      ['error', 'EPP_UNKNOWN_FUNCTION', 'repo/broken/files/branch.txt.epp', 2, 5],
      ['error', 'EPP_TEMPLATE_NOT_FOUND', 'repo/broken/files/calls.txt.epp', 2, 5],
      ['error', 'NESTED_MISSING_PARAMETER', 'repo/broken/files/calls.txt.epp', 4, 5],
      ['error', 'NESTED_UNKNOWN_PARAMETER', 'repo/broken/files/calls.txt.epp', 4, 29],
      // rendering fails inside the partial too
      ['error', 'EPP_UNKNOWN_PARAMETER', 'repo/broken/partials/p.epp', 1, 7],
      ['error', 'EPP_SYNTAX', 'repo/broken/partials/unused.epp', 1, 39],
      ['error', 'HOOK_FAILED', 'repo/hooked/hooks/after_default_settings.pp', 2, 1],
      ['warning', 'SYNC_AMBIGUOUS_SCALAR', 'project/.sync.yml', 7, 10],
      ['warning', 'COMPOSITION_EXCLUDE_NOT_ALWAYS_APPLY', 'project/.sync.yml', 6, 48],
      ['warning', 'COMPOSITION_SETTINGS_NOT_APPLIED', 'project/.sync.yml', 8, 1],
      ['warning', 'RENDER_UNKNOWN_PARAMETER', 'repo/broken/files/needs.txt.epp', 1, 21],
      ['warning', 'ANALYSIS_UNKNOWN_VARIABLE', 'repo/broken/files/branch.txt.epp', 2, 13],
    ];
    for (const row of expected) expect(found).toContainEqual(row);
    // Shared-setting publishers that disagree, and a path two templates produce.
    expect(found.filter((r) => r[1] === 'SHARED_PUBLISHERS_DISAGREE')).toHaveLength(1);
    expect(found).toContainEqual([
      'warning',
      'COMPOSITION_PATH_CLAIMED',
      'repo/other/files/shared.txt',
      1,
      1,
    ]);
    expect(found).toHaveLength(expected.length + 2);
    // Each problem once, although rendering found some of them too.
    const keys = found.map((r) => r.join(' '));
    expect(new Set(keys).size).toBe(keys.length);
    // Errors first.
    const severities = problems.map((p) => p.severity);
    expect(severities).toEqual([...severities].sort());
    expect(snapshotDir(root)).toEqual(before);
  });

  it('says what is wrong and what to do', async () => {
    const root = brokenProject();
    const { problems } = await validateProject(join(root, 'project'));
    const byCode = (code: string) => problems.find((p) => p.code === code);
    expect(byCode('EPP_UNKNOWN_FUNCTION')).toMatchObject({
      message: "Unknown function: 'upcasee'.",
      hint: "did you mean 'upcase'?",
    });
    expect(byCode('ANALYSIS_UNKNOWN_VARIABLE')).toMatchObject({
      severity: 'warning',
      message:
        "'$nmae' is neither a setting of template 'broken' nor a top-scope name ($settings, $metadata, $project, $template)",
      hint: "did you mean 'name'?",
    });
    expect(byCode('NESTED_MISSING_PARAMETER')).toMatchObject({
      message: "epp('partials/p.epp') passes no value for its required parameter 'name'",
    });
    expect(byCode('NESTED_UNKNOWN_PARAMETER')).toMatchObject({
      message: "epp('partials/p.epp') passes 'nmae', which the template does not declare",
      hint: "did you mean 'name'?",
    });
    expect(byCode('EPP_TEMPLATE_NOT_FOUND')).toMatchObject({
      message: "Could not find template 'partials/missing.epp'",
    });
  });

  it('exits 1 on errors, printing each as file:line:col', async () => {
    const root = brokenProject();
    const r = await run(join(root, 'project'), 'validate');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${join(root, 'repo/broken/files/branch.txt.epp')}:2:13: warning: '$nmae' is neither a setting of template 'broken'`,
    );
    expect(r.stdout).toBe('invalid (4 templates, 2 files): 11 errors, 7 warnings\n');
  });

  it('exits 0 with warnings only (a variable typo in a branch not taken)', async () => {
    const root = tempTree({
      ...templates('repo', {
        t: {
          'template.json': { default_settings: { ruby_version: '3.2', lint: false } },
          'files/a.txt.epp': '<% if $lint { %><%= $ruby_versoin %><% } %>ok\n',
        },
      }),
      'project/.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{ type: filesystem, location: ../repo }]\n  templates: [t]\n',
    });
    const r = await run(join(root, 'project'), 'validate');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('valid (1 template, 1 file): 0 errors, 1 warning\n');
    expect(r.stderr).toContain("hint: did you mean 'ruby_version'?");
  });

  it('reports an unknown variable on the path the settings take once, as the error rendering gives', async () => {
    const root = tempTree({
      ...templates('repo', {
        t: {
          'template.json': { default_settings: { ruby_version: '3.2' } },
          'files/a.txt.epp': '<%= $ruby_versoin %>\n',
        },
      }),
      'project/.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{ type: filesystem, location: ../repo }]\n  templates: [t]\n',
    });
    const { problems } = await validateProject(join(root, 'project'));
    expect(rows(root, problems)).toEqual([['error', 'EPP_UNKNOWN_VARIABLE', 'repo/t/files/a.txt.epp', 1, 5]]);
  });

  it("warns of a $settings['key'] naming no setting, where it is read, unless the schema takes any", async () => {
    const root = tempTree({
      ...templates('repo', {
        t: {
          'template.json': { default_settings: { ruby_version: '3.2' } },
          'files/a.txt.epp':
            "<%= $settings['ruby_version'] %> <%= $settings['ruby_versoin'] %>\n<%= [{}].map |$settings| { $settings['own'] } %> <%= [1][0] %>\n<%= $settings[rubyversion] %>\n",
        },
        open: {
          'template.json': { default_settings: { a: 1 } },
          // Given as text: the helper would add `name` to an object.
          'template_schema.json': JSON.stringify({
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: { a: { type: 'integer' } },
          }),
          'files/b.txt.epp': "<%= $settings['anything'] %>\n",
        },
      }),
      'project/.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{ type: filesystem, location: ../repo }]\n  templates: [t, open]\n',
    });
    const { problems } = await validateProject(join(root, 'project'));
    expect(rows(root, problems)).toEqual([
      ['warning', 'ANALYSIS_UNKNOWN_SETTING', 'repo/t/files/a.txt.epp', 1, 48],
      // A bare word is a string key to Puppet.
      ['warning', 'ANALYSIS_UNKNOWN_SETTING', 'repo/t/files/a.txt.epp', 3, 15],
    ]);
    expect(problems[0]).toMatchObject({
      message: "$settings['ruby_versoin'] reads a setting template 't' does not declare",
      hint: "did you mean 'ruby_version'?",
    });
  });

  it("reports what a file's notice() and warning() say, where they say it, as Puppet logs them", async () => {
    const root = tempTree({
      ...templates('repo', {
        t: {
          'template.json': { default_settings: { port: 1 } },
          'files/a.txt.epp':
            '<% notice("port is", $port) -%>\n<% debug("not at the default level") -%>\nok\n<% warning("late") -%>\n',
        },
      }),
      'project/.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{ type: filesystem, location: ../repo }]\n  templates: [t]\n',
    });
    const { problems } = await validateProject(join(root, 'project'));
    expect(problems.map((p) => [p.code, p.message, p.line])).toEqual([
      ['EPP_LOG', 'notice(): port is 1', 1],
      ['EPP_LOG', 'warning(): late', 4],
    ]);
    const r = await run(join(root, 'project'), 'render');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('a.txt.epp:1:1: warning: notice(): port is 1 [EPP_LOG]');
  });

  it('reports a broken template.json once: not also as an unknown template, nor its settings as stray', async () => {
    const root = tempTree({
      ...templates('repo', {
        t: { 'template.json': '{\n  "name": "t"\n  "always_apply": false\n}\n', 'files/a.txt': 'a\n' },
      }),
      'project/.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{ type: filesystem, location: ../repo }]\n  templates: [t]\nt:\n  x: 1\n',
    });
    const { problems } = await validateProject(join(root, 'project'));
    expect(rows(root, problems)).toEqual([['error', 'TEMPLATE_JSON', 'repo/t/template.json', 3, 3]]);
  });

  it('checks partials with the variables their callers pass when they declare no parameters', async () => {
    const root = tempTree({
      ...templates('repo', {
        t: {
          'template.json': {},
          'files/a.txt.epp': "<%= epp('partials/p.epp', { 'who' => 'me' }) %>\n",
          'partials/p.epp': '<%= $who %> <%= $template["name"] %><% if $who == "x" { %><%= $whom %><% } %>\n',
          'partials/dyn.epp': '<% if false { %><%= $anything %><% } %>\n',
          'files/b.txt.epp': "<%= epp('partials/dyn.epp', $settings) %>\n",
        },
      }),
      'project/.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{ type: filesystem, location: ../repo }]\n  templates: [t]\n',
    });
    const { problems } = await validateProject(join(root, 'project'));
    const found = rows(root, problems);
    expect(found).toEqual([['warning', 'ANALYSIS_UNKNOWN_VARIABLE', 'repo/t/partials/p.epp', 1, 63]]);
    expect(problems.find((p) => p.code === 'ANALYSIS_UNKNOWN_VARIABLE')?.hint).toBe("did you mean 'who'?");
  });

  it('checks the parameters of files this run does not render (init files of an existing project)', async () => {
    const root = tempTree({
      ...templates('repo', {
        t: {
          'template.json': { default_settings: { title: 'x' } },
          'files_init/README.md.epp':
            '<%- | String $title, String $owner | -%>\n<%= $title %> <%= $owner %>\n',
        },
      }),
      'project/.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{ type: filesystem, location: ../repo }]\n  templates: [t]\n',
      'project/.pantograph.lock': '{}\n',
    });
    const { problems, plan } = await validateProject(join(root, 'project'));
    expect(plan?.files).toEqual([]);
    expect(rows(root, problems)).toEqual([
      ['error', 'RENDER_MISSING_PARAMETER', 'repo/t/files_init/README.md.epp', 1, 22],
      ['warning', 'RENDER_UNKNOWN_PARAMETER', 'repo/t/files_init/README.md.epp', 1, 22],
    ]);
  });

  it('checks the syntax and functions of hooks', async () => {
    const root = tempTree({
      ...templates('repo', {
        t: {
          'template.json': {},
          'hooks/after_file_resolution.pp': "$state + { 'x' => lenght([]) }\n",
        },
      }),
      'project/.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{ type: filesystem, location: ../repo }]\n  templates: [t]\n',
    });
    const { problems } = await validateProject(join(root, 'project'));
    // Rendering runs the hook and fails at the same place: one problem.
    expect(rows(root, problems)).toEqual([
      ['error', 'HOOK_FAILED', 'repo/t/hooks/after_file_resolution.pp', 1, 19],
    ]);
  });
});
