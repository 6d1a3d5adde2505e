/**
 * Offsets and (line, column) positions, both ways: every error and editor diagnostic goes through them.
 */
import { describe, expect, it } from 'vitest';
import { lineColumn, offsetAt } from '../../src/shared/position.js';

describe('positions', () => {
  const text = 'ab\n\ncd\r\nlast';

  it('turns every offset into its line and column and back', () => {
    for (let offset = 0; offset <= text.length; offset++) {
      const { line, column } = lineColumn(text, offset);
      expect(offsetAt(text, line, column)).toBe(offset);
    }
    expect(lineColumn(text, text.indexOf('cd'))).toEqual({ line: 3, column: 1 });
    expect(lineColumn(text, text.indexOf('last'))).toEqual({ line: 4, column: 1 });
  });

  it('clamps a place beyond the text to its end', () => {
    expect(offsetAt(text, 9, 1)).toBe(text.length);
    expect(offsetAt(text, 4, 99)).toBe(text.length);
    expect(offsetAt('', 1, 1)).toBe(0);
  });

  it('answers for a long text with many places (an editor diagnostic each) from one index', () => {
    const long = 'line <%= $x %>\n'.repeat(50_000);
    const offsets = [];
    for (let line = 1; line <= 50_000; line += 7) offsets.push(offsetAt(long, line, 10));
    expect(offsets.every((o, i) => o === i * 7 * 15 + 9)).toBe(true);
  });

  it('counts columns in characters, as Puppet does: an emoji is one (two UTF-16 units)', () => {
    const emoji = 'a😀b\n😀😀c\n';
    expect(lineColumn(emoji, emoji.indexOf('b'))).toEqual({ line: 1, column: 3 });
    expect(lineColumn(emoji, emoji.indexOf('c'))).toEqual({ line: 2, column: 3 });
    expect(lineColumn(emoji, emoji.length)).toEqual({ line: 3, column: 1 });
    expect(offsetAt(emoji, 1, 3)).toBe(emoji.indexOf('b'));
    expect(offsetAt(emoji, 2, 3)).toBe(emoji.indexOf('c'));
    for (let offset = 0; offset <= emoji.length; offset++) {
      // Inside a pair (no character starts there) the column is the pair's.
      const { line, column } = lineColumn(emoji, offset);
      const inPair = /[\udc00-\udfff]/.test(emoji[offset] ?? '');
      expect(offsetAt(emoji, line, column)).toBe(inPair ? offset - 1 : offset);
    }
  });
});
