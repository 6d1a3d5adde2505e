import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';
import { EXAMPLE_REPO, exampleSync, METADATA, run, runJson, templates } from './cli-helpers.js';

afterEach(() => removeTempDirs());

const example = () => tempTree({ '.sync.yml': exampleSync(), 'metadata.json': METADATA });

const SHARED =
  '["puppet-lint-trailing_newline-check", "puppet-lint-unquoted_string-check", "puppet-lint-param-docs"]';

describe('pantograph show', () => {
  it('shows settings with defaults, the project value, the final value and its origin', async () => {
    const root = example();
    const before = snapshotDir(root);
    const r = await run(root, 'show', 'gemfile');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`gemfile (Gemfile) 2.0.1
  Manages the Gemfile.
  source:  ${EXAMPLE_REPO} (filesystem)
  tags:    ruby, default, gemfile
  applied: yes

Settings:
  source (string)
    default: "https://rubygems.org"
    project: -
    value:   "https://rubygems.org"  <- template default
  required_gems (array)
    default: ["puppet", "rspec-puppet"]
    project: ["---rspec-puppet"]
    value:   ["puppet"]  <- project (.sync.yml:14:18)
  optional_gems (array)
    default: []
    project: ["pry"]
    value:   ["pry"]  <- project (.sync.yml:13:18)
  lint_plugins (array of string)
    default: ${SHARED}
    project: -
    value:   ${SHARED}  <- shared setting from puppet_lint, pdk_template.shared_settings

Subscribes to:
  lint_plugins: ${SHARED}  (published by puppet_lint)

Publishes:
  (nothing)

Files:
  Gemfile
`);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('shows publications with their subscribers, and schema descriptions', async () => {
    const r = await run(example(), 'show', 'puppet_lint');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  disabled_checks (array of string)
    Checks to disable.
    default: ["140chars", "documentation"]
`);
    expect(r.stdout).toContain(`Publishes:
  lint_plugins: ["puppet-lint-trailing_newline-check", "puppet-lint-unquoted_string-check"]  (subscribers: gemfile, github_actions)
    Gems of the puppet-lint plugins the project uses.
`);
  });

  it('gives a stable JSON shape, with hook and !replace origins', async () => {
    const root = example();
    const { code, json } = await runJson(root, 'show', 'github_actions');
    expect(code).toBe(0);
    const sync = join(root, '.sync.yml');
    expect(json).toEqual({
      name: 'github_actions',
      title: 'GitHub Actions',
      description: 'CI workflows for GitHub.',
      version: '0.3.0',
      tags: ['ci', 'github_actions'],
      always_apply: false,
      applied: true,
      source: { index: 0, type: 'filesystem', location: EXAMPLE_REPO },
      settings: [
        {
          name: 'ruby_versions',
          type: 'array',
          description: null,
          template_default: ['3.1', '3.2'],
          default: ['3.1', '3.2'],
          project: ['3.3'],
          value: ['3.3'],
          origin: { layer: 'project', file: sync, line: 18, column: 27 },
          errors: [],
        },
        {
          name: 'run_lint',
          type: 'boolean',
          description: null,
          template_default: true,
          default: true,
          value: true,
          origin: { layer: 'default' },
          errors: [],
        },
        {
          name: 'dependabot',
          type: 'boolean',
          description: null,
          template_default: false,
          default: false,
          value: false,
          origin: { layer: 'default' },
          errors: [],
        },
        {
          name: 'lint_plugins',
          type: 'array of string',
          description: null,
          default: JSON.parse(SHARED),
          value: JSON.parse(SHARED),
          origin: { layer: 'shared', detail: 'puppet_lint, pdk_template.shared_settings' },
          errors: [],
        },
        {
          name: 'lint_job',
          type: 'any',
          description: null,
          value: true,
          origin: { layer: 'hook', detail: 'after_project_settings' },
          errors: [],
        },
      ],
      subscriptions: [{ name: 'lint_plugins', publishers: ['puppet_lint'], value: JSON.parse(SHARED) }],
      publications: [],
      files: [
        {
          path: '.github/dependabot.yml',
          source: 'files/.github/dependabot.yml.epp',
          kind: 'file',
          empty: true,
        },
        {
          path: '.github/workflows/ci.yml',
          source: 'files/.github/workflows/ci.yml.epp',
          kind: 'file',
          empty: false,
        },
        {
          path: '.github/workflows/lint.yml',
          source: 'files/.github/workflows/lint.yml.epp',
          kind: 'file',
          empty: false,
        },
      ],
      errors: 0,
    });
  });

  it('shows a template the project does not apply as if it were added', async () => {
    const r = await run(example(), 'show', 'vscode');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  applied: no (shown as if added last), always_apply\n');
    expect(r.stdout).toContain(`  extensions (array)
    default: ["puppet.puppet-vscode"]
    project: -
    value:   ["puppet.puppet-vscode"]  <- template default
`);
    expect(r.stdout).toContain('Files:\n  .vscode/extensions.json\n');
  });

  it("credits a subscriber's after_shared_settings change to the hook, not the publisher", async () => {
    const root = tempTree({
      ...templates('repo', {
        app: {
          'template.json': { shared_settings: { checks: { schema: { type: 'array' }, value: ['lint'] } } },
        },
        ci: {
          'template.json': { default_settings: { checks: [] }, setting_subscriptions: ['checks', 'extra'] },
          'hooks/after_shared_settings.pp': `$state + { 'settings' => $state['settings'] + { 'checks' => $state['settings']['checks'] + ['own'] } }`,
        },
        more: { 'template.json': { shared_settings: { extra: { schema: { type: 'array' }, value: [] } } } },
      }),
      'mod/.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ../repo\n  templates: [app, ci]\n',
    });
    const r = await run(join(root, 'mod'), 'show', 'ci');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Subscribes to:
  checks: ["lint"]  (published by app; then changed by hook after_shared_settings)
  extra: ~  (no publisher applied; more would publish it)
`);
    expect(r.stdout).toContain('    value:   ["lint", "own"]  <- hook after_shared_settings\n');
    const j = await runJson<{ subscriptions: unknown[] }>(join(root, 'mod'), 'show', 'ci');
    expect(j.json.subscriptions[0]).toEqual({
      name: 'checks',
      publishers: ['app'],
      value: ['lint'],
      changed_by: 'after_shared_settings',
    });
  });

  it('refuses an unknown template with a suggestion, writing nothing', async () => {
    const root = example();
    const before = snapshotDir(root);
    expect(await run(root, 'show', 'gemfil')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: unknown template 'gemfil': no template source has it\n  hint: did you mean 'gemfile'?\n",
    });
    expect(snapshotDir(root)).toEqual(before);
  });

  it('notes errors of the project without failing, and says at a wrong value what is wrong and where', async () => {
    const sync = exampleSync().replace('extra_plugins: [', 'extra_plugins: 3 #[');
    const root = tempTree({ '.sync.yml': sync });
    const before = snapshotDir(root);
    const r = await run(root, 'show', 'puppet_lint');
    expect(r.code).toBe(0);
    const lines = sync.split('\n');
    const line = lines.findIndex((l) => l.includes('extra_plugins: 3')) + 1;
    const column = lines[line - 1]!.indexOf('3') + 1;
    expect(r.stdout).toContain(
      `    project: 3\n    value:   3  <- project (.sync.yml:${line}:${column})\n` +
        `    error:   setting 'extra_plugins' must be a list (.sync.yml:${line}:${column})\n`,
    );
    // Only at the setting that is wrong.
    expect(r.stdout.match(/ {4}error: /g)).toHaveLength(1);
    expect(r.stderr).toBe('note: this project has 1 error; run `pantograph validate` to see them\n');
    const { json } = await runJson<{
      settings: { name: string; errors: { message: string; line: number }[] }[];
    }>(root, 'show', 'puppet_lint');
    const errors = Object.fromEntries(json.settings.map((s) => [s.name, s.errors]));
    expect(errors.extra_plugins).toEqual([
      expect.objectContaining({
        message: "puppet_lint: setting 'extra_plugins' must be a list",
        line,
        column,
      }),
    ]);
    expect(errors.disabled_checks).toEqual([]);
    expect(snapshotDir(root)).toEqual(before);
  });
});
