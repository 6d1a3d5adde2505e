/** Whether a value is of a type, remembered for hashes (parameter checks of the same settings). */
import { RecordHash } from './record-hash.js';
import type { PType } from './types.js';
import type { Value } from './values.js';

/**
 * Hashes are never mutated, so whether one is an instance of a type can be remembered: the same settings
 * checked against the same (constant) parameter types in every file of a template, or in every render,
 * are checked once. Not arrays: a render given plain JavaScript values uses the caller's arrays as they
 * are (see `valuesFromJs`), which the caller may change before the next render; nor RecordHashes, made
 * anew for each render.
 */
const instanceMemo = new WeakMap<PType, WeakMap<object, boolean>>();

export function isInstanceMemo(type: PType, value: Value): boolean {
  if (!(value instanceof Map) || value instanceof RecordHash) return type.isInstance(value);
  // By type first: types are few (shared constants), so new values add entries, not WeakMaps.
  let byValue = instanceMemo.get(type);
  if (!byValue) {
    byValue = new WeakMap();
    instanceMemo.set(type, byValue);
  }
  let result = byValue.get(value);
  if (result === undefined) {
    result = type.isInstance(value);
    byValue.set(value, result);
  }
  return result;
}
