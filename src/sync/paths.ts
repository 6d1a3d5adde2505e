/**
 * Output path safety. A path is checked twice: as text (`checkOutputPath`: no `..`, no absolute path, no
 * reserved name) and against the target directory (`Target`: no symlinked file or directory on the way,
 * no file where a directory must be). Pantograph never writes through a symlink.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  type Stats,
} from 'node:fs';
import { controlCharacterIn } from '../shared/control-characters.js';
import {
  JOURNAL_FILE,
  LOCK_FILE,
  NEW_SUFFIX,
  POSTED_FILE,
  RUN_LOCK_FILE,
  TMP_SUFFIX,
} from '../shared/project-files.js';
import { quotedName } from '../shared/quoted-name.js';
import { describeReserved, RESERVED_NAMES_HINT, reservedSegment } from '../shared/reserved-names.js';
import type { FileDigests } from './digests.js';
import { errnoCode, SyncError } from './errors.js';
import { sha256 } from './hash.js';

export { JOURNAL_FILE, LOCK_FILE, NEW_SUFFIX, POSTED_FILE, RUN_LOCK_FILE, TMP_SUFFIX };

/** The longest file name (one path segment, in bytes) the file systems we run on accept. */
export const NAME_MAX = 255;

/**
 * The path of a file derived from `path` by a suffix (`.pantograph-new`): `path` + suffix when its name
 * fits in {@link NAME_MAX} bytes; else the name is shortened (at a character boundary) and a hash of the
 * whole name keeps it unique, so that a 245-byte file name, a legal output, still has its derived files.
 */
export function derivedPath(path: string, suffix: string): string {
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  if (Buffer.byteLength(name + suffix) <= NAME_MAX) return path + suffix;
  const tag = `~${sha256(Buffer.from(name)).slice(0, 8)}`;
  return `${dir}${prefixOfBytes(name, NAME_MAX - Buffer.byteLength(tag + suffix))}${tag}${suffix}`;
}

/** The longest prefix of `text` (whole characters) of at most `bytes` UTF-8 bytes. */
function prefixOfBytes(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    used += Buffer.byteLength(char);
    if (used > bytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/** Why an output path may not be used: its error code and the words after the path. */
export interface OutputPathProblem {
  readonly code: 'SYNC_PATH_INVALID' | 'SYNC_PATH_RESERVED';
  /** `is absolute`, `is reserved: ".GIT" is .git on macOS and Windows (...)`. */
  readonly why: string;
}

/**
 * Refuses a project-relative output path that could leave the project or hit a reserved file; `template`
 * is the one whose output it is, for the message.
 */
export function checkOutputPath(path: string, template?: string): void {
  const problem = outputPathProblem(path);
  if (problem === undefined) return;
  const of = template === undefined ? '' : ` of template ${template}`;
  throw new SyncError(problem.code, `Output path ${quotedName(path)}${of} ${problem.why}`, {
    path,
    hint:
      problem.code === 'SYNC_PATH_RESERVED'
        ? RESERVED_NAMES_HINT
        : 'Output paths are relative to the project root, with `/` separators and no `.` or `..`.',
  });
}

/** Why a project-relative output path may not be written or removed, or undefined when it may. */
export function outputPathProblem(path: string): OutputPathProblem | undefined {
  // Every planned and every locked path is checked: the common, valid case in one pass, without allocating.
  if (isPlainRelativePath(path) && reservedSegment(path) === undefined) return undefined;
  const invalid = (why: string): OutputPathProblem => ({ code: 'SYNC_PATH_INVALID', why });
  if (path === '') return invalid('is empty');
  if (path.includes('\0')) return invalid('contains a NUL character');
  const control = controlCharacterIn(path);
  if (control !== undefined) return invalid(`contains a control character (${control})`);
  if (path.includes('\\')) return invalid('contains a backslash');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return invalid('is absolute');
  for (const part of path.split('/')) {
    if (part === '..') return invalid('leaves the project (`..`)');
    if (part === '' || part === '.') return invalid('is not normalised (empty or `.` segment)');
  }
  const found = reservedSegment(path);
  if (found === undefined) return undefined;
  const how = found.because === undefined ? '' : `: ${describeReserved(found)}`;
  return { code: 'SYNC_PATH_RESERVED', why: `is reserved${how}` };
}

/**
 * Whether `path` passes the checks of `checkOutputPath` but the reserved names: not empty, no control
 * character, no backslash, not absolute (no leading `/`, nothing that could be a drive letter), no empty, `.` or `..`
 * segment. False sends the path through those checks one by one, for the message.
 */
function isPlainRelativePath(path: string): boolean {
  const n = path.length;
  if (n === 0 || (n >= 2 && path.charCodeAt(1) === 58)) return false; // `C:...` is for the slow path
  let start = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? path.charCodeAt(i) : 47;
    // NUL, `\\`, and any other control character (C0, DEL, C1, U+2028/9) are for the slow path.
    if (c < 32 || c === 92 || (c >= 127 && c <= 159) || c === 0x2028 || c === 0x2029) return false;
    if (c !== 47) continue;
    const length = i - start;
    if (length === 0) return false;
    if (path.charCodeAt(start) === 46) {
      if (length === 1 || (length === 2 && path.charCodeAt(start + 1) === 46)) return false;
    }
    start = i + 1;
  }
  return true;
}

/** The largest project file Pantograph reads (to compare with what a template renders): 1 GiB. */
export const MAX_FILE_SIZE = 1024 ** 3;

/** What a target path holds. Only regular files are ever read or replaced. */
export type DiskState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'file'; readonly hash: string; readonly mode: number; readonly content: Buffer };

/**
 * A file whose hash the digest record knew from its unchanged stat: its bytes are read only when asked
 * for (a diff, a merge), and must still have that hash then.
 */
class UnreadFile {
  readonly kind = 'file';
  private bytes: Buffer | undefined;

  constructor(
    private readonly target: Target,
    private readonly path: string,
    readonly hash: string,
    readonly mode: number,
  ) {}

  get content(): Buffer {
    if (this.bytes === undefined) {
      const now = this.target.read(this.path, { trustDigests: false });
      if (now.kind !== 'file' || now.hash !== this.hash) {
        throw new SyncError('SYNC_CHANGED', `${this.path} changed while Pantograph was running`, {
          path: this.path,
          hint: 'Run the command again.',
        });
      }
      this.bytes = now.content;
    }
    return this.bytes;
  }
}

type DirState = 'dir' | 'missing' | SyncError;

/**
 * Reads target paths under one project root, checking every directory component once (cached): a
 * symlinked or non-directory component is an error, a missing one makes everything below it missing.
 */
export class Target {
  private readonly dirs = new Map<string, DirState>([['', 'dir']]);
  /** Names in each directory read so far (one readdir instead of a failing open per missing file). */
  private readonly listings = new Map<string, ReadonlySet<string> | null>();

  /** `digests`: hashes known from unchanged stats, and where this scan records the ones it computes. */
  constructor(
    readonly root: string,
    private readonly digests?: FileDigests,
  ) {}

  abs(path: string): string {
    return `${this.root}/${path}`;
  }

  /** State of a project-relative directory (`''` is the root). Throws for a symlink or a file. */
  dir(dir: string): 'dir' | 'missing' {
    let state = this.dirs.get(dir);
    if (state === undefined) {
      const slash = dir.lastIndexOf('/');
      const parent = this.dir(slash < 0 ? '' : dir.slice(0, slash));
      state = parent === 'missing' ? 'missing' : this.lstatDir(dir);
      this.dirs.set(dir, state);
    }
    if (state instanceof SyncError) throw state;
    return state;
  }

  /** Records a directory this run created. */
  created(dir: string): void {
    this.dirs.set(dir, 'dir');
  }

  /**
   * Reads a file as it is now, checking every directory on its path again: what the writer does just
   * before it replaces or removes a file, since the project may have changed after the scan (a directory
   * swapped for a symlink must not be written through; a file edited meanwhile must not be overwritten).
   */
  readNow(path: string): DiskState {
    this.forget();
    return this.read(path, { trustDigests: false });
  }

  /** Forgets what is known about directories (after removals). */
  forget(): void {
    this.listings.clear();
    this.dirs.clear();
    this.dirs.set('', 'dir');
  }

  /**
   * Reads a file without following a symlink; a missing file (or parent) is `missing`. A file whose stat
   * is the one the digest record knows is not read (unless `trustDigests` is false).
   */
  read(path: string, { trustDigests = true } = {}): DiskState {
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    if (this.dir(dir) === 'missing') return { kind: 'missing' };
    if (trustDigests && this.digests !== undefined) {
      const known = this.knownFile(path, this.digests);
      if (known !== undefined) return known;
    } else if (trustDigests) {
      // A missing file is common (every `create`): the listing says so without the cost of an exception.
      if (this.listing(dir)?.has(path.slice(slash + 1)) === false) return { kind: 'missing' };
    } else if (!this.exists(path)) {
      // A file read again just before it is written (`readNow`): one stat, not a fresh listing of its
      // directory per file, which made a first apply of n files into one directory read n^2 names.
      return { kind: 'missing' };
    }
    let fd: number;
    try {
      // O_NOFOLLOW: a symlink fails with ELOOP. O_NONBLOCK: opening a FIFO must not hang; fstat below refuses it.
      fd = openSync(this.abs(path), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') return { kind: 'missing' };
      throw this.openError(path, code, error);
    }
    try {
      const stat = fstatSync(fd);
      if (stat.isDirectory()) {
        throw new SyncError('SYNC_IS_DIRECTORY', `${path} is a directory where a file should be`, {
          path,
          hint: 'Move or remove the directory, or list the path under `unmanaged`.',
        });
      }
      if (!stat.isFile()) {
        throw new SyncError('SYNC_NOT_REGULAR', `${path} is not a regular file`, { path });
      }
      if (stat.size > MAX_FILE_SIZE) {
        throw new SyncError(
          'SYNC_TOO_LARGE',
          `${path} is too large to read (${stat.size.toLocaleString('en-US')} bytes; Pantograph reads files of up to 1 GiB)`,
          { path, hint: 'If Pantograph should leave it alone, list it under `unmanaged` in .sync.yml.' },
        );
      }
      const content = readAll(fd, stat.size);
      const hash = sha256(content);
      this.digests?.record(this.abs(path), stat, hash);
      return { kind: 'file', hash, mode: stat.mode & 0o7777, content };
    } catch (error) {
      if (error instanceof SyncError) throw error;
      throw this.openError(path, errnoCode(error), error);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The file at `path` as the digest record knows it (unread), `missing`, or undefined: the reading path
   * reads it (and says why, for anything not a regular file). The stat tells a missing file, without a
   * directory listing or an exception.
   */
  private knownFile(path: string, digests: FileDigests): DiskState | undefined {
    const abs = this.abs(path);
    let stat: Stats | undefined;
    try {
      stat = lstatSync(abs, { throwIfNoEntry: false });
    } catch {
      return undefined; // the reading path says why
    }
    if (stat === undefined) return { kind: 'missing' };
    // Anything else (a link, a directory, too large) is left to the reading path and its errors.
    if (!stat.isFile() || stat.size > MAX_FILE_SIZE) return undefined;
    const known = digests.lookup(abs, stat);
    return known && new UnreadFile(this, path, known.hash, stat.mode & 0o7777);
  }

  /** Whether anything is at `path` (a link or a directory too: the reading path says what is wrong). */
  private exists(path: string): boolean {
    try {
      return lstatSync(this.abs(path), { throwIfNoEntry: false }) !== undefined;
    } catch {
      return true; // the reading path says why
    }
  }

  private listing(dir: string): ReadonlySet<string> | null {
    let names = this.listings.get(dir);
    if (names === undefined) {
      try {
        names = new Set(readdirSync(dir === '' ? this.root : this.abs(dir)));
      } catch {
        names = null; // unlistable: open each file and see
      }
      this.listings.set(dir, names);
    }
    return names;
  }

  private openError(path: string, code: string | undefined, cause: unknown): SyncError {
    if (code === 'ELOOP') {
      return new SyncError(
        'SYNC_SYMLINK',
        `${path} is a symbolic link: Pantograph never writes through one`,
        {
          path,
          hint: 'Replace the link with a regular file, or list the path under `unmanaged`.',
          cause,
        },
      );
    }
    if (code === 'ENOTDIR') {
      return new SyncError('SYNC_NOT_A_DIRECTORY', `A component of ${path} is not a directory`, {
        path,
        cause,
      });
    }
    if (code === 'EISDIR') {
      return new SyncError('SYNC_IS_DIRECTORY', `${path} is a directory where a file should be`, {
        path,
        cause,
      });
    }
    return new SyncError('SYNC_UNREADABLE', `Cannot read ${path}: ${code ?? String(cause)}`, {
      path,
      hint: 'Check the file permissions.',
      cause,
    });
  }

  private lstatDir(dir: string): DirState {
    try {
      const stat = lstatSync(this.abs(dir));
      if (stat.isDirectory()) return 'dir';
      if (stat.isSymbolicLink()) {
        return new SyncError(
          'SYNC_SYMLINK',
          `Directory ${dir} is a symbolic link: Pantograph never writes through one`,
          {
            path: dir,
            hint: 'Replace the link with a real directory, or list the paths under it as `unmanaged`.',
          },
        );
      }
      return new SyncError('SYNC_NOT_A_DIRECTORY', `${dir} is a file where a directory should be`, {
        path: dir,
        hint: 'Move or remove the file.',
      });
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') return 'missing';
      return new SyncError('SYNC_UNREADABLE', `Cannot inspect directory ${dir}: ${code ?? String(error)}`, {
        path: dir,
        cause: error,
      });
    }
  }
}

/**
 * Whether `dir` (project-relative) is a real directory reached without any symlink, checked now, component
 * by component: what `rmdir` of a directory named by the lock needs at the moment it runs, since a symlink
 * may have been swapped in after the scan.
 */
export function isPlainDirectory(root: string, dir: string): boolean {
  let path = root;
  for (const part of dir.split('/')) {
    path = `${path}/${part}`;
    try {
      if (!lstatSync(path).isDirectory()) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** Reads `size` bytes (what fstat said) with no second fstat, as `readFileSync(fd)` would do. */
export function readAll(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let offset = 0;
  while (offset < size) {
    const n = readSync(fd, buffer, offset, size - offset, offset);
    if (n === 0) break;
    offset += n;
  }
  return offset < size ? buffer.subarray(0, offset) : buffer;
}

export function parentDir(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Same executable bit (owner): the only mode difference that counts, as in git. */
export function sameExec(a: number, b: number): boolean {
  return (a & 0o100) === (b & 0o100);
}
