/**
 * A value measured before it is written out or copied. Values share arrays and hashes (`[$a, $a]`), and a
 * writer (`to_json`, `String()`, `<%= %>`, `join`, ...) or a copy to plain data prints or copies a shared
 * one once per path to it: an array doubled 40 times that way is a few bytes and prints as a terabyte,
 * built piece by piece until the heap is exhausted. These walks count, path by path too, and stop at the
 * cap, so they cost one walk of an ordinary value and at most the cap's steps for a shared one.
 */
import { MAX_COLLECTION_SIZE, MAX_STRING_LENGTH, textTooLong, tooManyElements } from './size-limits.js';
import type { Value } from './values.js';

/**
 * Throws `EPP_MEMORY_LIMIT` when the text of `v` (named `what` in the error) would be too long: counting
 * what any writer prints at least, the characters of strings, one for any other scalar but undef (which
 * may print as nothing), two for the brackets of an array or hash.
 */
export function checkTextLength(v: Value, what: string): void {
  if (!Array.isArray(v) && !(v instanceof Map)) return;
  if (leftAfter(v, MAX_STRING_LENGTH, true) < 0) throw textTooLong(what);
}

/** Throws `EPP_MEMORY_LIMIT` when a copy of `v` path by path would have too many values (each counts one). */
export function checkCopySize(v: Value, what: string): void {
  if (!Array.isArray(v) && !(v instanceof Map)) return;
  if (leftAfter(v, MAX_COLLECTION_SIZE, false) < 0) throw tooManyElements(what);
}

/** `budget` less the weight of `v`: negative once it weighs more than the budget. */
function leftAfter(v: Value, budget: number, text: boolean): number {
  if (typeof v === 'string') return budget - (text ? v.length : 1);
  if (Array.isArray(v)) {
    let left = budget - (text ? 2 : 1);
    for (let i = 0; i < v.length && left >= 0; i++) left = leftAfter(v[i], left, text);
    return left;
  }
  if (v instanceof Map) {
    let left = budget - (text ? 2 : 1);
    for (const [k, val] of v) {
      if (left < 0) break;
      left = leftAfter(val, leftAfter(k, left, text), text);
    }
    return left;
  }
  return v === undefined && text ? budget : budget - 1;
}
