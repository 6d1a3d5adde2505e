import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apply, readLock, remove, resolve, type SyncError, status } from '../../src/sync/index.js';
import { file, get, planOf, put, tmpProject } from './helpers.js';

describe('resolve', () => {
  it("accepts the user's merge of a conflict and removes <path>.pantograph-new", async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'v1\n')]));
    put(root, 'x', 'mine\n');
    const plan = planOf(root, [file('x', 'v2\n')]);
    await apply(plan);
    put(root, 'x', 'mine\nv2\n');
    expect(resolve(root, 'x')).toEqual({ path: 'x', hadNewFile: true, differsFromTemplate: true });
    expect(existsSync(join(root, 'x.pantograph-new'))).toBe(false);
    expect(status(plan).entries).toMatchObject([{ path: 'x', state: 'stable' }]);
    expect(readLock(root)!.files.get('x')).toMatchObject({ resolved: true });
    const again = await apply(plan);
    expect(again.written).toEqual([]);
    expect(get(root, 'x')).toBe('mine\nv2\n');
  });

  it('treats a later template change to a resolved file as a conflict, not an overwrite', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'v1\n')]));
    put(root, 'x', 'mine\n');
    await apply(planOf(root, [file('x', 'v2\n')]));
    resolve(root, 'x');
    const v3 = planOf(root, [file('x', 'v3\n')]);
    expect(status(v3).entries).toMatchObject([{ path: 'x', state: 'conflict' }]);
    const result = await apply(v3);
    expect(result.ok).toBe(false);
    expect(get(root, 'x')).toBe('mine\n');
  });

  it('accepts a hand edit as the new baseline, so it is no longer drift, but still never purged or removed', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('x', 'tpl\n')]);
    await apply(plan);
    put(root, 'x', 'mine\n');
    expect(resolve(root, 'x')).toEqual({ path: 'x', hadNewFile: false, differsFromTemplate: true });
    expect(status(plan).drift).toBe(false);
    expect(remove(root).keptEdited).toEqual([{ path: 'x', reason: 'resolved' }]);
    expect(get(root, 'x')).toBe('mine\n');
    // When no template produces it any more, it is the user's own: kept, no drift, out of the lock.
    const gone = planOf(root, [], { purge: true });
    expect(status(gone).entries).toMatchObject([
      {
        path: 'x',
        state: 'unmanaged',
        reason: 'yours since `resolve`, and no template produces it: no longer managed',
      },
    ]);
    expect(status(gone).drift).toBe(false);
    expect((await apply(gone)).removed).toEqual([]);
    expect(readLock(root)!.files.has('x')).toBe(false);
    expect(get(root, 'x')).toBe('mine\n');
  });

  it('lets a hand-edited file no template produces any more be kept with resolve, or removed with --force', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('keep', 'k\n'), file('gone', 'g\n')]));
    put(root, 'gone', 'g\nmine\n');
    const gone = planOf(root, [file('keep', 'k\n')], { purge: true });
    const edited = status(gone).entries.find((e) => e.path === 'gone');
    expect(edited).toMatchObject({ state: 'edited' });
    expect(edited!.reason).toContain('`resolve` keeps it as yours, `apply --force` removes it');
    expect(status(gone).drift).toBe(true);
    resolve(root, 'gone');
    expect(status(gone).drift).toBe(false);
    await apply(gone);
    expect(readLock(root)!.files.has('gone')).toBe(false);
    expect(get(root, 'gone')).toBe('g\nmine\n');
    expect(status(gone).entries.map((e) => e.path)).toEqual(['keep']);
  });

  it('refuses a file that still has the merge markers, at the first one, unless forced', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'one\ntwo\n')]));
    put(root, 'x', 'one\nmine\n');
    await apply(planOf(root, [file('x', 'one\nnew\n')]));
    expect(existsSync(join(root, 'x.pantograph-new'))).toBe(true);
    // What the merge of `update` writes (merge.ts's labels), the hunk half edited.
    const merged = 'one\n<<<<<<< x (yours)\nmine\n=======\nnew\n>>>>>>> x (new template output)\n';
    put(root, 'x', merged);
    const error = (() => {
      try {
        resolve(root, 'x');
      } catch (e) {
        return e as SyncError;
      }
      throw new Error('expected an error');
    })();
    expect(error.code).toBe('SYNC_CONFLICT_MARKERS');
    expect(error.message).toBe('x still has conflict markers: the merge is not finished');
    expect(error.position).toMatchObject({ line: 2, column: 1 });
    expect(error.hint).toContain('resolve --force');
    // Nothing changed: the new output is still waiting beside the file.
    expect(existsSync(join(root, 'x.pantograph-new'))).toBe(true);
    expect(get(root, 'x')).toBe(merged);
    // A closing marker left alone is the merge unfinished too.
    put(root, 'x', 'one\nmine\n=======\nnew\n>>>>>>> x (new template output)\n');
    expect(() => resolve(root, 'x')).toThrow(expect.objectContaining({ code: 'SYNC_CONFLICT_MARKERS' }));
    // Markers of another file (a document about git) are not Pantograph's merge.
    put(root, 'x', 'one\n<<<<<<< y (yours)\n>>>>>>> y (new template output)\n');
    expect(resolve(root, 'x').hadNewFile).toBe(true);
  });

  it('finds the markers of a file whose name is not ASCII', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('résumé.txt', 'one\ntwo\n')]));
    put(
      root,
      'résumé.txt',
      'one\n<<<<<<< résumé.txt (yours)\nmine\n=======\nnew\n>>>>>>> résumé.txt (new template output)\n',
    );
    expect(() => resolve(root, 'résumé.txt')).toThrow(
      expect.objectContaining({
        code: 'SYNC_CONFLICT_MARKERS',
        position: expect.objectContaining({ line: 2 }),
      }),
    );
  });

  it('accepts the markers with force', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'one\ntwo\n')]));
    put(root, 'x', 'one\nmine\n');
    await apply(planOf(root, [file('x', 'one\nnew\n')]));
    put(root, 'x', 'one\n<<<<<<< x (yours)\nmine\n=======\nnew\n>>>>>>> x (new template output)\n');
    expect(resolve(root, 'x', { force: true })).toMatchObject({
      hadNewFile: true,
      differsFromTemplate: true,
    });
    expect(existsSync(join(root, 'x.pantograph-new'))).toBe(false);
  });

  it('refuses a path Pantograph does not manage', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'x\n')]));
    put(root, 'other', 'o\n');
    expect(() => resolve(root, 'other')).toThrow(
      expect.objectContaining({ code: 'SYNC_NOT_MANAGED', path: 'other' }),
    );
    expect(() => resolve(root, '../x')).toThrow(expect.objectContaining({ code: 'SYNC_PATH_INVALID' }));
  });
});

describe('remove', () => {
  it('deletes managed files and the empty directories it created, keeping init files and user files', async () => {
    const root = tmpProject();
    put(root, 'src/own.ts', 'mine\n');
    await apply(
      planOf(
        root,
        [file('a/b/c', 'c\n'), file('src/gen.ts', 'g\n'), file('README.md', 'r\n', { kind: 'init' })],
        {
          isNew: true,
        },
      ),
    );
    const result = remove(root);
    expect(result).toEqual({
      removed: ['a/b/c', 'src/gen.ts'],
      directoriesRemoved: ['a/b', 'a'], // in the order they went: a directory after what was in it
      kept: ['README.md'],
      keptEdited: [],
      backups: [],
    });
    expect(existsSync(join(root, 'a'))).toBe(false);
    expect(get(root, 'src/own.ts')).toBe('mine\n');
    expect(get(root, 'README.md')).toBe('r\n');
    const lock = JSON.parse(readFileSync(join(root, '.pantograph.lock'), 'utf8'));
    expect(Object.keys(lock.files)).toEqual(['README.md']);
  });

  it('keeps hand-edited and resolved files, still managed, and removes the others', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('a', 'a\n'), file('b', 'b\n'), file('dir/c', 'c\n'), file('d', 'd\n')]);
    await apply(plan);
    put(root, 'b', 'mine\n');
    put(root, 'dir/c', 'c\nmine\n');
    put(root, 'd', 'd\nmine\n');
    resolve(root, 'd'); // the user's content, as status sees it: in line
    const before = readLock(root)!;
    expect(remove(root)).toEqual({
      removed: ['a'],
      directoriesRemoved: [],
      kept: [],
      keptEdited: [
        { path: 'b', reason: 'edited' },
        { path: 'd', reason: 'resolved' },
        { path: 'dir/c', reason: 'edited' },
      ],
      backups: [],
    });
    expect(existsSync(join(root, 'a'))).toBe(false);
    expect(get(root, 'b')).toBe('mine\n');
    expect(get(root, 'dir/c')).toBe('c\nmine\n');
    expect(get(root, 'd')).toBe('d\nmine\n');
    expect(existsSync(join(root, 'b.pantograph-old'))).toBe(false);
    // The kept files stay in the lock as they were, with the directory holding one of them.
    const after = readLock(root)!;
    expect([...after.files.keys()]).toEqual(['b', 'd', 'dir/c']);
    for (const path of ['b', 'd', 'dir/c']) expect(after.files.get(path)).toEqual(before.files.get(path));
    expect(after.directories).toEqual(['dir']);
    // So they are still hand edits to a later apply (never adopted, never overwritten without --force)...
    const entries = status(plan).entries;
    expect(entries.find((e) => e.path === 'b')).toMatchObject({ state: 'edited' });
    expect(entries.find((e) => e.path === 'd')).toMatchObject({ state: 'stable' });
    // ...and `remove --force` finds them: removed, each saved first.
    expect(remove(root, { force: true })).toEqual({
      removed: ['b', 'd', 'dir/c'],
      directoriesRemoved: [], // dir holds the copy of dir/c
      kept: [],
      keptEdited: [],
      backups: [
        { path: 'b', backup: 'b.pantograph-old' },
        { path: 'd', backup: 'd.pantograph-old' },
        { path: 'dir/c', backup: 'dir/c.pantograph-old' },
      ],
    });
    expect(get(root, 'd.pantograph-old')).toBe('d\nmine\n');
    expect(existsSync(join(root, '.pantograph.lock'))).toBe(false);
  });

  it('removes hand-edited files at once under force, saving each first', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('a', 'a\n'), file('b', 'b\n')]));
    put(root, 'b', 'mine\n');
    expect(remove(root, { force: true })).toMatchObject({
      removed: ['a', 'b'],
      keptEdited: [],
      backups: [{ path: 'b', backup: 'b.pantograph-old' }],
    });
    expect(get(root, 'b.pantograph-old')).toBe('mine\n');
    expect(existsSync(join(root, '.pantograph.lock'))).toBe(false);
  });

  it('does nothing on a project without a lock', () => {
    const root = tmpProject();
    put(root, 'a', 'a\n');
    expect(remove(root)).toEqual({
      removed: [],
      directoriesRemoved: [],
      kept: [],
      keptEdited: [],
      backups: [],
    });
    expect(get(root, 'a')).toBe('a\n');
  });

  it('removes what an interrupted apply wrote but never locked, judged by its journal, and clears the journal', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('a', 'a1\n'), file('b', 'b\n')]));
    const oldLock = readFileSync(join(root, '.pantograph.lock'));
    // The run that is interrupted: it changes a, adds new/c and would add e; killed after writing a and
    // new/c, before e and before the lock (what apply's journal records, see src/sync/journal.ts).
    await apply(planOf(root, [file('a', 'a2\n'), file('b', 'b\n'), file('new/c', 'c\n'), file('e', 'e\n')]));
    renameSync(join(root, '.pantograph.lock'), join(root, '.pantograph.lock.pending'));
    writeFileSync(join(root, '.pantograph.lock'), oldLock);
    put(root, 'e', "the user's own e\n"); // never written by the run: not Pantograph's
    expect(remove(root)).toEqual({
      removed: ['a', 'b', 'new/c'],
      directoriesRemoved: ['new'],
      kept: [],
      keptEdited: [],
      backups: [],
    });
    expect(get(root, 'e')).toBe("the user's own e\n");
    expect(existsSync(join(root, '.pantograph.lock'))).toBe(false);
    expect(existsSync(join(root, '.pantograph.lock.pending'))).toBe(false);
  });

  it('leaves alone a file the interrupted run wrote and the user changed since', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('a', 'a\n')]));
    const oldLock = readFileSync(join(root, '.pantograph.lock'));
    await apply(planOf(root, [file('a', 'a\n'), file('n', 'n\n')]));
    renameSync(join(root, '.pantograph.lock'), join(root, '.pantograph.lock.pending'));
    writeFileSync(join(root, '.pantograph.lock'), oldLock);
    put(root, 'n', 'n\nmine\n');
    // Not the journal's content, and not in the lock: the interrupted run's file is the user's now.
    expect(remove(root)).toMatchObject({ removed: ['a'], keptEdited: [] });
    expect(get(root, 'n')).toBe('n\nmine\n');
    expect(existsSync(join(root, '.pantograph.lock.pending'))).toBe(false);
  });
});
