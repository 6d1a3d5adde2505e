/**
 * Issue 11, items 3 and 9: what the writer checks at the moment it writes, not only when it scanned.
 * A test seam (`onBeforeWrite`, called just before each file is written or removed) changes the project
 * between the scan and a write, as a concurrent process or a user in an editor would.
 */
import { existsSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apply, readLock, status } from '../../src/sync/index.js';
import { file, get, planOf, put, tmpProject } from '../sync/helpers.js';

const many = (prefix: string, n: number, text: string) =>
  Array.from({ length: n }, (_, i) => file(`${prefix}/f${String(i).padStart(3, '0')}.txt`, `${text} ${i}\n`));

describe('a project directory replaced by a symlink while apply runs (item 3)', () => {
  it('is never written through: the run stops at that file, nothing lands outside', async () => {
    const root = tmpProject();
    const outside = tmpProject();
    await apply(planOf(root, many('sub', 2, 'old')));
    let swapped = false;
    const run = apply(planOf(root, many('sub', 100, 'new')), {
      onBeforeWrite: () => {
        if (swapped) return;
        swapped = true;
        renameSync(join(root, 'sub'), join(root, 'sub-moved'));
        symlinkSync(outside, join(root, 'sub'));
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'SYNC_SYMLINK' });
    expect(readdirSync(outside)).toEqual([]);
    // the lock still describes what is really there: the two old files, not the hundred new ones
    expect([...readLock(root)!.files.keys()]).toEqual(['sub/f000.txt', 'sub/f001.txt']);
  });

  it('a missing directory that appears as a symlink is refused the same way', async () => {
    const root = tmpProject();
    const outside = tmpProject();
    let swapped = false;
    const run = apply(planOf(root, [file('a.txt', 'a\n'), ...many('fresh', 20, 'x')]), {
      onBeforeWrite: (path) => {
        if (swapped || !path.startsWith('fresh/')) return;
        swapped = true;
        symlinkSync(outside, join(root, 'fresh'));
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'SYNC_SYMLINK' });
    expect(readdirSync(outside)).toEqual([]);
    expect(get(root, 'a.txt')).toBe('a\n');
  });
});

describe('a file edited while apply runs (item 9)', () => {
  it('is kept, reported, and stays edited in the lock: never silently overwritten', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('config.txt', 'v1\n'), file('other.txt', 'o1\n')]));
    const result = await apply(planOf(root, [file('config.txt', 'v2\n'), file('other.txt', 'o2\n')]), {
      onBeforeWrite: (path) => {
        if (path === 'config.txt') writeFileSync(join(root, 'config.txt'), 'my edit, saved in my editor\n');
      },
    });
    expect(get(root, 'config.txt')).toBe('my edit, saved in my editor\n');
    expect(get(root, 'other.txt')).toBe('o2\n');
    expect(result.ok).toBe(false);
    expect(result.changedDuringRun).toEqual(['config.txt']);
    expect(result.written).toEqual(['other.txt']);
    expect(result.skipped).toContainEqual({
      path: 'config.txt',
      state: 'edited',
      reason: 'changed while apply ran: kept, not overwritten',
    });
    expect(result.message).toMatch(/^1 file changed while apply ran/);
    // next time it is a hand edit whose template output changed: a conflict, found before writing
    const after = status(planOf(root, [file('config.txt', 'v2\n'), file('other.txt', 'o2\n')]));
    expect(after.entries.find((e) => e.path === 'config.txt')?.state).toBe('conflict');
  });

  it('a file created where the scan saw none is not overwritten either', async () => {
    const root = tmpProject();
    const result = await apply(planOf(root, [file('new.txt', 'template\n')]), {
      onBeforeWrite: () => put(root, 'new.txt', 'created meanwhile\n'),
    });
    expect(get(root, 'new.txt')).toBe('created meanwhile\n');
    expect(result.changedDuringRun).toEqual(['new.txt']);
    expect(readLock(root)?.files.has('new.txt') ?? false).toBe(false);
  });

  it('a symlink created where the scan saw no file is refused, never written through', async () => {
    const root = tmpProject();
    const outside = tmpProject();
    const run = apply(planOf(root, [file('new.txt', 'template\n')]), {
      onBeforeWrite: () => symlinkSync(join(outside, 'target.txt'), join(root, 'new.txt')),
    });
    await expect(run).rejects.toMatchObject({ code: 'SYNC_SYMLINK' });
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a file to purge that was edited meanwhile is not removed', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('gone.txt', 'g\n'), file('keep.txt', 'k\n')]));
    const result = await apply(planOf(root, [file('keep.txt', 'k\n')], { purge: true }), {
      onBeforeWrite: (path) => {
        if (path === 'gone.txt') writeFileSync(join(root, 'gone.txt'), 'edited\n');
      },
    });
    expect(get(root, 'gone.txt')).toBe('edited\n');
    expect(result.removed).toEqual([]);
    expect(result.changedDuringRun).toEqual(['gone.txt']);
    expect(existsSync(join(root, 'gone.txt'))).toBe(true);
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('k\n');
  });
});
