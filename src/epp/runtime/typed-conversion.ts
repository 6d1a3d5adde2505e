/**
 * Plain JavaScript data converted as a type expects, checked in the same walk (issue 13: binding the plain
 * values a library user passes on every render).
 *
 * `convertAs(type, data)` is `valuesFromJs(data)` when that value is an instance of `type`, else NO_FIT:
 * the same value (a hash is a RecordHash of the caller's object, or of a copy where a value converts; an
 * array is the caller's own where no element converts) and the same answer as converting first and asking
 * `type.isInstance` after, in one walk instead of two. Arrays, hashes of plain objects, `Data`,
 * `Optional`, `Variant` and aliases are walked here, mirroring their `isInstance`; every other type gets
 * the value converted as valuesFromJs converts it and asked. NO_FIT says no more than "not an instance":
 * the caller then binds as it always did, and reports the problem in Puppet's words.
 */
import { isArrayAsIs, isPuppetAsIs, valuesFromJs } from './convert.js';
import type { HashIndex } from './hash-index.js';
import { recordHash } from './record-hash.js';
import {
  AliasType,
  ANY,
  ArrayType,
  DATA,
  HashType,
  OptionalType,
  type PType,
  STRING,
  VariantType,
} from './types.js';
import { float, type Value } from './values.js';

/** What {@link convertAs} gives for data that does not convert to an instance of the type. */
export const NO_FIT: unique symbol = Symbol('no fit');

export function convertAs(type: PType, data: unknown): Value | typeof NO_FIT {
  // A string, boolean or integer as given (most values) is its own value: only the type's answer is left.
  if (isPuppetAsIs(data)) return type === DATA || type.isInstance(data as Value) ? (data as Value) : NO_FIT;
  // The exact classes: a subclass may answer isInstance otherwise.
  switch (type.constructor) {
    case ArrayType:
      return Array.isArray(data) ? arrayAs(type as ArrayType, data) : NO_FIT;
    case HashType:
      return isPlainObject(data) ? hashAs(type as HashType, data) : convertedIfInstance(type, data);
    case OptionalType: {
      const inner = (type as OptionalType).type;
      if (data === undefined || data === null) return undefined;
      return inner === undefined ? convertedIfInstance(type, data) : convertAs(inner, data);
    }
    case VariantType:
      for (const member of (type as VariantType).types) {
        const value = convertAs(member, data);
        if (value !== NO_FIT) return value;
      }
      return NO_FIT;
  }
  if (type === DATA) return dataAs(data);
  if (type instanceof AliasType) return convertAs(type.resolved(), data);
  return convertedIfInstance(type, data);
}

/** The value valuesFromJs makes of `data`, if it is an instance of `type`. */
function convertedIfInstance(type: PType, data: unknown): Value | typeof NO_FIT {
  const value = valuesFromJs(data);
  return type.isInstance(value) ? value : NO_FIT;
}

function isPlainObject(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && Object.getPrototypeOf(data) === Object.prototype;
}

/**
 * Whether the conversion left a value as it was given (then the caller's array or object holding it can
 * be used as it is). -0 converts to 0, which `===` does not tell apart.
 */
function unchanged(value: Value, data: unknown): boolean {
  return value === data && (value !== 0 || Object.is(data, 0));
}

/** An indexed loop, the caller's array kept while no element converts (as valuesFromJs keeps it). */
function arrayAs(type: ArrayType, data: readonly unknown[]): Value | typeof NO_FIT {
  if (type.size !== undefined && !type.size.isInstance(data.length)) return NO_FIT;
  const element = type.element;
  if (element === ANY) return valuesFromJs(data);
  // A list of records, the common case, has a loop of its own.
  if (element.constructor === HashType) return hashesAs(element as HashType, data);
  let out: Value[] | undefined;
  for (let i = 0; i < data.length; i++) {
    const given = data[i];
    const value = convertAs(element, given);
    if (value === NO_FIT) return NO_FIT;
    if (out === undefined) {
      if (unchanged(value, given)) continue;
      out = data.slice(0, i) as Value[];
    }
    out.push(value);
  }
  return out ?? (data as Value[]);
}

/**
 * The elements of a list of hashes of `type` (a new array: each object becomes a RecordHash). A record of
 * `Hash[String, Data]` whose values are Puppet values as they are takes the shortest path: one test per
 * value and no call for each (the bench template's 50 backends), as `hashAs` would make it.
 */
function hashesAs(type: HashType, data: readonly unknown[]): Value[] | typeof NO_FIT {
  const records = type.value === DATA && (type.key === STRING || type.key === ANY) && type.size === undefined;
  const out: Value[] = [];
  for (let i = 0; i < data.length; i++) {
    const given = data[i];
    let value: Value | typeof NO_FIT;
    if (typeof given === 'object' && given !== null && Object.getPrototypeOf(given) === Object.prototype) {
      const record = given as Record<string, unknown>;
      value = records && isRecordAsIs(record) ? recordHash(record as HashIndex, true) : hashAs(type, record);
    } else {
      value = convertAs(type, given);
    }
    if (value === NO_FIT) return NO_FIT;
    out.push(value);
  }
  return out;
}

/** Whether every value of an object is a Puppet value as it is, or an array of such values. */
function isRecordAsIs(data: Record<string, unknown>): boolean {
  for (const k in data) {
    const v = data[k];
    if (!isPuppetAsIs(v) && !(Array.isArray(v) && isArrayAsIs(v))) return false;
  }
  return true;
}

/**
 * A plain object as a hash of `type`: a RecordHash of the object itself, or of a copy (`{...data}`, which
 * V8 clones by shape) where a value converts. Its `allData` hint is set where the walk proved it: the
 * values were checked against Data, or are strings, booleans and integers as given.
 */
function hashAs(type: HashType, data: Record<string, unknown>): Value | typeof NO_FIT {
  const { key, value: valueType } = type;
  const isData = valueType === DATA;
  let size = 0;
  let copy: Record<string, unknown> | undefined;
  let scalarsAsGiven = true;
  for (const k in data) {
    size++;
    if (key !== ANY && key !== STRING && !key.isInstance(k)) return NO_FIT;
    const given = data[k];
    // Data's common values tested inline, as valuesFromJs tests them: no call for each.
    if (isData && isPuppetAsIs(given)) continue;
    if (isData && Array.isArray(given) && isArrayAsIs(given)) {
      scalarsAsGiven = false;
      continue;
    }
    const value = valueType === ANY ? valuesFromJs(given) : convertAs(valueType, given);
    if (value === NO_FIT) return NO_FIT;
    if (unchanged(value, given)) {
      if (typeof given === 'object') scalarsAsGiven = false;
      continue;
    }
    scalarsAsGiven = false;
    copy ??= { ...data };
    copy[k] = value;
  }
  if (type.size !== undefined && !type.size.isInstance(size)) return NO_FIT;
  return recordHash((copy ?? data) as HashIndex, isData || scalarsAsGiven);
}

/** `Data`: what `isData` accepts, converted as valuesFromJs converts it (values as they are: convertAs). */
function dataAs(data: unknown): Value | typeof NO_FIT {
  if (typeof data === 'number') return data === 0 ? 0 : float(data);
  if (data === undefined || data === null) return undefined;
  if (Array.isArray(data)) return arrayAs(ARRAY_OF_DATA, data);
  if (isPlainObject(data)) return hashAs(HASH_OF_DATA, data);
  return convertedIfInstance(DATA, data);
}

const ARRAY_OF_DATA = new ArrayType(DATA);
const HASH_OF_DATA = new HashType(STRING, DATA);
