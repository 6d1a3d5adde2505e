/**
 * The string-key index of a hash: what compiled templates read `$h['key']` through (see {@link hashIndex}).
 */
import type { PHash, Value } from './values.js';

/** Where a hash keeps its index. */
export const INDEX = Symbol('index');

/** The prototype of indexes: no properties at all, so `toString` or `__proto__` are ordinary keys. */
const EMPTY_PROTOTYPE: object = Object.create(null);

/** A hash's string keys and their values, in the hash's order; a missing key reads undefined. */
export type HashIndex = Record<string, Value>;

/**
 * A new, empty index. Its prototype is an object without properties (not null: V8 keeps an object made by
 * `Object.create(null)` as a dictionary, where one made on a prototype gets a hidden class).
 */
export function emptyIndex(): HashIndex {
  return Object.create(EMPTY_PROTOTYPE) as HashIndex;
}

/**
 * `$h['key']` in compiled code reads `hashIndex(h).key`: a plain object of the hash's string keys, built on
 * the first such read and kept on the Map itself (a symbol property); undefined for a value that is not a
 * hash. A property read with a constant name is faster than `Map.get` (inline caches; the hashes of a list
 * built alike share one hidden class, as the index is made by adding the keys in the hash's order; beyond
 * about a dozen keys the index is a dictionary, about as fast as the Map). A hash made from a JavaScript
 * object (`RecordHash`) is its index from the start.
 *
 * This relies on hashes being immutable once built (as the instance memo of `checkParameter` does):
 * nothing in Pantograph mutates a PHash after it is made (fromJs, literals and functions build new ones).
 * Only string keys are indexed; other keys are read with `rt.access1`. A missing key reads undefined,
 * as `Map.get` does, since the prototype has no properties.
 */
export function hashIndex(h: Value): HashIndex | undefined {
  return h instanceof Map ? ((h as { [INDEX]?: HashIndex })[INDEX] ?? buildIndex(h)) : undefined;
}

function buildIndex(h: PHash): HashIndex {
  const index = emptyIndex();
  for (const [k, v] of h) if (typeof k === 'string') index[k] = v;
  (h as { [INDEX]?: HashIndex })[INDEX] = index;
  return index;
}
