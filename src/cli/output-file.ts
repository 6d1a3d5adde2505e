/**
 * A file a command writes where `--output` says (`schema`, `fleet import-modulesync`). A path that
 * cannot be written is the user's mistake, said with the path and what to do, not Node's `ENOENT: no
 * such file or directory, open ...`.
 */
import { writeFileSync } from 'node:fs';
import { UsageError } from './errors.js';
import { shortPath } from './report.js';

/** Writes `text` to `file`; `other` is the way out the hint offers (another --output, standard output). */
export function writeOutputFile(
  file: string,
  text: string,
  cwd: string,
  other = 'give another --output',
): void {
  try {
    writeFileSync(file, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new UsageError(`cannot write ${shortPath(file, cwd)} (${code})`, `${why(code)}${other}`);
  }
}

function why(code: string): string {
  if (code === 'ENOENT') return 'its directory does not exist: create it, or ';
  if (code === 'EISDIR') return 'it is a directory: name a file in it, or ';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'you may not write there: ';
  return '';
}
