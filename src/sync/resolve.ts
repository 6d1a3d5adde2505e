/**
 * `resolve <path>`: the user's content of a managed file is accepted as it is. With a pending
 * `<path>.pantograph-new` (a conflict), the lock takes the new template output as the rendered baseline
 * and the file's current content as the disk content, and the `.pantograph-new` file is removed. A file
 * that still holds the markers of Pantograph's merge is refused (unless forced): accepting it would lock
 * the markers in as the user's content.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { SyncError } from './errors.js';
import { type LockedFile, modeString, readLock, writeLock } from './lock.js';
import { acquireRunLock } from './mutex.js';
import { checkOutputPath, derivedPath, NEW_SUFFIX, Target } from './paths.js';
import { removeFile } from './write.js';

export interface ResolveResult {
  readonly path: string;
  /** True when a `.pantograph-new` file was taken as the new baseline and removed. */
  readonly hadNewFile: boolean;
  /** True when the accepted content differs from the template output (it is then kept as the user's). */
  readonly differsFromTemplate: boolean;
}

export interface ResolveOptions {
  /** Accept the file even with conflict markers left in it. */
  readonly force?: boolean;
}

export function resolve(root: string, path: string, options: ResolveOptions = {}): ResolveResult {
  const projectRoot = realpathSync(root);
  checkOutputPath(path);
  const target = new Target(projectRoot);
  const runLock = acquireRunLock(projectRoot);
  try {
    const lock = readLock(projectRoot);
    const locked = lock?.files.get(path);
    if (!lock || !locked || locked.kind !== 'file') {
      // A misspelt path (`Gemfle`) is answered with the managed file meant.
      const managed = lock ? [...lock.files].filter(([, f]) => f.kind === 'file').map(([p]) => p) : [];
      throw new SyncError('SYNC_NOT_MANAGED', `${path} is not a file Pantograph manages`, {
        path,
        hint: didYouMeanHint(path, managed) ?? 'Only files recorded in .pantograph.lock can be resolved.',
      });
    }
    const disk = target.read(path);
    if (disk.kind !== 'file') {
      throw new SyncError('SYNC_NOT_MANAGED', `${path} does not exist: nothing to resolve`, {
        path,
        hint: 'Run apply to create it again.',
      });
    }
    if (!options.force) refuseConflictMarkers(projectRoot, path);
    const newFile = target.read(derivedPath(path, NEW_SUFFIX));
    const rendered = newFile.kind === 'file' ? newFile.hash : locked.rendered;
    const mode = newFile.kind === 'file' ? modeString(newFile.mode) : locked.mode;
    const entry: LockedFile = {
      template: locked.template,
      source: locked.source,
      kind: 'file',
      mode,
      rendered,
      disk: disk.hash,
      ...(disk.hash !== rendered ? { resolved: true } : {}),
    };
    const files = new Map(lock.files);
    files.set(path, entry);
    writeLock(projectRoot, { ...lock, files });
    if (newFile.kind === 'file') removeFile(target, derivedPath(path, NEW_SUFFIX));
    return { path, hadNewFile: newFile.kind === 'file', differsFromTemplate: disk.hash !== rendered };
  } finally {
    runLock.release();
  }
}

/**
 * Refuses a file holding a line of the merge's own markers for `path` (see merge.ts): its opening or its
 * closing one (a half-finished edit may have removed the other). Lines are compared as bytes: the file's
 * encoding is unknown, the path's is UTF-8.
 */
function refuseConflictMarkers(root: string, path: string): void {
  const lines = readFileSync(`${root}/${path}`).toString('latin1').split('\n');
  const asBytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  const markers = new Set([
    asBytes(`<<<<<<< ${path} (yours)`),
    asBytes(`>>>>>>> ${path} (new template output)`),
  ]);
  const at = lines.findIndex((line) => markers.has(line.replace(/\r$/, '')));
  if (at < 0) return;
  throw new SyncError(
    'SYNC_CONFLICT_MARKERS',
    `${path} still has conflict markers: the merge is not finished`,
    {
      path,
      position: { file: `${root}/${path}`, line: at + 1, column: 1 },
      hint: 'Edit the file to keep what you want between `<<<<<<<` and `>>>>>>>`, remove the markers, and run resolve again (or `pantograph resolve --force` to keep the file as it is).',
    },
  );
}
