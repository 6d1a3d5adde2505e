/**
 * The journal of a run that writes: before its first write, `apply` records the lock the project will have
 * when every write succeeds (`.pantograph.lock.pending`, the lock file's format), and removes it once the
 * real lock is written. A run killed in between leaves it behind, and the next run reads it: a file whose
 * content is what the journal says Pantograph wrote is Pantograph's, not a hand edit, and the next `apply`
 * finishes the interrupted one (issue 11, item 8: after `kill -9` in the middle of an `update`, hundreds of
 * files had been reported as edited by hand, and conflict markers merged into files nobody touched).
 *
 * A file that `post` commands process cannot be known in advance: the journal records it as written with
 * its post commands still to run (`rendered` empty, as after a failed post command: the next apply writes
 * it again and runs them), and as each file's commands finish, a line `[path, rendered, disk]` is appended
 * to `.pantograph.lock.posted`, so that a file they changed is still recognised as Pantograph's. Appending
 * costs one small write per file where rewriting the journal would cost the whole journal.
 */
import { closeSync, constants, fsyncSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { errnoCode, SyncError } from './errors.js';
import { type LockedFile, type LockFile, parseLock, serializeLock } from './lock.js';
import { type DiskState, JOURNAL_FILE, POSTED_FILE } from './paths.js';
import { writeFileAtomic } from './write.js';

export { JOURNAL_FILE, POSTED_FILE };

/** Records what the run is about to make of the project (durably: it must outlive a crash). */
export function writeJournal(root: string, intended: LockFile): void {
  // The lines of an earlier interrupted run describe its journal, which this one replaces.
  removeIfPresent(`${root}/${POSTED_FILE}`);
  writeFileAtomic(root, JOURNAL_FILE, Buffer.from(serializeLock(intended)), 0o644, true);
}

/** Records that the post commands of `path` finished, leaving `disk` where the template rendered `rendered`. */
export function recordPosted(
  root: string,
  path: string,
  rendered: string,
  disk: string,
  durable: boolean,
): void {
  // O_NOFOLLOW: a symlink planted in its place is refused, never written through.
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
  const fd = openSync(`${root}/${POSTED_FILE}`, flags, 0o644);
  try {
    writeSync(fd, `${JSON.stringify([path, rendered, disk])}\n`);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The journal an interrupted run left, or undefined. A damaged one is an error, as a damaged lock is. */
export function readJournal(root: string): LockFile | undefined {
  let text: string;
  try {
    text = readFileSync(`${root}/${JOURNAL_FILE}`, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw new SyncError(
      'SYNC_UNREADABLE',
      `Cannot read ${JOURNAL_FILE}: ${errnoCode(error) ?? String(error)}`,
      {
        path: JOURNAL_FILE,
        cause: error,
      },
    );
  }
  let journal: LockFile;
  try {
    journal = parseLock(text, `${root}/${JOURNAL_FILE}`);
  } catch (error) {
    if (!(error instanceof SyncError)) throw error;
    throw new SyncError('SYNC_LOCK_INVALID', error.message.replace(/^\S+/, JOURNAL_FILE), {
      path: JOURNAL_FILE,
      ...(error.position ? { position: error.position } : {}),
      hint: damagedHint(JOURNAL_FILE),
    });
  }
  return withPosted(root, journal);
}

function damagedHint(file: string): string {
  return `It is what an interrupted run left: delete ${file}, then check \`pantograph status\`.`;
}

/** The journal with the entries of the files whose post commands finished (see the module comment). */
function withPosted(root: string, journal: LockFile): LockFile {
  let text: string;
  try {
    text = readFileSync(`${root}/${POSTED_FILE}`, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return journal;
    throw new SyncError(
      'SYNC_UNREADABLE',
      `Cannot read ${POSTED_FILE}: ${errnoCode(error) ?? String(error)}`,
      {
        path: POSTED_FILE,
        cause: error,
      },
    );
  }
  const files = new Map(journal.files);
  const lines = text.split('\n');
  // The last piece has no line break: empty, or a line the kill cut short, which says nothing.
  for (let i = 0; i < lines.length - 1; i++) {
    const record = postedRecord(lines[i]!);
    const entry = record && files.get(record[0]);
    if (!record || !entry || entry.rendered !== '') {
      throw new SyncError('SYNC_LOCK_INVALID', `${POSTED_FILE} is not a valid record of post commands`, {
        path: POSTED_FILE,
        position: { file: `${root}/${POSTED_FILE}`, line: i + 1, column: 1 },
        hint: damagedHint(POSTED_FILE),
      });
    }
    files.set(record[0], { ...entry, rendered: record[1], disk: record[2] });
  }
  return { ...journal, files };
}

/** `[path, rendered, disk]`, three strings, or undefined. */
function postedRecord(line: string): [string, string, string] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string')
    ? (value as [string, string, string])
    : undefined;
}

/** Removes the journal once the lock records the run (an absent journal is fine). */
export function clearJournal(root: string): void {
  removeIfPresent(`${root}/${POSTED_FILE}`);
  removeIfPresent(`${root}/${JOURNAL_FILE}`);
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}

/**
 * The lock entry to judge a file by: the journal's when the file holds exactly what the interrupted run
 * wrote there, else the lock's (the run did not get to it, or someone changed it since).
 */
export function lockedEntry(
  path: string,
  disk: DiskState,
  lock: LockFile | undefined,
  journal: LockFile | undefined,
): LockedFile | undefined {
  const intended = journal?.files.get(path);
  if (intended && disk.kind === 'file' && disk.hash === intended.disk) return intended;
  return lock?.files.get(path);
}
