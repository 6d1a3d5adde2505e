/**
 * What a run leaves behind: the lock entry of each path after it (written, removed or left), the
 * directories Pantograph created that still exist, and the check that the target reached that state.
 */
import { rmdirSync } from 'node:fs';
import { LISTED_UNMANAGED, RELEASED } from './classify.js';
import { SyncError } from './errors.js';
import { type LockedFile, modeString } from './lock.js';
import { isPlainDirectory, sameExec, Target } from './paths.js';
import type { Item } from './status.js';
import { plural } from './text.js';

export function lockEntryAfter(
  item: Item,
  wasWritten: boolean,
  wasRemoved: boolean,
  diskAfter: ReadonlyMap<string, string>,
  postFailed: ReadonlySet<string>,
): LockedFile | undefined {
  if (wasRemoved) return undefined;
  const { planned, locked, disk } = item;
  const fresh = (diskHash: string, rendered: string, resolved: boolean): LockedFile => ({
    template: planned!.file.template,
    source: planned!.file.source,
    kind: planned!.file.kind,
    mode: modeString(planned!.file.mode),
    rendered,
    disk: diskHash,
    ...(resolved ? { resolved: true } : {}),
  });
  if (wasWritten) {
    const resolved = item.modeOnly === true && locked?.resolved === true;
    return fresh(diskAfter.get(item.path)!, postFailed.has(item.path) ? '' : planned!.hash, resolved);
  }
  switch (item.state) {
    case 'stable':
      return disk.kind === 'file'
        ? fresh(disk.hash, planned!.hash, locked?.resolved === true && locked.disk === disk.hash)
        : locked;
    case 'init':
      if (locked) return locked;
      return planned && disk.kind === 'file' ? fresh(disk.hash, planned.hash, false) : undefined;
    case 'unmanaged':
      return item.reason === LISTED_UNMANAGED || item.reason === RELEASED ? undefined : locked;
    case 'adopt':
    case 'absent':
      return undefined;
    default:
      return locked;
  }
}

/** The directories Pantograph created that still exist; after removals, empty ones are removed. */
export function settleDirectories(root: string, dirs: readonly string[], prune: boolean): string[] {
  const unique = [...new Set(dirs)].sort((a, b) => b.length - a.length); // deepest first
  const kept: string[] = [];
  for (const dir of unique) {
    if (!isPlainDirectory(root, dir)) continue; // gone, or a symlink now: never followed, no longer ours
    if (prune) {
      try {
        rmdirSync(`${root}/${dir}`);
        continue;
      } catch {
        // not empty
      }
    }
    kept.push(dir);
  }
  return kept.sort();
}

/** Every path written holds what the lock now records; every path removed is gone. */
export function verify(
  root: string,
  files: ReadonlyMap<string, LockedFile>,
  written: ReadonlySet<string>,
  removed: ReadonlySet<string>,
  postFailed: ReadonlySet<string>,
): void {
  const target = new Target(root);
  const wrong: string[] = [];
  for (const path of written) {
    if (postFailed.has(path)) continue;
    const locked = files.get(path)!;
    const disk = target.read(path);
    if (
      disk.kind !== 'file' ||
      disk.hash !== locked.disk ||
      !sameExec(disk.mode, Number.parseInt(locked.mode, 8))
    ) {
      wrong.push(path);
    }
  }
  for (const path of removed) if (target.read(path).kind !== 'missing') wrong.push(path);
  if (wrong.length > 0) {
    throw new SyncError(
      'SYNC_NOT_CONVERGED',
      `After applying, ${plural(wrong.length, 'path')} did not reach the desired state: ${wrong.slice(0, 5).join(', ')}`,
      {
        path: wrong[0]!,
        hint: 'Something else changed the project during the run; run apply again.',
      },
    );
  }
}
