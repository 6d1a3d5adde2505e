/**
 * The line format of the per-project caches (digest record, render cache): what is written is read back,
 * whatever the key's characters; what cannot be written is left out; a damaged or foreign file yields only
 * its valid entries, never an error.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecordLines, writeRecordLines } from '../../src/shared/record-lines.js';
import { removeTempDirs, tempDir } from '../helpers/fs.js';

afterAll(removeTempDirs);

const HEADER = 'test-record 1';

function readAll(file: string, fields = 2, max = 1 << 20): [string, string[]][] {
  const entries: [string, string[]][] = [];
  readRecordLines(file, HEADER, fields, max, ([key, ...values]) => entries.push([key!, values]));
  return entries;
}

describe('record lines', () => {
  it('reads back what was written, keys in any script', () => {
    const file = join(tempDir(), 'r.tsv');
    const entries: [string, (string | number)[]][] = [
      ['/p/plain.txt', ['a', 1]],
      ['/p/ünïcödé/日本.txt', ['b', 2]],
      ['/p/with space and "quotes"', ['c', 0]],
    ];
    writeRecordLines(file, HEADER, entries);
    expect(readAll(file)).toEqual(entries.map(([k, v]) => [k, v.map(String)]));
  });

  it('leaves out an entry whose key or field holds a tab or a line break, and keeps the others', () => {
    const file = join(tempDir(), 'r.tsv');
    writeRecordLines(file, HEADER, [
      ['tab\there', ['a', 1]],
      ['line\nbreak', ['a', 1]],
      ['cr\rhere', ['a', 1]],
      ['good', ['field\twith tab', 1]],
      ['kept', ['a', 1]],
    ]);
    expect(readAll(file)).toEqual([['kept', ['a', '1']]]);
  });

  it('yields nothing from an absent file, another header or one larger than the limit', () => {
    const dir = tempDir();
    expect(readAll(join(dir, 'absent.tsv'))).toEqual([]);
    const file = join(dir, 'r.tsv');
    writeRecordLines(file, HEADER, [['k', ['a', 1]]]);
    expect(readAll(file, 2, 10)).toEqual([]);
    writeFileSync(file, readFileSync(file, 'utf8').replace(HEADER, 'test-record 2'));
    expect(readAll(file)).toEqual([]);
    writeFileSync(file, '{"version":1,"files":{"k":["a",1]}}');
    expect(readAll(file)).toEqual([]);
  });

  it('skips lines with the wrong number of fields, as a file cut short mid-line has', () => {
    const file = join(tempDir(), 'r.tsv');
    writeFileSync(file, `${HEADER}\nk1\ta\t1\nk2\ta\nk3\ta\t1\t2\n\nk4\ta\t1\nk5\ta`);
    expect(readAll(file)).toEqual([
      ['k1', ['a', '1']],
      ['k4', ['a', '1']],
    ]);
  });

  it('removes the same cache as earlier versions wrote it (JSON), and nothing else', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'r.json'), '{"version":1,"files":{}}');
    writeFileSync(join(dir, 'other.json'), '{}');
    writeRecordLines(join(dir, 'r.tsv'), HEADER, [['k', ['a', 1]]]);
    expect(readdirSync(dir).sort()).toEqual(['other.json', 'r.tsv']);
  });

  it('never throws when the file cannot be written (the cache only costs time)', () => {
    const file = join(tempDir(), 'r.tsv');
    writeFileSync(file, 'not a directory');
    expect(() => writeRecordLines(join(file, 'inside.tsv'), HEADER, [['k', ['a', 1]]])).not.toThrow();
  });
});
