/**
 * Template outputs kept by their SHA-256 in the cache (`merge-bases/<hash>`), as bases for three-way
 * merges. `resolve` keeps the new template output it accepts (`<path>.pantograph-new`): the lock then
 * records that output's hash, while its `templates` still hold the settings and versions of the last
 * apply, from which the output cannot be reproduced. Without the kept copy, the next template change to a
 * resolved file was never merged, only written beside it (found by QA in session 23). A cache: a missing
 * or damaged copy is ignored, and the reproduction (previous-output.ts) is tried instead.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from './cache-dir.js';

/** Keeps `content` as a merge base; failing to (a read-only cache) only loses the merge later. */
export function keepMergeBase(content: Uint8Array): void {
  try {
    const dir = join(cacheRoot(), 'merge-bases');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, sha256(content));
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, content);
    renameSync(temporary, file);
  } catch {
    // a cache: see above
  }
}

/** The kept output whose SHA-256 is `hash`, or undefined (never kept, removed, or not what it claims). */
export function mergeBase(hash: string): Uint8Array | undefined {
  if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
  try {
    const content = readFileSync(join(cacheRoot(), 'merge-bases', hash));
    return sha256(content) === hash ? content : undefined;
  } catch {
    return undefined;
  }
}

function sha256(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
