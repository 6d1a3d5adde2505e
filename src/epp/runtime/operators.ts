/**
 * Puppet's operators on values: arithmetic (Integer vs Float, 64-bit overflow, numeric strings), collection
 * arithmetic (`+`, `-`, `<<` on arrays and hashes), unary minus and splat. Numbers are numbers.ts's,
 * Timestamp and Timespan arithmetic time-arithmetic.ts's, the access operator access.ts's.
 *
 * Functions here throw `EppEvalError` without a location; the runtime adds the operator's position, or
 * its operand's for an `OperandError` (see `OperatorRuntime.operatorError`).
 */
import { EppEvalError } from '../errors.js';
import { operandLabel, rubyClassName, rubyEql, setEql } from './compare.js';
import {
  article,
  checkedInteger,
  divisionByZero,
  finiteFloat,
  notNumeric,
  numericFromString,
  OperandError,
} from './numbers.js';
import { checkCollectionSize } from './size-limits.js';
import { timeArithmetic } from './time-arithmetic.js';
import {
  bigOf,
  float,
  integer,
  isHash,
  isNumeric,
  numberOf,
  PBinary,
  PDefault,
  PFloat,
  type PHash,
  type PInteger,
  PIterator,
  PSemVer,
  PSemVerRange,
  PSymbol,
  PTimeData,
  PTimespan,
  type Value,
} from './values.js';

export { access } from './access.js';
export { checkedInteger, numericFromString, OperandError, typeLabel } from './numbers.js';

type Numeric = PInteger | PFloat;

/** An operand of arithmetic as Puppet's `coerce_numeric` takes it: a number, or a numeric string. */
function toNumber(v: Value, side: 'left' | 'right'): Numeric {
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PFloat) return v;
  const n = typeof v === 'string' ? numericFromString(v) : undefined;
  if (n === undefined) throw notNumeric(v, side);
  return n;
}

/** Puppet's error for a `=~` or `!~` whose left operand is no String ("... Got an Integer."). */
export function matchNotString(left: Value): OperandError {
  // Puppet labels `default` (a Ruby Symbol) by its class's ancestor, Object.
  const label = left instanceof PDefault || left instanceof PSymbol ? 'Object' : operandLabel(left);
  return new OperandError(
    'EPP_OPERATOR',
    `Left match operand must result in a String value. Got ${article(label)} ${label}.`,
    'left',
  );
}

/** Puppet's error for a `=~` whose right operand is no Regexp, String or Type: Ruby's `Regexp.new` refusing it. */
export function matchNotRegexp(right: Value): OperandError {
  // Ruby names nil, true and false themselves in an implicit conversion error, other values by class.
  const name =
    right === undefined ? 'nil' : typeof right === 'boolean' ? String(right) : rubyClassName(right);
  return new OperandError(
    'EPP_OPERATOR',
    `Can not convert right match operand to a regular expression. Caused by 'no implicit conversion of ${name} into String'.`,
    'right',
  );
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
      throw new OperandError('EPP_OPERATOR', `Operator '${op}' is not applicable to a Float.`, 'left');
  }
}

function numeric(op: string, a: Numeric, b: Numeric): Numeric {
  if (typeof a === 'number' && typeof b === 'number') return integerNumbers(op, a, b);
  if (op === '%' && !(a instanceof PFloat) && b instanceof PFloat) {
    throw new OperandError(
      'EPP_OPERATOR',
      `Operator '%' is not applicable to an Integer when right side is a Float.`,
      'left',
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
  // Puppet's `+` of two Binaries joins their bytes.
  if (op === '+' && a instanceof PBinary) {
    if (!(b instanceof PBinary)) {
      throw new OperandError('EPP_OPERATOR', 'Can only append Binary to a Binary', 'expression');
    }
    const joined = new Uint8Array(a.bytes.length + b.bytes.length);
    joined.set(a.bytes);
    joined.set(b.bytes, a.bytes.length);
    return PBinary.of(joined);
  }
  // A version is a Ruby Numeric that Puppet's arithmetic refuses by its class name.
  if (a instanceof PSemVer || a instanceof PSemVerRange) {
    throw new OperandError(
      'EPP_OPERATOR',
      `Operator '${op}' is not applicable to a ${operandLabel(a)}.`,
      'left',
    );
  }
  // `<<` on a Hash: Puppet's collection operators refuse it before any number is tried.
  if (op === '<<' && isHash(a)) {
    throw new OperandError('EPP_OPERATOR', "Operator '<<' is not applicable to a Hash.", 'left');
  }
  return numeric(op, toNumber(a, 'left'), toNumber(b, 'right'));
}

function hashPairs(h: PHash): Value[] {
  return [...h].map(([k, v]) => [k, v]);
}

function mergeHash(a: PHash, b: Value): PHash {
  const out: PHash = new Map(a);
  if (isHash(b)) {
    for (const [k, v] of b) setEql(out, k, v);
    return out;
  }
  if (Array.isArray(b)) {
    const pairs =
      b.length > 0 && b.every((x) => Array.isArray(x) && x.length === 2) ? (b as Value[][]) : chunkPairs(b);
    for (const [k, v] of pairs) setEql(out, k, v);
    return out;
  }
  // Ruby's ArgumentError in Puppet's `concatenate`, which its evaluator words as the expression's.
  throw new OperandError('EPP_OPERATOR', 'Can only append Array or Hash to a Hash', 'expression');
}

function chunkPairs(flat: Value[]): Value[][] {
  if (flat.length % 2 !== 0) {
    throw new OperandError('EPP_OPERATOR', 'odd number of arguments for Hash', 'expression');
  }
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
  // A version is a Ruby Numeric: Puppet's unary minus asks Ruby for its Float.
  if (v instanceof PSemVer || v instanceof PSemVerRange) {
    const kind = v instanceof PSemVer ? 'SemanticPuppet::Version' : 'SemanticPuppet::VersionRange';
    throw new EppEvalError(
      'EPP_OPERATOR',
      `Error while evaluating an Unary Minus, can't convert ${kind} into Float`,
    );
  }
  // Puppet's `coerce_numeric`, at the unary minus (where the runtime places its errors).
  throw new EppEvalError('EPP_OPERATOR', notNumeric(v, 'left').message);
}

/** Splat `*x`: arrays spread, hashes spread as pairs, undef as nothing. */
export function splat(v: Value): Value[] {
  if (Array.isArray(v)) return v;
  if (isHash(v)) return hashPairs(v);
  if (v instanceof PIterator) return [...v.elements()];
  if (v === undefined) return [];
  return [v];
}

/** Ruby's `==` on elements: as `eql?`, but an Integer equals the Float of the same value. */
function rubyEquals(a: Value, b: Value): boolean {
  if (isNumeric(a) && isNumeric(b)) return numberOf(a) === numberOf(b);
  return rubyEql(a, b);
}
