import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apply, readLock, remove, resolve, status } from '../../src/sync/index.js';
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
    expect(status(planOf(root, [], { purge: true })).entries).toMatchObject([{ path: 'x', state: 'edited' }]);
    expect(() => remove(root)).toThrow(expect.objectContaining({ code: 'SYNC_EDITED' }));
    expect(get(root, 'x')).toBe('mine\n');
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
      directoriesRemoved: ['a', 'a/b'],
      kept: ['README.md'],
      backups: [],
    });
    expect(existsSync(join(root, 'a'))).toBe(false);
    expect(get(root, 'src/own.ts')).toBe('mine\n');
    expect(get(root, 'README.md')).toBe('r\n');
    const lock = JSON.parse(readFileSync(join(root, '.pantograph.lock'), 'utf8'));
    expect(Object.keys(lock.files)).toEqual(['README.md']);
  });

  it('refuses hand-edited files unless forced, removing nothing', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('a', 'a\n'), file('b', 'b\n')]));
    put(root, 'b', 'mine\n');
    expect(() => remove(root)).toThrow(expect.objectContaining({ code: 'SYNC_EDITED', path: 'b' }));
    expect(get(root, 'a')).toBe('a\n');
    expect(remove(root, { force: true }).removed).toEqual(['a', 'b']);
    expect(existsSync(join(root, '.pantograph.lock'))).toBe(false);
  });

  it('does nothing on a project without a lock', () => {
    const root = tmpProject();
    put(root, 'a', 'a\n');
    expect(remove(root)).toEqual({ removed: [], directoriesRemoved: [], kept: [], backups: [] });
    expect(get(root, 'a')).toBe('a\n');
  });
});
