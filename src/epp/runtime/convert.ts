/**
 * Plain JavaScript data to Puppet values and back.
 *
 * Two conversions in, alike but for how objects become hashes:
 * - {@link fromJs}, the public one, makes every hash a Map (a value a caller keeps and compares);
 * - {@link valuesFromJs}, what a render does with the plain values it is given, makes an object's hash a
 *   {@link RecordHash} and uses the caller's objects and arrays themselves where their contents are Puppet
 *   values as they are (strings, booleans, safe integers): no Map table to fill, no index to build, no copy.
 *   Converting was most of what rendering with plain values cost beyond rendering with Puppet values.
 */
import { setEql } from './compare.js';
import { emptyIndex, type HashIndex } from './hash-index.js';
import { type RecordHash, recordHash } from './record-hash.js';
import {
  float,
  integer,
  PBinary,
  PDefault,
  PFloat,
  type PHash,
  PIterator,
  PObject,
  PRegexp,
  PSemVer,
  PSemVerRange,
  PSensitive,
  PSymbol,
  PTimeData,
  type Value,
} from './values.js';

export interface FromJsOptions {
  /**
   * How JavaScript numbers convert. `'infer'` (default): whole numbers become Integers, others Floats.
   * `'float'`: every number is a Float, for data parsed with integers as bigint (YAML with `intAsBigInt`),
   * which keeps the `1` / `1.0` distinction of the source. Bigints are always Integers.
   */
  readonly numbers?: 'infer' | 'float';
}

/** How a conversion goes: numbers, and whether objects become RecordHashes (else Maps). */
interface Mode {
  readonly numbersAreFloats: boolean;
  readonly records: boolean;
}

const MAPS: Mode = { numbersAreFloats: false, records: false };
const MAPS_OF_FLOATS: Mode = { numbersAreFloats: true, records: false };
const RECORDS: Mode = { numbersAreFloats: false, records: true };

/**
 * Converts plain JavaScript data (JSON-like: objects, arrays, numbers, bigints, strings, booleans, null)
 * into Puppet values: objects and Maps become hashes (Maps), null becomes undef.
 */
export function fromJs(data: unknown, options: FromJsOptions = {}): Value {
  return convert(data, options.numbers === 'float' ? MAPS_OF_FLOATS : MAPS);
}

/**
 * The conversion for the values of one render: a JavaScript object becomes a {@link RecordHash}, and arrays
 * and objects whose contents need no conversion are used as they are. Not a snapshot, then: the result is
 * for a render, during which the caller's data does not change, not to be kept (nothing that outlives a
 * render remembers an array, or a hash made here: see the runtime's instance memo).
 */
export function valuesFromJs(data: unknown): Value {
  return convert(data, RECORDS);
}

function convert(data: unknown, mode: Mode): Value {
  switch (typeof data) {
    case 'string':
    case 'boolean':
      return data;
    case 'number':
      // Whole numbers become Integers, except beyond 2^53, where a JavaScript number is no exact integer.
      // A safe integer is its own Integer (only -0 needs `integer`, which makes it 0).
      if (mode.numbersAreFloats || !Number.isSafeInteger(data)) return float(data);
      return data === 0 ? 0 : data;
    case 'bigint':
      return integer(data);
    case 'undefined':
      return undefined;
    case 'object':
      if (data === null) return undefined;
      // Plain objects first (the commonest data): no need to test for the value classes.
      if (Object.getPrototypeOf(data) === Object.prototype) {
        return mode.records ? recordForRender(data as Record<string, unknown>) : objectFromJs(data, mode);
      }
      if (Array.isArray(data)) return mode.records ? arrayForRender(data) : arrayFromJs(data, mode);
      if (data instanceof Map) {
        const out: PHash = new Map();
        for (const [k, v] of data) setEql(out, convert(k, mode), convert(v, mode));
        return out;
      }
      if (isValueObject(data)) return data as Value;
      return objectFromJs(data, mode);
    default:
      throw new TypeError(`cannot convert a JavaScript ${typeof data} to a Puppet value`);
  }
}

/**
 * An indexed loop: no callback per element (first renders convert fresh data, mostly unoptimised code);
 * `push` keeps the array packed (`new Array(n)` would make it holey, slower to read in every render).
 */
function arrayFromJs(data: readonly unknown[], mode: Mode): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < data.length; i++) out.push(convert(data[i], mode));
  return out;
}

/** Whether a JavaScript value is the Puppet value it converts to (then it is Data too). */
export function isPuppetAsIs(v: unknown): boolean {
  return (
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isSafeInteger(v) && !Object.is(v, -0))
  );
}

export function isArrayAsIs(data: readonly unknown[]): boolean {
  for (let i = 0; i < data.length; i++) if (!isPuppetAsIs(data[i])) return false;
  return true;
}

/** An array for a render: the array itself when its elements need no conversion. */
function arrayForRender(data: readonly unknown[]): Value[] {
  return isArrayAsIs(data) ? (data as Value[]) : arrayFromJs(data, RECORDS);
}

/**
 * An object for a render: a RecordHash of the object itself when its values need no conversion (arrays
 * included), else of a copy (`{...data}`, which V8 clones by shape) with the values that do converted. A
 * `for in` walk lists no keys; a plain object (or one without prototype) has no enumerable properties but
 * its own.
 */
function recordForRender(data: Record<string, unknown>): PHash {
  let index: Record<string, unknown> | undefined;
  let allData = true;
  for (const k in data) {
    const v = data[k];
    if (isPuppetAsIs(v) || (Array.isArray(v) && isArrayAsIs(v))) continue;
    index ??= { ...data };
    index[k] = convert(v, RECORDS);
    allData = false;
  }
  return recordHash((index ?? data) as HashIndex, allData);
}

function objectFromJs(data: object, mode: Mode): PHash {
  const record = data as Record<string, unknown>;
  if (mode.records) {
    if (Object.getPrototypeOf(record) === null) return recordForRender(record);
    // Another class's instance: its own enumerable keys, as fromJs takes them.
    const index: HashIndex = emptyIndex();
    for (const k of Object.keys(record)) index[k] = convert(record[k], mode);
    return recordHash(index, false);
  }
  // Object.keys and an indexed loop: the fastest walk over own keys (values are converted often).
  const keys = Object.keys(record);
  const out: PHash = new Map();
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    out.set(k, convert(record[k], mode));
  }
  return out;
}

function isValueObject(data: object): boolean {
  return (
    data instanceof PRegexp ||
    data instanceof PSensitive ||
    data instanceof PDefault ||
    data instanceof PTimeData ||
    data instanceof PIterator ||
    data instanceof PFloat ||
    data instanceof PBinary ||
    data instanceof PSymbol ||
    data instanceof PSemVer ||
    data instanceof PSemVerRange ||
    data instanceof PObject ||
    (data as { readonly isPuppetType?: boolean }).isPuppetType === true
  );
}

/**
 * Converts Puppet values back to plain JavaScript data: hashes become objects, Integers and Floats numbers
 * (an Integer beyond the safe range becomes its decimal string, as JavaScript has no exact number for it).
 */
export function toJs(v: Value): unknown {
  if (v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof PFloat) return v.value;
  if (Array.isArray(v)) return v.map(toJs);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, val] of v) out[typeof k === 'string' ? k : String(toJs(k))] = toJs(val);
    return out;
  }
  if (v instanceof PSensitive) return toJs(v.value);
  if (v instanceof PRegexp) return v.source;
  if (v instanceof PIterator) return [...v.elements()].map(toJs);
  return v;
}
