/**
 * `remove`: deletes the files Pantograph manages (never `init` files, never hand-edited ones without
 * `force`) and the directories it created once they are empty. Every hand-edited file is found before
 * anything is removed.
 */
import { realpathSync, rmdirSync, unlinkSync } from 'node:fs';
import { SyncError } from './errors.js';
import { readLock, writeLock } from './lock.js';
import { acquireRunLock } from './mutex.js';
import { checkOutputPath, type DiskState, isPlainDirectory, LOCK_FILE, Target } from './paths.js';
import { removeFile, saveBackup } from './write.js';

export interface RemoveOptions {
  readonly force?: boolean;
}

export interface RemoveResult {
  readonly removed: readonly string[];
  readonly directoriesRemoved: readonly string[];
  /** `init` files, left in place. */
  readonly kept: readonly string[];
  /** Hand edits removed under `force`, each saved first (`<path>.pantograph-old`). */
  readonly backups: readonly { readonly path: string; readonly backup: string }[];
}

export function remove(root: string, options: RemoveOptions = {}): RemoveResult {
  const projectRoot = realpathSync(root);
  const runLock = acquireRunLock(projectRoot);
  try {
    const lock = readLock(projectRoot);
    if (!lock) return { removed: [], directoriesRemoved: [], kept: [], backups: [] };
    const target = new Target(projectRoot);
    for (const dir of lock.directories) target.dir(dir); // no locked directory through a symlink
    const toRemove: string[] = [];
    const handEdits = new Map<string, DiskState>();
    const edited: string[] = [];
    const kept: string[] = [];
    for (const [path, locked] of lock.files) {
      checkOutputPath(path);
      if (locked.kind === 'init') {
        kept.push(path);
        continue;
      }
      const disk = target.read(path);
      if (disk.kind === 'missing') continue;
      const handEdited = disk.hash !== locked.disk || locked.resolved === true;
      if (handEdited && options.force !== true) edited.push(path);
      else toRemove.push(path);
      if (handEdited) handEdits.set(path, disk);
    }
    if (edited.length > 0) {
      throw new SyncError(
        'SYNC_EDITED',
        `${edited.length} managed file(s) were changed by hand: ${edited.slice(0, 5).join(', ')}; nothing was removed`,
        {
          path: edited[0]!,
          hint: 'Keep a copy of your changes and run remove with --force, or restore the files first.',
        },
      );
    }
    toRemove.sort();
    const backups: { path: string; backup: string }[] = [];
    for (const path of toRemove) {
      const handEdit = handEdits.get(path);
      if (handEdit?.kind === 'file')
        backups.push({ path, backup: saveBackup(projectRoot, target, path, handEdit, false) });
      removeFile(target, path);
    }
    const directoriesRemoved: string[] = [];
    const keptDirs: string[] = [];
    for (const dir of [...lock.directories].sort((a, b) => b.length - a.length)) {
      if (!isPlainDirectory(projectRoot, dir)) continue;
      try {
        rmdirSync(`${projectRoot}/${dir}`);
        directoriesRemoved.push(dir);
      } catch {
        keptDirs.push(dir);
      }
    }
    const files = new Map([...lock.files].filter(([, f]) => f.kind === 'init'));
    if (files.size === 0) {
      unlinkSync(`${projectRoot}/${LOCK_FILE}`);
    } else {
      writeLock(projectRoot, { ...lock, files, directories: keptDirs.sort() });
    }
    return { removed: toRemove, directoriesRemoved: directoriesRemoved.sort(), kept: kept.sort(), backups };
  } finally {
    runLock.release();
  }
}
