/**
 * The characters of strings (code points, as Ruby counts them: an emoji is one), without an array of them
 * where none is needed: a long string's characters are an array as long, past the size cap of arrays
 * (V8 aborts the process on a big enough one, see size-limits.ts).
 */
import { checkCollectionSize } from './size-limits.js';

const SURROGATE = /[\uD800-\uDFFF]/;

/** Whether every character of `s` is one UTF-16 unit (the common case: counting units is counting characters). */
export function isSingleUnit(s: string): boolean {
  return !SURROGATE.test(s);
}

/** How many characters `s` has: a surrogate pair counts one, a lone surrogate one. */
export function characterCount(s: string): number {
  if (isSingleUnit(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i += unitsAt(s, i)) n++;
  return n;
}

/** The first `n` characters of `s`. */
export function firstCharacters(s: string, n: number): string {
  if (isSingleUnit(s)) return s.slice(0, n);
  let i = 0;
  for (let count = 0; i < s.length && count < n; count++) i += unitsAt(s, i);
  return s.slice(0, i);
}

/** The UTF-16 units of the character at unit `i`: 2 for a surrogate pair, else 1. */
function unitsAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return 1;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

/** The characters of `s` as an array (Ruby's `chars`), an error past the size cap. */
export function characters(s: string): string[] {
  checkCollectionSize(s.length, "the Array of a String's characters");
  return Array.from(s);
}
