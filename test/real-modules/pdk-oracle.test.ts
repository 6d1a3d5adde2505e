/**
 * The rubocop, gemfile, rspec, rakefile and puppet_lint templates against pdk-templates 3.5.1 rendered by
 * Ruby (the oracle: scripts/pdk-oracle.rb over test/fixtures/pdk-templates-3.5.1, PDK's merge of
 * config_defaults.yml with the .sync.yml and its ERB), for V1 settings the corpus of real modules lacks:
 * every profile, PDK's knockouts, a profile of the module's own, overrides, every gem option, the Rakefile's
 * lint settings (which .puppet-lint.rc reads too), quoted numbers. Each V1 .sync.yml is converted and
 * planned through the library, as a module coming from PDK would be. Needs Ruby with the deep_merge gem
 * (PDK's); skipped without them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertSyncFile, planProjectAt, validateProject, writeConversion } from '../../src/index.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const root = resolve(import.meta.dirname, '../..');
const oracleDir = join(root, 'test/fixtures/pdk-templates-3.5.1');
const env = { ...process.env, PANTOGRAPH_DEFAULT_SOURCE: join(root, 'templates') };
const hasOracle = spawnSync('ruby', ['-rdeep_merge', '-e', ''], { encoding: 'utf8' }).status === 0;
const metadata = readFileSync(join(root, 'test/fixtures/real-modules/puppetlabs-ntp/metadata.json'), 'utf8');

function pdkRender(dir: string, file: string): string {
  const r = spawnSync('ruby', [join(root, 'scripts/pdk-oracle.rb'), oracleDir, dir, file], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`ruby: ${r.stderr}`);
  return r.stdout;
}

async function ours(dir: string, file: string): Promise<string | undefined> {
  const conversion = await convertSyncFile(dir, { env });
  if (conversion.after !== undefined) writeConversion(conversion);
  const errors = (await validateProject(dir, { env })).problems.filter((p) => p.severity === 'error');
  expect(errors.map((p) => `${p.code}: ${p.message}`)).toEqual([]);
  const { plan } = await planProjectAt(dir, { env });
  const f = plan.files.find((x) => x.path === file);
  return f && !f.empty ? Buffer.from(f.content).toString('utf8') : undefined;
}

const RUBOCOP: Record<string, string> = {
  'the defaults': '{}\n',
  'hardcore, every cop': 'selected_profile: hardcore\n',
  'cleanups_only, an older Ruby': 'selected_profile: cleanups_only\nTargetRubyVersion: 2.7\n',
  'off (unquoted: false, as PDK reads it)': 'selected_profile: off\ninclude_todos: true\n',
  'a quoted TargetRubyVersion, written quoted as PDK writes it': "TargetRubyVersion: '3.10'\n",
  'default_configs: AllCops merged, a cop turned off, a new cop': `default_configs:
  AllCops:
    Exclude:
      - "spec/fixtures/**/*"
      - "lib/vendored/**/*"
    TargetRubyVersion: 3.2
  Style/Documentation:
    Enabled: false
  Layout/LineLength:
    Max: 120
  Custom/Cop:
    Enabled: true
`,
  // puppetlabs-websphere_application_server's: RuboCop's own top-level keys go through default_configs too.
  'default_configs: a top-level key of RuboCop (inherit_from), not a cop': `default_configs:
  inherit_from: ".rubocop_todo.yml"
`,
  'default_configs: require added, inherit_from as a list': `default_configs:
  require:
    - rubocop-rake
  inherit_from:
    - .rubocop_todo.yml
    - .rubocop_local.yml
`,
  "cleanup_cops and the profile's own enabled cops": `selected_profile: cleanups_only
cleanup_cops:
  Style/Foo:
  Layout/LineLength:
    Max: 99
profiles:
  cleanups_only:
    enabled_cops:
      Style/Bar:
`,
  "a profile of the module's own": `selected_profile: mine
profiles:
  mine:
    configs:
      Style/Foo:
        Enabled: true
    enabled_cops:
      Style/HashSyntax:
        EnforcedStyle: ruby19
      Style/Bar:
`,
  'strict with a knockout and a configured cop': `profiles:
  strict:
    enabled_cops:
      Style/StringConcatenation:
        Mode: conservative
      "---Style/WordArray":
`,
  'a knockout in default_configs lists': `default_configs:
  RSpec/BeforeAfterAll:
    Exclude:
      - ---spec/acceptance/**/*.rb
      - spec/system/**/*.rb
`,
};

const GEMFILE: Record<string, string> = {
  'the defaults': '{}\n',
  'every gem option, overrides, a group of its own': `overrides:
  - gem: json
    version: '~> 2.7'
  - gem: puppet-strings
    git: https://github.com/puppetlabs/puppet-strings
    branch: main
optional:
  ':development':
    - gem: my-gem
      from_env: MY_GEM_VERSION
      version: '>= 1.0'
    - gem: other
      from_env: OTHER
    - gem: internal
      source: https://gems.example.com
      version: ['>= 1', '< 2']
      platforms: ruby
  ':integration':
    - gem: beaker
      version: '~> 5'
      ref: abc123
required:
  ':system_tests':
    - gem: nokogiri
`,
  "dead settings, an empty 'optional'": 'use_litmus: true\nuse_travis: false\noptional:\n',
};

/** The Rakefile's lint settings, which pdk-templates' .puppet-lint.rc reads too (config_for('Rakefile')). */
const LINT: Record<string, string> = {
  'the defaults': '{}\n',
  "peadm's: two more default checks": `default_disabled_lint_checks:
  - strict_indent
  - manifest_whitespace_missing_newline_end_of_file
`,
  'default checks knocked out, relative among them; linter options': `default_disabled_lint_checks:
  - ---relative
  - ---80chars
  - strict_indent
linter_options:
  - relative
  - only-checks=trailing_whitespace
`,
  'extra checks, warnings allowed, other exclusions, options before them in the file': `linter_options: [no-autoloader_layout-check]
extra_disabled_lint_checks: [anchor_resource]
default_disabled_lint_checks: [params_empty_string_assignment]
linter_fail_on_warnings: false
linter_exclusions: [examples/**/*.pp]
`,
};

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n');

describe.skipIf(!hasOracle)('rubocop and gemfile against pdk-templates 3.5.1 rendered by Ruby', () => {
  const cases = [
    ...Object.entries(RUBOCOP).map(([name, yaml]) => ['.rubocop.yml', name, yaml] as const),
    ...Object.entries(GEMFILE).map(([name, yaml]) => ['Gemfile', name, yaml] as const),
    // A quoted number where the setting takes a number: convert writes the number, which the ERB prints alike.
    [
      'spec/spec_helper.rb',
      'a quoted coverage percentage',
      "minimum_code_coverage_percentage: '90'\n",
    ] as const,
  ];
  it.each(cases)('%s: %s', async (file, _name, yaml) => {
    const sync = yaml === '{}\n' ? '--- {}\n' : `${file}:\n${indent(yaml)}`;
    const dir = tempTree({ '.sync.yml': sync, 'metadata.json': metadata });
    const expected = pdkRender(dir, file);
    expect(await ours(dir, file)).toBe(expected);
  });
});

describe.skipIf(!hasOracle)(
  'Rakefile and .puppet-lint.rc against pdk-templates 3.5.1 rendered by Ruby',
  () => {
    // Both files render from the Rakefile's settings: each case is converted once and compared on both.
    it.each(Object.entries(LINT))('%s', async (_name, yaml) => {
      const sync = yaml === '{}\n' ? '--- {}\n' : `Rakefile:\n${indent(yaml)}`;
      const dir = tempTree({ '.sync.yml': sync, 'metadata.json': metadata });
      const expected = ['Rakefile', '.puppet-lint.rc'].map((file) => pdkRender(dir, file));
      const rakefile = await ours(dir, 'Rakefile');
      expect([rakefile, await ours(dir, '.puppet-lint.rc')]).toEqual(expected);
    });
  },
);
