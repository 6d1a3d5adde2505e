/**
 * A file's stat identity (size, mtime, ctime, inode) and when it can be trusted: what the digest record
 * (digests.ts) and the answer memo (src/engine/answer-memo.ts) know a file by without reading it. Any write
 * changes ctime, which no user can set back. A file whose ctime or mtime is less than {@link SETTLE_MS}
 * older than the run that looked at it is "racy": it could change again within the same timestamp tick
 * (1-2 s on some file systems) and keep its identity, so it is never recorded.
 */
import type { Stats } from 'node:fs';

/** How long a file must have been left alone before its identity is recorded. */
export const SETTLE_MS = 2000;

/** The stat fields that make a file's identity. */
export type StatIdentity = Pick<Stats, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>;

/** Whether a file's mtime and ctime are both {@link SETTLE_MS} older than `nowMs`: it is not racy. */
export function isSettled(stat: Pick<Stats, 'mtimeMs' | 'ctimeMs'>, nowMs = Date.now()): boolean {
  const settled = nowMs - SETTLE_MS;
  return stat.mtimeMs < settled && stat.ctimeMs < settled;
}

/** A file's identity as one string (one comparison; cheap to keep for thousands of files). */
export function identityOf(stat: StatIdentity): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
}
