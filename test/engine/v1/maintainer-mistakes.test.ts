/**
 * What a module maintainer gets wrong in a V1 module run with its own V1 repository (pdk-templates 3.5.1,
 * test/fixtures/pdk-templates-3.5.1), driven through the built CLI as a real process: each mistake is said
 * at its file:line:col with what to do, and nothing is written. The modules are real ones
 * (test/fixtures/real-modules): puppetlabs-mysql's `.sync.yml` has `rubocop.yml:` for `.rubocop.yml:`,
 * which PDK ignored, and its maintainers hand-edited `.rubocop.yml` instead (commit a7ab054f).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir } from '../../helpers/fs.js';
import { tempRemote } from '../../helpers/git.js';

const bin = resolve(import.meta.dirname, '../../../dist/cli/bin.cjs');
const FIXTURES = resolve(import.meta.dirname, '../../fixtures');
const PDK_TEMPLATES = join(FIXTURES, 'pdk-templates-3.5.1');

beforeEach(() => vi.stubEnv('PANTOGRAPH_CACHE_DIR', tempDir('pantograph-cache-')));
afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

/** A copy of a real module of the corpus, to run on. */
function realModule(name: string): string {
  const root = tempDir(`${name}-`);
  cpSync(join(FIXTURES, 'real-modules', name), root, { recursive: true });
  return root;
}

function pantograph(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

describe('.sync.yml keys PDK silently ignores, said in a V1 run', () => {
  it("puppetlabs-mysql's `rubocop.yml:` is pointed at `.rubocop.yml`, its stray top-level keys said at their line", () => {
    const root = realModule('puppetlabs-mysql'); // its key "\u2002\u2002changelog_user" has two EN SPACEs
    const before = snapshotDir(root);
    const r = pantograph(root, 'validate', '--template-url', PDK_TEMPLATES);
    expect(r.status).toBe(0); // warnings: PDK renders this module all the same
    expect(r.stderr).toContain(
      ".sync.yml:6:1: warning: 'rubocop.yml' is no file of the V1 repository: PDK ignores its settings; did you mean '.rubocop.yml'? [V1_SYNC_KEY]",
    );
    expect(r.stderr).toContain("hint: rename the key to '.rubocop.yml' (its settings then reach that file)");
    expect(r.stderr).toContain(
      ".sync.yml:14:1: warning: '\\u2002\\u2002changelog_user' (it begins or ends with blank characters) is neither a file of the V1 repository nor 'common': PDK ignores it [V1_SYNC_KEY]",
    );
    expect(r.stderr).toContain(
      ".sync.yml:29:1: warning: 'changelog_since_tag' is neither a file of the V1 repository nor 'common': PDK ignores it [V1_SYNC_KEY]",
    );
    // Flags on files pdk-templates dropped long ago (.travis.yml, auto_release.yml) are no noise.
    expect(r.stderr).not.toContain("'.travis.yml");
    expect(r.stderr).not.toContain("'.github/workflows/auto_release.yml");
    expect(snapshotDir(root)).toEqual(before);
  });

  it('convert writes the EN SPACE key out visibly too, and nothing without --yes', () => {
    const root = realModule('puppetlabs-mysql');
    const before = snapshotDir(root);
    const r = pantograph(root, 'convert');
    expect(r.stderr).toContain(
      ".sync.yml:14:1: warning: no template of this project's sources writes '\\u2002\\u2002changelog_user' (it begins or ends with blank characters), so its settings have nowhere to go",
    );
    expect(snapshotDir(root)).toEqual(before);
  });

  it('status says them too, and the misspelt key really changes nothing (the .rubocop.yml PDK would write)', () => {
    const root = realModule('puppetlabs-mysql');
    const r = pantograph(root, 'status', '--diff', '--template-url', PDK_TEMPLATES);
    expect(r.stderr).toContain("did you mean '.rubocop.yml'? [V1_SYNC_KEY]");
    // With the key fixed, the todo file is inherited, as the maintainers wanted it.
    const sync = join(root, '.sync.yml');
    writeFileSync(sync, readFileSync(sync, 'utf8').replace('\nrubocop.yml:', '\n.rubocop.yml:'));
    const fixed = pantograph(root, 'render', '.rubocop.yml', '--template-url', PDK_TEMPLATES);
    expect(fixed.stdout).toContain('\ninherit_from: ".rubocop_todo.yml"\n');
    expect(fixed.stderr).not.toContain("'rubocop.yml'");
  });

  it('a misspelt flag (`unamanged: true`), file key (`Gemfle:`) and `commmon:`, at their line and column', () => {
    const root = realModule('puppetlabs-ntp');
    const sync = join(root, '.sync.yml');
    writeFileSync(
      sync,
      readFileSync(sync, 'utf8').replace('Rakefile:\n', 'Rakefile:\n  unamanged: true\n') +
        'Gemfle:\n  unmanaged: true\ncommmon:\n  mock_with: ":rspec"\n',
    );
    const before = snapshotDir(root);
    const r = pantograph(root, 'apply', '--template-url', PDK_TEMPLATES);
    expect(r.stderr).toContain(
      ".sync.yml:15:3: warning: 'Rakefile: unamanged' is no setting PDK reads: did you mean 'unmanaged'? (PDK ignores it: the file stays managed) [V1_SYNC_KEY]",
    );
    expect(r.stderr).toContain(
      ".sync.yml:34:1: warning: 'Gemfle' is no file of the V1 repository: PDK ignores its settings; did you mean 'Gemfile'? [V1_SYNC_KEY]",
    );
    expect(r.stderr).toContain(
      ".sync.yml:36:1: warning: 'commmon' is no file of the V1 repository nor 'common': PDK ignores its settings; did you mean 'common'? [V1_SYNC_KEY]",
    );
    // ntp is in line with pdk-templates 3.5.1: warnings stop nothing, and nothing needed writing but the lock.
    expect(r.status).toBe(0);
    const after = snapshotDir(root);
    delete after['.pantograph.lock'];
    expect(after).toEqual(before);
  });

  it("a setting the repository's config_defaults.yml gives the file is no misspelt flag", () => {
    // `deleted` is one letter from `delete`: flagged, unless the repository's file reads such a setting.
    const root = realModule('puppetlabs-ntp');
    const sync = join(root, '.sync.yml');
    writeFileSync(sync, readFileSync(sync, 'utf8').replace('Rakefile:\n', 'Rakefile:\n  deleted: false\n'));
    const flagged = pantograph(root, 'validate', '--template-url', PDK_TEMPLATES);
    expect(flagged.stderr).toContain(
      ".sync.yml:15:3: warning: 'Rakefile: deleted' is no setting PDK reads: did you mean 'delete'?",
    );
    const repository = tempDir('pdk-templates-');
    cpSync(PDK_TEMPLATES, repository, { recursive: true });
    const defaults = join(repository, 'config_defaults.yml');
    writeFileSync(
      defaults,
      readFileSync(defaults, 'utf8').replace('\nRakefile:\n', '\nRakefile:\n  deleted: false\n'),
    );
    const own = pantograph(root, 'validate', '--template-url', repository);
    expect(own.stderr).not.toContain("'Rakefile: deleted'");
  });

  it('`delete: true` on a file the repository does not have, still in the module: PDK removes nothing', () => {
    const root = realModule('puppetlabs-ntp'); // its .sync.yml has `.travis.yml: {delete: true}`
    writeFileSync(join(root, '.travis.yml'), 'language: ruby\n');
    const r = pantograph(root, 'apply', '--template-url', PDK_TEMPLATES);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      ".sync.yml:31:1: warning: '.travis.yml: delete: true' removes nothing: the V1 repository has no .travis.yml, and PDK deletes only the files it has; .travis.yml is still in the module [V1_SYNC_KEY]",
    );
    expect(r.stderr).toContain('hint: delete the file yourself (`git rm .travis.yml`), then the key');
    expect(readFileSync(join(root, '.travis.yml'), 'utf8')).toBe('language: ruby\n');
  });

  it("a key given twice (puppetlabs-apache's Rakefile) keeps every position right", () => {
    const root = realModule('puppetlabs-apache');
    const r = pantograph(root, 'validate', '--template-url', PDK_TEMPLATES);
    expect(r.stderr).toMatch(/\.sync\.yml:\d+:1: warning: Map keys must be unique/);
    const line = readFileSync(join(root, '.sync.yml'), 'utf8')
      .split('\n')
      .indexOf('changelog_since_tag: "3.2.0"');
    expect(r.stderr).toContain(`.sync.yml:${line + 1}:1: warning: 'changelog_since_tag' is neither`);
  });
});

describe("metadata.json's template-url at a ref the repository does not have", () => {
  it('is an error at the key in metadata.json, with the refs there are; nothing written', () => {
    const remote = tempRemote();
    const commit = remote.commit({
      'config_defaults.yml': '---\n',
      'moduleroot/.rspec.erb': '--format documentation\n',
      'moduleroot_init/README.md': 'readme\n',
    });
    remote.tag('1.0.0', commit);
    const root = realModule('puppetlabs-ntp');
    const metadata = join(root, 'metadata.json');
    const text = readFileSync(metadata, 'utf8').replace(
      /"template-url": "[^"]*"/,
      `"template-url": "${remote.url}#1.0.1"`,
    );
    writeFileSync(metadata, text);
    const line = text.split('\n').findIndex((l) => l.includes('"template-url"')) + 1;
    const before = snapshotDir(root);
    const r = pantograph(root, 'apply', '--trust');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `metadata.json:${line}:3: error: git source '${remote.bare}' has no branch, tag or commit '1.0.1' [GIT_BAD_REF]`,
    );
    expect(r.stderr).toContain("hint: did you mean '1.0.0'?");
    expect(snapshotDir(root)).toEqual(before);
    // The same tag from --template-ref is the command line's: no place in a file to point at.
    const option = pantograph(root, 'status', '--trust', '--template-ref', '2.0.0');
    expect(option.status).toBe(1);
    expect(option.stderr).toMatch(/^error: git source .* has no branch, tag or commit '2\.0\.0'/m);
    // And at a tag it has, the module renders.
    const good = pantograph(root, 'status', '--trust', '--template-ref', '1.0.0');
    expect(good.stderr).not.toContain('GIT_BAD_REF');
  });
});

describe('a .sync.yml that is not valid YAML', () => {
  /** ntp's Gemfile settings with `version:` one space short under its list item. */
  function misindented(): string {
    const root = realModule('puppetlabs-ntp');
    const sync = join(root, '.sync.yml');
    const text = readFileSync(sync, 'utf8');
    expect(text).toContain("    - gem: github_changelog_generator\n      version: '= 1.15.2'\n");
    writeFileSync(sync, text.replace("\n      version: '= 1.15.2'", "\n     version: '= 1.15.2'"));
    return root;
  }

  it.each([
    ['apply (V1 repository)', ['apply', '--template-url', PDK_TEMPLATES]],
    ['convert', ['convert', '--yes', '--apply']],
  ])('%s: an error at the line and column, a hint for this mistake (not a quote), nothing written', (_, args) => {
    const root = misindented();
    const before = snapshotDir(root);
    const r = pantograph(root, ...args);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('.sync.yml:13:6: error: Sequence item without - indicator [SYNC_YAML]');
    expect(r.stderr).toContain(
      "hint: this line is inside a list but is no item of it: line a key up with the item's first key (the column after `- `), or start a new item with `- `",
    );
    expect(r.stderr).not.toContain('quote');
    expect(snapshotDir(root)).toEqual(before);
  });

  it("a byte order mark (an editor on Windows): Ruby's YAML cannot parse it, PDK would drop every setting; an error naming it", () => {
    const root = realModule('puppetlabs-ntp');
    const sync = join(root, '.sync.yml');
    writeFileSync(sync, `\uFEFF${readFileSync(sync, 'utf8').replace(/\n/g, '\r\n')}`);
    const before = snapshotDir(root);
    const r = pantograph(root, 'apply', '--template-url', PDK_TEMPLATES);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      ".sync.yml:1:1: error: .sync.yml begins with a byte order mark (U+FEFF), which Ruby's YAML, and so PDK, cannot parse: PDK ignores every setting of it (as `{}`, with a warning) [V1_CONFIG_YAML]",
    );
    expect(r.stderr).toContain('hint: save .sync.yml as UTF-8 without a BOM');
    expect(snapshotDir(root)).toEqual(before);
    // convert reads it (our YAML reader takes a BOM) and writes the V2 file without one.
    expect(pantograph(root, 'convert', '--yes').status).toBe(0);
    expect(readFileSync(sync, 'utf8')).toMatch(/^---\r\n/);
  });

  it('an unclosed quote keeps the hint about quotes', () => {
    const root = realModule('puppetlabs-ntp');
    writeFileSync(join(root, '.sync.yml'), "---\nRakefile:\n  changelog_user: 'puppetlabs\n");
    const r = pantograph(root, 'status', '--template-url', PDK_TEMPLATES);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(".sync.yml:3:19: error: Missing closing 'quote [SYNC_YAML]");
    expect(r.stderr).toContain('hint: close the quoted text with the quote that opened it');
  });
});

describe('after convert, V1 habits in the V2 file', () => {
  it("`Gemfile: {delete: true}` is pointed at `unmanaged`, which works, not at `delete`, which V2 refuses for a template's file", () => {
    const root = realModule('puppetlabs-ntp');
    expect(pantograph(root, 'convert', '--yes').status).toBe(0);
    const sync = join(root, '.sync.yml');
    const converted = readFileSync(sync, 'utf8');
    writeFileSync(sync, `${converted}Gemfile:\n  delete: true\n`);
    const r = pantograph(root, 'status');
    expect(r.stderr).toContain(
      "warning: settings for 'Gemfile', a V1 file key: V2 keys settings by template, and 'Gemfile' is written by 'gemfile' [COMPOSITION_SETTINGS_NOT_APPLIED]",
    );
    expect(r.stderr).toContain(
      "hint: per file, `delete: true` of a file 'gemfile' writes is `pdk_template.unmanaged: [Gemfile]` (then remove the file yourself; `pdk_template.delete` takes only paths no template writes) in V2",
    );
    // What the hint says works; what it said before (`delete: [Gemfile]`) is an error.
    writeFileSync(sync, converted.replace('  unmanaged:\n', '  unmanaged:\n    - Gemfile\n'));
    const followed = pantograph(root, 'status');
    expect(followed.status, followed.stderr).toBe(0);
    expect(followed.stdout).toMatch(/Gemfile +gemfile +listed in unmanaged/);
    writeFileSync(sync, converted.replace('  delete:\n', '  delete:\n    - Gemfile\n'));
    expect(pantograph(root, 'status').stderr).toContain('[SYNC_DELETE_PRODUCED]');
  });
});

describe('a metadata.json saved with a byte order mark (Puppet: "invalid and unparsable metadata.json")', () => {
  function bomModule(): string {
    const root = realModule('puppetlabs-ntp');
    const file = join(root, 'metadata.json');
    writeFileSync(file, `\uFEFF${readFileSync(file, 'utf8')}`);
    return root;
  }
  const said =
    "metadata.json:1:1: error: metadata.json begins with a byte order mark (U+FEFF), which Ruby's JSON parser, and so Puppet, PDK and the Forge, refuse [PROJECT_METADATA]";

  it.each([
    ['apply (V1 repository)', ['apply', '--template-url', PDK_TEMPLATES]],
    ['convert', ['convert', '--yes', '--apply']],
  ])('%s: an error at 1:1 with how to save it, not a module PDK does not manage; nothing written', (_, args) => {
    const root = bomModule();
    const before = snapshotDir(root);
    const r = pantograph(root, ...args);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(said);
    expect(r.stderr).toContain('hint: save metadata.json as UTF-8 without a BOM');
    // Its pdk-version is still read: no init file planned, no CONVERT_NOT_PDK.
    expect(r.stderr).not.toContain('CONVERT_NOT_PDK');
    expect(r.stderr).not.toContain('converted settings');
    expect(snapshotDir(root)).toEqual(before);
  });
});
