import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { previousOutputFor } from '../../src/engine/previous-output.js';
import { readLock } from '../../src/sync/index.js';
import { run, runJson } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempTree, writeTree } from '../helpers/fs.js';
import { lockText, read, repoTree, syncYml } from './fixtures.js';

afterEach(() => removeTempDirs());

/** An applied project whose config.txt the user changed on line 4. */
async function editedProject(more = '') {
  const repo = tempTree(repoTree());
  const root = tempTree({ '.sync.yml': syncYml(repo, more) });
  expect((await run(root, 'apply')).code).toBe(0);
  writeFileSync(join(root, 'config.txt'), read(root, 'config.txt').replace('line 4', 'line 4: mine'));
  return { repo, root };
}

describe('conflicts', () => {
  it('merges with the previous output when it can be reproduced (same version, locked settings)', async () => {
    const { repo, root } = await editedProject();
    writeFileSync(join(root, '.sync.yml'), syncYml(repo, 'base:\n  greeting: hi\n'));
    writeFileSync(join(root, 'static.txt'), 'static\n'); // unchanged; nothing else to do
    // Status says what a conflict needs (apply alone stops at it).
    expect((await run(root, 'status')).stdout).toContain(
      '1 stable, 1 conflict, 1 init: drift (merge each conflict (`pantograph apply` writes the new output beside it), then `pantograph resolve <path>`; if `pantograph update` stopped on them, run it again once they are resolved)\n',
    );
    const r = await run(root, 'apply');
    expect(r).toEqual({
      code: 1,
      stdout: 'conflict  config.txt: merged cleanly with the new template output: review it\n',
      stderr:
        "error: 1 conflict: nothing else was written. Finish each file's merge (where it was merged in place, what conflicts is between <<<<<<< and >>>>>>>; the new template output alone is in <path>.pantograph-new), then run `pantograph resolve <path>`, or apply with --force to overwrite\n",
    });
    expect(read(root, 'config.txt')).toBe(
      '# config\ngreeting = hi\nline 2\nline 3\nline 4: mine\nline 5\nitems = a\n',
    );
    expect(read(root, 'config.txt.pantograph-new')).toContain('greeting = hi\nline 2\n');
    // resolve accepts the merge; the next apply has nothing to do and keeps the user's line
    expect(await run(root, 'resolve', './config.txt')).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'resolved config.txt: your content is kept; removed config.txt.pantograph-new. A later change of its template output is reported as a conflict.\n',
    });
    expect(existsSync(join(root, 'config.txt.pantograph-new'))).toBe(false);
    // No file changes; the lock takes the settings the accepted output came from.
    expect(await run(root, 'apply')).toEqual({
      code: 0,
      stderr: '',
      stdout: 'No file to change; .pantograph.lock brought up to date\n',
    });
    expect(await run(root, 'apply')).toEqual({ code: 0, stderr: '', stdout: 'Nothing to change\n' });
    expect((await run(root, 'status', '--check')).code).toBe(0);
    expect(read(root, 'config.txt')).toContain('line 4: mine');
  });

  it('a resolved file merges the next template change, even with no apply in between', async () => {
    const { repo, root } = await editedProject();
    writeFileSync(join(root, '.sync.yml'), syncYml(repo, 'base:\n  greeting: hi\n'));
    expect((await run(root, 'apply')).code).toBe(1);
    expect((await run(root, 'resolve', 'config.txt')).code).toBe(0);
    // status is clean, so a user commits here; the lock's settings still say `hello`.
    expect((await run(root, 'status', '--check')).code).toBe(0);
    writeFileSync(join(root, '.sync.yml'), syncYml(repo, 'base:\n  greeting: hi\n  items: [a, b]\n'));
    expect(await run(root, 'apply')).toMatchObject({
      code: 1,
      stdout: 'conflict  config.txt: merged cleanly with the new template output: review it\n',
    });
    expect(read(root, 'config.txt')).toBe(
      '# config\ngreeting = hi\nline 2\nline 3\nline 4: mine\nline 5\nitems = a,b\n',
    );
  });

  it('writes <path>.pantograph-new when the template changed without a new version (the base is unknown)', async () => {
    const { repo, root } = await editedProject();
    writeTree(repo, repoTree({ config: '# new header\n<%= $greeting %>\n' }));
    const before = snapshotDir(root);
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('conflict  config.txt: the new template output is in config.txt.pantograph-new\n');
    expect(read(root, 'config.txt')).toContain('line 4: mine');
    expect(read(root, 'config.txt.pantograph-new')).toBe('# new header\nhello\n');
    const after = snapshotDir(root);
    delete after['config.txt.pantograph-new'];
    expect(after).toEqual(before);
    // A second run does not merge again: it waits for resolve.
    expect((await run(root, 'apply')).stdout).toBe(
      'conflict  config.txt: still awaiting `pantograph resolve config.txt` (new output in config.txt.pantograph-new)\n',
    );
    expect((await run(root, 'apply', '--force')).code).toBe(0);
    expect(read(root, 'config.txt')).toBe('# new header\nhello\n');
    expect(existsSync(join(root, 'config.txt.pantograph-new'))).toBe(false);
  });

  it('does not reproduce a template whose version changed', async () => {
    const { repo, root } = await editedProject();
    writeTree(repo, repoTree({ version: '1.1.0' }));
    const previous = previousOutputFor(root, readLock(root)!);
    expect(await previous('config.txt')).toBeUndefined();
    writeTree(repo, repoTree({ version: '1.0.0' }));
    const again = previousOutputFor(root, readLock(root)!);
    expect(Buffer.from((await again('config.txt'))!).toString()).toBe(
      '# config\ngreeting = hello\nline 2\nline 3\nline 4\nline 5\nitems = a\n',
    );
    expect(await again('README.md')).toBeUndefined(); // init files never conflict
    expect(await again('missing.txt')).toBeUndefined();
  });

  it('reproduces output rendered with settings that are no longer in .sync.yml', async () => {
    const { repo, root } = await editedProject('base:\n  items: [b, c]\n');
    writeFileSync(join(root, '.sync.yml'), syncYml(repo, 'base:\n  items: [d]\n'));
    const previous = previousOutputFor(root, readLock(root)!);
    expect(Buffer.from((await previous('config.txt'))!).toString()).toContain('items = a,b,c\n');
  });

  it('--noop reports the conflict and writes nothing; JSON lists it', async () => {
    const { repo, root } = await editedProject();
    writeFileSync(join(root, '.sync.yml'), syncYml(repo, 'base:\n  greeting: hi\n'));
    const before = snapshotDir(root);
    const { code, json } = await runJson(root, 'apply', '--noop');
    expect(code).toBe(1);
    expect(json).toMatchObject({
      noop: true,
      ok: false,
      // What apply would do, as it would do it: not "stop without writing" (it merges, or writes beside).
      message:
        '1 conflict: apply would write the new template output beside it (<path>.pantograph-new), merge it into the file where it can, and write nothing else',
      conflicts: [
        { path: 'config.txt', template: 'base', resolution: 'none', newFile: 'config.txt.pantograph-new' },
      ],
    });
    expect(snapshotDir(root)).toEqual(before);
  });
});

describe('resolve', () => {
  it('refuses a path Pantograph does not manage', async () => {
    const { root } = await editedProject();
    const r = await run(root, 'resolve', 'nope.txt');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: nope.txt is not a file Pantograph manages [SYNC_NOT_MANAGED]\n  hint: Only files recorded in .pantograph.lock can be resolved.\n',
    );
  });

  it('answers a misspelt path with the managed file meant, and writes nothing', async () => {
    const { root } = await editedProject();
    const before = snapshotDir(root);
    const r = await run(root, 'resolve', 'config.tx');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "error: config.tx is not a file Pantograph manages [SYNC_NOT_MANAGED]\n  hint: did you mean 'config.txt'?\n",
    );
    expect(snapshotDir(root)).toEqual(before);
  });

  it('refuses a path that leaves the project', async () => {
    const { root } = await editedProject();
    const r = await run(root, 'resolve', '../x');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SYNC_PATH_INVALID');
  });
});

describe('remove', () => {
  it('keeps hand-edited files, says which and what to do, exit 0; --force then removes them, saving each', async () => {
    const { root } = await editedProject();
    const r = await run(root, 'remove');
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: `removed   static.txt
kept      config.txt  (changed by hand)
kept      README.md  (init file: yours since the project was created)
removed 1 file and 0 directories, kept 2 files
1 file with your changes is still managed: \`pantograph remove --force\` removes it too, saving your version as <path>.pantograph-old first
`,
    });
    expect(existsSync(join(root, 'static.txt'))).toBe(false);
    expect(read(root, 'config.txt')).toContain('line 4: mine');
    expect(Object.keys(JSON.parse(lockText(root)).files)).toEqual(['README.md', 'config.txt']);
    expect(await run(root, 'remove', '--force')).toEqual({
      code: 0,
      stderr: '',
      stdout: `removed   config.txt  (changed by hand: your version is saved as config.txt.pantograph-old)
kept      README.md  (init file: yours since the project was created)
removed 1 file and 0 directories, kept 1 file
`,
    });
    expect(existsSync(join(root, 'config.txt'))).toBe(false);
    // The hand edit --force destroyed is kept beside it (issue 11, item 10).
    expect(readFileSync(join(root, 'config.txt.pantograph-old'), 'utf8')).toContain('line 4: mine');
    expect(existsSync(join(root, 'README.md'))).toBe(true);
  });

  it('keeps a file accepted with resolve (in line for status), listed as such under --format json', async () => {
    const { root } = await editedProject();
    expect((await run(root, 'resolve', 'config.txt')).code).toBe(0);
    expect((await run(root, 'status', '--check')).code).toBe(0);
    const { code, json } = await runJson(root, 'remove');
    expect(code).toBe(0);
    expect(json).toEqual({
      removed: ['static.txt'],
      directoriesRemoved: [],
      kept: ['README.md'],
      keptEdited: [{ path: 'config.txt', reason: 'resolved' }],
      backups: [],
    });
    expect(read(root, 'config.txt')).toContain('line 4: mine');
    expect(
      (await run(root, 'remove')).stdout,
    ).toBe(`kept      config.txt  (your content, accepted with \`pantograph resolve\`)
kept      README.md  (init file: yours since the project was created)
removed 0 files and 0 directories, kept 2 files
1 file with your changes is still managed: \`pantograph remove --force\` removes it too, saving your version as <path>.pantograph-old first
`);
  });

  it('removes the directories it created; JSON shape; nothing left to remove afterwards', async () => {
    const repo = tempTree(repoTree());
    const root = tempTree({ '.sync.yml': syncYml(repo, '', '[extra]') });
    await run(root, 'apply');
    expect(existsSync(join(root, 'extra/extra.txt'))).toBe(true);
    const { code, json } = await runJson(root, 'remove');
    expect(code).toBe(0);
    expect(json).toEqual({
      removed: ['config.txt', 'extra/extra.txt', 'static.txt'],
      directoriesRemoved: ['extra'],
      kept: ['README.md'],
      keptEdited: [],
      backups: [],
    });
    expect(existsSync(join(root, 'extra'))).toBe(false);
  });

  it('says so when there is nothing to remove', async () => {
    const root = tempTree({ '.sync.yml': 'x' });
    expect(await run(root, 'remove')).toEqual({
      code: 0,
      stderr: '',
      stdout: 'nothing to remove: Pantograph manages no file here\n',
    });
  });
});
