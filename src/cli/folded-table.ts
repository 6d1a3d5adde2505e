/**
 * A table whose last column is prose (a status's reason, a fleet run's branch and pull request) on a
 * terminal of `width` columns: that column folds under itself (wrap.ts), or, where it would be left
 * fewer than {@link NARROWEST_PROSE} columns, each row's last cell goes on the lines below its row,
 * under the second column, so that it does not become a column of single words. The other cells
 * (states, names, paths) are never folded.
 */
import { table } from './report.js';
import { fold } from './wrap.js';

/** The narrowest a folded last column still reads as sentences. */
const NARROWEST_PROSE = 30;

export function foldedTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  width: number | undefined,
): string {
  const text = table(headers, rows);
  if (width === undefined || text.split('\n').every((line) => line.length <= width)) return text;
  const lastColumn = text.indexOf(headers.at(-1)!);
  if (width - lastColumn >= NARROWEST_PROSE) return fold(text, width, lastColumn);
  const under = Math.max(...[headers, ...rows].map((r) => r[0]!.length)) + 2;
  const pad = ' '.repeat(under);
  // The last heading goes too: nothing stands below it any more.
  const lines = table(
    headers.slice(0, -1),
    rows.map((r) => r.slice(0, -1)),
  ).split('\n');
  return [
    lines[0],
    ...rows.map((r, i) => {
      const cell = r.at(-1)!;
      return cell === '' ? lines[i + 1] : `${lines[i + 1]}\n${fold(pad + cell, width, under)}`;
    }),
    '',
  ].join('\n');
}
