/**
 * A fleet repository's own input files must be its own, and of a sane size. The engine reads
 * `metadata.json` (which templates render into the repository's files), the lock and `.msync.yml` as they
 * are; through a symbolic link a repository could make the fleet read a file of this machine
 * (`metadata.json -> ~/.docker/config.json`) and commit what a template makes of it, pushed to its
 * remote; and the engine reads each whole, so a repository could commit one of gigabytes for every
 * fleet run to load. `.sync.yml` is checked where it is read (sync-text.ts).
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { LOCK_FILE } from '../shared/project-files.js';
import { MAX_LOCK_BYTES } from '../sync/lock.js';

const MiB = 1024 * 1024;

/**
 * The files read as the repository's own besides `.sync.yml`, each with the most a fleet reads of it:
 * metadata.json and `.msync.yml` are a few kilobytes; the lock has the limit every command reads it with
 * (a project of a million files), checked here too so that the fleet refuses before planning.
 */
const INPUT_FILES: ReadonlyArray<readonly [name: string, maxBytes: number]> = [
  ['metadata.json', MiB],
  [LOCK_FILE, MAX_LOCK_BYTES],
  ['.msync.yml', MiB],
];

/** Throws FLEET_PATH, at the file, for the first input file that is a symbolic link or too large. */
export function checkOwnInputs(dir: string): void {
  for (const [name, maxBytes] of INPUT_FILES) {
    const file = join(dir, name);
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(file);
    } catch {
      continue; // absent: the engine says what that means
    }
    if (stat.isSymbolicLink()) {
      throw new EngineError(
        'FLEET_PATH',
        `${name} is a symbolic link: a fleet reads a repository's own files, not files a link points at elsewhere on this machine (templates render metadata.json into the repository, which apply commits and pushes)`,
        {
          position: { file, line: 1, column: 1 },
          hint: `replace the link with the file itself in the repository, then run the fleet again`,
        },
      );
    }
    if (stat.size > maxBytes) {
      throw new EngineError(
        'FLEET_PATH',
        `${name} is ${stat.size} bytes, larger than the ${maxBytes / MiB} MiB a fleet reads of a repository's ${name}: nothing was read or written`,
        {
          position: { file, line: 1, column: 1 },
          hint: `check what the repository committed as its ${name}, then run the fleet again`,
        },
      );
    }
  }
}
