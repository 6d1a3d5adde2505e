/**
 * What `apply` would record in `.pantograph.lock` when it leaves every file as it is, from the scan
 * `status` makes anyway (no second read, no second render): each path's entry as apply would leave it
 * (`lockEntryAfter`, the function apply itself uses), under the plan's header. A caller compares it with
 * the lock read to tell that apply would rewrite the lock with no file changed: an entry recorded anew (a
 * file put in line by hand, a template or source renamed with the same output), a file found identical and
 * recorded, an entry dropped (a path now listed in `unmanaged`, or gone from disk and from the templates).
 */
import type { RenderPlan } from '../engine/render-plan.js';
import { type LockedFile, type LockFile, lockFor } from './lock.js';
import { lockEntryAfter, settleDirectories } from './outcome.js';
import { reportOf, type StatusOptions, type StatusReport, scan } from './status.js';

export interface StatusWithLock {
  readonly report: StatusReport;
  /** The lock apply would write if it wrote and removed no file (the lock read, when it would not change). */
  readonly lockIfNoWrite: LockFile;
}

/** `status`, and the lock apply would record for the files as they are. */
export function statusWithLock(plan: RenderPlan, options: StatusOptions = {}): StatusWithLock {
  const s = scan(plan, options);
  const none = new Map<string, string>();
  const noPost = new Set<string>();
  const files = new Map<string, LockedFile>(s.lock?.files ?? []);
  for (const item of s.items) {
    const next = lockEntryAfter(item, false, false, none, noPost);
    if (next) files.set(item.path, next);
    else files.delete(item.path);
  }
  // As apply keeps them when it creates and removes nothing: those still plain directories (none pruned).
  const directories = settleDirectories(s.root, s.lock?.directories ?? [], false);
  return {
    report: reportOf(s, options.diff === true),
    lockIfNoWrite: lockFor(plan, directories, files),
  };
}
