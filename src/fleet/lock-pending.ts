/**
 * What `apply` would do to a repository's `.pantograph.lock`, said by `status` and `--noop` as apply says
 * what it did (`created`, `updated`). The lock is no template's file, so the files alone do not tell it:
 * a modulesync module in line with its configuration has no lock yet, and its first apply commits one.
 */
import type { RenderPlan } from '../engine/render-plan.js';
import { type LockFile, lockFor, sameLock } from '../sync/lock.js';

export type PendingLockChange = 'to-create' | 'to-update';

/**
 * `to-create` when the repository has no lock (every first apply writes one); `to-update` when the lock
 * records other sources, templates, settings or engine version than the plan (apply rewrites it even when
 * no file changes); undefined when apply would leave it as it is, as far as the plan tells.
 */
export function pendingLockChange(
  lock: LockFile | undefined,
  plan: RenderPlan,
): PendingLockChange | undefined {
  if (lock === undefined) return 'to-create';
  return sameLock(lock, lockFor(plan, lock.directories, lock.files)) ? undefined : 'to-update';
}
