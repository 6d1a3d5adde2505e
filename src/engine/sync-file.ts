/**
 * Writing the project's own `.sync.yml`, for every command that rewrites it (`add`, `convert`, the web
 * interface's save and apply). Some users keep it as a symbolic link to a file shared between modules: it
 * is read through the link, so it is written through the link too, to the file the user saw and edited,
 * wherever that is (decisions.md). Writing the link's own path would replace the link with a copy and
 * silently end the sharing. Output paths are another matter: Pantograph never writes through a symlink there.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { EngineError } from './errors.js';
import { writeAtomically } from './sync-text-edit.js';

/**
 * Writes `.sync.yml` whole or not at all: through a link, to its target (the temporary file beside the
 * target, then renamed over it), keeping the target's mode. A link to nothing is refused: creating its
 * target, or replacing the link, would both be guesses.
 */
export function writeSyncFile(file: string, text: string): void {
  writeAtomically(syncFileTarget(file), text);
}

/** The file a write of `.sync.yml` at `file` goes to: itself, or the end of its chain of links. */
export function syncFileTarget(file: string): string {
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return file;
  try {
    return realpathSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    throw danglingLink(file);
  }
}

/** `file` is a link whose target does not exist; undefined when it is anything else. */
export function danglingLinkError(file: string): EngineError | undefined {
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return undefined;
  try {
    realpathSync(file);
    return undefined;
  } catch {
    return danglingLink(file);
  }
}

function danglingLink(file: string): EngineError {
  let to = '?';
  try {
    to = readlinkSync(file);
  } catch {
    // gone meanwhile: the message still says what it was
  }
  return new EngineError(
    'SYNC_READ',
    `${file} is a symbolic link to ${to}, which does not exist: nothing was read or written`,
    { hint: `restore the shared file it points to, or replace the link with the project's own .sync.yml` },
  );
}
