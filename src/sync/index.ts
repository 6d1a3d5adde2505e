/** Applying a RenderPlan to a project: status, apply, resolve, remove and the lock file. */
export type { ApplyOptions, ApplyResult, ConflictResult, SkippedEntry } from './apply.js';
export { apply } from './apply.js';
export type { Classification, ClassifyInput, FileState } from './classify.js';
export { classify, DRIFT } from './classify.js';
export { unifiedDiff } from './diff.js';
export { FileDigests, type KnownDigest, SETTLE_MS, type StatIdentity } from './digests.js';
export type { SyncErrorCode } from './errors.js';
export { SyncError } from './errors.js';
export type { LockedFile, LockedTemplate, LockFile } from './lock.js';
export { lockFor, parseLock, readLock, serializeLock, writeLock } from './lock.js';
export { checkOutputPath, LOCK_FILE, NEW_SUFFIX, RUN_LOCK_FILE } from './paths.js';
export type { PostResult } from './post.js';
export type { KeptEdit, RemoveOptions, RemoveResult } from './remove.js';
export { remove } from './remove.js';
export type { ResolveOptions, ResolveResult } from './resolve.js';
export { resolve } from './resolve.js';
export type { StatusEntry, StatusOptions, StatusReport } from './status.js';
export { status } from './status.js';
