import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { convertWith } from '../../src/cli/commands/convert.js';
import { memoryIo } from '../../src/cli/io.js';
import { convertSyncFile, writeConversion } from '../../src/engine/convert.js';
import { parseSyncConfig } from '../../src/engine/project-config.js';
import { run, runJson } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

const V1 = `---
# Module settings for PDK

# The gems
Gemfile:
  optional:   # extra gems
    ':development':
      - gem: 'github_changelog_generator'
  use_litmus: yes
.travis.yml:
  delete: true
# we keep our own CI
.gitlab-ci.yml:
  unmanaged: true

spec/spec_helper.rb:
  mock_with: ':rspec'
  coverage_report: true
.rspec: { format: documentation }
appveyor.yml:
  environment:
    PUPPET_GEM_VERSION: '~> 6.0'
`;

const V2 = `---
# Module settings for PDK

# Converted from PDK templates V1 by \`pantograph convert\`.
pdk_template:
  version: 2
  templates:
    - rspec
  unmanaged:
    # we keep our own CI
    - .gitlab-ci.yml
  delete:
    - .travis.yml
# The gems
gemfile:
  optional:
    # extra gems
    ':development':
      - gem: 'github_changelog_generator'
  use_litmus: yes

rspec:
  mock_with: ':rspec'
  coverage_report: true
  format: documentation

# Not converted (see the warnings of \`pantograph convert\`): V1 keys no template of this project takes, or
# that had no effect in PDK; move what you want by hand.
# appveyor.yml:
#   environment:
#     PUPPET_GEM_VERSION: '~> 6.0'
`;

beforeEach(() => {
  // The project's (default) source: gemfile is always applied, rspec replaces two V1 files.
  const repo = tempTree({
    'gemfile/template.json': JSON.stringify({
      name: 'gemfile',
      always_apply: true,
      v1_files: ['Gemfile'],
      default_settings: { required: [], optional: {}, use_litmus: false },
    }),
    'rspec/template.json': JSON.stringify({
      name: 'rspec',
      v1_files: ['.rspec', 'spec/spec_helper.rb'],
      default_settings: { mock_with: 'rspec', coverage_report: false, format: 'progress' },
    }),
    'gitlab_ci/template.json': JSON.stringify({ name: 'gitlab_ci', v1_files: ['.gitlab-ci.yml'] }),
    'rspec_extra/template.json': JSON.stringify({
      name: 'rspec_extra',
      v1_files: ['.rspec_parallel'],
      default_settings: { workers: 1 },
    }),
    'rspec_other/template.json': JSON.stringify({ name: 'rspec_other', v1_files: ['.rspec_parallel'] }),
  });
  vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', repo);
});

afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

describe('convertSyncFile', () => {
  it('converts V1 keys to template sections, keeping comments and scalars as written', async () => {
    const project = tempTree({ '.sync.yml': V1 });
    const c = await convertSyncFile(project);
    expect(c.after).toBe(V2);
    expect(c.templates).toEqual([
      { name: 'gemfile', files: ['Gemfile'], listed: false },
      { name: 'rspec', files: ['spec/spec_helper.rb', '.rspec'], listed: true },
    ]);
    expect(c.unmanaged).toEqual(['.gitlab-ci.yml']);
    expect(c.delete).toEqual(['.travis.yml']);
    expect(c.unconverted).toEqual(['appveyor.yml']);
    // Each key left behind is said, where it is, with the reason.
    expect(c.problems).toEqual([
      expect.objectContaining({
        code: 'CONVERT_UNKNOWN_FILE',
        line: 20,
        column: 1,
        message:
          "no template of this project's sources writes 'appveyor.yml', so its settings have nowhere to go (PDK ignored them too unless your V1 templates had the file)",
      }),
    ]);
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(V1);
    // The result loads as V2, with the settings where they belong.
    const config = parseSyncConfig(c.after!, join(project, '.sync.yml'));
    expect(config.templates.map((t) => t.name)).toEqual(['rspec']);
    expect(config.unmanaged).toEqual(['.gitlab-ci.yml']);
    expect(config.delete).toEqual(['.travis.yml']);
    expect(Object.keys(config.settings)).toEqual(['gemfile', 'rspec']);
    expect(config.settings.gemfile?.use_litmus).toBe(true);
  });

  it('sends a key several templates replace to the first by name, with a positioned warning', async () => {
    const project = tempTree({ '.sync.yml': '# parallel\n.rspec_parallel:\n  workers: 4\n' });
    const c = await convertSyncFile(project);
    expect(c.after).toBe(
      '# parallel\n\n# Converted from PDK templates V1 by `pantograph convert`.\npdk_template:\n  version: 2\n  templates:\n    - rspec_extra\nrspec_extra:\n  workers: 4\n',
    );
    expect(c.problems).toEqual([
      {
        severity: 'warning',
        code: 'SYNC_SECTION',
        message:
          "'.rspec_parallel' is replaced by several templates (rspec_extra, rspec_other); its settings go to 'rspec_extra'",
        file: join(project, '.sync.yml'),
        line: 2,
        column: 1,
      },
    ]);
  });

  it('excludes an always-applied template whose V1 files are all deleted', async () => {
    const project = tempTree({ '.sync.yml': 'Gemfile:\n  delete: true\n' });
    const c = await convertSyncFile(project);
    expect(c.after).toBe(
      '# Converted from PDK templates V1 by `pantograph convert`.\npdk_template:\n  version: 2\n  templates:\n    - ---gemfile\n  delete:\n    - Gemfile\n',
    );
    expect(c.excluded).toEqual(['gemfile']);
    expect(parseSyncConfig(c.after!, join(project, '.sync.yml')).excluded.map((r) => r.name)).toEqual([
      'gemfile',
    ]);
  });

  it('makes unmanaged, with a warning at the key, a deleted file an applied template still writes', async () => {
    const project = tempTree({
      '.sync.yml': 'spec/spec_helper.rb:\n  mock_with: rspec\n.rspec:\n  delete: true\n',
      '.rspec': '--color\n',
    });
    const c = await convertSyncFile(project);
    expect(c.excluded).toEqual([]);
    // V2 refuses to delete a path a template writes: unmanaged, Pantograph never writes it.
    expect(c.delete).toEqual([]);
    expect(c.unmanaged).toEqual(['.rspec']);
    expect(c.problems).toEqual([
      {
        severity: 'warning',
        code: 'CONVERT_DELETE_PRODUCED',
        message:
          "'.rspec' is deleted, but the template 'rspec' writes it, and V2 refuses to delete a path a template writes: it goes to pdk_template.unmanaged, so that Pantograph never writes it; .rspec is still in the project: delete it by hand",
        file: join(project, '.sync.yml'),
        line: 3,
        column: 1,
        hint: "to have no rspec files at all, delete each of its V1 files (.rspec, spec/spec_helper.rb) and convert again, or remove 'rspec' from pdk_template.templates once converted",
      },
    ]);
  });

  it('takes unmanaged and delete as PDK does, by Ruby truthiness, warning at a value other than true/false', async () => {
    const project = tempTree({
      '.sync.yml':
        "Gemfile:\n  unmanaged: 'false'\n.rspec:\n  delete: 1\nspec/spec_helper.rb:\n  unmanaged: ~\n  mock_with: mocha\n.gitlab-ci.yml:\n  unmanaged: true\n  delete: true\n",
    });
    const c = await convertSyncFile(project);
    // 'false' and 1 are true to Ruby; nil is false; unmanaged is tested before delete. (.rspec, which
    // rspec still writes for spec/spec_helper.rb, is unmanaged rather than deleted.)
    expect(c.unmanaged).toEqual(['Gemfile', '.gitlab-ci.yml', '.rspec']);
    expect(c.delete).toEqual([]);
    expect(c.after).not.toContain('# Not converted');
    expect(c.problems.map((p) => [p.code, p.line, p.column, p.message])).toEqual([
      [
        'CONVERT_FLAG_VALUE',
        2,
        14,
        "'Gemfile: unmanaged' is the string 'false', which is true to Ruby: PDK left 'Gemfile' alone, so it goes to pdk_template.unmanaged",
      ],
      [
        'CONVERT_FLAG_VALUE',
        4,
        11,
        "'.rspec: delete' is the number 1, which is true to Ruby: PDK deleted '.rspec', so it goes to pdk_template.delete",
      ],
      [
        'CONVERT_FLAG_VALUE',
        6,
        14,
        "'spec/spec_helper.rb: unmanaged' is empty (nil to Ruby): PDK ignored it, and so does the conversion",
      ],
      ['CONVERT_DELETE_PRODUCED', 3, 1, expect.stringContaining("'.rspec' is deleted")],
    ]);
  });

  it('converts the keys a YAML merge key (<<) brings, as Ruby reads them; a key of its own wins', async () => {
    const project = tempTree({
      '.sync.yml':
        '---\ndefaults: &d\n  mock_with: ":mocha"\n  coverage_report: false\nspec/spec_helper.rb:\n  <<: *d\n  coverage_report: true\n',
    });
    const { after } = await convertSyncFile(project);
    expect(after).toContain('rspec:\n  mock_with: ":mocha"\n  coverage_report: true\n');
    expect(after).not.toContain('Symbol');
  });

  it('converts an empty file to a bare V2 file', async () => {
    const project = tempTree({ '.sync.yml': '' });
    expect((await convertSyncFile(project)).after).toBe(
      '# Converted from PDK templates V1 by `pantograph convert`.\npdk_template:\n  version: 2\n',
    );
  });
});

describe('pantograph convert', () => {
  it('shows the diff and writes nothing without --yes', async () => {
    const project = tempTree({ '.sync.yml': 'Gemfile:\n  required: [rake]\n.travis.yml:\n  delete: true\n' });
    const before = snapshotDir(project);
    const r = await run(project, 'convert');
    expect(r).toEqual({
      code: 0,
      stdout: [
        '--- a/.sync.yml',
        '+++ b/.sync.yml',
        '@@ -1,4 +1,7 @@',
        '-Gemfile:',
        '+# Converted from PDK templates V1 by `pantograph convert`.',
        '+pdk_template:',
        '+  version: 2',
        '+  delete:',
        '+    - .travis.yml',
        '+gemfile:',
        '   required: [rake]',
        '-.travis.yml:',
        '-  delete: true',
        'template gemfile (settings only) <- Gemfile',
        'delete: .travis.yml',
        'nothing written; run `pantograph convert --yes` to write .sync.yml',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(snapshotDir(project)).toEqual(before);
  });

  it('--yes writes the V2 file; a second run says it is already V2', async () => {
    const project = tempTree({ '.sync.yml': V1 });
    const r = await run(project, 'convert', '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /wrote \.sync\.yml\nnext: `pantograph status --diff` shows what the templates would change, `pantograph apply` does it\n$/,
    );
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(V2);
    const again = await run(project, 'convert', '--yes');
    expect(again).toEqual({
      code: 0,
      stdout: '.sync.yml is already a V2 file (it has `pdk_template`); nothing to convert\n',
      stderr: '',
    });
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(V2);
  });

  it('on a terminal, writes only when the user confirms', async () => {
    const project = tempTree({ '.sync.yml': V1 });
    const questions: string[] = [];
    const io = { ...memoryIo(project), interactive: true };
    const no = await convertWith(io, { format: 'text' }, {}, async (q) => {
      questions.push(q);
      return false;
    });
    expect(no).toBe(0);
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(V1);
    const yes = await convertWith(io, { format: 'text' }, {}, async (q) => {
      questions.push(q);
      return q.startsWith('Write');
    });
    expect(yes).toBe(0);
    // Then, as `pdk convert`, it offers to apply the templates (declined here).
    expect(questions).toEqual([
      'Write the converted .sync.yml? [y/N] ',
      'Write the converted .sync.yml? [y/N] ',
      'Apply the templates now (diffs first, then a question per file)? [y/N] ',
    ]);
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(V2);
  });

  it('reports invalid YAML at its position and writes nothing', async () => {
    const project = tempTree({ '.sync.yml': 'Gemfile:\n  required: [rake\n' });
    const before = snapshotDir(project);
    const r = await run(project, 'convert', '--yes');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^\.sync\.yml:3:1: error: .* \[SYNC_YAML\]/);
    expect(snapshotDir(project)).toEqual(before);
  });

  it('writes a CRLF .sync.yml back with CRLF line ends, kept comments too; an LF one stays LF', async () => {
    const crlf = V1.replace(/\n/g, '\r\n');
    const project = tempTree({ '.sync.yml': crlf });
    const r = await run(project, 'convert', '--yes');
    expect(r.code).toBe(0);
    const written = read(project, '.sync.yml');
    // Every line as the Windows checkout had it (the comment kept from appveyor.yml's text as well).
    expect(written).toBe(V2.replace(/\n/g, '\r\n'));
    expect(written.replace(/\r\n/g, '')).not.toContain('\n');
    // The diff shows the content's change, not every line's end.
    expect(r.stdout).toContain('\n+gemfile:\r\n');
    expect(r.stdout).not.toContain('CRLF');
    const lf = tempTree({ '.sync.yml': V1 });
    await run(lf, 'convert', '--yes');
    expect(read(lf, '.sync.yml')).toBe(V2);
  });

  it('warns at each unquoted :symbol (PDK stopped on it) and says it is a string in the V2 file', async () => {
    const project = tempTree({
      '.sync.yml':
        "Gemfile:\n  optional:\n    :development:\n      - gem: foo\n    ':test':\n      - gem: bar\nspec/spec_helper.rb:\n  mock_with: :rspec\n",
    });
    const r = await run(project, 'convert', '--yes');
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => / warning: /.test(l));
    expect(warnings).toEqual([
      ".sync.yml:3:5: warning: `:development` is a Ruby Symbol to Ruby's YAML, and PDK loads .sync.yml with no symbols allowed: PDK stopped on this file (Psych::DisallowedClass: Tried to load unspecified class: Symbol); the V2 file reads it as the string ':development', the form the templates read [CONVERT_SYMBOL]",
      ".sync.yml:8:14: warning: `:rspec` is a Ruby Symbol to Ruby's YAML, and PDK loads .sync.yml with no symbols allowed: PDK stopped on this file (Psych::DisallowedClass: Tried to load unspecified class: Symbol); the V2 file reads it as the string ':rspec', the form the templates read [CONVERT_SYMBOL]",
    ]);
    expect(r.stderr).toContain(
      "hint: nothing to do for Pantograph; quoting it (':development'), as pdk-templates' own examples do, says the same to every reader",
    );
    // The V2 file means the strings, as the quoted ':test' beside it.
    const config = parseSyncConfig(read(project, '.sync.yml'), join(project, '.sync.yml'));
    expect(Object.keys(config.settings.gemfile?.optional as object)).toEqual([':development', ':test']);
    expect(config.settings.rspec?.mock_with).toBe(':rspec');
  });

  it('refuses two files setting one key of the same template, at the second one', async () => {
    const project = tempTree({
      '.sync.yml':
        '.rspec:\n  format: documentation\nspec/spec_helper.rb:\n  mock_with: rspec\n  format: progress\n',
    });
    const before = snapshotDir(project);
    const r = await run(project, 'convert', '--yes');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      ".sync.yml:5:3: error: 'spec/spec_helper.rb' and '.rspec' both set 'format', and both move to the template 'rspec' [CONVERT_CONFLICT]",
    );
    expect(r.stderr).toContain('> 5 |   format: progress');
    expect(snapshotDir(project)).toEqual(before);
  });

  it('refuses a .sync.yml that is not a mapping', async () => {
    const project = tempTree({ '.sync.yml': '- Gemfile\n' });
    const r = await run(project, 'convert');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '.sync.yml:1:1: error: .sync.yml must be a mapping of keys to values [SYNC_NOT_MAPPING]',
    );
  });

  it('--source searches another repository first and writes it into template_sources', async () => {
    const project = tempTree({
      '.sync.yml': '.custom.yml:\n  level: 3\n',
      'templates/custom/template.json': JSON.stringify({
        name: 'custom',
        v1_files: ['.custom.yml'],
        default_settings: { level: 1 },
      }),
    });
    const r = await run(project, 'convert', '--source', 'templates', '--yes');
    expect(r.code).toBe(0);
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(
      [
        '# Converted from PDK templates V1 by `pantograph convert`.',
        'pdk_template:',
        '  version: 2',
        '  template_sources:',
        '    - type: filesystem',
        '      location: templates',
        '    - default',
        '  templates:',
        '    - custom',
        'custom:',
        '  level: 3',
        '',
      ].join('\n'),
    );
  });

  it('reports in JSON', async () => {
    const project = tempTree({ '.sync.yml': '.gitlab-ci.yml:\n  unmanaged: true\n' });
    const r = await runJson(project, 'convert');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      converted: true,
      written: false,
      templates: [],
      unmanaged: ['.gitlab-ci.yml'],
      delete: [],
      unconverted: [],
      problems: [],
    });
    expect(r.json.diff).toContain('+  unmanaged:\n+    - .gitlab-ci.yml\n');
  });
});

describe('convert on a real module (test/fixtures/real-modules)', () => {
  it('puppetlabs-apache: a top-level key given twice is read as PDK reads it, the last one winning', async () => {
    const { cpSync, readFileSync } = await import('node:fs');
    const { join, resolve } = await import('node:path');
    const { spawnSync } = await import('node:child_process');
    const { tempDir } = await import('../helpers/fs.js');
    const dir = tempDir('real-apache-');
    cpSync(resolve(import.meta.dirname, '../fixtures/real-modules/puppetlabs-apache'), dir, {
      recursive: true,
    });
    const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
    const r = spawnSync(process.execPath, [bin, 'convert', '--yes'], {
      cwd: dir,
      encoding: 'utf8',
      // The bundled default templates, not the fixture repository the other tests of this file use.
      env: { ...process.env, NO_COLOR: '1', PANTOGRAPH_DEFAULT_SOURCE: '' },
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      ".sync.yml:24:1: warning: 'Rakefile' is given twice (lines 24 and 31): as PDK reads the file, the last one wins, and this one is dropped [SYNC_YAML]",
    );
    const after = readFileSync(join(dir, '.sync.yml'), 'utf8');
    // The second Rakefile's checks, moved to where Pantograph keeps them (rakefile's v1_settings rule).
    expect(after).toContain('puppet_lint:\n  disabled_checks:\n    - anchor_resource\n    - 140chars\n');
    expect(r.stdout).toContain(
      'moved: Rakefile: extra_disabled_lint_checks -> puppet_lint.disabled_checks\n',
    );
    // The first Rakefile's settings are gone, not merged: `changelog_max_issues` is not even reported dropped.
    expect(after).not.toContain('changelog_max_issues');
    expect(r.stdout).not.toMatch(/^dropped.*changelog_max_issues/m);
    expect(r.stdout).toContain('wrote .sync.yml');
  });
});

describe('convert: V1 settings the templates rename or drop (v1_settings)', () => {
  it("puppetlabs-postgresql: the Rakefile's lint checks join puppet_lint.disabled_checks; .puppet-lint.rc's, which PDK never read, are kept as a comment; changelog settings are dropped", async () => {
    const { cpSync, readFileSync } = await import('node:fs');
    const { join, resolve } = await import('node:path');
    const { spawnSync } = await import('node:child_process');
    const { tempDir } = await import('../helpers/fs.js');
    const dir = tempDir('real-postgresql-');
    cpSync(resolve(import.meta.dirname, '../fixtures/real-modules/puppetlabs-postgresql'), dir, {
      recursive: true,
    });
    const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
    const env = { ...process.env, NO_COLOR: '1', PANTOGRAPH_DEFAULT_SOURCE: '' };
    const r = spawnSync(process.execPath, [bin, 'convert', '--yes'], { cwd: dir, encoding: 'utf8', env });
    expect(r.status).toBe(0);
    // pdk-templates' .puppet-lint.rc reads the Rakefile's settings, not its own section.
    expect(r.stderr).toContain(
      ".sync.yml:5:3: warning: '.puppet-lint.rc: extra_disabled_lint_checks' had no effect in PDK: the V1 template of '.puppet-lint.rc' does not read it (it is read under 'Rakefile') [CONVERT_NO_EFFECT]",
    );
    expect(r.stdout).not.toContain('moved: .puppet-lint.rc');
    expect(r.stdout).toContain(
      'moved: Rakefile: extra_disabled_lint_checks -> puppet_lint.disabled_checks\n',
    );
    expect(r.stdout).toContain(
      'dropped (no effect in PDK, or no equivalent here): Rakefile: changelog_user, Rakefile: changelog_max_issues, spec/spec_helper.rb: exclude_platforms, .gitpod.Dockerfile (no template writes it), .gitpod.yml (no template writes it), .github/workflows/auto_release.yml (no template writes it)\n',
    );
    const after = readFileSync(join(dir, '.sync.yml'), 'utf8');
    expect(after).toContain(
      'puppet_lint:\n  disabled_checks:\n    - anchor_resource\n    - params_empty_string_assignment\n',
    );
    expect(after).toContain('# .puppet-lint.rc:\n#   extra_disabled_lint_checks:\n#     - 140chars-check\n');
    expect(after).not.toMatch(/changelog_(user|max_issues)/);
    expect(after).toContain('github_changelog_generator'); // a gem, not a changelog setting: kept
    const validate = spawnSync(process.execPath, [bin, '--format', 'json', 'validate'], {
      cwd: dir,
      encoding: 'utf8',
      env,
    });
    const problems = (JSON.parse(validate.stdout) as { problems: { message: string }[] }).problems.map(
      (p) => p.message,
    );
    // rspec's `exclude_platforms`, which pdk-templates' spec_helper never reads, is dropped with a note too.
    expect(r.stdout).toContain('spec/spec_helper.rb: exclude_platforms');
    expect(problems).toEqual([]);
  });
});

describe('convert: every V1 key converted or reported (issue 17)', () => {
  /** A source whose templates say what PDK did with their files (v1_default) and what they take. */
  function pdkLikeSource(): string {
    return tempTree({
      'rakefile/template.json': JSON.stringify({
        name: 'rakefile',
        always_apply: true,
        v1_default: 'managed',
        v1_files: ['Rakefile'],
        default_settings: { extras: [], requires: [] },
      }),
      'vscode/template.json': JSON.stringify({
        name: 'vscode',
        v1_default: 'managed',
        v1_files: ['.vscode/extensions.json'],
        default_settings: { recommendations: [] },
      }),
      'workflows/template.json': JSON.stringify({
        name: 'workflows',
        v1_default: 'unmanaged',
        v1_files: ['ci.yml', 'nightly.yml', 'release.yml'],
        v1_convert_settings: { style: 'puppetlabs' },
        default_settings: { style: 'standalone' },
      }),
      'gitlab_ci/template.json': JSON.stringify({ name: 'gitlab_ci', v1_files: ['.gitlab-ci.yml'] }),
    });
  }

  it('a misspelt flag or setting is reported at its place with the key meant, and kept as a comment', async () => {
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', pdkLikeSource());
    const project = tempTree({
      '.sync.yml': 'Rakefile:\n  unamanged: true\n  extra: [x]\n  extras: [y]\n',
    });
    const c = await convertSyncFile(project);
    expect(c.problems.map((p) => [p.code, p.line, p.column, p.message])).toEqual([
      [
        'CONVERT_UNKNOWN_SETTING',
        2,
        3,
        "'Rakefile: unamanged' is no V1 key (PDK ignored it, so it had no effect): did you mean 'unmanaged'?",
      ],
      [
        'CONVERT_UNKNOWN_SETTING',
        3,
        3,
        "'Rakefile: extra' is no setting of the template 'rakefile' (pdk-templates did not read it either): did you mean 'extras'?",
      ],
    ]);
    // As PDK read it: the file stays managed, the known setting moves, the others stay as comments.
    expect(c.unmanaged).toEqual([]);
    expect(c.after).toContain('rakefile:\n  extras: [y]\n');
    expect(c.after).toContain('# Rakefile:\n#   unamanged: true\n# Rakefile:\n#   extra: [x]\n');
  });

  it('with v1_reads: a key the file never read had no effect; one it read that the template lacks is lost, and said so', async () => {
    vi.stubEnv(
      'PANTOGRAPH_DEFAULT_SOURCE',
      tempTree({
        'rakefile/template.json': JSON.stringify({
          name: 'rakefile',
          always_apply: true,
          v1_files: ['Rakefile'],
          v1_reads: { Rakefile: ['extras', 'lost'] },
          default_settings: { extras: [] },
        }),
      }),
    );
    const project = tempTree({ '.sync.yml': 'Rakefile:\n  extra: [x]\n  lost: 1\n  extras: [y]\n' });
    const c = await convertSyncFile(project);
    expect(c.problems.map((p) => [p.code, p.line, p.column, p.message, p.hint])).toEqual([
      [
        'CONVERT_NO_EFFECT',
        2,
        3,
        "'Rakefile: extra' had no effect in PDK: the V1 template of 'Rakefile' does not read it: did you mean 'extras'?",
        "kept as a comment at the end of .sync.yml; write it as 'extras' if that was meant",
      ],
      [
        'CONVERT_UNKNOWN_SETTING',
        3,
        3,
        "'Rakefile: lost' is read by the V1 template of 'Rakefile', but the template 'rakefile' has no setting for it: what it did in PDK is lost",
        "kept as a comment at the end of .sync.yml; ask the maintainers of 'rakefile' for an equivalent setting",
      ],
    ]);
    expect(c.after).toContain('rakefile:\n  extras: [y]\n');
    expect(c.after).toContain('# Rakefile:\n#   extra: [x]\n# Rakefile:\n#   lost: 1\n');
  });

  it('a top-level key that misspells a file is reported with the file meant', async () => {
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', pdkLikeSource());
    const project = tempTree({ '.sync.yml': '---\nRakefle:\n  extras: [y]\n' });
    const c = await convertSyncFile(project);
    expect(c.problems).toEqual([
      expect.objectContaining({
        code: 'CONVERT_UNKNOWN_FILE',
        line: 2,
        column: 1,
        message:
          "'Rakefle' is no file of the templates: did you mean 'Rakefile'? (PDK ignored these settings)",
      }),
    ]);
    expect(c.unconverted).toEqual(['Rakefle']);
  });

  it('comments inside a block that becomes a list entry are kept with it', async () => {
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', pdkLikeSource());
    const project = tempTree({
      '.sync.yml':
        '---\nRakefile:\n  extras: [y]\n# old CI\n.gitlab-ci.yml:\n  # we have converted over to GitHub actions\n  delete: true\n',
    });
    const c = await convertSyncFile(project);
    expect(c.after).toContain(
      '  delete:\n    # old CI\n    # we have converted over to GitHub actions\n    - .gitlab-ci.yml\n',
    );
  });

  it('applies what PDK applied: files it managed unasked, and files it left alone stay unmanaged', async () => {
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', pdkLikeSource());
    const project = tempTree({
      '.sync.yml':
        '---\nrelease.yml:\n  unmanaged: false\nnightly.yml:\n  unmanaged: true\n.gitpod.yml:\n  unmanaged: false\n',
    });
    const c = await convertSyncFile(project);
    // vscode: PDK managed .vscode/extensions.json though the file never named it.
    expect(c.after).toContain('  templates:\n    - workflows\n    - vscode\n');
    // PDK wrote release.yml only: the others stay unmanaged, and the workflows are PDK's.
    expect(c.unmanaged).toEqual(['nightly.yml', 'ci.yml']);
    expect(c.after).toContain('workflows:\n  style: puppetlabs\n');
    expect(c.convertSettings).toEqual(['workflows.style']);
    // `unmanaged: false` of a file no template writes did nothing in PDK: dropped with a note, no comment.
    expect(c.dropped).toEqual(['.gitpod.yml (no template writes it)']);
    expect(c.after).not.toContain('gitpod');
  });

  it('every module of the corpus converts, and then validates with no error', async () => {
    const { cpSync, readFileSync: read } = await import('node:fs');
    const { resolve } = await import('node:path');
    const { validateProject, hasErrors } = await import('../../src/engine/validate.js');
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', '');
    const corpusDir = resolve(import.meta.dirname, '../fixtures/real-modules');
    const corpus = JSON.parse(read(join(corpusDir, 'corpus.json'), 'utf8')) as {
      modules: { name: string }[];
    };
    expect(corpus.modules.length).toBeGreaterThanOrEqual(20);
    for (const { name } of corpus.modules) {
      const dir = tempTree({});
      cpSync(join(corpusDir, name), dir, { recursive: true });
      const c = await convertSyncFile(dir);
      expect(c.after, name).toBeDefined();
      for (const p of c.problems) expect(p.line, `${name}: ${p.message}`).toBeGreaterThan(0);
      writeConversion(c);
      const v = await validateProject(dir);
      expect(
        v.problems.filter((p) => p.severity === 'error').map((p) => p.message),
        name,
      ).toEqual([]);
      expect(hasErrors(v.problems)).toBe(false);
    }
  }, 120_000);
});

describe('convert --apply: convert, then apply as `pdk convert` does', () => {
  it('puppetlabs-ntp: writes .sync.yml, applies with diffs, and the module is then in line', async () => {
    const { cpSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const { spawnSync } = await import('node:child_process');
    const dir = tempTree({});
    cpSync(resolve(import.meta.dirname, '../fixtures/real-modules/puppetlabs-ntp'), dir, { recursive: true });
    const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
    const env = { ...process.env, NO_COLOR: '1', PANTOGRAPH_DEFAULT_SOURCE: '' };
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', env });
    const r = cli('convert', '--yes', '--apply');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('wrote .sync.yml\n');
    // The apply's diffs: ntp's .pdkignore loses pdk-templates' '/..yml' for '/.rubocop.yml'.
    expect(r.stdout).toContain('-/..yml\n+/.rubocop.yml\n');
    expect(readFileSync(join(dir, '.pdkignore'), 'utf8')).toContain('/.rubocop.yml\n');
    const status = cli('status', '--format', 'json');
    expect(JSON.parse(status.stdout).drift).toBe(false);
  }, 60_000);

  it('without --apply and off a terminal, says what to run next and applies nothing', async () => {
    const { cpSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const { spawnSync } = await import('node:child_process');
    const dir = tempTree({});
    cpSync(resolve(import.meta.dirname, '../fixtures/real-modules/puppetlabs-ntp'), dir, { recursive: true });
    const before = readFileSync(join(dir, '.pdkignore'), 'utf8');
    const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
    const env = { ...process.env, NO_COLOR: '1', PANTOGRAPH_DEFAULT_SOURCE: '' };
    const r = spawnSync(process.execPath, [bin, 'convert', '--yes'], { cwd: dir, encoding: 'utf8', env });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('next: `pantograph status --diff`');
    expect(readFileSync(join(dir, '.pdkignore'), 'utf8')).toBe(before);
  }, 60_000);
});

describe("convert's tables in the default templates against pdk-templates 3.5.1's ERB", () => {
  const templatesDir = resolve(import.meta.dirname, '../../templates');
  const erbDir = resolve(import.meta.dirname, '../fixtures/pdk-templates-3.5.1/moduleroot');
  // Read through config_defaults.yml's YAML aliases, not by name: its profiles share `default_configs`
  // and cleanups_only's enabled cops are `cleanup_cops`, so what .sync.yml adds to those reaches the ERB.
  const THROUGH_ALIASES: Record<string, readonly string[]> = {
    '.rubocop.yml': ['default_configs', 'cleanup_cops'],
  };
  type Manifest = {
    name: string;
    v1_files?: string[];
    v1_reads?: Record<string, string[]>;
    v1_settings?: Record<string, null | string | { to: string; boolean_entries?: Record<string, string> }>;
  };
  const manifests = readdirSync(templatesDir)
    .filter((n) => existsSync(join(templatesDir, n, 'template.json')))
    .map((n) => JSON.parse(readFileSync(join(templatesDir, n, 'template.json'), 'utf8')) as Manifest);
  const settingsOf = (name: string): string[] => {
    const schema = JSON.parse(readFileSync(join(templatesDir, name, 'template_schema.json'), 'utf8')) as {
      properties: Record<string, unknown>;
    };
    return Object.keys(schema.properties);
  };
  /**
   * The keys a template file reads from its own settings: `@configs['x']`, `@configs.dig('x'...)`,
   * `has_key?('x')`; none for a file copied as it is (not `.erb`).
   */
  const erbReads = (file: string): string[] => {
    if (!existsSync(join(erbDir, `${file}.erb`))) return [];
    const text = readFileSync(join(erbDir, `${file}.erb`), 'utf8');
    const keys = [...text.matchAll(/@configs(?:\[|\.dig\(|\.has_key\?\()['"]([^'"]+)['"]/g)].map(
      (m) => m[1]!,
    );
    return [...new Set(keys)].sort();
  };
  const files = manifests.flatMap((m) =>
    (m.v1_files ?? [])
      .filter((f) => existsSync(join(erbDir, `${f}.erb`)) || existsSync(join(erbDir, f)))
      .map((f) => [m.name, f] as const),
  );

  it('covers every file pdk-templates 3.5.1 renders from moduleroot/', () => {
    expect(files.map(([, f]) => f).sort()).toEqual(
      [
        '.github/workflows/ci.yml',
        '.github/workflows/nightly.yml',
        '.github/workflows/release.yml',
        '.github/workflows/release_prep.yml',
        '.gitattributes',
        '.gitignore',
        '.pdkignore',
        '.puppet-lint.rc',
        '.rspec',
        '.rubocop.yml',
        '.vscode/extensions.json',
        '.yardopts',
        'Gemfile',
        'Rakefile',
        'spec/default_facts.yml',
        'spec/spec_helper.rb',
      ].sort(),
    );
  });

  it.each(
    files,
  )('%s: %s: every key its ERB reads is taken or moved, none dropped; v1_reads is the ERB', (name, file) => {
    const m = manifests.find((x) => x.name === name)!;
    const reads = m.v1_reads?.[file];
    const rules = m.v1_settings ?? {};
    const moved = Object.keys(rules).filter((k) => rules[k] !== null);
    const dropped = Object.keys(rules).filter((k) => rules[k] === null);
    const erb = erbReads(file);
    // What the ERB reads: listed in v1_reads, or moved by a rule; never dropped (that lost `strict_indent`).
    expect(reads, `${name}: v1_reads['${file}']`).toBeDefined();
    expect(
      erb.filter((k) => !reads!.includes(k) && !moved.includes(k)),
      'read, yet neither taken nor moved',
    ).toEqual([]);
    expect(
      erb.filter((k) => dropped.includes(k)),
      'read, yet dropped',
    ).toEqual([]);
    // And v1_reads claims nothing the ERB does not read (so "no effect in PDK" is said of every other key).
    const claimed = reads!.filter((k) => !erb.includes(k) && !(THROUGH_ALIASES[file] ?? []).includes(k));
    expect(claimed, 'in v1_reads, yet the ERB does not read it').toEqual([]);
    // Each read key is a setting of the template, so convert moves it as it is.
    expect(
      reads!.filter((k) => !settingsOf(name).includes(k)),
      'read, yet no setting',
    ).toEqual([]);
  });

  it('every rule moves to a setting the target template has', () => {
    for (const m of manifests) {
      for (const [key, rule] of Object.entries(m.v1_settings ?? {})) {
        if (rule === null) continue;
        const targets =
          typeof rule === 'string' ? [rule] : [rule.to, ...Object.values(rule.boolean_entries ?? {})];
        for (const target of targets) {
          const [template, setting] = target.split('.') as [string, string];
          expect(settingsOf(template), `${m.name}: ${key} -> ${target}`).toContain(setting);
        }
      }
    }
  });

  it("v1_defaults is config_defaults.yml: each file's keys, from the section its ERB reads (over common)", async () => {
    const { parse } = await import('yaml');
    const defaults = parse(readFileSync(resolve(erbDir, '../config_defaults.yml'), 'utf8'), {
      merge: true,
      maxAliasCount: -1,
    }) as Record<string, Record<string, unknown> | null>;
    // .puppet-lint.rc's ERB reads config_for('Rakefile').
    const section = (file: string) => defaults[file === '.puppet-lint.rc' ? 'Rakefile' : file] ?? {};
    const flags = ['unmanaged', 'delete', 'manage_execute_permissions'];
    for (const m of manifests) {
      const table = (m as Manifest & { v1_defaults?: Record<string, string[]> }).v1_defaults ?? {};
      for (const file of m.v1_files ?? []) {
        const expected = Object.keys(section(file)).filter((k) => !flags.includes(k));
        expect(table[file] ?? [], `${m.name}: ${file}`).toEqual(expected);
      }
    }
  });
});

describe('convert with the default templates: what PDK rendered, or an error before anything is written', () => {
  const METADATA_PDK = JSON.stringify({ name: 'acme-widget', version: '1.0.0', 'pdk-version': '3.5.0' });
  beforeEach(() => {
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', '');
  });

  it('a misspelt Rakefile lint setting (moved to puppet_lint) is named, with its V2 name, at its place', async () => {
    const project = tempTree({
      '.sync.yml': '---\nRakefile:\n  linter_fail_on_warning: false\n  extra_disabled_lint_check: [a]\n',
      'metadata.json': METADATA_PDK,
    });
    const c = await convertSyncFile(project);
    expect(c.problems.map((p) => [p.code, p.line, p.column, p.message, p.hint])).toEqual([
      [
        'CONVERT_NO_EFFECT',
        3,
        3,
        "'Rakefile: linter_fail_on_warning' had no effect in PDK: the V1 template of 'Rakefile' does not read it: did you mean 'linter_fail_on_warnings'?",
        "kept as a comment at the end of .sync.yml; 'linter_fail_on_warnings' is 'puppet_lint.fail_on_warnings' in V2: set that if it was meant (this changes what is rendered)",
      ],
      [
        'CONVERT_NO_EFFECT',
        4,
        3,
        "'Rakefile: extra_disabled_lint_check' had no effect in PDK: the V1 template of 'Rakefile' does not read it: did you mean 'extra_disabled_lint_checks'?",
        "kept as a comment at the end of .sync.yml; 'extra_disabled_lint_checks' is 'puppet_lint.disabled_checks' in V2: set that if it was meant (this changes what is rendered)",
      ],
    ]);
  });

  it('reads an alias as the value its anchor marks, as Ruby does: a whole section, a flag', async () => {
    const project = tempTree({
      '.sync.yml':
        '---\nshared: &s\n  mock_with: ":mocha"\nspec/spec_helper.rb: *s\nflag: &no false\n.rubocop.yml:\n  unmanaged: *no\n  include_todos: true\n',
      'metadata.json': METADATA_PDK,
    });
    const c = await convertSyncFile(project);
    // The section's settings are converted, not kept as a comment as "not a mapping".
    expect(c.after).toContain('rspec:\n  mock_with: ":mocha"\n');
    expect(c.problems.map((p) => p.code)).not.toContain('SYNC_SECTION');
    // `unmanaged: *no` is false to PDK: .rubocop.yml stays managed.
    expect(c.unmanaged).not.toContain('.rubocop.yml');
    expect(c.after).toContain('rubocop:\n  include_todos: true\n');
  });

  it('writes an alias out where its anchor no longer comes before it; keeps one whose anchor does', async () => {
    const project = tempTree({
      '.sync.yml':
        '---\ncommon:\n  unread: &v true\n.rubocop.yml:\n  include_todos: *v\nRakefile:\n  changelog_user: &u puppetlabs\n  extra_disabled_lint_checks: [*u]\n.gitignore:\n  paths: &p\n    - /build\n.pdkignore:\n  paths: *p\n',
      'metadata.json': METADATA_PDK,
    });
    const r = await run(project, 'convert', '--yes');
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    const after = read(project, '.sync.yml');
    // The anchors &v (now a comment) and &u (a dropped setting) are gone: their values are written out.
    expect(after).toContain('rubocop:\n  include_todos: true\n');
    expect(after).toContain('puppet_lint:\n  disabled_checks: [puppetlabs]\n');
    // &p still comes first: the user's alias stays.
    expect(after).toContain('git:\n  paths: &p\n    - /build\npdk_ignore:\n  paths: *p\n');
    expect(parseSyncConfig(after, join(project, '.sync.yml'), project).templates).toBeDefined();
  });

  it("the Rakefile's default checks and linter options move to puppet_lint, `relative` to its own setting", async () => {
    const project = tempTree({
      '.sync.yml':
        '---\nRakefile:\n  linter_options: [relative]\n  default_disabled_lint_checks: [strict_indent, ---relative]\n  extra_disabled_lint_checks: [anchor_resource]\n',
      'metadata.json': METADATA_PDK,
    });
    const c = await convertSyncFile(project);
    expect(c.problems).toEqual([]);
    // In the Rakefile's order: the default checks, then the extra ones (PDK's `default + extra`).
    expect(c.moved).toEqual([
      { from: 'Rakefile: default_disabled_lint_checks: ---relative', to: 'puppet_lint.relative' },
      { from: 'Rakefile: default_disabled_lint_checks', to: 'puppet_lint.disabled_checks' },
      { from: 'Rakefile: extra_disabled_lint_checks', to: 'puppet_lint.disabled_checks' },
      { from: 'Rakefile: linter_options', to: 'puppet_lint.options' },
    ]);
    expect(c.after).toContain(
      'puppet_lint:\n  relative: false\n  disabled_checks: [strict_indent, anchor_resource]\n  options: [relative]\n',
    );
    // Nothing was left under rakefile: no empty section.
    expect(c.after).not.toContain('rakefile:');
  });

  it('settings PDK never read (.puppet-lint.rc, a CI workflow PDK did not write) are said at their place, kept as comments, and leave no section', async () => {
    const project = tempTree({
      '.sync.yml':
        '---\n.puppet-lint.rc:\n  extra_disabled_lint_checks: [foo-check]\n.github/workflows/ci.yml:\n  with:\n    timeout_minutes: 60\n',
      'metadata.json': METADATA_PDK,
    });
    const c = await convertSyncFile(project);
    expect(c.problems.map((p) => [p.code, p.line, p.column, p.message])).toEqual([
      [
        'CONVERT_NO_EFFECT',
        3,
        3,
        "'.puppet-lint.rc: extra_disabled_lint_checks' had no effect in PDK: the V1 template of '.puppet-lint.rc' does not read it (it is read under 'Rakefile')",
      ],
      [
        'CONVERT_NO_EFFECT',
        5,
        3,
        "'.github/workflows/ci.yml: with' had no effect in PDK: the V1 template of '.github/workflows/ci.yml' does not read it",
      ],
    ]);
    expect(c.after).not.toMatch(/^(github_actions|puppet_lint):/m);
    // .puppet-lint.rc's key went to puppet_lint, which takes nothing of it.
    expect(c.templates).toEqual([{ name: 'puppet_lint', files: ['.puppet-lint.rc'], listed: false }]);
    expect(c.after).toContain(
      '# .puppet-lint.rc:\n#   extra_disabled_lint_checks: [foo-check]\n# .github/workflows/ci.yml:\n#   with:\n#     timeout_minutes: 60\n',
    );
    writeConversion(c);
    const { validateProject } = await import('../../src/engine/validate.js');
    expect((await validateProject(project)).problems).toEqual([]);
  });

  it('settings of a file PDK did not write had no effect, though its template reads them', async () => {
    const project = tempTree({
      '.sync.yml': '---\n.rubocop.yml:\n  unmanaged: true\n  selected_profile: hardcore\n',
      'metadata.json': METADATA_PDK,
    });
    const c = await convertSyncFile(project);
    expect(c.problems).toEqual([
      {
        severity: 'warning',
        code: 'CONVERT_NO_EFFECT',
        message: "'.rubocop.yml: selected_profile' had no effect in PDK: PDK did not write '.rubocop.yml'",
        file: join(project, '.sync.yml'),
        line: 4,
        column: 3,
        hint: "kept as a comment at the end of .sync.yml; it takes effect only with the file managed (`unmanaged: false` under '.rubocop.yml' in the V1 file, then `pantograph convert` again)",
      },
    ]);
    // rubocop is not applied: no section, and nothing for `validate` to warn about.
    expect(c.after).not.toContain('rubocop:');
    expect(c.after).toContain('# .rubocop.yml:\n#   selected_profile: hardcore\n');
    expect(c.templates).toEqual([]);
  });

  it("each key of 'common' is said at its place: what config_defaults.yml or the file's key overrode had no effect; what took effect moves under its template", async () => {
    const project = tempTree({
      '.sync.yml':
        '---\ncommon:\n  service_url: https://example.com\n  mock_with: ":mocha"\n  include_todos: true\n  markup: textile\n  extra_facts: {a: 1}\nspec/default_facts.yml:\n  extra_facts: {b: 2}\n',
      'metadata.json': METADATA_PDK,
    });
    const c = await convertSyncFile(project);
    expect(c.problems.map((p) => [p.code, p.line, p.column, p.message])).toEqual([
      [
        'CONVERT_UNKNOWN_FILE',
        3,
        3,
        "'common: service_url' (a setting every V1 file sees): no template of this project's sources is known to read it",
      ],
      [
        'CONVERT_NO_EFFECT',
        4,
        3,
        "'common: mock_with' had no effect in PDK: config_defaults.yml sets it for 'spec/spec_helper.rb', over common",
      ],
      [
        'CONVERT_NO_EFFECT',
        6,
        3,
        "'common: markup' had no effect in PDK: config_defaults.yml sets it for '.yardopts', over common",
      ],
      [
        'CONVERT_NO_EFFECT',
        7,
        3,
        "'common: extra_facts' had no effect in PDK: the file's own key sets it for 'spec/default_facts.yml'",
      ],
    ]);
    // include_todos reached .rubocop.yml in PDK (no default): it moves under rubocop, PDK's output kept.
    expect(c.moved).toEqual([{ from: 'common: include_todos', to: 'rubocop.include_todos' }]);
    expect(c.after).toContain('rubocop:\n  include_todos: true\n');
    expect(c.unconverted).toEqual(['common']);
    expect(c.after).toContain(
      '# common:\n#   service_url: https://example.com\n#   mock_with: ":mocha"\n#   markup: textile\n#   extra_facts: {a: 1}\n',
    );
  });

  it("an empty 'common:' (puppetlabs-pe_status_check's, puppet_metrics_collector's) is dropped, with no warning and no comment", async () => {
    const project = tempTree({
      '.sync.yml':
        '---\ncommon:\n\n".gitlab-ci.yml":\n  delete: true\nspec/spec_helper.rb:\n  coverage_report: true\n',
      'metadata.json': METADATA_PDK,
    });
    const c = await convertSyncFile(project);
    expect(c.problems).toEqual([]);
    expect(c.unconverted).toEqual([]);
    expect(c.after).not.toContain('common');
    const r = await run(project, 'convert', '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('dropped (no effect in PDK, or no equivalent here): common (empty)\n');
    expect(read(project, '.sync.yml')).not.toMatch(/common/);
    expect((await run(project, 'validate')).code).toBe(0);
  });

  it("PDK's deleted default_facts.yml and a quoted 'true' keep their meaning: convert --yes --apply succeeds and leaves those files alone", async () => {
    const project = tempTree({
      '.sync.yml': "---\nspec/default_facts.yml:\n  delete: true\nGemfile:\n  unmanaged: 'true'\n",
      'metadata.json': METADATA_PDK,
      Gemfile: "# kept by hand\nsource 'https://rubygems.org'\n",
    });
    const r = await run(project, 'convert', '--yes', '--apply');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('.sync.yml:2:1: warning:');
    expect(r.stderr).toContain('[CONVERT_DELETE_PRODUCED]');
    expect(r.stderr).toContain(
      ".sync.yml:5:14: warning: 'Gemfile: unmanaged' is the string 'true', which is true to Ruby",
    );
    const config = parseSyncConfig(read(project, '.sync.yml'), join(project, '.sync.yml'));
    expect(config.unmanaged).toEqual(['Gemfile', 'spec/default_facts.yml']);
    expect(config.delete).toEqual([]);
    expect(existsSync(join(project, 'spec/default_facts.yml'))).toBe(false);
    expect(existsSync(join(project, 'spec/spec_helper.rb'))).toBe(true);
    expect(read(project, 'Gemfile')).toBe("# kept by hand\nsource 'https://rubygems.org'\n");
    for (const command of ['validate', 'status']) {
      expect([command, (await run(project, command)).code]).toEqual([command, 0]);
    }
  });

  it('V1 habits in a V2 file (a file key, per-file unmanaged) get a pointer to their V2 form; a wrong type is one error', async () => {
    const project = tempTree({
      '.sync.yml':
        '---\npdk_template:\n  version: 2\nGemfile:\n  unmanaged: true\ngemfile:\n  delete: true\nrspec:\n  mock_with: 5\n',
      'metadata.json': METADATA_PDK,
    });
    const r = await runJson<{
      problems: { code: string; line: number; column: number; message: string; hint: string }[];
    }>(project, 'validate');
    expect(r.code).toBe(1);
    expect(r.json.problems.map((p) => [p.code, p.line, p.column, p.message, p.hint])).toEqual([
      [
        'SETTINGS_UNKNOWN_KEY',
        7,
        3,
        "unknown setting 'delete' for template 'gemfile'",
        "`delete: true` is V1's, per file; in V2 list the files a template writes under pdk_template: `unmanaged: [Gemfile]`, then remove them yourself (`delete` takes only paths no template writes)",
      ],
      ['SETTINGS_INVALID', 9, 14, "rspec: setting 'mock_with' must be a string", undefined],
      [
        'COMPOSITION_SETTINGS_NOT_APPLIED',
        4,
        1,
        "settings for 'Gemfile', a V1 file key: V2 keys settings by template, and 'Gemfile' is written by 'gemfile'",
        "per file, `unmanaged: true` is `pdk_template.unmanaged: [Gemfile]` in V2; settings go under 'gemfile:' (`pantograph convert` moves a V1 file's settings once)",
      ],
    ]);
  });

  it('a value V2 refuses is an error at its place in the V1 file; nothing is written and nothing applied', async () => {
    const sync =
      '---\nRakefile:\n  linter_fail_on_warnings: "no"\nGemfile:\n  overrides: {}\nspec/spec_helper.rb:\n  mock_with: 5\n';
    const project = tempTree({ '.sync.yml': sync, 'metadata.json': METADATA_PDK });
    const before = snapshotDir(project);
    const r = await run(project, 'convert', '--yes', '--apply');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const errors = r.stderr.split('\n').filter((l) => / error: /.test(l));
    expect(errors).toEqual([
      ".sync.yml:3:28: error: once converted, puppet_lint: setting 'fail_on_warnings' must be true or false [SETTINGS_INVALID]",
      ".sync.yml:5:14: error: once converted, gemfile: setting 'overrides' must be a list or empty (null) [SETTINGS_INVALID]",
      ".sync.yml:7:14: error: once converted, rspec: setting 'mock_with' must be a string [SETTINGS_INVALID]",
    ]);
    expect(r.stderr).toContain('> 3 |   linter_fail_on_warnings: "no"');
    expect(r.stderr).toContain(
      'the V1 value is converted as written: change it in the V1 file and run `pantograph convert` again (nothing was written)',
    );
    expect(snapshotDir(project)).toEqual(before);
  });

  it("an unknown rubocop profile is an error at the V1 value, with the template's message; nothing is written", async () => {
    const project = tempTree({
      '.sync.yml': '---\n.rubocop.yml:\n  selected_profile: mine\n',
      'metadata.json': METADATA_PDK,
    });
    const before = snapshotDir(project);
    const r = await run(project, 'convert', '--yes');
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => / error: /.test(l))).toEqual([
      ".sync.yml:3:21: error: once converted, rubocop: setting 'selected_profile' is none of the profiles (off, cleanups_only, strict, hardcore) [SETTINGS_INVALID]",
    ]);
    expect(r.stderr).toContain('> 3 |   selected_profile: mine');
    expect(r.stderr).toContain(
      "hint: name one of the profiles, or define yours under 'profiles' (each {configs, enabled_cops}); the V1 value is converted as written",
    );
    expect(r.stderr).not.toContain('.rubocop.yml.epp');
    expect(snapshotDir(project)).toEqual(before);
    // A misspelt profile gets the one meant.
    const typo = tempTree({
      '.sync.yml': '---\n.rubocop.yml:\n  selected_profile: stirct\n',
      'metadata.json': METADATA_PDK,
    });
    expect((await run(typo, 'convert', '--yes')).stderr).toContain(
      "hint: did you mean 'strict'? The V1 value is converted as written: change it in the V1 file",
    );
  });

  it('settings a template fails on (as PDK failed on them) stop convert too, at the template; nothing is written', async () => {
    // With a profile of the project's own, any of its profiles may be selected: a missing one is the
    // template's fail(), as in PDK.
    const project = tempTree({
      '.sync.yml':
        '---\n.rubocop.yml:\n  profiles:\n    mine:\n      configs: {}\n  selected_profile: nosuch\n',
      'metadata.json': METADATA_PDK,
    });
    const before = snapshotDir(project);
    const r = await run(project, 'convert', '--yes');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /rubocop\/files\/\.rubocop\.yml\.epp:9:5: error: Error while evaluating a Function Call, rubocop: selected_profile 'nosuch' is none of the profiles \(off, cleanups_only, strict, hardcore, mine\) \[EPP_FAIL\]/,
    );
    expect(r.stderr).toContain(
      'the converted settings make the template fail: change them in the V1 file and run `pantograph convert` again (nothing was written)',
    );
    expect(snapshotDir(project)).toEqual(before);
  });

  it('a quoted number becomes the number where the setting takes only numbers; a quoted TargetRubyVersion stays quoted, as PDK writes it', async () => {
    const project = tempTree({
      '.sync.yml':
        "---\n.rubocop.yml:\n  TargetRubyVersion: '3.1'\nspec/spec_helper.rb:\n  minimum_code_coverage_percentage: '90'\n",
      'metadata.json': METADATA_PDK,
    });
    const c = await convertSyncFile(project);
    expect(c.coerced).toEqual(["rspec.minimum_code_coverage_percentage: '90' -> 90"]);
    expect(c.after).toContain("rubocop:\n  TargetRubyVersion: '3.1'\n");
    expect(c.after).toContain('rspec:\n  minimum_code_coverage_percentage: 90\n');
    const r = await run(project, 'convert');
    expect(r.stdout).toContain(
      "number: rspec.minimum_code_coverage_percentage: '90' -> 90 (the setting takes a number; the V1 templates printed both alike)\n",
    );
  });

  it('an alias to no anchor, or inside its own anchor, is an error at the alias; nothing is written', async () => {
    for (const [alias, message, hint] of [
      [
        '*b',
        'the alias *b names no anchor (&b) set before it',
        'set the anchor on the value to repeat, above this line (key: &b value), or write the value out here',
      ],
      [
        '*a',
        'the alias *a is inside the value its anchor names, which would contain itself without end',
        'write the value out here, or move the anchor to a value that does not hold this alias',
      ],
    ] as const) {
      const project = tempTree({ '.sync.yml': `---\nGemfile: &a\n  optional: ${alias}\n` });
      const before = snapshotDir(project);
      const r = await run(project, 'convert', '--yes');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`.sync.yml:3:13: error: ${message} [SYNC_YAML]`);
      expect(r.stderr).toContain(`hint: ${hint}`);
      expect(r.stderr).not.toContain('internal error');
      expect(snapshotDir(project)).toEqual(before);
    }
  });

  it("a modulesync module (.msync.yml, no PDK keys in metadata.json) is refused at .msync.yml, nothing written; other modules without PDK's keys get a warning", async () => {
    const sync = '---\nGemfile:\n  optional:\n    ":test":\n      - gem: mocha\n';
    const msync = tempTree({
      '.sync.yml': sync,
      '.msync.yml': '---\n# Managed by modulesync - DO NOT EDIT\nmodulesync_config_version: 9.0.0\n',
      'metadata.json': '{"name": "puppet-nginx", "version": "1.0.0"}',
    });
    const before = snapshotDir(msync);
    const r = await run(msync, 'convert', '--yes', '--apply');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      '.msync.yml:1:1: error: this module is managed by modulesync (.msync.yml), not by PDK (metadata.json has no pdk-version or template-url)',
    );
    expect(r.stderr).toContain('[CONVERT_NOT_PDK]');
    expect(snapshotDir(msync)).toEqual(before);
    // With PDK's keys, the same module converts (PDK manages it, whatever else does).
    const both = tempTree({
      '.sync.yml': sync,
      '.msync.yml': '---\n',
      'metadata.json': METADATA_PDK,
    });
    expect((await convertSyncFile(both)).problems).toEqual([]);
    const plain = tempTree({ '.sync.yml': sync, 'metadata.json': '{"name": "acme-widget"}' });
    const c = await convertSyncFile(plain);
    expect(c.problems).toMatchObject([
      {
        severity: 'warning',
        code: 'CONVERT_NOT_PDK',
        file: join(plain, 'metadata.json'),
        line: 1,
        column: 1,
        message:
          "metadata.json has no pdk-version or template-url: PDK does not seem to manage this module, and .sync.yml is converted as PDK's",
      },
    ]);
  });

  it("a PDK module without .sync.yml converts as PDK's `--- {}`, in block style; without PDK's metadata there is nothing to convert", async () => {
    const expected =
      '---\n# Converted from PDK templates V1 by `pantograph convert`.\npdk_template:\n  version: 2\n  templates:\n    - rubocop\n    - vscode\n';
    const withSync = tempTree({ '.sync.yml': '--- {}\n', 'metadata.json': METADATA_PDK });
    expect((await convertSyncFile(withSync)).after).toBe(expected);
    const without = tempTree({ 'metadata.json': METADATA_PDK });
    const c = await convertSyncFile(without);
    expect([c.created, c.before, c.after]).toEqual([true, '', expected]);
    const r = await run(without, 'convert', '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "no .sync.yml: metadata.json says PDK manages the module, so it is converted as PDK's `--- {}`\n",
    );
    expect(readFileSync(join(without, '.sync.yml'), 'utf8')).toBe(expected);
    const { statSync } = await import('node:fs');
    expect(statSync(join(without, '.sync.yml')).mode & 0o777).toBe(0o644 & ~process.umask());
    const plain = tempTree({ 'metadata.json': '{"name": "acme-widget"}' });
    const untouched = snapshotDir(plain);
    const refused = await run(plain, 'convert', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error: no .sync.yml in');
    expect(refused.stderr).toContain('[SYNC_NOT_FOUND]');
    expect(snapshotDir(plain)).toEqual(untouched);
  });
});
