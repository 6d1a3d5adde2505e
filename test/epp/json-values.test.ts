/**
 * `parseJsonValues` reads most texts with JSON.parse (Floats marked) and leaves the rest to its reader: the
 * two must give the same values, in the same key order, for any JSON text. Random documents exercise what
 * differs between them: Floats written as `1.0`, `2e3`, `-0.0`; integers beyond 2^53; keys that a
 * JavaScript object would list first (`"2"`); keys given twice; escapes, NUL included; `__proto__`; numbers
 * inside strings; whitespace. Reproducible: `FUZZ_SEED=<n>` replays a run (the seed is in the test's name).
 */
import { describe, expect, it } from 'vitest';
import type { EppError } from '../../src/epp/errors.js';
import { parseJsonValues, readJsonValues } from '../../src/epp/json-values.js';
import { mulberry32, type Rng } from '../helpers/random.js';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) >>> 0 : (Date.now() >>> 0) ^ 0x5eed;
const DOCUMENTS = 400;

const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)] as T;

// biome-ignore format: a table reads better packed
const NUMBERS = [
  '0', '-0', '7', '-12', '1.0', '-0.0', '2.5', '2e3', '1E+2', '1e-7', '0.1', '9007199254740991',
  '9007199254740993', '-9223372036854775808', '123456789012345678901234567890', '1e400',
];
// biome-ignore format: a table reads better packed
const STRINGS = [
  '""', '"a"', '"10.0.0.9"', '"1.5"', '"x\\"y"', '"back\\\\slash"', '"\\u00e9t\\u00e9"', '"tab\\t"',
  '"nul\\u0000"', '"\\ud83d\\ude00"', '"2e3 in text"', '"{\\"not\\": 1.0}"',
];
// biome-ignore format: a table reads better packed
const KEYS = ['"a"', '"b"', '"name"', '"2"', '"10"', '"01"', '"1.5"', '"__proto__"', '"é"', '""', '"k k"'];
const SPACE = ['', ' ', '\n  ', '\t'];

function document(rng: Rng, depth = 0): string {
  const s = () => pick(rng, SPACE);
  const roll = int(rng, depth >= 4 ? 3 : 6);
  if (roll === 0) return pick(rng, NUMBERS);
  if (roll === 1) return pick(rng, STRINGS);
  if (roll === 2) return pick(rng, ['true', 'false', 'null']);
  if (roll === 3) {
    const items = Array.from({ length: int(rng, 4) }, () => s() + document(rng, depth + 1) + s());
    return `[${items.join(',')}]`;
  }
  const entries = Array.from(
    { length: int(rng, 5) },
    () => `${s()}${pick(rng, KEYS)}${s()}:${s()}${document(rng, depth + 1)}${s()}`,
  );
  return `{${entries.join(',')}}`;
}

/** Values with every hash as its entries, so that key order is compared too. */
const ordered = (v: unknown): unknown =>
  v instanceof Map ? [...v].map(([k, x]) => [k, ordered(x)]) : Array.isArray(v) ? v.map(ordered) : v;

/** What a reader's error says, and where (file:line:col). */
const failure = (e: unknown) => ({
  code: (e as EppError).code,
  message: (e as Error).message,
  where: (e as EppError).where,
});

describe(`parseJsonValues agrees with its reader on random JSON (seed ${SEED})`, () => {
  it(`${DOCUMENTS} documents`, () => {
    const rng = mulberry32(SEED);
    for (let i = 0; i < DOCUMENTS; i++) {
      const text = document(rng);
      const fromReader = ordered(readJsonValues(text, 'v.json'));
      expect({ text, value: ordered(parseJsonValues(text, 'v.json')) }).toEqual({ text, value: fromReader });
    }
  });

  it('reports a broken document as and where the reader does', () => {
    const rng = mulberry32(SEED);
    let located = 0;
    for (let i = 0; i < 100; i++) {
      const text = document(rng);
      if (text.length < 2) continue;
      const cut = text.slice(0, 1 + int(rng, text.length - 1));
      let expected: unknown;
      try {
        expected = ordered(readJsonValues(cut, 'v.json'));
      } catch (e) {
        expected = failure(e);
        if (/^v\.json:\d+:\d+$/.test(String((e as EppError).where))) located++;
      }
      let actual: unknown;
      try {
        actual = ordered(parseJsonValues(cut, 'v.json'));
      } catch (e) {
        actual = failure(e);
      }
      expect({ cut, actual }).toEqual({ cut, actual: expected });
    }
    // Most cut documents are broken, each error placed at a line and column.
    expect(located).toBeGreaterThan(50);
  });
});
