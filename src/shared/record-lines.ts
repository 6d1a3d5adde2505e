/**
 * The format of Pantograph's per-project caches (the digest record, the render cache): a header line
 * naming the format and its version, then one entry per line, `<key>\t<field>\t<field>...`.
 *
 * Not JSON, for speed (issue 13): a 10,000-file project has 20,000 entries, and `JSON.parse` of an object
 * keyed by path interns every path as a property name and builds an array per entry (reading the render
 * cache of a 10,000-file `status` went from ~50 to ~30 ms). A key or field holding a tab or a line break cannot be written: such an entry is left
 * out, which only costs the next run the work the cache saves.
 *
 * A cache is never trusted: a file that is too large, has another header or a line with the wrong number
 * of fields yields what is valid of it (callers check each field's shape), and writing never fails.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const SEPARATORS = /[\t\n\r]/;

/** Whether a key or field can be written as it is. */
function writable(value: string | number): boolean {
  return typeof value === 'number' || !SEPARATORS.test(value);
}

/**
 * Calls `onEntry` with each entry of `file` that has `fields` fields after its key, as one array, the key
 * first (no second array per line). Nothing when the file is absent, larger than `maxBytes` or does not
 * start with `header`.
 */
export function readRecordLines(
  file: string,
  header: string,
  fields: number,
  maxBytes: number,
  onEntry: (entry: readonly string[]) => void,
): void {
  let text: string;
  try {
    if (statSync(file).size > maxBytes) return;
    const bytes = readFileSync(file);
    // An ASCII file (the usual case) is decoded byte for byte, which is faster than UTF-8.
    text = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  } catch {
    return; // absent: everything is computed, and the cache written anew
  }
  if (!text.startsWith(`${header}\n`)) return;
  let start = header.length + 1;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const parts = text.slice(start, end).split('\t');
    if (parts.length === fields + 1) onEntry(parts);
    start = end + 1;
  }
}

/**
 * Writes `entries` to `file` under `header`, atomically (a reader sees the old file or the new one).
 * Entries that cannot be written (see {@link writable}) are left out. Never throws: a cache that cannot be
 * written (a read-only cache directory) only costs time.
 */
export function writeRecordLines(
  file: string,
  header: string,
  entries: Iterable<readonly [key: string, fields: readonly (string | number)[]]>,
): void {
  const lines = [header];
  for (const [key, fields] of entries) {
    if (writable(key) && fields.every(writable)) lines.push(`${key}\t${fields.join('\t')}`);
  }
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${lines.join('\n')}\n`);
    renameSync(tmp, file);
    // The same cache as JSON, as earlier versions of Pantograph wrote it (`<name>.json` beside `<name>.tsv`):
    // never read again, so removed when its successor is first written.
    if (file.endsWith('.tsv')) rmSync(`${file.slice(0, -4)}.json`, { force: true });
  } catch {
    // the next run computes again
  }
}
