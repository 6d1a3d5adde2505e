/**
 * A fleet repository's own input files must be its own. The engine reads `metadata.json` (which templates
 * render into the repository's files) and the lock as they are; through a symbolic link a repository could
 * make the fleet read a file of this machine (`metadata.json -> ~/.docker/config.json`) and commit what a
 * template makes of it, pushed to its remote. `.sync.yml` is checked where it is read (repository-run.ts).
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { LOCK_FILE } from '../shared/project-files.js';

/** The files read as the repository's own besides `.sync.yml`. */
const INPUT_FILES = ['metadata.json', LOCK_FILE, '.msync.yml'];

/** Throws FLEET_PATH, at the file, for the first input file that is a symbolic link. */
export function refuseLinkedInputs(dir: string): void {
  for (const name of INPUT_FILES) {
    const file = join(dir, name);
    let link = false;
    try {
      link = lstatSync(file).isSymbolicLink();
    } catch {
      continue; // absent: the engine says what that means
    }
    if (link) {
      throw new EngineError(
        'FLEET_PATH',
        `${name} is a symbolic link: a fleet reads a repository's own files, not files a link points at elsewhere on this machine (templates render metadata.json into the repository, which apply commits and pushes)`,
        {
          position: { file, line: 1, column: 1 },
          hint: `replace the link with the file itself in the repository, then run the fleet again`,
        },
      );
    }
  }
}
