import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { EXAMPLE_REPO, exampleSync, METADATA, run, runJson } from './cli-helpers.js';

afterEach(() => removeTempDirs());

const example = () => tempTree({ '.sync.yml': exampleSync(), 'metadata.json': METADATA });
const LOGO = readFileSync(join(EXAMPLE_REPO, 'scripts/files/assets/logo.png'));

describe('pantograph render', () => {
  it('prints every non-empty file under a header, in plan order, writing nothing', async () => {
    const root = example();
    const before = snapshotDir(root);
    const r = await run(root, 'render');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').filter((l) => l.startsWith('==> '))).toEqual([
      '==> Gemfile (gemfile) <==',
      '==> .github/workflows/ci.yml (github_actions) <==',
      '==> .github/workflows/lint.yml (github_actions) <==',
      '==> .puppet-lint.rc (puppet_lint) <==',
      '==> assets/logo.png (scripts) <==',
      '==> bin/setup.sh (scripts) <==',
      '==> README.md (scripts) <==',
      '==> templates/motd.epp (motd) <==',
      '==> .pdkignore (pdkignore) <==',
    ]);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('renders only the given paths and directories; binary files are noted, not printed', async () => {
    const r = await run(example(), 'render', 'Gemfile', './bin/', 'assets', '.puppet-lint.rc');
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: `==> Gemfile (gemfile) <==
source 'https://rubygems.org'

gem 'puppet'
gem 'puppet-lint-trailing_newline-check'
gem 'puppet-lint-unquoted_string-check'
gem 'puppet-lint-param-docs'

group :optional do
  gem 'pry'
end

==> .puppet-lint.rc (puppet_lint) <==
--no-140chars-check
--no-documentation-check

==> assets/logo.png (scripts) <==
(binary file, ${LOGO.length} bytes, not shown)

==> bin/setup.sh (scripts) <==
#!/bin/sh
set -e
bundle install
`,
    });
  });

  it('refuses a path that matches no planned file, with a suggestion', async () => {
    expect(await run(example(), 'render', 'Gemfil')).toEqual({
      code: 1,
      stdout: '',
      stderr: "error: no planned file matches 'Gemfil'\n  hint: did you mean 'Gemfile'?\n",
    });
  });

  it('gives a stable JSON shape, binary content in base64', async () => {
    const { code, json } = await runJson(example(), 'render', 'bin', 'assets', '.github/dependabot.yml');
    expect(code).toBe(0);
    expect(json).toEqual({
      files: [
        {
          path: '.github/dependabot.yml',
          template: 'github_actions',
          source: 'files/.github/dependabot.yml.epp',
          kind: 'file',
          mode: '0644',
          empty: true,
          binary: false,
          encoding: 'utf8',
          content: '',
        },
        {
          path: 'assets/logo.png',
          template: 'scripts',
          source: 'files/assets/logo.png',
          kind: 'file',
          mode: '0644',
          empty: false,
          binary: true,
          encoding: 'base64',
          content: LOGO.toString('base64'),
        },
        {
          path: 'bin/setup.sh',
          template: 'scripts',
          source: 'files/bin/setup.sh',
          kind: 'file',
          mode: '0755',
          empty: false,
          binary: false,
          encoding: 'utf8',
          content: '#!/bin/sh\nset -e\nbundle install\n',
        },
      ],
      unmanaged: [],
      problems: [],
    });
  });

  it('writes into a new directory, keeping modes and bytes, leaving empty output out', async () => {
    const root = example();
    const before = snapshotDir(root);
    const out = join(tempDir(), 'out');
    const r = await run(root, 'render', '--output', out);
    expect(r).toEqual({ code: 0, stdout: `wrote 9 files to ${out}\n`, stderr: '' });
    expect(snapshotDir(root)).toEqual(before);
    expect(readFileSync(join(out, 'assets/logo.png'))).toEqual(LOGO);
    expect(statSync(join(out, 'bin/setup.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(out, 'Gemfile')).mode & 0o777).toBe(0o644);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toBe('# A Puppet module\n\nModule `acme-widget`.\n');
    expect(existsSync(join(out, '.github/dependabot.yml'))).toBe(false);
    expect(existsSync(join(out, '.github/workflows/lint.yml'))).toBe(true);
  });

  it('writes only the given paths into an existing empty directory, relative to the working directory', async () => {
    const root = example();
    const out = tempDir();
    const r = await run(out, '-C', root, 'render', '-o', '.', 'bin');
    expect(r).toEqual({ code: 0, stdout: 'wrote 1 file to .\n', stderr: '' });
    expect(Object.keys(snapshotDir(out))).toEqual(['bin/', 'bin/setup.sh']);
  });

  it('refuses a directory that is not empty, or a file, writing nothing', async () => {
    const root = example();
    const out = tempTree({ 'keep.txt': 'mine' });
    const before = snapshotDir(out);
    expect(await run(root, 'render', '--output', out)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: --output ${out} is not empty\n  hint: give a new or empty directory; render never overwrites\n`,
    });
    expect(snapshotDir(out)).toEqual(before);
    const file = join(out, 'keep.txt');
    const r = await run(root, 'render', '--output', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: --output ${file} is not a directory\n  hint: give a new or empty directory\n`,
    );
    expect(snapshotDir(out)).toEqual(before);
  });

  it('leaves out what unmanaged names, as apply does (and a V1 run), saying so; a path naming only those is refused', async () => {
    const root = tempTree({
      '.sync.yml': exampleSync().replace(
        '  shared_settings:',
        "  unmanaged: [Gemfile, '.github/**']\n  shared_settings:",
      ),
      'metadata.json': METADATA,
    });
    const before = snapshotDir(root);
    const out = join(tempDir(), 'out');
    const r = await run(root, 'render', '--output', out);
    expect(r).toEqual({
      code: 0,
      stdout: `wrote 6 files to ${out}\n`,
      stderr:
        "left out 3 unmanaged files (.sync.yml's unmanaged: apply never writes them): Gemfile, .github/workflows/ci.yml, .github/workflows/lint.yml\n",
    });
    expect(existsSync(join(out, 'Gemfile'))).toBe(false);
    expect(existsSync(join(out, '.github'))).toBe(false);
    expect(existsSync(join(out, 'README.md'))).toBe(true);
    // On standard output too, the note on standard error (the output stays the files' text).
    const printed = await run(root, 'render');
    expect(printed.stdout).not.toContain('==> Gemfile');
    expect(printed.stderr).toContain('left out 3 unmanaged files');
    const { json } = await runJson<{ files: { path: string }[]; unmanaged: string[] }>(root, 'render');
    expect(json.unmanaged).toEqual(['Gemfile', '.github/workflows/ci.yml', '.github/workflows/lint.yml']);
    expect(json.files.map((f) => f.path)).not.toContain('Gemfile');
    // Asked for by name: refused with the way to see it, nothing written.
    const out2 = join(tempDir(), 'out');
    expect(await run(root, 'render', '--output', out2, 'Gemfile')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: 'Gemfile' is unmanaged: render leaves out what apply never writes\n  hint: to see the template's output, take it out of pdk_template.unmanaged in .sync.yml\n",
    });
    expect((await run(root, 'render', '.github/')).stderr).toBe(
      "error: '.github/' holds only unmanaged files (.github/workflows/ci.yml, .github/workflows/lint.yml): render leaves out what apply never writes\n  hint: to see the template's output, take it out of pdk_template.unmanaged in .sync.yml\n",
    );
    expect(existsSync(out2)).toBe(false);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('renders nothing when the plan has errors, and reports them with positions', async () => {
    const root = tempTree({
      '.sync.yml': exampleSync().replace('optional_gems: [pry]', 'optional_gems: pry'),
    });
    const out = join(tempDir(), 'out');
    const r = await run(root, 'render', '--output', out);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^\.sync\.yml:13:18: error: gemfile: setting 'optional_gems' must be a list \[SETTINGS_INVALID\]\n/,
    );
    expect(existsSync(out)).toBe(false);
    const { code, json } = await runJson<{ files: unknown[]; problems: { code: string; line: number }[] }>(
      root,
      'render',
    );
    expect(code).toBe(1);
    expect(json.files).toEqual([]);
    expect(json.problems.map((p) => [p.code, p.line])).toEqual([['SETTINGS_INVALID', 13]]);
  });
});
