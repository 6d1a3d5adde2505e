/**
 * Offsets and (line, column) positions, both ways: every error and editor diagnostic goes through them.
 */
import { describe, expect, it } from 'vitest';
import { lineColumn, offsetAt } from '../../src/epp/position.js';

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
});
