/**
 * How the checks made for editors read other files (a template's `template.json`, a module's
 * `metadata.json`): an editor passes its unsaved buffers first, the command line reads the disk. A module
 * of its own so that `epp render`'s bundle, which finds a template's module, loads nothing else.
 */
import { readFileSync } from 'node:fs';

/** Reads a file's text, or undefined when there is none. */
export type ReadText = (path: string) => string | undefined;

/** A file's text from disk, or undefined when it cannot be read. */
export const readDisk: ReadText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};
