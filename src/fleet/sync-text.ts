/**
 * A repository's `.sync.yml` as the fleet reads it: someone else's file, which the fleet may rewrite (its
 * overrides) and commit. So it is checked before anything uses it: a regular file (not a symlink), no
 * larger than `MAX_SYNC_BYTES` (read whole, then parsed twice), and UTF-8: text decoded leniently would
 * turn each bad byte into U+FFFD, and the fleet would write that back and commit it.
 */
import { closeSync, fstatSync, lstatSync, openSync } from 'node:fs';
import { EngineError } from '../engine/errors.js';
import { SYNC_FILE } from '../engine/project-config.js';
import { decodeUtf8 } from '../shared/text-file.js';
import { readAll } from '../sync/paths.js';

/** Far above any real `.sync.yml` (tens of kilobytes for a modulesync module's per-file settings). */
export const MAX_SYNC_BYTES = 1024 * 1024;

export function readSyncText(file: string): string {
  const where = file.slice(0, -SYNC_FILE.length - 1);
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(file);
  } catch {
    throw new EngineError('SYNC_NOT_FOUND', `no ${SYNC_FILE} in ${where}`, {
      hint: 'run `pantograph init --stub` (or `pantograph convert`) in the repository first',
    });
  }
  if (!stat.isFile()) {
    throw new EngineError('FLEET_PATH', `${file} is not a regular file (a symlink or a directory)`, {
      position: { file, line: 1, column: 1 },
      hint: "a repository's .sync.yml must be a file of its own",
    });
  }
  const decoded = decodeUtf8(readAtMost(file, MAX_SYNC_BYTES));
  if ('problem' in decoded) {
    const { message, line, column } = decoded.problem;
    throw new EngineError('SYNC_ENCODING', `${SYNC_FILE} ${message}: nothing was written`, {
      position: { file, line, column },
      hint: `save ${SYNC_FILE} as UTF-8 in the repository (most editors offer the encoding when saving), then run the fleet again`,
    });
  }
  return decoded.text;
}

/** The file's bytes; larger than `max` is an error (measured on the file opened, not on a name). */
function readAtMost(file: string, max: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > max) {
      throw new EngineError(
        'SYNC_READ',
        `${file} is ${size} bytes, larger than the ${max / 1024 / 1024} MiB a fleet reads of a repository's ${SYNC_FILE}: nothing was written`,
        {
          position: { file, line: 1, column: 1 },
          hint: `a ${SYNC_FILE} is a few kilobytes: check what the repository committed as its ${SYNC_FILE}`,
        },
      );
    }
    return readAll(fd, size);
  } finally {
    closeSync(fd);
  }
}
