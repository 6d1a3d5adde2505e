/**
 * src/shared/json-syntax.ts: where a text stops being JSON (for the lock and fleet reports, read with
 * `JSON.parse`, whose messages do not always say where). It must refuse exactly what `JSON.parse` refuses,
 * and place the mistake where it is.
 */
import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from '../../src/shared/json-syntax.js';
import { mulberry32 } from '../helpers/random.js';

const VALID = `{
  "lockVersion": 1,
  "files": {"a b": {"mode": "0644", "n": -1.5e+3, "ok": true, "none": null}, "c": []},
  "list": [0, 1.25, "\\u00e9\\n\\"q\\"", {}, [[]], false],
  "empty": ""
}
`;

describe('jsonSyntaxError', () => {
  it.each([
    ['x{}', 0, "unexpected 'x'"],
    ['{"a": }', 6, "unexpected '}'"],
    ['{"a": 1,}', 8, 'expected a property name in double quotes'],
    ['{a: 1}', 1, 'expected a property name in double quotes'],
    ['{"a" 1}', 5, "expected ':' after the property name, found '1'"],
    ['[1, 2', 5, "expected ',' or ']', found the end of the file"],
    ['{"a": [1}', 8, "expected ',' or ']', found '}'"],
    ['{} {}', 3, "unexpected '{' after the JSON value"],
    ['"tab\there"', 0, 'a string not closed, or a control character or bad escape in it'],
    ['["\\x"]', 1, 'a string not closed, or a control character or bad escape in it'],
    ['01', 1, "unexpected '1' after the JSON value"],
    ['', 0, 'unexpected the end of the file'],
  ])('%j: at %i, %s', (text, offset, message) => {
    expect(jsonSyntaxError(text)).toEqual({ offset, message });
    expect(() => JSON.parse(text)).toThrow();
  });

  it('finds nothing wrong in JSON, and reads past a byte order mark', () => {
    expect(jsonSyntaxError(VALID)).toBeUndefined();
    expect(jsonSyntaxError(`\ufeff${VALID}`)).toBeUndefined();
    expect(jsonSyntaxError(' 3 ')).toBeUndefined();
  });

  it('refuses exactly what JSON.parse refuses, over 20,000 damaged texts', () => {
    const random = mulberry32(32);
    let valid = 0;
    const alphabet = '{}[]",:0123456789.-+eEtrufalsn \\\n\t\u0001x';
    for (let round = 0; round < 20_000; round++) {
      let text = VALID;
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
        const at = Math.floor(random() * text.length);
        const kind = random();
        const char = alphabet[Math.floor(random() * alphabet.length)]!;
        if (kind < 0.4) text = text.slice(0, at) + text.slice(at + 1);
        else if (kind < 0.7) text = text.slice(0, at) + char + text.slice(at);
        else text = text.slice(0, at) + char + text.slice(at + 1);
      }
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect(jsonSyntaxError(text) === undefined, JSON.stringify(text)).toBe(parses);
      if (parses) valid++;
    }
    // Both answers were asked for often: a scanner that refused everything would fail above.
    expect(valid).toBeGreaterThan(2_000);
    expect(valid).toBeLessThan(18_000);
  });

  it('scans nesting a hostile file makes deep without running out of stack', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(jsonSyntaxError(deep)).toBeUndefined();
    expect(jsonSyntaxError(`${'{"a":'.repeat(100_000)}1`)).toEqual({
      offset: 500_001,
      message: "expected ',' or '}', found the end of the file",
    });
  });
});
