/**
 * Puppet's operators on values: arithmetic (Integer vs Float, 64-bit overflow, numeric strings), collection
 * arithmetic (`+`, `-`, `<<` on arrays and hashes), unary minus, `in`, and access (`$x[...]`).
 *
 * Functions here throw `EppEvalError` without a location; the runtime adds the operator's position.
 */
import { EppEvalError } from '../errors.js';
import { rubyToS } from '../functions/ruby-text.js';
import { characters, isSingleUnit } from './characters.js';
import { hashLookup, operandLabel, rubyClassName, rubyEql } from './compare.js';
import { checkCollectionSize } from './size-limits.js';
import { floorDiv, floorMod, nanosOfSeconds, rubyFdiv, timeToInteger } from './time.js';
import { inferGenericType, PType, parameterizeType } from './types.js';
import {
  bigOf,
  float,
  integer,
  isHash,
  isNumeric,
  MAX_INTEGER,
  MIN_INTEGER,
  numberOf,
  PDefault,
  PFloat,
  type PHash,
  type PInteger,
  PIterator,
  PRegexp,
  PSensitive,
  PTimeData,
  PTimespan,
  PTimestamp,
  type Value,
} from './values.js';

/**
 * The Integer of an exact result, or Puppet's overflow error outside the 64-bit range: in Puppet's words
 * for an operator (`A '+' expression resulted in a value outside of Puppet Integer max range, got
 * '+0x8000000000000000'`), else in Pantograph's.
 */
export function checkedInteger(n: bigint, op?: string): PInteger {
  if (n > MAX_INTEGER || n < MIN_INTEGER) {
    const message =
      op === undefined
        ? `integer overflow: ${n} is outside the 64-bit Integer range`
        : `A '${op}' expression resulted in a value outside of Puppet Integer ${n > 0n ? 'max' : 'min'} range, got '${n > 0n ? '+' : '-'}0x${(n > 0n ? n : -n).toString(16)}'`;
    throw new EppEvalError('EPP_INTEGER_OVERFLOW', message);
  }
  return integer(n);
}

/**
 * Puppet's `Patterns::NUMERIC`, what its arithmetic (`Utils.to_n`) accepts as a number: blanks (a tab or
 * a Unicode space separator, Ruby's `[[:blank:]]`) around the sign and the number, a hexadecimal,
 * decimal or leading-zero (octal) integer, or a float with `.digits` and/or an exponent (`e` with an
 * optional `-` only). Groups: 1 sign, 2 the number, 3 hexadecimal, 4 the integer part, 5 the float part.
 */
const NUMBER_PATTERN =
  /^[\t\p{Zs}]*([-+]?)[\t\p{Zs}]*((0[xX][0-9A-Fa-f]+)|(0?[0-9]+)((?:\.[0-9]+)?(?:[eE]-?[0-9]+)?))[\t\p{Zs}]*$/u;

/**
 * Converts a numeric string the way Puppet's arithmetic does (`Utils.to_n`): `'0x10'` is 16, `'017'` 15,
 * `' 1.5'` a Float, a leading `::` is ignored. Undefined when it is no number: no match, an integer part
 * that Ruby's `Integer()` refuses (`'09'`, `'08.5'`), zero to a power (`'0e5'`, `'0.0e1'`), or a float
 * beyond the Float range.
 */
export function numericFromString(text: string): PInteger | PFloat | undefined {
  const m = NUMBER_PATTERN.exec(text.startsWith('::') ? text.slice(2) : text);
  if (!m) return undefined;
  const negative = m[1] === '-';
  if (m[3]) return integer(negative ? -BigInt(m[3]) : BigInt(m[3]));
  const digits = m[4]!;
  const octal = digits.length > 1 && digits.charCodeAt(0) === 48;
  if (octal && !/^[0-7]+$/.test(digits)) return undefined;
  if (m[5]) {
    if (/^0+$/.test(digits) && /^\.?0*[eE]/.test(m[5])) return undefined;
    const value = Number(m[2]);
    if (value === Number.POSITIVE_INFINITY) return undefined;
    return float(negative ? -value : value);
  }
  if (octal) return integer(negative ? -BigInt(`0o${digits}`) : BigInt(`0o${digits}`));
  // Up to 15 digits is always a safe integer: no bigint needed.
  if (digits.length <= 15) return integer(negative ? -Number(digits) : Number(digits));
  return integer(negative ? -BigInt(digits) : BigInt(digits));
}

/** A short Puppet-style description of a value's type, for operator errors. */
export function typeLabel(v: Value): string {
  if (v === undefined) return 'Undef';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number' || typeof v === 'bigint') return 'Integer';
  if (v instanceof PFloat) return 'Float';
  if (typeof v === 'boolean') return 'Boolean';
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Map) return 'Hash';
  if (v instanceof PRegexp) return 'Regexp';
  if (v instanceof PSensitive) return 'Sensitive';
  if (v instanceof PType) return 'Type';
  if (v instanceof PTimeData) return v.kind;
  // Puppet names an Iterator by its Ruby class's Puppet type: `Operator '[]' is not applicable to an Object.`
  if (v instanceof PIterator) return 'Object';
  return 'Default';
}

type Numeric = PInteger | PFloat;

function toNumber(v: Value, op: string, side: 'left' | 'right'): Numeric {
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PFloat) return v;
  if (typeof v === 'string') {
    const n = numericFromString(v);
    if (n !== undefined) return n;
    throw new EppEvalError('EPP_OPERATOR', `The value '${v}' cannot be converted to Numeric.`);
  }
  throw new EppEvalError(
    'EPP_OPERATOR',
    `Operator '${op}' is not applicable to ${article(typeLabel(v))} ${typeLabel(v)}${side === 'right' ? ' (right operand)' : ''}.`,
  );
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? 'an' : 'a';
}

/** Puppet's error for a `=~` or `!~` whose left operand is no String ("... Got an Integer."). */
export function matchNotString(left: Value): EppEvalError {
  // Puppet labels `default` (a Ruby Symbol) by its class's ancestor, Object.
  const label = left instanceof PDefault ? 'Object' : operandLabel(left);
  return new EppEvalError(
    'EPP_OPERATOR',
    `Left match operand must result in a String value. Got ${article(label)} ${label}.`,
  );
}

/** Puppet's error for a `=~` whose right operand is no Regexp, String or Type: Ruby's `Regexp.new` refusing it. */
export function matchNotRegexp(right: Value): EppEvalError {
  // Ruby names nil, true and false themselves in an implicit conversion error, other values by class.
  const name =
    right === undefined ? 'nil' : typeof right === 'boolean' ? String(right) : rubyClassName(right);
  return new EppEvalError(
    'EPP_OPERATOR',
    `Can not convert right match operand to a regular expression. Caused by 'no implicit conversion of ${name} into String'.`,
  );
}

/** Puppet's `coerce_numeric` of an operand of TimeData arithmetic: a number, a numeric string, or TimeData. */
function timeOperand(v: Value): PInteger | PFloat | PTimeData {
  if (isNumeric(v) || v instanceof PTimeData) return v;
  const n = typeof v === 'string' ? numericFromString(v) : undefined;
  if (n === undefined) {
    throw new EppEvalError('EPP_OPERATOR', `The value '${rubyToS(v)}' cannot be converted to Numeric.`);
  }
  return n;
}

function notApplicableWhen(op: string, a: Value, b: Value): EppEvalError {
  const left = typeLabel(a);
  const right = typeLabel(b);
  return new EppEvalError(
    'EPP_OPERATOR',
    `Operator '${op}' is not applicable to ${article(left)} ${left} when right side is ${article(right)} ${right}.`,
  );
}

/** `a` or `an` and the kind of a TimeData (Ruby's `a_an`), capitalised for the start of a message. */
function aKind(t: PTimeData, capital = false): string {
  return `${capital ? 'A' : 'a'} ${t.kind}`;
}

/**
 * Arithmetic with a Timestamp or Timespan on either side, as Puppet's evaluator (`calculate`) and
 * timestamp.rb / timespan.rb do it: a Timestamp plus or minus seconds or a Timespan is a Timestamp, one
 * Timestamp minus another a Timespan; a Timespan adds, subtracts, multiplies and divides with numbers and
 * Timespans. Seconds become nanoseconds as `(seconds * NSECS_PER_SEC).to_i`.
 */
function timeArithmetic(op: string, a0: Value, b0: Value): Value {
  let a = timeOperand(a0);
  let b = timeOperand(b0);
  if (op === '%' && (a instanceof PFloat || b instanceof PFloat)) {
    if (a instanceof PFloat)
      throw new EppEvalError('EPP_OPERATOR', `Operator '%' is not applicable to a Float.`);
    throw notApplicableWhen(op, a, b);
  }
  if (b instanceof PTimeData && !(a instanceof PTimeData)) {
    if (op === '+' || (op === '*' && b.kind === 'Timespan')) [a, b] = [b, a];
    else if (op === '-' && b.kind === 'Timespan') a = new PTimespan(nanosOfSeconds(a));
    else throw notApplicableWhen(op, a, b);
  }
  const t = a as PTimeData;
  const notApplicable = () =>
    new EppEvalError('EPP_OPERATOR', `Operator '${op}' is not applicable to ${aKind(t)}.`);
  const nanos = (o: PInteger | PFloat) => nanosOfSeconds(o);
  if (t instanceof PTimestamp) {
    if (op === '+') {
      if (b instanceof PTimespan) return new PTimestamp(t.nanos + b.nanos);
      if (b instanceof PTimeData)
        throw new EppEvalError('EPP_OPERATOR', `${aKind(b, true)} cannot be added to a Timestamp`);
      return new PTimestamp(t.nanos + nanos(b));
    }
    if (op === '-') {
      if (b instanceof PTimestamp) return new PTimespan(t.nanos - b.nanos);
      if (b instanceof PTimespan) return new PTimestamp(t.nanos - b.nanos);
      return new PTimestamp(t.nanos - nanos(b as PInteger | PFloat));
    }
    throw notApplicable();
  }
  switch (op) {
    case '+':
      if (b instanceof PTimestamp) return new PTimestamp(t.nanos + b.nanos);
      return new PTimespan(t.nanos + (b instanceof PTimeData ? b.nanos : nanos(b)));
    case '-':
      if (b instanceof PTimespan) return new PTimespan(t.nanos - b.nanos);
      if (b instanceof PTimeData) {
        throw new EppEvalError('EPP_OPERATOR', `${aKind(b, true)} cannot be subtracted from a Timespan`);
      }
      return new PTimespan(t.nanos - nanos(b));
    case '*':
      // Puppet's own words name a Timestamp here, whatever is multiplied.
      if (b instanceof PTimeData)
        throw new EppEvalError('EPP_OPERATOR', `A Timestamp cannot be multiplied by ${aKind(b)}`);
      if (b instanceof PFloat) {
        const product = Number(t.nanos) * b.value;
        if (!Number.isFinite(product))
          throw new EppEvalError('EPP_FLOAT_OVERFLOW', 'The result of the * expression is Infinity');
        return new PTimespan(BigInt(Math.trunc(product)));
      }
      return new PTimespan(t.nanos * bigOf(b));
    case '/':
      if (b instanceof PTimespan) return finiteFloat('/', rubyFdiv(t.nanos, b.nanos));
      if (b instanceof PTimeData)
        throw new EppEvalError('EPP_OPERATOR', `A Timespan cannot be divided by ${aKind(b)}`);
      if (b instanceof PFloat) {
        // Ruby's `Integer#div(Float)`: the quotient as a Float, rounded down.
        if (b.value === 0) throw divisionByZero();
        const q = Math.floor(Number(t.nanos) / b.value);
        if (!Number.isFinite(q))
          throw new EppEvalError('EPP_FLOAT_OVERFLOW', 'The result of the / expression is Infinity');
        return new PTimespan(BigInt(q));
      }
      if (bigOf(b) === 0n) throw divisionByZero();
      return new PTimespan(floorDiv(t.nanos, bigOf(b)));
    case '%':
      if (b instanceof PTimeData) {
        // Puppet's words, their article doubled (`a_an` already gives one).
        throw new EppEvalError('EPP_OPERATOR', `Can not do modulus on a Timespan using a ${aKind(b)}`);
      }
      if (bigOf(b as PInteger) === 0n) throw divisionByZero();
      return checkedInteger(floorMod(timeToInteger(t), bigOf(b as PInteger)));
    default:
      throw notApplicable();
  }
}

/** An Integer divided by 0 (`/` or `%`), in Puppet's words. */
function divisionByZero(): EppEvalError {
  return new EppEvalError('EPP_DIVISION_BY_ZERO', 'Division by 0');
}

/**
 * Integer arithmetic on two safe integers: plain JavaScript math, exact as long as the result is a safe
 * integer (a product beyond 2^53 is never one, so the check is exact); otherwise the bigint path.
 */
function integerNumbers(op: string, a: number, b: number): PInteger {
  switch (op) {
    case '+': {
      const r = a + b;
      return Number.isSafeInteger(r) ? r : checkedInteger(BigInt(a) + BigInt(b), op);
    }
    case '-': {
      const r = a - b;
      return Number.isSafeInteger(r) ? r : checkedInteger(BigInt(a) - BigInt(b), op);
    }
    case '*': {
      const r = a * b;
      // `+ 0` turns the -0 of `-3 * 0` into 0 (Integers have no -0).
      return Number.isSafeInteger(r) ? r + 0 : checkedInteger(BigInt(a) * BigInt(b), op);
    }
    case '/': {
      if (b === 0) throw divisionByZero();
      // Ruby floors; `a - m` is an exact multiple of b, so the quotient is exact (no Math.floor(a / b)).
      const m = a % b;
      const q = (a - m) / b;
      return (m !== 0 && m < 0 !== b < 0 ? q - 1 : q) + 0;
    }
    case '%': {
      if (b === 0) throw divisionByZero();
      const m = a % b;
      return (m !== 0 && m < 0 !== b < 0 ? m + b : m) + 0;
    }
    default:
      return integerBigints(op, BigInt(a), BigInt(b));
  }
}

/** Exact Integer arithmetic (operands beyond the safe range, and shifts). */
function integerBigints(op: string, a: bigint, b: bigint): PInteger {
  switch (op) {
    case '+':
      return checkedInteger(a + b, op);
    case '-':
      return checkedInteger(a - b, op);
    case '*':
      return checkedInteger(a * b, op);
    case '/': {
      if (b === 0n) throw divisionByZero();
      // Ruby floors integer division.
      let q = a / b;
      if (a % b !== 0n && a < 0n !== b < 0n) q -= 1n;
      return checkedInteger(q);
    }
    case '%': {
      if (b === 0n) throw divisionByZero();
      const r = a % b;
      return integer(r !== 0n && r < 0n !== b < 0n ? r + b : r);
    }
    case '<<':
      return shift(a, b, op);
    case '>>':
      return shift(a, -b, op);
    default:
      throw new EppEvalError('EPP_OPERATOR', `Unknown operator '${op}'`);
  }
}

function floats(op: string, x: number, y: number): PFloat {
  switch (op) {
    case '+':
      return finiteFloat(op, x + y);
    case '-':
      return finiteFloat(op, x - y);
    case '*':
      return finiteFloat(op, x * y);
    case '/':
      // As Ruby divides Floats: by 0 the result is Infinity, which Puppet refuses, or NaN (`0.0 / 0.0`).
      return finiteFloat(op, x / y);
    default:
      throw new EppEvalError('EPP_OPERATOR', `Operator '${op}' is not applicable to a Float.`);
  }
}

/** A Float result, or Puppet's error when it overflowed to Infinity (Puppet has no infinite Float). */
function finiteFloat(op: string, result: number): PFloat {
  if (result === Number.POSITIVE_INFINITY || result === Number.NEGATIVE_INFINITY) {
    throw new EppEvalError('EPP_FLOAT_OVERFLOW', `The result of the ${op} expression is Infinity`);
  }
  return float(result);
}

function numeric(op: string, a: Numeric, b: Numeric): Numeric {
  if (typeof a === 'number' && typeof b === 'number') return integerNumbers(op, a, b);
  if (op === '%' && !(a instanceof PFloat) && b instanceof PFloat) {
    throw new EppEvalError(
      'EPP_OPERATOR',
      `Operator '%' is not applicable to an Integer when right side is a Float.`,
    );
  }
  if (a instanceof PFloat || b instanceof PFloat) return floats(op, numberOf(a), numberOf(b));
  return integerBigints(op, bigOf(a), bigOf(b));
}

/** `a << n` (negative n shifts right), bounded so a huge shift never builds a huge BigInt. */
function shift(a: bigint, n: bigint, op: string): PInteger {
  if (n <= -64n) return a < 0n ? -1 : 0;
  // The error names the value the shift makes (Puppet's Ruby computes it): up to a bound, then 2^64.
  if (n >= 64n)
    return a === 0n ? 0 : checkedInteger(n <= 4096n ? a << n : a < 0n ? -(1n << 64n) : 1n << 64n, op);
  return checkedInteger(n >= 0n ? a << n : a >> -n, op);
}

/** `a OP b` for `+ - * / % << >>`. */
export function arithmetic(op: string, a: Value, b: Value): Value {
  // The hot path (every `+` of a template): two Integers as numbers.
  if (typeof a === 'number' && typeof b === 'number') return integerNumbers(op, a, b);
  // A Timestamp or Timespan (Puppet's TimeData) on the left, or on the right of anything but a collection.
  if (a instanceof PTimeData || (b instanceof PTimeData && !Array.isArray(a) && !isHash(a))) {
    return timeArithmetic(op, a, b);
  }
  if (Array.isArray(a)) {
    if (op === '+') {
      checkCollectionSize(a.length + (Array.isArray(b) ? b.length : isHash(b) ? b.size : 1), 'an Array');
      // concat allocates the result once, at its size, where a spread may grow it step by step: near the
      // cap, the copies of a growing array tipped a worker of 96 MB over its heap limit (V8 aborts then).
      return a.concat(Array.isArray(b) ? b : isHash(b) ? hashPairs(b) : [b]);
    }
    if (op === '-') {
      // Puppet deletes each with Ruby's Array#delete: `==`, strings with their case, numbers by value.
      const remove = Array.isArray(b) ? b : isHash(b) ? hashPairs(b) : [b];
      return a.filter((x) => !remove.some((r) => rubyEquals(x, r)));
    }
    if (op === '<<') {
      checkCollectionSize(a.length + 1, 'an Array');
      return a.concat([b]);
    }
  }
  if (isHash(a)) {
    if (op === '+') {
      checkCollectionSize(a.size + (isHash(b) ? b.size : Array.isArray(b) ? b.length / 2 : 0), 'a Hash');
      return mergeHash(a, b);
    }
    if (op === '-') {
      const out: PHash = new Map(a);
      const keys = isHash(b) ? [...b.keys()] : Array.isArray(b) ? b : [b];
      // Puppet deletes each key with Ruby's Hash#delete: keys equal by `eql?` (1 is not 1.0).
      for (const k of keys) {
        for (const existing of out.keys()) if (rubyEql(existing, k)) out.delete(existing);
      }
      return out;
    }
  }
  return numeric(op, toNumber(a, op, 'left'), toNumber(b, op, 'right'));
}

function hashPairs(h: PHash): Value[] {
  return [...h].map(([k, v]) => [k, v]);
}

function mergeHash(a: PHash, b: Value): PHash {
  const out: PHash = new Map(a);
  if (isHash(b)) {
    for (const [k, v] of b) out.set(k, v);
    return out;
  }
  if (Array.isArray(b)) {
    const pairs =
      b.length > 0 && b.every((x) => Array.isArray(x) && x.length === 2) ? (b as Value[][]) : chunkPairs(b);
    for (const [k, v] of pairs) out.set(k, v);
    return out;
  }
  throw new EppEvalError(
    'EPP_OPERATOR',
    `Operator '+' is not applicable to a Hash and ${article(typeLabel(b))} ${typeLabel(b)}.`,
  );
}

function chunkPairs(flat: Value[]): Value[][] {
  if (flat.length % 2 !== 0) throw new EppEvalError('EPP_OPERATOR', 'odd number of arguments for Hash');
  const pairs: Value[][] = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  return pairs;
}

export function negate(v: Value): Value {
  if (typeof v === 'number') return v === 0 ? 0 : -v; // a safe integer's negation is safe; no -0
  if (v instanceof PTimespan) return new PTimespan(-v.nanos);
  if (typeof v === 'bigint') return checkedInteger(-v);
  if (v instanceof PFloat) return float(-v.value);
  if (typeof v === 'string') {
    const n = numericFromString(v);
    if (n !== undefined) return negate(n);
  }
  throw new EppEvalError(
    'EPP_OPERATOR',
    `Operator '-' is not applicable to ${article(typeLabel(v))} ${typeLabel(v)}.`,
  );
}

/** Splat `*x`: arrays spread, hashes spread as pairs, undef as nothing. */
export function splat(v: Value): Value[] {
  if (Array.isArray(v)) return v;
  if (isHash(v)) return hashPairs(v);
  if (v instanceof PIterator) return [...v.elements()];
  if (v === undefined) return [];
  return [v];
}

// ---------------------------------------------------------------- access

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
  if (target instanceof PType) return parameterizeType(target, keys);
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

/** Ruby's `==` on elements: as `eql?`, but an Integer equals the Float of the same value. */
function rubyEquals(a: Value, b: Value): boolean {
  if (isNumeric(a) && isNumeric(b)) return numberOf(a) === numberOf(b);
  return rubyEql(a, b);
}
