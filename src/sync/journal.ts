/**
 * The journal of a run that writes: before its first write, `apply` records the lock the project will have
 * when every write succeeds (`.pantograph.lock.pending`, the lock file's format), and removes it once the
 * real lock is written. A run killed in between leaves it behind, and the next run reads it: a file whose
 * content is what the journal says Pantograph wrote is Pantograph's, not a hand edit, and the next `apply`
 * finishes the interrupted one (issue 11, item 8: after `kill -9` in the middle of an `update`, hundreds of
 * files had been reported as edited by hand, and conflict markers merged into files nobody touched).
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { errnoCode, SyncError } from './errors.js';
import { type LockedFile, type LockFile, parseLock, serializeLock } from './lock.js';
import { type DiskState, JOURNAL_FILE } from './paths.js';
import { writeFileAtomic } from './write.js';

export { JOURNAL_FILE };

/** Records what the run is about to make of the project (durably: it must outlive a crash). */
export function writeJournal(root: string, intended: LockFile): void {
  writeFileAtomic(root, JOURNAL_FILE, Buffer.from(serializeLock(intended)), 0o644, true);
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
  try {
    return parseLock(text, `${root}/${JOURNAL_FILE}`);
  } catch (error) {
    if (!(error instanceof SyncError)) throw error;
    throw new SyncError('SYNC_LOCK_INVALID', error.message.replace(/^\S+/, JOURNAL_FILE), {
      path: JOURNAL_FILE,
      ...(error.position ? { position: error.position } : {}),
      hint: `It is what an interrupted run left: delete ${JOURNAL_FILE}, then check \`pantograph status\`.`,
    });
  }
}

/** Removes the journal once the lock records the run (an absent journal is fine). */
export function clearJournal(root: string): void {
  try {
    unlinkSync(`${root}/${JOURNAL_FILE}`);
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
