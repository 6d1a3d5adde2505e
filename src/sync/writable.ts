/**
 * Checks, before `apply` writes anything, that every directory it must change lets it: the parent of each
 * file it writes or removes (or, where that parent does not exist yet, the nearest directory that does:
 * the one it creates it in), and the owner of each file whose mode alone changes. Without it a directory
 * the user cannot write stopped the run halfway, with some files written and the rest not (found by QA in
 * session 23). `access(2)` answers as the kernel would for this process, read-only mounts included.
 */
import { accessSync, constants, lstatSync } from 'node:fs';
import { SyncError } from './errors.js';
import { parentDir, type Target } from './paths.js';
import { plural } from './text.js';

/** A path `apply` will write (`write`), remove (`remove`) or only change the mode of (`chmod`). */
export interface PlannedChange {
  readonly path: string;
  readonly how: 'write' | 'remove' | 'chmod';
}

/** Throws `SYNC_NOT_WRITABLE` naming every directory (or file) that refuses, and the files behind each. */
export function checkWritable(target: Target, changes: readonly PlannedChange[]): void {
  const refused = new Map<string, string[]>();
  const verdicts = new Map<string, boolean>();
  const refuse = (place: string, path: string) => {
    const paths = refused.get(place) ?? [];
    paths.push(path);
    refused.set(place, paths);
  };
  for (const { path, how } of changes) {
    if (how === 'chmod') {
      if (!ownsFile(target.abs(path))) refuse(path, path);
      continue;
    }
    const dir = existingDir(target, parentDir(path));
    let ok = verdicts.get(dir);
    if (ok === undefined) {
      ok = writableDir(dir === '' ? target.root : target.abs(dir));
      verdicts.set(dir, ok);
    }
    if (!ok) refuse(dir, path);
  }
  if (refused.size === 0) return;
  const [place, paths] = [...refused][0]!;
  const chmodOnly = changes.some((c) => c.path === place && c.how === 'chmod');
  const what = chmodOnly
    ? `${place} is not yours: its mode cannot change`
    : `The directory ${place === '' ? '.' : place} is not writable: apply cannot change ${list(paths)}`;
  const more =
    refused.size > 1
      ? ` (and ${plural(refused.size - 1, 'other place')}: ${list([...refused.keys()].slice(1).map((p) => (p === '' ? '.' : p)))})`
      : '';
  throw new SyncError('SYNC_NOT_WRITABLE', `${what}${more}; nothing was written`, {
    path: place === '' ? '.' : place,
    hint: `Make it writable (\`chmod u+w\`) or run as its owner, or list the files under \`unmanaged\` in .sync.yml; then run apply again.`,
  });
}

/** The directory itself, or its nearest ancestor that exists (where `apply` would create the rest). */
function existingDir(target: Target, dir: string): string {
  let at = dir;
  while (at !== '' && lstatSync(target.abs(at), { throwIfNoEntry: false }) === undefined) at = parentDir(at);
  return at;
}

function writableDir(abs: string): boolean {
  try {
    accessSync(abs, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** chmod(2) needs the file's owner (or root); write permission on it is not enough. */
function ownsFile(abs: string): boolean {
  const uid = process.geteuid?.();
  if (uid === undefined || uid === 0) return true;
  const stat = lstatSync(abs, { throwIfNoEntry: false });
  return stat === undefined || stat.uid === uid;
}

function list(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ');
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
}
