import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateProject } from '../../src/engine/validate.js';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';
import { EXAMPLE_REPO, exampleSync, METADATA, run, runJson, templates } from './cli-helpers.js';

afterEach(() => removeTempDirs());

const BAD = `pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: ${EXAMPLE_REPO}
  templates: [gemfil, puppet_lint, ---vscode]
  purge: yes
puppet_lint:
  disabled_checks: oops
  extra_plugin: []
`;

describe('pantograph validate', () => {
  it('passes the example project', async () => {
    const root = tempTree({ '.sync.yml': exampleSync(), 'metadata.json': METADATA });
    expect(await run(root, 'validate')).toEqual({
      code: 0,
      stdout: 'valid (6 templates, 9 files): 0 errors, 0 warnings\n',
      stderr: '',
    });
  });

  it('reports every error at once, each with file:line:col, and exits 1 without writing', async () => {
    const root = tempTree({ '.sync.yml': BAD });
    const before = snapshotDir(root);
    const r = await run(root, 'validate');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('invalid (2 templates, 1 file): 3 errors, 1 warning\n');
    expect(
      r.stderr,
    ).toBe(`.sync.yml:6:15: error: unknown template 'gemfil': no template source has it [COMPOSITION_UNKNOWN_TEMPLATE]
  4 |     - type: filesystem
  5 |       location: ${EXAMPLE_REPO}
> 6 |   templates: [gemfil, puppet_lint, ---vscode]
    |               ^
  hint: did you mean 'gemfile'?
.sync.yml:9:20: error: puppet_lint: setting 'disabled_checks' must be a list [SETTINGS_INVALID]
  7 |   purge: yes
  8 | puppet_lint:
> 9 |   disabled_checks: oops
    |                    ^
.sync.yml:10:3: error: unknown setting 'extra_plugin' for template 'puppet_lint' [SETTINGS_UNKNOWN_KEY]
   8 | puppet_lint:
   9 |   disabled_checks: oops
> 10 |   extra_plugin: []
     |   ^
  hint: did you mean 'extra_plugins'?
.sync.yml:7:10: warning: \`yes\` is read as "true" (a boolean) under YAML 1.1 [SYNC_AMBIGUOUS_SCALAR]
  5 |       location: ${EXAMPLE_REPO}
  6 |   templates: [gemfil, puppet_lint, ---vscode]
> 7 |   purge: yes
    |          ^
  hint: quote it ('yes') if you mean the string
`);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('exits 0 with warnings only', async () => {
    const root = tempTree({
      '.sync.yml': exampleSync().replace('  shared_settings:', '  purge: on\n  shared_settings:'),
    });
    const r = await run(root, 'validate');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('valid (6 templates, 9 files): 0 errors, 1 warning\n');
    expect(r.stderr).toMatch(
      /^\.sync\.yml:8:10: warning: `on` is read as "true" .* \[SYNC_AMBIGUOUS_SCALAR\]\n/,
    );
  });

  it('gives a stable JSON shape', async () => {
    const root = tempTree({ '.sync.yml': BAD });
    const { code, json } = await runJson(root, 'validate');
    expect(code).toBe(1);
    const file = join(root, '.sync.yml');
    expect(json).toEqual({
      valid: false,
      errors: 3,
      warnings: 1,
      templates: ['puppet_lint', 'pdkignore'],
      files: 1,
      problems: [
        {
          severity: 'error',
          code: 'COMPOSITION_UNKNOWN_TEMPLATE',
          message: "unknown template 'gemfil': no template source has it",
          file,
          line: 6,
          column: 15,
          hint: "did you mean 'gemfile'?",
        },
        {
          severity: 'error',
          code: 'SETTINGS_INVALID',
          message: "puppet_lint: setting 'disabled_checks' must be a list",
          file,
          line: 9,
          column: 20,
        },
        {
          severity: 'error',
          code: 'SETTINGS_UNKNOWN_KEY',
          message: "unknown setting 'extra_plugin' for template 'puppet_lint'",
          file,
          line: 10,
          column: 3,
          hint: "did you mean 'extra_plugins'?",
        },
        {
          severity: 'warning',
          code: 'SYNC_AMBIGUOUS_SCALAR',
          message: '`yes` is read as "true" (a boolean) under YAML 1.1',
          file,
          line: 7,
          column: 10,
          hint: "quote it ('yes') if you mean the string",
        },
      ],
    });
  });

  it('reports a V1 .sync.yml with its position and what to do', async () => {
    const root = tempTree({ '.sync.yml': '---\nGemfile:\n  optional: {}\n' });
    const r = await run(root, 'validate');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('invalid: 1 error, 0 warnings\n');
    expect(r.stderr).toMatch(/^\.sync\.yml:\d+:\d+: error: .* V1 file \[SYNC_V1\]\n/);
    expect(r.stderr).toContain(
      '  hint: run `pantograph convert` to convert it to V2 once; or render it as it is with its V1 template repository: --template-url URL[#REF]',
    );
    const { json } = await runJson<{ valid: boolean; problems: { code: string }[] }>(root, 'validate');
    expect(json.valid).toBe(false);
    expect(json.problems.map((p) => p.code)).toEqual(['SYNC_V1']);
  });

  it("a setting value a bundled template's schema refuses is an error at the value, with the schema's hint", async () => {
    const root = tempTree({
      '.sync.yml':
        'pdk_template:\n  version: 2\n  templates: [rubocop]\nrubocop:\n  selected_profile: nosuch\n',
      'metadata.json': METADATA,
    });
    const r = await run(root, 'validate');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      ".sync.yml:5:21: error: rubocop: setting 'selected_profile' is none of the profiles (off, cleanups_only, strict, hardcore) [SETTINGS_INVALID]",
    );
    expect(r.stderr).toContain("hint: name one of the profiles, or define yours under 'profiles'");
    expect(r.stderr).not.toContain('EPP_FAIL');
  });

  it('says a wrong value deep in an anyOf setting once, at it: not every branch the value missed (session 34)', async () => {
    // gemfile's `optional` is {groups} or null, a gem's `version` a string or a list.
    const root = tempTree({
      '.sync.yml': `pdk_template:
  version: 2
  templates: []
gemfile:
  optional:
    ':development':
      - gem: json
        version: 5
  required:
    ':development':
      - gem: json
        platforms: [mswin, 7]
`,
      'metadata.json': METADATA,
    });
    const before = snapshotDir(root);
    const r = await runJson<{ problems: { code: string; line: number; column: number; message: string }[] }>(
      root,
      'validate',
    );
    expect(r.code).toBe(1);
    // It said seven: 'optional' must be empty (null), must match a schema in anyOf, the version must not
    // contain quotes or backslashes (the string branch's own message, for a number), must be a list...
    expect(r.json.problems.map((p) => [p.line, p.column, p.message])).toEqual([
      [8, 18, "gemfile: setting 'optional.:development.0.version' must be a string or a list"],
      [12, 28, "gemfile: setting 'required.:development.21.platforms.1' must be a string"],
    ]);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('a modulesync module (.msync.yml, no PDK keys in metadata.json): status, validate and apply say so at .sync.yml, and point to the fleet', async () => {
    const root = tempTree({
      '.sync.yml': '---\nGemfile:\n  optional:\n    ":test":\n      - gem: mocha\n',
      '.msync.yml': '---\nmodulesync_config_version: 9.0.0\n',
      'metadata.json': '{"name": "puppet-nginx", "version": "1.0.0"}',
    });
    const before = snapshotDir(root);
    for (const command of ['status', 'validate', 'apply']) {
      const r = await run(root, command);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        ".sync.yml:2:1: error: .sync.yml has no `pdk_template` key: it configures modulesync's templates, and no modulesync configuration is named to render them (this module is managed by modulesync: .msync.yml; metadata.json has no pdk-version or template-url, so it is not PDK's) [SYNC_MODULESYNC]",
      );
      expect(r.stderr).toContain('run `pantograph fleet import-modulesync` in its checkout');
      expect(r.stderr).toContain('--template-url DIR|URL[#REF]');
      expect(r.stderr).not.toContain('pantograph convert');
    }
    expect(snapshotDir(root)).toEqual(before);
    // Without a .sync.yml, at .msync.yml.
    const bare = tempTree({ '.msync.yml': '---\n', 'metadata.json': '{"name": "puppet-nginx"}' });
    const { json } = await runJson<{ problems: { code: string; file: string; line: number }[] }>(
      bare,
      'validate',
    );
    expect(json.problems).toMatchObject([
      { code: 'SYNC_MODULESYNC', file: join(bare, '.msync.yml'), line: 1 },
    ]);
    // PDK's keys in metadata.json: PDK manages it (whatever else does), and the V1 advice stands.
    const pdk = tempTree({
      '.sync.yml': '---\nGemfile: {}\n',
      '.msync.yml': '---\n',
      'metadata.json': '{"name": "acme-widget", "pdk-version": "3.5.0"}',
    });
    expect((await run(pdk, 'validate')).stderr).toContain('[SYNC_V1]');
  });

  it('reports YAML syntax errors with their position', async () => {
    const root = tempTree({ '.sync.yml': 'pdk_template:\n  version: 2\n  templates: [a, b\n' });
    const { code, json } = await runJson<{ problems: { code: string; line: number }[] }>(root, 'validate');
    expect(code).toBe(1);
    expect(json.problems[0]).toMatchObject({ code: 'SYNC_YAML', line: 4 });
  });

  it('renders every file in memory: an EPP error points into the template file', async () => {
    const root = tempTree({
      '.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{type: filesystem, location: repo}]\n  templates: [broken]\n',
      ...templates('repo', { broken: { 'template.json': {}, 'files/x.txt.epp': 'ok\n<%= 1 + %>\n' } }),
    });
    const { code, json } = await runJson<{ problems: { code: string; file: string; line: number }[] }>(
      root,
      'validate',
    );
    expect(code).toBe(1);
    expect(json.problems).toHaveLength(1);
    expect(json.problems[0]).toMatchObject({ file: join(root, 'repo/broken/files/x.txt.epp'), line: 2 });
    expect(json.problems[0]?.code).toMatch(/^EPP_/);
  });
});

describe('validateProject', () => {
  it('warns when a file renders differently twice', async () => {
    const root = tempTree({
      '.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{type: filesystem, location: repo}]\n  templates: [dice]\n',
      ...templates('repo', {
        dice: {
          'template.json': { default_settings: { roll: 0.5 } },
          'hooks/after_default_settings.mjs':
            'export default (s) => ({ ...s, settings: { roll: Math.random() } });\n',
          'files/roll.txt.epp': '<%= $roll %>\n',
          'files/fixed.txt': 'same\n',
        },
      }),
    });
    const result = await validateProject(root);
    expect(result.problems).toEqual([
      {
        severity: 'warning',
        code: 'RENDER_NOT_IDEMPOTENT',
        message: "the output of 'roll.txt' (template 'dice') differs between two renders",
        file: join(root, 'repo/dice/files/roll.txt.epp'),
        line: 1,
        column: 1,
        hint: 'a hook or template depends on the time or on chance; every apply would change this file',
      },
    ]);
    expect((await run(root, 'validate')).code).toBe(0);
  });

  it('returns the problems and the plan', async () => {
    const root = tempTree({ '.sync.yml': BAD });
    const result = await validateProject(root);
    expect(result.problems.map((p) => [p.severity, p.code, p.line])).toEqual([
      ['error', 'COMPOSITION_UNKNOWN_TEMPLATE', 6],
      ['error', 'SETTINGS_INVALID', 9],
      ['error', 'SETTINGS_UNKNOWN_KEY', 10],
      ['warning', 'SYNC_AMBIGUOUS_SCALAR', 7],
    ]);
    expect(result.plan?.templates.map((t) => t.name)).toEqual(['puppet_lint', 'pdkignore']);
  });

  it('turns a terminating load error into problems, without a plan', async () => {
    const result = await validateProject(tempTree({ '.sync.yml': 'pdk_template:\n  version: 3\n' }));
    expect(result.plan).toBeUndefined();
    expect(result.problems).toEqual([
      expect.objectContaining({ severity: 'error', code: 'SYNC_VERSION', line: 2, column: 12 }),
    ]);
  });
});
