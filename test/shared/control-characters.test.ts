/**
 * The control characters no output name may hold: Unicode's `Cc` and the line and paragraph separators,
 * found by ranges (not a `\p{Cc}` pattern, which is slower to make at start-up): checked against Unicode's
 * own property for every code point.
 */
import { describe, expect, it } from 'vitest';
import { controlCharacterIn, escapeControlCharacters } from '../../src/shared/control-characters.js';

describe('control characters in output names', () => {
  it("finds exactly Unicode's Cc and U+2028/U+2029, in every code point", () => {
    const unicode = /[\p{Cc}\u2028\u2029]/u;
    const wrong: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // lone surrogates are no characters
      const c = String.fromCodePoint(code);
      if ((controlCharacterIn(`a${c}b`) !== undefined) !== unicode.test(c)) wrong.push(code.toString(16));
    }
    expect(wrong).toEqual([]);
  });

  it('names the first one as U+XXXX and escapes each one as \\uXXXX', () => {
    expect(controlCharacterIn('ok/name.txt')).toBeUndefined();
    expect(controlCharacterIn('a\tb\u001bc')).toBe('U+0009');
    expect(controlCharacterIn('x\u0085y')).toBe('U+0085');
    expect(escapeControlCharacters('a\nb\u001b[31mc\u2028d😀')).toBe('a\\u000ab\\u001b[31mc\\u2028d😀');
  });
});
