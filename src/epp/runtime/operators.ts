/**
 * Puppet's operators on values: arithmetic (Integer vs Float, 64-bit overflow, numeric strings), collection
 * arithmetic (`+`, `-`, `<<` on arrays and hashes), unary minus, `in`, and access (`$x[...]`).
 *
 * Functions here throw `EppEvalError` without a location; the runtime adds the operator's position.
 */
import { EppEvalError } from '../errors.js';
import { hashLookup, puppetEquals } from './compare.js';
import { PType, parameterizeType } from './types.js';
import { isHash, MAX_INTEGER, MIN_INTEGER, type PHash, PRegexp, PSensitive, type Value } from './values.js';

export function checkInteger(n: bigint): bigint {
  if (n > MAX_INTEGER || n < MIN_INTEGER) {
    throw new EppEvalError(
      'EPP_INTEGER_OVERFLOW',
      `integer overflow: ${n} is outside the 64-bit Integer range`,
    );
  }
  return n;
}

const NUMBER_PATTERN =
  /^([-+]?)(?:(0[xX][0-9a-fA-F]+)|(0[0-7]*)|([1-9][0-9]*)|((?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?))$/;

/** Converts a numeric string the way Puppet's arithmetic does (`'0x10'` is 16, `'1.5'` a Float). */
export function numericFromString(s: string): bigint | number | undefined {
  const m = NUMBER_PATTERN.exec(s);
  if (!m) return undefined;
  const negative = m[1] === '-';
  let n: bigint | number;
  if (m[2]) n = BigInt(m[2]);
  else if (m[3]) n = m[3].length > 1 ? BigInt(`0o${m[3].slice(1)}`) : 0n;
  else if (m[4]) n = BigInt(m[4]);
  else n = Number(m[5]);
  if (typeof n === 'bigint') return negative ? -n : n;
  return negative ? -n : n;
}

/** A short Puppet-style description of a value's type, for operator errors. */
export function typeLabel(v: Value): string {
  if (v === undefined) return 'Undef';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'bigint') return 'Integer';
  if (typeof v === 'number') return 'Float';
  if (typeof v === 'boolean') return 'Boolean';
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Map) return 'Hash';
  if (v instanceof PRegexp) return 'Regexp';
  if (v instanceof PSensitive) return 'Sensitive';
  if (v instanceof PType) return 'Type';
  return 'Default';
}

function toNumber(v: Value, op: string, side: 'left' | 'right'): bigint | number {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = numericFromString(v);
    if (n !== undefined) return n;
    throw new EppEvalError('EPP_OPERATOR', `The string '${v}' cannot be converted to Numeric`);
  }
  throw new EppEvalError(
    'EPP_OPERATOR',
    `Operator '${op}' is not applicable to ${article(typeLabel(v))} ${typeLabel(v)}${side === 'right' ? ' (right operand)' : ''}.`,
  );
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? 'an' : 'a';
}

function numeric(op: string, a: bigint | number, b: bigint | number): bigint | number {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '+':
        return checkInteger(a + b);
      case '-':
        return checkInteger(a - b);
      case '*':
        return checkInteger(a * b);
      case '/': {
        if (b === 0n) throw new EppEvalError('EPP_DIVISION_BY_ZERO', 'divided by 0');
        // Ruby floors integer division.
        let q = a / b;
        if (a % b !== 0n && a < 0n !== b < 0n) q -= 1n;
        return checkInteger(q);
      }
      case '%': {
        if (b === 0n) throw new EppEvalError('EPP_DIVISION_BY_ZERO', 'divided by 0');
        const r = a % b;
        return r !== 0n && r < 0n !== b < 0n ? r + b : r;
      }
      case '<<':
        return shift(a, b);
      case '>>':
        return shift(a, -b);
    }
  }
  if (op === '%' || op === '<<' || op === '>>') {
    throw new EppEvalError('EPP_OPERATOR', `Operator '${op}' is not applicable to a Float.`);
  }
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    default: {
      if (y === 0) throw new EppEvalError('EPP_DIVISION_BY_ZERO', 'divided by 0');
      return x / y;
    }
  }
}

/** `a << n` (negative n shifts right), bounded so a huge shift never builds a huge BigInt. */
function shift(a: bigint, n: bigint): bigint {
  if (n <= -64n) return a < 0n ? -1n : 0n;
  if (n >= 64n) return a === 0n ? 0n : checkInteger(a < 0n ? MIN_INTEGER - 1n : MAX_INTEGER + 1n);
  return checkInteger(n >= 0n ? a << n : a >> -n);
}

/** `a OP b` for `+ - * / % << >>`. */
export function arithmetic(op: string, a: Value, b: Value): Value {
  if (Array.isArray(a)) {
    if (op === '+') return Array.isArray(b) ? [...a, ...b] : isHash(b) ? [...a, ...hashPairs(b)] : [...a, b];
    if (op === '-') {
      const remove = Array.isArray(b) ? b : isHash(b) ? hashPairs(b) : [b];
      return a.filter((x) => !remove.some((r) => puppetEquals(x, r)));
    }
    if (op === '<<') return [...a, b];
  }
  if (isHash(a)) {
    if (op === '+') return mergeHash(a, b);
    if (op === '-') {
      const out: PHash = new Map(a);
      const keys = isHash(b) ? [...b.keys()] : Array.isArray(b) ? b : [b];
      for (const k of keys) {
        for (const existing of out.keys())
          if (puppetEquals(existing, k) && typeof existing === typeof k) out.delete(existing);
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
  if (typeof v === 'bigint') return checkInteger(-v);
  if (typeof v === 'number') return -v;
  if (typeof v === 'string') {
    const n = numericFromString(v);
    if (n !== undefined) return typeof n === 'bigint' ? checkInteger(-n) : -n;
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
  if (v === undefined) return [];
  return [v];
}

// ---------------------------------------------------------------- access

/** `target[keys...]`. */
export function access(target: Value, keys: Value[]): Value {
  if (typeof target === 'string') return accessString(target, keys);
  if (Array.isArray(target)) return accessArray(target, keys);
  if (isHash(target)) {
    if (keys.length === 1) {
      const key = keys[0];
      // Scalar keys are found by the Map itself; only arrays and hashes as keys need a deep search.
      return typeof key === 'object' && key !== null ? hashLookup(target, key).value : target.get(key);
    }
    const out: Value[] = [];
    for (const k of keys) {
      const found = hashLookup(target, k);
      if (found.found) out.push(found.value);
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

function indexArgument(v: Value, what: string): number {
  if (typeof v !== 'bigint') {
    throw new EppEvalError('EPP_ACCESS', `${what} index must be an Integer, got ${typeLabel(v)}`);
  }
  return Number(v);
}

/** Resolves `[start, count]` the way Ruby's `Array#[]` does (negative start counts from the end). */
function range(length: number, keys: Value[], what: string): { start: number; count: number } | undefined {
  if (keys.length < 1 || keys.length > 2) {
    throw new EppEvalError('EPP_ACCESS', `${what} supports [] with one or two arguments, got ${keys.length}`);
  }
  let start = indexArgument(keys[0], what);
  if (start < 0) start += length;
  if (keys.length === 1) return start < 0 || start >= length ? undefined : { start, count: 1 };
  let count = indexArgument(keys[1], what);
  if (start < 0 || start > length) return undefined;
  // A negative count means "up to that position from the end" (Puppet's extension of Ruby's semantics).
  if (count < 0) count = Math.max(0, length + count + 1 - start);
  return { start, count: Math.min(count, length - start) };
}

function accessString(s: string, keys: Value[]): Value {
  const chars = [...s];
  const r = range(chars.length, keys, 'String');
  if (!r) return keys.length === 1 ? undefined : '';
  return chars.slice(r.start, r.start + r.count).join('');
}

function accessArray(a: Value[], keys: Value[]): Value {
  const r = range(a.length, keys, 'Array');
  if (keys.length === 1) return r ? a[r.start] : undefined;
  if (!r) return [];
  return a.slice(r.start, r.start + r.count);
}
