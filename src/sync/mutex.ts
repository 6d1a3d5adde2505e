/**
 * The exclusive run lock, `.pantograph.lock.lck`, holding the owner's pid and host. It is written whole
 * into a temporary file first and then hard-linked into place (`link` fails if the lock exists), so a run
 * killed at any instant leaves no lock or a complete one, never an empty file that nobody can judge.
 * A lock left by a dead process on this host (a killed run) is stale: it is taken over, and the caller
 * is told so that it can clean up the killed run's temporary files.
 */
import {
  closeSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { errnoCode, SyncError } from './errors.js';
import { RUN_LOCK_FILE, TMP_SUFFIX } from './paths.js';

export interface RunLock {
  /** A previous run was killed while holding the lock. */
  readonly recovered: boolean;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}

/** `.pantograph.lock.lck.<pid>.pantograph-tmp`: where a run writes its lock before linking it into place. */
const OWNER_FILE = new RegExp(
  `^${RUN_LOCK_FILE.replaceAll('.', '\\.')}\\.(\\d+)${TMP_SUFFIX.replaceAll('.', '\\.')}$`,
);

function ownerFileOf(root: string, pid: number): string {
  return `${root}/${RUN_LOCK_FILE}.${pid}${TMP_SUFFIX}`;
}

/** Error codes of file systems that have no hard links (FAT, some network shares). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Creates the lock file holding `owner` unless it exists: true when created. Where the file system has
 * no hard links, an exclusive create then a write, whose empty-file window {@link acquireRunLock} covers.
 */
function createLock(root: string, file: string, owner: string): boolean {
  const staged = ownerFileOf(root, process.pid);
  let written = false;
  try {
    writeFileSync(staged, owner, { mode: 0o644 }); // may fail part way (a full disk): removed below
    written = true;
    linkSync(staged, file);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (!written || code === undefined) throw error;
    if (code === 'EEXIST') return false;
    if (code === 'ENOENT') return false; // our staged file was swept by a run recovering a killed one: retry
    if (!NO_HARD_LINKS.has(code)) throw error;
  } finally {
    removeQuietly(staged);
  }
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
  writeSync(fd, owner);
  closeSync(fd);
  return true;
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/**
 * Removes the stale lock judged by its stat `judged`, unless another run replaced it meanwhile (two runs
 * recovering from the same killed one): the file is moved aside atomically, and put back if it is not the
 * one judged. True when the stale lock was removed.
 */
function takeAway(root: string, file: string, judged: Stats): boolean {
  const aside = `${root}/${RUN_LOCK_FILE}.${process.pid}.stale${TMP_SUFFIX}`;
  try {
    renameSync(file, aside);
  } catch {
    return false; // removed meanwhile
  }
  const moved = statSync(aside);
  if (moved.ino === judged.ino && moved.dev === judged.dev) {
    removeQuietly(aside);
    return true;
  }
  try {
    linkSync(aside, file); // a live run's lock: back into place, unless a third run made one meanwhile
  } catch {
    // that third run holds the lock now
  }
  removeQuietly(aside);
  return false;
}

/** Removes the staged lock files of runs killed before they linked theirs (their pid is gone). */
function sweepStagedLocks(root: string): void {
  for (const name of readdirSync(root)) {
    const pid = OWNER_FILE.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !alive(Number(pid)))
      removeQuietly(`${root}/${name}`);
  }
}

export function acquireRunLock(root: string): RunLock {
  const file = `${root}/${RUN_LOCK_FILE}`;
  const host = hostname();
  let recovered = false;
  for (let attempt = 0; attempt < 3; attempt++) {
    let created: boolean;
    try {
      created = createLock(root, file, `${process.pid}\n${host}\n`);
    } catch (error) {
      const code = errnoCode(error);
      // The first thing a run writes: a project directory it may not write is said so, before anything else.
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
        throw new SyncError(
          'SYNC_NOT_WRITABLE',
          `The project directory ${root} is not writable (${code}): cannot take the run lock ${RUN_LOCK_FILE}; nothing was written`,
          {
            path: '.',
            hint: 'Make it writable (`chmod u+w`) or run as its owner; `pantograph status` reads the project without writing.',
            cause: error,
          },
        );
      }
      throw new SyncError('SYNC_WRITE_FAILED', `Cannot create ${RUN_LOCK_FILE}: ${code ?? String(error)}`, {
        path: RUN_LOCK_FILE,
        cause: error,
      });
    }
    if (!created) {
      let owner = '';
      let judged: Stats;
      try {
        judged = statSync(file);
        owner = readFileSync(file, 'utf8');
      } catch {
        continue; // released meanwhile
      }
      const [pidText, ownerHost] = owner.split('\n');
      const pid = Number(pidText);
      // An empty lock can only come from a file system without hard links, whose owner died between
      // creating and filling it, or is filling it now: judged by its age.
      const stale =
        (owner === '' && Date.now() - judged.mtimeMs > 5000) ||
        (ownerHost === host && Number.isInteger(pid) && pid > 0 && !alive(pid));
      if (!stale) {
        throw new SyncError(
          'SYNC_LOCKED',
          owner === ''
            ? `${RUN_LOCK_FILE} was created just now and is still empty: another Pantograph run is starting`
            : `Another Pantograph run (pid ${pidText} on ${ownerHost}) is applying to this project`,
          {
            path: RUN_LOCK_FILE,
            hint: `Wait for it to finish. If no such run exists, delete ${RUN_LOCK_FILE}.`,
          },
        );
      }
      if (takeAway(root, file, judged)) recovered = true;
      continue;
    }
    sweepStagedLocks(root);
    let released = false;
    return {
      recovered,
      release() {
        if (released) return;
        released = true;
        removeQuietly(file);
      },
    };
  }
  throw new SyncError('SYNC_LOCKED', 'Another Pantograph run keeps taking the run lock', {
    path: RUN_LOCK_FILE,
  });
}
