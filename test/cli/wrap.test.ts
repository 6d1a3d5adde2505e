import { describe, expect, it } from 'vitest';
import { fold } from '../../src/cli/wrap.js';

describe('fold', () => {
  it('breaks only at spaces outside code spans, keeping padding before the break', () => {
    expect(
      fold(
        'kept      some/long/path/name.txt  (run `pantograph resolve some/long/path/name.txt` first)',
        40,
        10,
      ),
    ).toBe(
      'kept      some/long/path/name.txt  (run\n          `pantograph resolve some/long/path/name.txt`\n          first)',
    );
  });

  it('leaves short lines, undefined widths and diffs in other lines alone', () => {
    expect(fold('a b c', 40)).toBe('a b c');
    expect(fold('x '.repeat(50), undefined)).toBe('x '.repeat(50));
  });

  it('continues a hint under its text, and measures without colour codes', () => {
    expect(fold('  \x1b[36mhint\x1b[39m: one two three four five six', 24)).toBe(
      '  \x1b[36mhint\x1b[39m: one two three\n        four five six',
    );
  });

  it('leaves no word alone on the last line where a more even break exists', () => {
    // Filling each line would leave `disk` alone: the same two lines, evened out.
    expect(fold('error: the template output differs from the file written on disk', 60)).toBe(
      'error: the template output differs\n  from the file written on disk',
    );
  });

  it('never adds a line to even them out', () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve thirteen';
    const folded = fold(text, 40);
    expect(folded.split('\n')).toHaveLength(2);
    expect(folded).toBe('one two three four five six seven eight\n  nine ten eleven twelve thirteen');
  });

  it("breaks a table's row only in its last column, under that column", () => {
    const row =
      'conflict  some/long/path/config.txt  base      changed by hand, and the template output changed too';
    expect(fold(row, 80, 46)).toBe(
      'conflict  some/long/path/config.txt  base      changed by hand, and the\n' +
        '                                              template output changed too',
    );
    // A row whose names alone overflow stays whole: names and paths are never folded.
    expect(fold('edited    a/very/long/path/name/that/overflows.txt  base', 40, 56)).toBe(
      'edited    a/very/long/path/name/that/overflows.txt  base',
    );
  });
});
