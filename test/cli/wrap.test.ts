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
});
