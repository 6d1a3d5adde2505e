/**
 * The exclusive run lock, `.pantograph.lock.lck`: created with O_EXCL, holding the owner's pid and host.
 * A lock left by a dead process on this host (a killed run) is stale: it is taken over, and the caller
 * is told so that it can clean up the killed run's temporary files.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { errnoCode, SyncError } from './errors.js';
import { RUN_LOCK_FILE } from './paths.js';

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

export function acquireRunLock(root: string): RunLock {
  const file = `${root}/${RUN_LOCK_FILE}`;
  const host = hostname();
  let recovered = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o644);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') {
        throw new SyncError(
          'SYNC_WRITE_FAILED',
          `Cannot create ${RUN_LOCK_FILE}: ${errnoCode(error) ?? String(error)}`,
          {
            path: RUN_LOCK_FILE,
            cause: error,
          },
        );
      }
      let owner = '';
      let age = 0;
      try {
        owner = readFileSync(file, 'utf8');
        age = Date.now() - statSync(file).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      const [pidText, ownerHost] = owner.split('\n');
      const pid = Number(pidText);
      // An old empty lock file is one whose owner died between creating and filling it.
      const stale =
        (owner === '' && age > 5000) ||
        (ownerHost === host && Number.isInteger(pid) && pid > 0 && !alive(pid));
      if (!stale) {
        throw new SyncError(
          'SYNC_LOCKED',
          `Another Pantograph run (pid ${pidText} on ${ownerHost}) is applying to this project`,
          {
            path: RUN_LOCK_FILE,
            hint: `Wait for it to finish. If no such run exists, delete ${RUN_LOCK_FILE}.`,
          },
        );
      }
      unlinkSync(file);
      recovered = true;
      continue;
    }
    writeSync(fd, `${process.pid}\n${host}\n`);
    closeSync(fd);
    let released = false;
    return {
      recovered,
      release() {
        if (released) return;
        released = true;
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      },
    };
  }
  throw new SyncError('SYNC_LOCKED', 'Another Pantograph run keeps taking the run lock', {
    path: RUN_LOCK_FILE,
  });
}
