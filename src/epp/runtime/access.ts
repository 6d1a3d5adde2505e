/**
 * Puppet's access operator on values (`$x[...]`): characters of a string, elements and slices of an
 * array, values of a hash, and parameters of a type. Split from operators.ts.
 */
import { EppEvalError } from '../errors.js';
import { rubyToS } from '../functions/ruby-text.js';
import { characters, isSingleUnit } from './characters.js';
import { hashLookup } from './compare.js';
import { article, numericFromString, typeLabel } from './numbers.js';
import { accessType, inferGenericType, PType } from './types.js';
import { isHash, PFloat, type Value } from './values.js';

/** `target[keys...]`. */
export function access(target: Value, keys: Value[]): Value {
  // The common `$a[i]`: one number index into an array.
  const first = keys[0];
  if (Array.isArray(target) && keys.length === 1 && typeof first === 'number') {
    const i = first < 0 ? first + target.length : first;
    return i >= 0 && i < target.length ? target[i] : undefined;
  }
  if (typeof target === 'string') return accessString(target, keys);
  if (Array.isArray(target)) return accessArray(target, keys);
  if (isHash(target)) {
    if (keys.length === 1) {
      const key = keys[0];
      // Scalar keys are found by the Map itself; only arrays and hashes as keys need a deep search.
      return typeof key === 'object' && key !== null ? hashLookup(target, key).value : target.get(key);
    }
    // Several keys: the values found, undef ones left out (Puppet compacts the list).
    const out: Value[] = [];
    for (const k of keys) {
      const value = hashLookup(target, k).value;
      if (value !== undefined) out.push(value);
    }
    return out;
  }
  if (target instanceof PType) return accessType(target, keys);
  throw new EppEvalError(
    'EPP_ACCESS',
    target === undefined
      ? "Operator '[]' is not applicable to an Undef Value."
      : `Operator '[]' is not applicable to ${article(typeLabel(target))} ${typeLabel(target)}.`,
  );
}

/**
 * An index of a string or array access as Puppet takes it (its `AccessOperator`), with its words for the
 * index it refuses. A string takes a numeric string as its number (`'abc'['1']`); an array does too, and
 * Puppet warns then (the runtime does: see `Runtime.access`).
 */
function indexArgument(v: Value, what: string): number {
  const n = typeof v === 'string' ? numericFromString(v) : v;
  if (typeof n === 'number') return n;
  // A big Integer is out of any range anyway; as a number it still compares right.
  if (typeof n === 'bigint') return Number(n);
  if (what === 'String') {
    const label = inferGenericType(n ?? v).toString();
    throw new EppEvalError(
      'EPP_ACCESS',
      `A substring operation does not accept ${article(label)} ${label} as a character index. Expected an Integer`,
    );
  }
  if (n instanceof PFloat) {
    throw new EppEvalError('EPP_ACCESS', `An ${what}[] cannot use Float where Integer is expected`);
  }
  throw new EppEvalError('EPP_ACCESS', `The value '${rubyToS(v)}' cannot be converted to Numeric.`);
}

/** Keys of a string or array access, nested arrays flattened as Puppet flattens them (`$a[[0, 2]]`). */
function flatKeys(keys: Value[]): Value[] {
  if (!keys.some(Array.isArray)) return keys;
  const out: Value[] = [];
  const add = (v: Value): void => {
    if (Array.isArray(v)) for (const x of v) add(x);
    else out.push(v);
  };
  for (const k of keys) add(k);
  return out;
}

/**
 * Resolves `[start, count]` as Puppet's access operator does: a negative start counts from the end, a
 * negative count is "up to that position from the end", and a start before the beginning moves to it,
 * shortening the count by as much (`[1, 2, 3][-4, 2]` is `[1]`); then Ruby's `Array#[]`.
 */
function range(length: number, keys: Value[], what: string): { start: number; count: number } | undefined {
  if (keys.length < 1 || keys.length > 2) {
    throw new EppEvalError('EPP_ACCESS', `${what} supports [] with one or two arguments. Got ${keys.length}`);
  }
  let start = indexArgument(keys[0], what);
  if (start < 0) start += length;
  if (keys.length === 1) return start < 0 || start >= length ? undefined : { start, count: 1 };
  let count = indexArgument(keys[1], what);
  if (count < 0) count = length - start + count + 1;
  if (start < 0) {
    count += start;
    start = 0;
  }
  if (start > length || count < 0) return undefined;
  return { start, count: Math.min(count, length - start) };
}

function accessString(s: string, allKeys: Value[]): Value {
  const keys = flatKeys(allKeys);
  // Characters are UTF-16 units unless the string has surrogates: no array of a long string's characters.
  const chars = isSingleUnit(s) ? undefined : characters(s);
  const r = range(chars ? chars.length : s.length, keys, 'String');
  if (!r) return keys.length === 1 ? undefined : '';
  return chars ? chars.slice(r.start, r.start + r.count).join('') : s.slice(r.start, r.start + r.count);
}

function accessArray(a: Value[], allKeys: Value[]): Value {
  const keys = flatKeys(allKeys);
  const r = range(a.length, keys, 'Array');
  if (keys.length === 1) return r ? a[r.start] : undefined;
  if (!r) return [];
  return a.slice(r.start, r.start + r.count);
}
