/**
 * The only code that changes the target. A file is written to `.<hash>.pantograph-tmp` beside it, then
 * renamed over it: a run killed at any moment leaves the old or the new content, never a partial file.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { errnoCode, SyncError } from './errors.js';
import { sha256 } from './hash.js';
import { derivedPath, parentDir, type Target, TMP_SUFFIX } from './paths.js';

/**
 * The temporary file of `path`: `.<hash of the name>.pantograph-tmp` in the same directory, 32 bytes
 * whatever the name's length (a name of up to 255 bytes is legal; `.<name>.pantograph-tmp` was not, and
 * such a file could never be written).
 */
export function tmpName(path: string): string {
  const dir = parentDir(path);
  const base = path.slice(dir.length === 0 ? 0 : dir.length + 1);
  return `${dir === '' ? '' : `${dir}/`}.${sha256(Buffer.from(base)).slice(0, 16)}${TMP_SUFFIX}`;
}

function writeFailed(path: string, error: unknown): SyncError {
  const code = errnoCode(error);
  const why =
    code === 'ENOSPC'
      ? 'the disk is full'
      : code === 'EROFS'
        ? 'the file system is read-only'
        : (code ?? String(error));
  return new SyncError('SYNC_WRITE_FAILED', `Cannot write ${path}: ${why}`, { path, cause: error });
}

/** Writes `content` to `root/path` atomically with exactly `mode`; `durable` fsyncs file and directory. */
export function writeFileAtomic(
  root: string,
  path: string,
  content: Uint8Array,
  mode: number,
  durable: boolean,
): void {
  const tmp = `${root}/${tmpName(path)}`;
  let fd: number | undefined;
  try {
    fd = openExclusive(tmp, mode);
    let offset = 0;
    while (offset < content.length) offset += writeSync(fd, content, offset, content.length - offset);
    fchmodSync(fd, mode); // open's mode is filtered by the umask
    if (durable) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, `${root}/${path}`);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to clean
    }
    throw writeFailed(path, error);
  }
  if (durable) fsyncDir(root, parentDir(path));
}

/** Creates `file`; a leftover of a killed run (or a planted symlink) is removed first, never followed. */
function openExclusive(file: string, mode: number): number {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  try {
    return openSync(file, flags, mode);
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
    unlinkSync(file);
    return openSync(file, flags, mode);
  }
}

export function fsyncDir(root: string, dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir === '' ? root : `${root}/${dir}`, constants.O_RDONLY | constants.O_DIRECTORY);
    fsyncSync(fd);
  } catch {
    // some file systems refuse fsync on directories; the rename itself is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Creates the missing directories of `dir`, returning those created (outermost first). */
export function ensureDir(target: Target, dir: string): string[] {
  if (dir === '' || target.dir(dir) === 'dir') return [];
  const created = ensureDir(target, parentDir(dir));
  try {
    mkdirSync(target.abs(dir));
    created.push(dir);
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw writeFailed(dir, error);
    target.forget();
    target.dir(dir); // throws when what appeared is not a directory
  }
  target.created(dir);
  return created;
}

export function chmodFile(target: Target, path: string, mode: number): void {
  let fd: number | undefined;
  try {
    fd = openSync(target.abs(path), constants.O_RDONLY | constants.O_NOFOLLOW);
    fchmodSync(fd, mode);
  } catch (error) {
    throw writeFailed(path, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Removes a file; an absent file is fine. */
export function removeFile(target: Target, path: string): void {
  try {
    unlinkSync(target.abs(path));
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') {
      throw new SyncError(
        'SYNC_WRITE_FAILED',
        `Cannot remove ${path}: ${errnoCode(error) ?? String(error)}`,
        {
          path,
          cause: error,
        },
      );
    }
  }
}

/** After a killed run: removes its `.<name>.pantograph-tmp` files from the directories it may have used. */
export function removeTempFiles(target: Target, dirs: Iterable<string>): void {
  for (const dir of dirs) {
    try {
      if (target.dir(dir) !== 'dir') continue;
      for (const name of readdirSync(dir === '' ? target.root : target.abs(dir))) {
        if (name.startsWith('.') && name.endsWith(TMP_SUFFIX))
          removeFile(target, dir === '' ? name : `${dir}/${name}`);
      }
    } catch {
      // an unsafe directory is reported by the scan that follows
    }
  }
}

/** Suffix of the saved copy of a hand edit that `--force` replaced or removed. */
export const OLD_SUFFIX = '.pantograph-old';

/**
 * Saves a hand-edited file that is about to be replaced or removed under `--force`, beside it:
 * `<path>.pantograph-old`, or `.pantograph-old.2`, `.3`... when that exists (an earlier copy is never
 * overwritten). Returns the copy's project-relative path.
 */
export function saveBackup(
  root: string,
  target: Target,
  path: string,
  now: { readonly content: Uint8Array; readonly mode: number },
  durable: boolean,
): string {
  const backup = backupPath(target, path);
  writeFileAtomic(root, backup, now.content, now.mode & 0o777, durable);
  return backup;
}

/** Where `saveBackup` saves `path`: `<path>.pantograph-old`, or `.2`, `.3`... when that is taken. */
export function backupPath(target: Target, path: string): string {
  for (let n = 1; ; n++) {
    const backup = derivedPath(path, n === 1 ? OLD_SUFFIX : `${OLD_SUFFIX}.${n}`);
    if (target.readNow(backup).kind === 'missing') return backup;
  }
}
