/**
 * Equality and ordering of Puppet values.
 *
 * Puppet has three different notions, and templates see all of them:
 * - the `==` / `!=` / `in` operators ({@link puppetEquals}): strings ignore (ASCII) case, `1 == 1.0`;
 * - the `<` family of operators ({@link compareForOperator}): strings ignore case too (`'B' < 'a'` is false),
 *   and values of different kinds are an error;
 * - Ruby's own `<=>` and `eql?` that `sort`, `min`, `max`, `unique` and hash keys use
 *   ({@link compareValues}, {@link rubyEql}): case-sensitive byte order, `1` and `1.0` distinct.
 */
import { EppEvalError } from '../errors.js';
import { formatFloat } from './format.js';
import { compareNanos, compareTimeWithNumber, timeToFloat } from './time.js';
import type { PType } from './types.js';
import {
  float,
  PBinary,
  PDefault,
  PFloat,
  type PHash,
  type PInteger,
  PObject,
  PRegexp,
  PSemVer,
  PSemVerRange,
  PSensitive,
  PSymbol,
  PTimeData,
  type Value,
} from './values.js';

function isType(v: Value): v is PType {
  return typeof v === 'object' && v !== null && (v as { isPuppetType?: boolean }).isPuppetType === true;
}

/** A UTF-16 unit mapped so that comparing units orders strings as UTF-8 bytes (code points) do. */
function unitRank(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/** Ruby's `String#<=>`: byte order (code point order), case-sensitive. */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitRank(x) < unitRank(y) ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function foldAscii(unit: number): number {
  return unit >= 65 && unit <= 90 ? unit + 32 : unit;
}

/** Ruby's `String#casecmp`: like {@link compareBytes} with ASCII letters folded (only those). */
export function compareIgnoreCase(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = foldAscii(a.charCodeAt(i));
    const y = foldAscii(b.charCodeAt(i));
    if (x !== y) return unitRank(x) < unitRank(y) ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function isNum(v: Value): v is PInteger | PFloat {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PFloat;
}

/** An Integer or a Float's value, for comparison (JavaScript compares bigint with number exactly). */
function plain(v: PInteger | PFloat): number | bigint {
  return v instanceof PFloat ? v.value : v;
}

/** Compares plain numbers and bigints exactly. */
function compareNumbers(a: bigint | number, b: bigint | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares an Integer/Float mix by value. */
function isNaNFloat(v: PInteger | PFloat): boolean {
  return v instanceof PFloat && Number.isNaN(v.value);
}

function compareNumeric(a: PInteger | PFloat, b: PInteger | PFloat): number {
  return compareNumbers(plain(a), plain(b));
}

/**
 * Ruby's `eql?`, the equality of hash keys and of `unique`: same kind and same value, strings case-sensitive,
 * `1` and `1.0` different, arrays and hashes deep.
 */
export function rubyEql(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!rubyEql(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      const other = hashLookup(b, k);
      if (!other.found || !rubyEql(v, other.value)) return false;
    }
    return true;
  }
  // Floats are interned (equal values are `===`), except 0.0 and -0.0, which Ruby's eql? holds equal.
  if (a instanceof PFloat) return b instanceof PFloat && a.value === b.value;
  if (a instanceof PRegexp) return b instanceof PRegexp && a.source === b.source;
  // A Timestamp or Timespan has Ruby's default `hash`: as a key it finds itself only (identical, above).
  // Puppet's Sensitive is equal to another holding an `eql?` value (its `==` compares their hashes).
  if (a instanceof PSensitive) return b instanceof PSensitive && rubyEql(a.value, b.value);
  if (a instanceof PBinary) return b instanceof PBinary && sameBytes(a.bytes, b.bytes);
  // Versions are interned (equal ones are `===`, above); ranges are equal by their simple ranges.
  if (a instanceof PSemVerRange) return b instanceof PSemVerRange && a.equals(b);
  // Ruby's `hash` of a Variant depends on its order: as hash keys (and for `unique`) types match by text.
  if (isType(a)) return isType(b) && a.toString() === b.toString();
  // Puppet's Object values are equal with equal types and attribute values (its generated `eql?`).
  if (a instanceof PObject) return b instanceof PObject && sameObject(a, b, rubyEql);
  return false;
}

function sameObject(a: PObject, b: PObject, same: (x: Value, y: Value) => boolean): boolean {
  if (a === b) return true;
  if (!a.type.equals(b.type)) return false;
  for (let i = 0; i < a.values.length; i++) if (!same(a.values[i], b.values[i])) return false;
  return true;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Ruby's `Hash#[]`: finds a key by {@link rubyEql} (a JavaScript Map alone finds arrays only by identity). */
export function hashLookup(hash: PHash, key: Value): { found: boolean; value: Value } {
  if (hash.has(key)) return { found: true, value: hash.get(key) };
  if (key instanceof PFloat) {
    // Only a zero has another equal Float (Map keys tell 0.0 from -0.0, Ruby does not).
    if (key.value !== 0) return { found: false, value: undefined };
    const other = float(-key.value);
    return hash.has(other) ? { found: true, value: hash.get(other) } : { found: false, value: undefined };
  }
  if (typeof key === 'object' && key !== null) {
    for (const [k, v] of hash) if (rubyEql(k, key)) return { found: true, value: v };
  }
  return { found: false, value: undefined };
}

/**
 * Ruby's `Hash#[]=` on a hash being built: a key `eql?` to one there (`[1]` and another `[1]`, `{a => 1}`
 * and `{a => 1}`) replaces that one's value, keeping its position and key object, as a Map does for
 * equal primitives only. Interned values (a non-zero Float, a Binary, a Symbol) are found by the Map.
 */
export function setEql(out: PHash, key: Value, value: Value): void {
  if (typeof key === 'object' && !out.has(key) && !interned(key)) {
    for (const k of out.keys()) {
      if (rubyEql(k, key)) {
        out.set(k, value);
        return;
      }
    }
  }
  out.set(key, value);
}

/**
 * A key a Map finds as Ruby would: one object per value while it lives (Floats but zero, which has two
 * equal to Ruby, 0.0 and -0.0).
 */
function interned(key: Value): boolean {
  return (
    (key instanceof PFloat && key.value !== 0) ||
    key instanceof PBinary ||
    key instanceof PSymbol ||
    key instanceof PSemVer
  );
}

/** Puppet's `==`: strings ignore ASCII case, numbers compare by value, arrays and hashes deeply. */
export function puppetEquals(a: Value, b: Value): boolean {
  // Integers are canonical: two equal Integers are `===` (a number and a bigint never are equal).
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (typeof a === 'string') return typeof b === 'string' && compareIgnoreCase(a, b) === 0;
  // A Timestamp or Timespan is a Ruby Numeric: `==` asks its `<=>`, with a number too (`Timestamp(5) == 5`).
  if (a instanceof PTimeData) return timeEquals(a, b);
  if (b instanceof PTimeData) return isNum(a) && timeEquals(b, a);
  // NaN (`0.0 / 0.0`) equals nothing, itself included, as Ruby's Float.
  if (isNum(a)) return isNum(b) && !isNaNFloat(a) && !isNaNFloat(b) && compareNumeric(a, b) === 0;
  if (a === undefined || b === undefined) return a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!puppetEquals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    // As Puppet: each key is looked up exactly (case-sensitive); a missing key reads as undef.
    for (const [k, v] of a) if (!puppetEquals(hashLookup(b, k).value, v)) return false;
    return true;
  }
  // Types are `==` as Puppet's `eql?` has them: a Variant's or a Pattern's members in any order.
  if (isType(a)) return isType(b) && a.equals(b);
  if (a instanceof PObject) return b instanceof PObject && sameObject(a, b, puppetEquals);
  return rubyEql(a, b);
}

/** TimeData's `==` (Comparable's, by its `<=>`): the same kind and time, or a number of its seconds. */
function timeEquals(t: PTimeData, b: Value): boolean {
  if (b instanceof PTimeData) return b.kind === t.kind && b.nanos === t.nanos;
  return isNum(b) && compareTimeWithNumber(t, b) === 0;
}

/** The Ruby class name `sort` and friends print in "comparison of X with Y failed" (and NoMethodErrors). */
export function rubyClassName(v: Value): string {
  if (v === undefined) return 'NilClass';
  if (v === true) return 'TrueClass';
  if (v === false) return 'FalseClass';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number' || typeof v === 'bigint') return 'Integer';
  if (v instanceof PFloat) return 'Float';
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Map) return 'Hash';
  if (v instanceof PRegexp) return 'Regexp';
  if (v instanceof PSensitive) return 'Puppet::Pops::Types::PSensitiveType::Sensitive';
  if (v instanceof PTimeData) return `Puppet::Pops::Time::${v.kind}`;
  if (v instanceof PDefault || v instanceof PSymbol) return 'Symbol';
  if (v instanceof PBinary) return 'Puppet::Pops::Types::PBinaryType::Binary';
  if (v instanceof PSemVer) return 'SemanticPuppet::Version';
  if (v instanceof PSemVerRange) return 'SemanticPuppet::VersionRange';
  if (v instanceof PObject) return v.type.typeName;
  return v.constructor.name;
}

/** Ruby names the right-hand value by its inspect form when it is an immediate (nil, true, numbers). */
function rubyOperandName(v: Value): string {
  if (v === undefined) return 'nil';
  if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PFloat) return formatFloat(v.value);
  return rubyClassName(v);
}

/**
 * Ruby's `<=>` as `sort`, `min` and `max` use it: numbers by value, strings by bytes (case-sensitive),
 * arrays element by element, timestamps by time. Anything else cannot be ordered: an `EPP_OPERATOR` error
 * worded as Ruby words it ("comparison of Integer with String failed").
 */
export function compareValues(a: Value, b: Value): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (isNum(a) && isNum(b)) return compareNumeric(a, b);
  if (typeof a === 'string' && typeof b === 'string') return compareBytes(a, b);
  if (Array.isArray(a) && Array.isArray(b)) return compareArrays(a, b);
  if (a instanceof PTimeData || b instanceof PTimeData) {
    const order = timeOrder(a, b);
    if (order !== undefined) return order;
  }
  if (a === b && (typeof a === 'boolean' || a === undefined)) return 0;
  if (a instanceof PSemVer && b instanceof PSemVer) return a.compare(b);
  throw comparisonFailed(a, b);
}

/**
 * Ruby's `<=>` with a TimeData on either side: two of a kind by their nanoseconds, with a number by its
 * seconds (TimeData's own `<=>`; a number on the left compares as Floats, Ruby's `Numeric#coerce`).
 * Undefined where Ruby's is nil.
 */
function timeOrder(a: Value, b: Value): number | undefined {
  if (a instanceof PTimeData) {
    if (b instanceof PTimeData) return a.kind === b.kind ? compareNanos(a.nanos, b.nanos) : undefined;
    return isNum(b) ? compareTimeWithNumber(a, b) : undefined;
  }
  if (b instanceof PTimeData && isNum(a)) {
    if (isNaNFloat(a)) return undefined;
    return compareNumbers(a instanceof PFloat ? a.value : Number(a), timeToFloat(b));
  }
  return undefined;
}

/**
 * Ruby's `Array#<=>`: element by element, then by length. Two elements that cannot be ordered make the
 * arrays unordered, so Ruby names the arrays ("comparison of Array with Array failed"), not the elements.
 */
function compareArrays(a: readonly Value[], b: readonly Value[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let c: number;
    try {
      c = compareValues(a[i], b[i]);
    } catch (e) {
      if (e instanceof EppEvalError && e.code === 'EPP_OPERATOR')
        throw comparisonFailed(a as Value, b as Value);
      throw e;
    }
    if (c !== 0) return c;
  }
  return compareNumbers(a.length, b.length);
}

/**
 * `==` with a type on the left, as Puppet's type calculator answers it: the same type, or two types each
 * assignable to the other (`Optional[String] == Variant[String, Undef]`, `Enum[a, b] == Enum[b, a]`).
 */
export function typesEqual(a: PType, b: Value): boolean {
  return isType(b) && (puppetEquals(a, b) || (a.isAssignable(b) && b.isAssignable(a)));
}

/**
 * A type on the left is ordered as Puppet's evaluator orders it: `A < B` when type B accepts every value of
 * A and A is not B (`Integer[1, 2] < Integer`), `A <= B` when B accepts every value of A; `>` and `>=` the
 * other way round. Not a total order, so the answer is the number `op`'s test wants: `< 0` for a true
 * `<`, and so on.
 */
function typeOrder(a: PType, b: Value, op: string): number {
  // A type compared with a value that is no type: no operator holds (Puppet's `Integer < 1` is false).
  if (!isType(b)) return op === '<' || op === '<=' ? 1 : -1;
  const same = typesEqual(a, b);
  switch (op) {
    case '<':
      return b.isAssignable(a) && !same ? -1 : 0;
    case '<=':
      return b.isAssignable(a) ? 0 : 1;
    case '>':
      return a.isAssignable(b) && !same ? 1 : 0;
    default:
      return a.isAssignable(b) ? 0 : -1;
  }
}

/** Ruby's error for values `<=>` cannot order: "comparison of Integer with String failed". */
export function comparisonFailed(a: Value, b: Value): EppEvalError {
  return new EppEvalError(
    'EPP_OPERATOR',
    `comparison of ${rubyClassName(a)} with ${rubyOperandName(b)} failed`,
  );
}

/** How Puppet names the kind of a value in operator errors ("Comparison of: Integer < String"). */
export function operandLabel(v: Value): string {
  if (v === undefined) return 'Undef Value';
  if (typeof v === 'boolean') return 'Boolean';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number' || typeof v === 'bigint') return 'Integer';
  if (v instanceof PFloat) return 'Float';
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Map) return 'Hash';
  if (v instanceof PRegexp) return 'Regexp';
  if (v instanceof PSensitive) return 'Sensitive';
  if (v instanceof PTimeData) return v.kind;
  if (v instanceof PDefault) return 'Default';
  if (v instanceof PBinary) return 'Binary';
  if (v instanceof PSymbol) return 'Object'; // a Ruby Symbol: Puppet's label of its class's ancestor
  // Puppet labels a value of a gem's class by the class's name, capitalized as a type name.
  if (v instanceof PSemVer) return 'Semver';
  if (v instanceof PSemVerRange) return 'SemverRange';
  if (v instanceof PObject) return 'Object';
  return `${v.toString()}-Type`;
}

function timeWithNumber(t: PTimeData, n: PInteger | PFloat, op: string): number {
  const order = compareTimeWithNumber(t, n);
  // Ruby's `<=>` with NaN is nil, which Puppet's comparison cannot order.
  if (order === undefined) throw notComparable(t, n, op, `comparison of ${t.kind} with Float failed`);
  return order;
}

function notComparable(a: Value, b: Value, op: string, detail: string): EppEvalError {
  return new EppEvalError(
    'EPP_OPERATOR',
    `Comparison of: ${operandLabel(a)} ${op} ${operandLabel(b)}, is not possible. Caused by '${detail}'.`,
  );
}

/**
 * Puppet's ordering for `<`, `<=`, `>`, `>=`, read by the caller as `op` reads it (`< 0` for `<`, ...).
 * Strings compare ignoring ASCII case, numbers by value, timestamps with timestamps and numbers, and a
 * type on the left by assignability ({@link typeOrder}). Other pairs throw `EPP_OPERATOR` with Puppet's
 * message; `op` is the operator to name in it.
 */
export function compareForOperator(a: Value, b: Value, op = '<'): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (isType(a)) return typeOrder(a, b, op);
  if (typeof a === 'string') {
    if (typeof b === 'string') return compareIgnoreCase(a, b);
    throw notComparable(a, b, op, 'A String is not comparable to a non String');
  }
  if (isNum(a)) {
    if (isNum(b)) return compareNumeric(a, b);
    // A TimeData is a Ruby Numeric, so Puppet's `a <=> b` runs: Ruby's `Numeric#coerce` compares both as
    // Floats (`3 < Timespan(3.5)` is true, where the Timespan's own `<=>` would compare whole seconds).
    if (b instanceof PTimeData) {
      const order = timeOrder(a, b);
      if (order === undefined) throw notComparable(a, b, op, `comparison of Float with ${b.kind} failed`);
      return order;
    }
    throw notComparable(a, b, op, 'A Numeric is not comparable to non Numeric');
  }
  if (a instanceof PTimeData) {
    if (b instanceof PTimeData && b.kind === a.kind) return compareNanos(a.nanos, b.nanos);
    if (isNum(b)) return timeWithNumber(a, b, op);
    throw notComparable(a, b, op, `${a.kind}s are only comparable to ${a.kind}s, Integers, and Floats`);
  }
  if (a instanceof PSemVer) {
    if (b instanceof PSemVer) return a.compare(b);
    throw notComparable(a, b, op, 'Versions not comparable to non Versions');
  }
  // A Ruby Symbol (a YAML `:foo`) has its own `<=>`, which Puppet's comparison reports.
  if (a instanceof PSymbol) throw notComparable(a, b, op, 'Symbol not comparable to non Symbol');
  throw notComparable(a, b, op, 'Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable');
}
