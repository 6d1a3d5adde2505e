import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyWith } from '../../src/cli/commands/apply.js';
import { memoryIo } from '../../src/cli/io.js';
import { run, runJson } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';
import { lockText, read, repoTree, syncYml } from './fixtures.js';

afterEach(() => removeTempDirs());

const CONFIG = '# config\ngreeting = hello\nline 2\nline 3\nline 4\nline 5\nitems = a\n';

function project(more = '', files: Record<string, string> = {}) {
  const repo = tempTree(repoTree());
  const root = tempTree({ '.sync.yml': syncYml(repo, more), ...files });
  return { repo, root };
}

describe('pantograph status', () => {
  it('prints a table of what is not in line and a summary; --check exits 2 on drift', async () => {
    const { root } = project();
    const before = snapshotDir(root);
    const r = await run(root, 'status');
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: `STATE   PATH        TEMPLATE  REASON
create  README.md   base      init file for the new project
create  config.txt  base
create  static.txt  base
3 create: drift (run \`pantograph apply\`)
`,
    });
    expect((await run(root, 'status', '--check')).code).toBe(2);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('after apply: no drift, --check exits 0, stable files listed with --all', async () => {
    const { root } = project();
    expect((await run(root, 'apply')).code).toBe(0);
    expect(await run(root, 'status', '--check')).toEqual({
      code: 0,
      stderr: '',
      stdout: 'all 3 files in line: no drift\n',
    });
    const all = await run(root, 'status', '--all');
    expect(all.stdout).toBe(`STATE   PATH        TEMPLATE  REASON
init    README.md   base      written once for the new project; never updated
stable  config.txt  base
stable  static.txt  base
all 3 files in line: no drift
`);
  });

  it('reports a hand edit as drift, with its diff under --diff, for the given paths only', async () => {
    const { root } = project();
    await run(root, 'apply');
    writeFileSync(join(root, 'static.txt'), 'mine\n');
    const r = await run(root, 'status', '--check', '--diff', 'static.txt');
    expect(r).toEqual({
      code: 2,
      stderr: '',
      stdout: `STATE   PATH        TEMPLATE  REASON
edited  static.txt  base      changed by hand: kept
1 edited: drift (keep changes made by hand with \`pantograph resolve <path>\`, or restore the template output with \`pantograph apply --force\`)
--- a/static.txt
+++ b/static.txt
@@ -1,1 +1,1 @@
-mine
+static
`,
    });
    expect((await run(root, 'status', '--check', 'config.txt')).code).toBe(0);
  });

  it('gives a stable JSON shape', async () => {
    const { root } = project();
    const { code, json } = await runJson(root, 'status', '--check', 'config.txt');
    expect(code).toBe(2);
    expect(json).toEqual({
      projectRoot: expect.any(String),
      drift: true,
      interrupted: false,
      counts: {
        create: 1,
        changed: 0,
        stable: 0,
        edited: 0,
        conflict: 0,
        adopt: 0,
        delete: 0,
        purge: 0,
        unmanaged: 0,
        init: 0,
      },
      entries: [{ path: 'config.txt', state: 'create', template: 'base', kind: 'file' }],
      problems: [],
    });
  });

  it('exits 1 with positioned errors when the plan has errors', async () => {
    const { root } = project('base:\n  greeting: 42\n');
    const r = await run(root, 'status', '--check');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('.sync.yml:8:13');
    expect(r.stderr).toContain('SETTINGS_INVALID');
  });

  it('validate, status and apply refuse a delete entry naming a produced file, at the entry; nothing is written', async () => {
    const { root } = project('  delete:\n    - old.txt\n    - static.txt\n    - "**/extra*"\n', {
      'old.txt': 'old\n',
    });
    const before = snapshotDir(root);
    const expected =
      '.sync.yml:9:7: error: static.txt is produced by template base and listed in delete [SYNC_DELETE_PRODUCED]';
    for (const command of ['validate', 'status', 'apply']) {
      const r = await run(root, command);
      expect([command, r.code]).toEqual([command, 1]);
      expect(r.stderr.split('\n').filter((l) => l.includes(' error: '))).toEqual([expected]);
      expect(r.stderr).toContain('hint: Remove it from `delete`, or list it under `unmanaged`.');
    }
    expect(snapshotDir(root)).toEqual(before);
    const json = await runJson(root, 'validate');
    expect(json.json).toMatchObject({
      problems: [{ code: 'SYNC_DELETE_PRODUCED', line: 9, column: 7 }],
    });
    // A glob naming a produced file is the same error, at the glob (extra is not applied here: no error).
    const withExtra = project('  delete: ["**/extra*"]\n', {}).root;
    writeFileSync(
      join(withExtra, '.sync.yml'),
      read(withExtra, '.sync.yml').replace('templates: []', 'templates: [extra]'),
    );
    const glob = await run(withExtra, 'validate');
    expect(glob.code).toBe(1);
    expect(glob.stderr).toContain(
      '.sync.yml:7:12: error: extra/extra.txt is produced by template extra and listed in delete [SYNC_DELETE_PRODUCED]',
    );
  });

  it('a delete glob that also matches an unmanaged file is no error: the file is neither written nor removed', async () => {
    const { root } = project('  unmanaged: [static.txt]\n  delete: ["*.txt"]\n', {
      'old.txt': 'old\n',
      'static.txt': 'mine\n',
    });
    // config.txt is still produced and matched: that stays the error, and nothing is written.
    const refused = await run(root, 'apply');
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n').filter((l) => l.includes(' error: '))).toEqual([
      '.sync.yml:8:12: error: config.txt is produced by template base and listed in delete [SYNC_DELETE_PRODUCED]',
    ]);
    writeFileSync(join(root, '.sync.yml'), read(root, '.sync.yml').replace('"*.txt"', '"o*", "s*"'));
    expect((await run(root, 'validate')).code).toBe(0);
    expect((await run(root, 'apply')).stdout).toContain('delete    old.txt  (listed in delete)\n');
    expect(read(root, 'static.txt')).toBe('mine\n');
    expect(existsSync(join(root, 'old.txt'))).toBe(false);
  });
});

describe('pantograph apply', () => {
  it('writes the files and the lock; applying twice changes nothing, the lock byte for byte', async () => {
    const { root } = project();
    expect(await run(root, 'apply')).toEqual({
      code: 0,
      stderr: '',
      stdout: `create    README.md  (init file for the new project)
create    config.txt
create    static.txt
Changed 3 files
`,
    });
    expect(read(root, 'config.txt')).toBe(CONFIG);
    const lock = lockText(root);
    const snapshot = snapshotDir(root);
    expect(await run(root, 'apply')).toEqual({ code: 0, stderr: '', stdout: 'Nothing to change\n' });
    expect(lockText(root)).toBe(lock);
    expect(snapshotDir(root)).toEqual(snapshot);
  });

  it('--noop writes nothing and says what would change, with diffs under --diff', async () => {
    const { root } = project();
    const before = snapshotDir(root);
    const r = await run(root, 'apply', '--noop', '--diff', 'static.txt');
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: `create    static.txt
--- /dev/null
+++ b/static.txt
@@ -0,0 +1,1 @@
+static
Would have changed 1 file
`,
    });
    expect(snapshotDir(root)).toEqual(before);
    expect((await run(root, 'apply', '--noop')).stdout).toMatch(/Would have changed 3 files\n$/);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('keeps a hand-edited file and says so; --force overwrites it', async () => {
    const { root } = project();
    await run(root, 'apply');
    writeFileSync(join(root, 'static.txt'), 'mine\n');
    const r = await run(root, 'apply');
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: 'kept      static.txt  (changed by hand: kept)\nNothing to change\n',
    });
    expect(read(root, 'static.txt')).toBe('mine\n');
    expect((await run(root, 'apply', '--force')).code).toBe(0);
    expect(read(root, 'static.txt')).toBe('static\n');
  });

  it('refuses a plan with errors: positioned problems, exit 1, nothing written', async () => {
    const { root } = project('base:\n  greting: hi\n');
    const before = snapshotDir(root);
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/\.sync\.yml:8:3: error: unknown setting 'greting'/);
    expect(r.stderr).toContain("did you mean 'greeting'?");
    expect(r.stderr).toMatch(/1 error in the plan: nothing was written\n$/);
    expect(snapshotDir(root)).toEqual(before);
    const json = await runJson(root, 'apply');
    expect(json.code).toBe(1);
    expect(json.json).toMatchObject({
      ok: false,
      problems: [{ code: 'SETTINGS_UNKNOWN_KEY', line: 8, column: 3 }],
    });
  });

  it.each([
    ['a tab', 'base:\n\tgreeting: hi\n', '8:2', 'Tabs are not allowed as indentation', 'indent with spaces'],
    ['a key given twice', 'base: {}\nbase: {}\n', '8:1', 'Map keys must be unique', 'already set above'],
    ['an unclosed list', 'extra: [a\n', '8:1', 'Flow sequence', 'a `[` above is not closed: end it with `]`'],
    ['a mapping inside a value', 'base: greeting: hi\n', '7:7', 'Nested mappings', 'on its own line'],
    // Not the yaml package's "please use YAML.parseAllDocuments()", which speaks to a programmer.
    [
      'a second document',
      'base: {}\n---\nextra: {}\n',
      '8:1',
      'a second YAML document begins here: the file must hold one',
      'keep one document',
    ],
    [
      'git conflict markers',
      '<<<<<<< HEAD\nbase: {}\n=======\nextra: {}\n>>>>>>> other\n',
      '7:1',
      'a git merge left conflict markers here',
      'delete the marker lines',
    ],
  ])('refuses a .sync.yml with %s: position, a hint, exit 1, nothing written', async (_, yaml, at, message, hint) => {
    const { root } = project(yaml);
    const before = snapshotDir(root);
    for (const command of ['apply', 'update']) {
      const r = await run(root, command);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`.sync.yml:${at}: error: ${message}`);
      expect(r.stderr).toMatch(new RegExp(`\n  hint: [^\n]*${hint.replace(/[[\]`]/g, '\\$&')}`));
      expect(r.stderr).toMatch(/\n1 error: nothing was written\n$/);
      expect(snapshotDir(root)).toEqual(before);
    }
    const json = await runJson(root, 'apply');
    expect(json.json).toMatchObject({
      problems: [{ code: 'SYNC_YAML', hint: expect.stringContaining(hint) }],
    });
  });

  it('refuses to overwrite a file it never wrote without a terminal, writing nothing', async () => {
    const { root } = project('', { 'static.txt': 'theirs\n' });
    const before = snapshotDir(root);
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('adopt     static.txt (base)\n');
    expect(r.stderr).toBe(
      'error: 1 file exists and differs from the template output, and Pantograph never wrote it: nothing was written\n' +
        '  hint: review with `pantograph status --diff`, then run apply on a terminal to confirm each file, with --yes to overwrite these files, or with --force to overwrite every file\n',
    );
    expect(snapshotDir(root)).toEqual(before);
    expect((await run(root, 'apply', '--yes')).code).toBe(0);
    expect(read(root, 'static.txt')).toBe('static\n');
  });

  it('--yes overwrites adopted files only, never a hand-edited managed one', async () => {
    const { root } = project();
    await run(root, 'apply');
    writeFileSync(join(root, 'static.txt'), 'mine\n');
    expect((await run(root, 'apply', '--yes')).code).toBe(0);
    expect(read(root, 'static.txt')).toBe('mine\n');
  });

  it('on a terminal shows the diff and asks; "n" keeps the file, "y" overwrites it', async () => {
    const { root } = project('', { 'static.txt': 'theirs\n' });
    const questions: string[] = [];
    const mem = memoryIo(root);
    const io = { ...mem, interactive: true };
    const global = { format: 'text' as const };
    const no = await applyWith(io, global, [], {}, async (q) => {
      questions.push(q);
      return 'n';
    });
    expect(no).toBe(0);
    expect(questions).toEqual(['static.txt exists and Pantograph never wrote it. Overwrite it? [y/N] ']);
    expect(mem.stdout).toBe(
      '--- a/static.txt\n+++ b/static.txt\n@@ -1,1 +1,1 @@\n-theirs\n+static\n' +
        'create    README.md  (init file for the new project)\n' +
        'create    config.txt\n' +
        'kept      static.txt  (differs from the template output: not confirmed)\n' +
        'Changed 2 files\n',
    );
    expect(read(root, 'static.txt')).toBe('theirs\n');
    const io2 = { ...memoryIo(root), interactive: true };
    expect(await applyWith(io2, global, [], {}, async () => 'y')).toBe(0);
    expect(read(root, 'static.txt')).toBe('static\n');
  });

  it('reports a failing post command with its output and exits 1', async () => {
    const { root } = project('  post:\n    - { "static.txt": "sh -c \'echo broken >&2; exit 3\'" }\n');
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "error: post command `sh -c 'echo broken >&2; exit 3'` failed on static.txt (exit 3)\n" +
        '    broken\n' +
        '  hint: fix the command (post in .sync.yml) and run apply again: the file is redone\n',
    );
    expect(existsSync(join(root, '.pantograph.lock'))).toBe(true);
  });

  it('refuses a PATH that names nothing planned or managed, with a suggestion', async () => {
    const { root } = project();
    const before = snapshotDir(root);
    expect(await run(root, 'apply', 'statc.txt')).toEqual({
      code: 1,
      stdout: '',
      stderr: "error: no planned or managed file matches 'statc.txt'\n  hint: did you mean 'static.txt'?\n",
    });
    expect((await run(root, 'status', 'nothing/here')).code).toBe(1);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('gives a stable JSON result', async () => {
    const { root } = project();
    const { code, json } = await runJson(root, 'apply', 'config.txt');
    expect(code).toBe(0);
    expect(json).toEqual({
      noop: false,
      ok: true,
      message: 'Changed 1 file',
      changed: 1,
      written: ['config.txt'],
      removed: [],
      skipped: [],
      backups: [],
      changedDuringRun: [],
      conflicts: [],
      post: [],
      directoriesCreated: [],
      lockChanged: true,
      interrupted: false,
      entries: [{ path: 'config.txt', state: 'create', template: 'base', kind: 'file' }],
      problems: [],
    });
  });
});
