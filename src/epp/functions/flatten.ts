/**
 * Ruby's `Array#flatten`, the one walk of flatten(), shellquote's words, zip's flattening, values_at's
 * indices and clamp's arguments: arrays inside arrays, at any depth, spread in place. Arrays that share
 * elements flatten to many times their size (`$a.map |$x| { $a }`, three times over, is 100 million
 * elements from 10), so the result stops at the size cap rather than exhaust the heap.
 */
import { MAX_COLLECTION_SIZE, tooManyElements } from '../runtime/size-limits.js';
import type { Value } from '../runtime/values.js';

export function flattenDeep(items: readonly Value[]): Value[] {
  const out: Value[] = [];
  flattenInto(out, items);
  return out;
}

function flattenInto(out: Value[], items: readonly Value[]): void {
  for (const item of items) {
    if (Array.isArray(item)) flattenInto(out, item);
    else if (out.length < MAX_COLLECTION_SIZE) out.push(item);
    else throw tooManyElements('the flattened Array');
  }
}
