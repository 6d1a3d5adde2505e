/**
 * What `apply` would do to a repository's `.pantograph.lock`, said by `status` and `--noop` as apply says
 * what it did (`created`, `updated`). The lock is no template's file, so the files alone do not tell it:
 * a modulesync module in line with its configuration has no lock yet, and its first apply commits one.
 */
import { type LockFile, sameLock } from '../sync/lock.js';

export type PendingLockChange = 'to-create' | 'to-update';

/**
 * `to-create` when the repository has no lock (every first apply writes one); `to-update` when the lock
 * apply would record for the files as they are (`statusWithLock`) differs from it: other sources,
 * templates, settings or engine version, or a file entry apply records anew, adds or drops, so that apply
 * rewrites it even when no file changes; undefined when apply would leave it as it is.
 */
export function pendingLockChange(
  lock: LockFile | undefined,
  lockIfNoWrite: LockFile,
): PendingLockChange | undefined {
  if (lock === undefined) return 'to-create';
  return sameLock(lock, lockIfNoWrite) ? undefined : 'to-update';
}
