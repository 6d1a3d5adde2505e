/**
 * `remove`: deletes the files Pantograph manages that are still as it wrote them, and the directories it
 * created once they are empty. `init` files are never removed. A managed file whose content is the user's
 * (changed by hand, or accepted with `resolve`) is kept and stays in the lock, still a managed file with
 * the user's changes: a later `remove --force` finds it, and a later `apply` still treats it as a hand
 * edit. With `force` those are removed too, each saved first as `<path>.pantograph-old`. The whole project
 * is read before anything is removed, so a path that cannot be read stops the run with nothing removed.
 * After an interrupted `apply`, its journal counts as well (see journal.ts): the files it wrote are
 * Pantograph's even though the lock never recorded them, so they are removed too, and the journal goes.
 * `noop` reads the same and removes nothing: what a run would remove, keep and save.
 */
import { readdirSync, realpathSync, rmdirSync, unlinkSync } from 'node:fs';
import { errnoCode } from './errors.js';
import { clearJournal, lockedEntry, readJournal } from './journal.js';
import { type LockedFile, type LockFile, readLock, writeLock } from './lock.js';
import { acquireRunLock } from './mutex.js';
import { checkOutputPath, type DiskState, isPlainDirectory, LOCK_FILE, Target } from './paths.js';
import { backupPath, removeFile, saveBackup } from './write.js';

export interface RemoveOptions {
  /** Remove the files with the user's changes too (each saved first as `<path>.pantograph-old`). */
  readonly force?: boolean;
  /**
   * Remove nothing: the result says what would be removed, the directories that would be left empty and
   * the backups `force` would make. Nothing is written, not even the run lock.
   */
  readonly noop?: boolean;
}

/** A managed file left in place because its content is the user's: `edited` by hand, or `resolved`. */
export interface KeptEdit {
  readonly path: string;
  readonly reason: 'edited' | 'resolved';
}

export interface RemoveResult {
  readonly removed: readonly string[];
  readonly directoriesRemoved: readonly string[];
  /** `init` files, left in place. */
  readonly kept: readonly string[];
  /** Files with the user's changes, left in place and in the lock (not under `force`). */
  readonly keptEdited: readonly KeptEdit[];
  /** Hand edits removed under `force`, each saved first (`<path>.pantograph-old`). */
  readonly backups: readonly { readonly path: string; readonly backup: string }[];
}

const NOTHING: RemoveResult = { removed: [], directoriesRemoved: [], kept: [], keptEdited: [], backups: [] };

export function remove(root: string, options: RemoveOptions = {}): RemoveResult {
  const projectRoot = realpathSync(root);
  if (options.noop) return plannedRemoval(projectRoot, options.force === true);
  const runLock = acquireRunLock(projectRoot);
  try {
    const managed = readManaged(projectRoot, options.force === true);
    if (managed === undefined) return NOTHING;
    const { lock, journal, directories, target, scan } = managed;
    const backups: { path: string; backup: string }[] = [];
    for (const path of scan.toRemove) {
      const userContent = scan.userContent.get(path);
      if (userContent)
        backups.push({ path, backup: saveBackup(projectRoot, target, path, userContent, false) });
      removeFile(target, path);
    }
    const emptied = removeEmptyDirectories(projectRoot, directories);
    writeRemainingLock(projectRoot, (journal ?? lock)!, scan.remaining, emptied.kept);
    clearJournal(projectRoot); // only now: the lock written above records what is left
    return {
      removed: scan.toRemove,
      directoriesRemoved: emptied.removed,
      kept: scan.kept,
      keptEdited: scan.keptEdited,
      backups,
    };
  } finally {
    runLock.release();
  }
}

/** The lock, the journal of an interrupted run, the directories they record and what to do with each file. */
function readManaged(projectRoot: string, force: boolean) {
  const lock = readLock(projectRoot);
  const journal = readJournal(projectRoot);
  if (!lock && !journal) return undefined;
  const directories = [...new Set([...(lock?.directories ?? []), ...(journal?.directories ?? [])])];
  const target = new Target(projectRoot);
  for (const dir of directories) target.dir(dir); // no locked directory through a symlink
  return { lock, journal, directories, target, scan: scanManaged(lock, journal, target, force) };
}

/** `remove --noop`: what `remove` would do, from the same scan, with nothing removed or written. */
function plannedRemoval(projectRoot: string, force: boolean): RemoveResult {
  const managed = readManaged(projectRoot, force);
  if (managed === undefined) return NOTHING;
  const { directories, target, scan } = managed;
  return {
    removed: scan.toRemove,
    directoriesRemoved: directoriesLeftEmpty(projectRoot, directories, scan.toRemove),
    kept: scan.kept,
    keptEdited: scan.keptEdited,
    backups: [...scan.userContent.keys()].map((path) => ({ path, backup: backupPath(target, path) })),
  };
}

/**
 * The directories `removeEmptyDirectories` would remove once `files` are gone: those holding nothing
 * else, each after the directories inside it.
 */
function directoriesLeftEmpty(
  root: string,
  directories: readonly string[],
  files: readonly string[],
): string[] {
  const gone = new Set(files);
  const emptied: string[] = [];
  for (const dir of [...directories].sort(contentsFirst)) {
    if (!isPlainDirectory(root, dir)) continue;
    if (readdirSync(`${root}/${dir}`).every((name) => gone.has(`${dir}/${name}`))) {
      gone.add(dir);
      emptied.push(dir);
    }
  }
  return emptied;
}

interface Scan {
  readonly toRemove: string[];
  readonly kept: string[];
  readonly keptEdited: KeptEdit[];
  /** The lock entries of the files left to manage (the `init` files and the kept edits). */
  readonly remaining: Map<string, LockedFile>;
  /** The files to remove whose content is the user's (under `force`), as read: saved before removal. */
  readonly userContent: Map<string, Extract<DiskState, { kind: 'file' }>>;
}

/**
 * What to do with each managed file (locked, or written by an interrupted run), decided from the whole
 * project before anything is removed.
 */
function scanManaged(
  lock: LockFile | undefined,
  journal: LockFile | undefined,
  target: Target,
  force: boolean,
): Scan {
  const scan: Scan = { toRemove: [], kept: [], keptEdited: [], remaining: new Map(), userContent: new Map() };
  const paths = new Set([...(lock?.files.keys() ?? []), ...(journal?.files.keys() ?? [])]);
  for (const path of [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    checkOutputPath(path);
    const disk = target.read(path);
    // The journal's entry when the file is what the interrupted run wrote, else the lock's; none when
    // the run only meant to write it (and the file there, if any, was never Pantograph's).
    const locked = lockedEntry(path, disk, lock, journal);
    if (locked === undefined) continue;
    if (locked.kind === 'init') {
      scan.kept.push(path);
      scan.remaining.set(path, locked);
      continue;
    }
    if (disk.kind === 'missing') continue;
    const reason = userContentReason(locked, disk.hash);
    if (reason === undefined) scan.toRemove.push(path);
    else if (force) {
      scan.toRemove.push(path);
      scan.userContent.set(path, disk);
    } else {
      scan.keptEdited.push({ path, reason });
      scan.remaining.set(path, locked);
    }
  }
  return scan;
}

/** Why a managed file's content is the user's, or undefined when it is what Pantograph wrote. */
function userContentReason(locked: LockedFile, diskHash: string): KeptEdit['reason'] | undefined {
  if (diskHash !== locked.disk) return 'edited';
  return locked.resolved === true ? 'resolved' : undefined;
}

/**
 * Removes the directories Pantograph created that are empty now, each after the directories inside it;
 * `removed` lists them in the order they went (what `remove` prints).
 */
function removeEmptyDirectories(
  root: string,
  directories: readonly string[],
): { removed: string[]; kept: string[] } {
  const removed: string[] = [];
  const kept: string[] = [];
  for (const dir of [...directories].sort(contentsFirst)) {
    if (!isPlainDirectory(root, dir)) continue;
    try {
      rmdirSync(`${root}/${dir}`);
      removed.push(dir);
    } catch {
      kept.push(dir); // not empty: something is left in it
    }
  }
  return { removed, kept: kept.sort() };
}

/**
 * Alphabetical by path segment, a directory after everything inside it (as `find -depth` lists them):
 * `a/b/c`, `a/b`, `a`, `b`. A parent must go after its children; length alone put siblings in any order.
 */
export function contentsFirst(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    if (as[i] !== bs[i]) return as[i]! < bs[i]! ? -1 : 1;
  }
  return bs.length - as.length; // the deeper one (inside the other) first
}

/** The lock of what is left to manage (init files, kept edits), or no lock when nothing is. */
function writeRemainingLock(
  root: string,
  lock: LockFile,
  files: ReadonlyMap<string, LockedFile>,
  directories: readonly string[],
): void {
  if (files.size === 0) {
    removeIfPresent(`${root}/${LOCK_FILE}`);
    return;
  }
  writeLock(root, { ...lock, files, directories });
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}
