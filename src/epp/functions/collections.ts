/**
 * Functions on collections and numbers: keys, values, join, flatten, unique, length, size, empty, dig, get,
 * group_by, abs, round, floor, ceiling (sort, min, max and compare are in ordering.ts).
 *
 * Several of them are thin Ruby methods in Puppet (`join` is `Array#join`, `sort` is `Array#sort`), so they
 * follow Ruby rather than Puppet rules: `sort`, `min`, `max` and `unique` are case-sensitive, and `join`
 * prints elements with Ruby's `to_s` ({@link rubyToS}), not the way `<%= %>` prints them.
 */
import { EppEvalError } from '../errors.js';
import { characterCount } from '../runtime/characters.js';
import { hashLookup, rubyEql } from '../runtime/compare.js';
import { formatFloat } from '../runtime/format.js';
import { MAX_STRING_LENGTH, textTooLong } from '../runtime/size-limits.js';
import { checkTextLength } from '../runtime/text-size.js';
import { inferType, type PType, variantOf } from '../runtime/types.js';
import {
  float,
  integer,
  isInteger,
  isNumeric,
  PBinary,
  PFloat,
  type PHash,
  type PInteger,
  PSensitive,
  type Value,
} from '../runtime/values.js';
import { argumentMismatch, puppetType, warnOnce } from './arguments.js';
import { blockArity } from './block-arity.js';
import { typeOf } from './conversion/dispatch.js';
import { flattenDeep } from './flatten.js';
import { visitCollection, withDispatches } from './iteration.js';
import { type CallContext, defineFunction, type FunctionDef, type Lambda } from './registry.js';
import { rubyInspect, rubyToS } from './ruby-text.js';
import { sequenceOf } from './sequences.js';

// ---------------------------------------------------------------------------------------------------------
// Argument checks and deprecation warnings

/** A wrong argument, worded by Puppet's mismatch describer against the type named by `expected`. */
function mismatch(fn: string, param: string, expected: string, v: Value): EppEvalError {
  return argumentMismatch(fn, param, EXPECTED_TYPES[expected]?.() ?? puppetType(expected), v);
}

/** Made on first use (a one-shot render's import allocates nothing for a message's types). */
const EXPECTED_TYPES: Record<string, () => PType> = {
  'Optional[Collection]': typeOf('Optional', typeOf('Collection')),
  // abs, floor and ceiling have a dispatch for Numeric and one for String: Puppet names both.
  'Numeric or String': typeOf('Variant', typeOf('Numeric'), typeOf('String')),
};

function hashArg(fn: string, v: Value): PHash {
  if (v instanceof Map) return v;
  throw mismatch(fn, 'hsh', 'Hash', v);
}

// ---------------------------------------------------------------------------------------------------------
// keys, values, join, flatten

const keys = defineFunction('keys', 1, 1, (_ctx, args) => [...hashArg('keys', args[0]).keys()]);
const values = defineFunction('values', 1, 1, (_ctx, args) => [...hashArg('values', args[0]).values()]);

function joinInto(out: string[], items: readonly Value[], seen: Set<Value>): void {
  for (const item of items) {
    if (Array.isArray(item)) {
      if (seen.has(item)) throw new EppEvalError('EPP_ARGUMENTS', 'recursive array join');
      seen.add(item);
      joinInto(out, item, seen);
      seen.delete(item);
    } else out.push(rubyToS(item));
  }
}

function allStrings(items: readonly Value[]): items is string[] {
  for (let i = 0; i < items.length; i++) if (typeof items[i] !== 'string') return false;
  return true;
}

const join = defineFunction('join', 1, 2, (_ctx, args) => {
  const arr = args[0];
  const delimiter = args.length > 1 ? args[1] : '';
  if (!Array.isArray(arr)) throw mismatch('join', 'arg', 'Array', arr);
  if (typeof delimiter !== 'string') throw mismatch('join', 'delimiter', 'String', delimiter);
  // The common array of strings joins directly (no copy, no set of visited arrays); for the short arrays
  // of templates, concatenation is several times faster than Array.prototype.join.
  if (allStrings(arr)) {
    let s = arr.length > 0 ? arr[0]! : '';
    for (let i = 1; i < arr.length; i++) {
      s += delimiter + arr[i];
      // Bounded as it grows: the pieces of a long text take more memory than its characters.
      if (s.length > MAX_STRING_LENGTH) throw textTooLong('the joined text');
    }
    return s;
  }
  // Ruby's Array#join: nested arrays are joined in place, undef prints empty.
  checkTextLength(arr, 'the joined text');
  const out: string[] = [];
  joinInto(out, arr, new Set());
  return out.join(delimiter);
});

const flatten = defineFunction('flatten', 0, Number.POSITIVE_INFINITY, (_ctx, args) => flattenDeep(args));

// ---------------------------------------------------------------------------------------------------------
// unique, sort

/** Ruby's `uniq`: first occurrence wins, compared by `eql?` of the element (or of the block's answer). */
function uniqueBy(items: readonly Value[], keyOf: (v: Value) => Value): Value[] {
  const primitives = new Set<Value>();
  const objects: Value[] = [];
  const out: Value[] = [];
  for (const item of items) {
    const key = keyOf(item);
    // Floats are interned (one object per value), so they are found in the set like Integers.
    if (typeof key === 'object' && !(key instanceof PFloat)) {
      if (objects.some((o) => rubyEql(o, key))) continue;
      objects.push(key);
    } else {
      if (primitives.has(key)) continue;
      primitives.add(key);
    }
    out.push(item);
  }
  return out;
}

/** unique() on a hash: values that repeat are merged, keyed by the array of their keys (as Puppet does). */
function uniqueHash(hash: PHash, keyOf: (v: Value) => Value): PHash {
  const groups: { key: Value; keys: Value[]; values: Value[] }[] = [];
  for (const [k, v] of hash) {
    const key = keyOf(v);
    let group = groups.find((g) => rubyEql(g.key, key));
    if (!group) {
      group = { key, keys: [], values: [] };
      groups.push(group);
    }
    group.keys.push(k);
    group.values.push(v);
  }
  const out: PHash = new Map();
  for (const g of groups)
    out.set(
      g.keys,
      uniqueBy(g.values, (v) => v),
    );
  return out;
}

const unique = defineFunction(
  'unique',
  1,
  1,
  (_ctx, args, block) => {
    const v = args[0];
    if (block) blockArity('unique', block, 1);
    const keyOf = block ? (x: Value) => block(x) : (x: Value) => x;
    if (typeof v === 'string') return (uniqueBy(Array.from(v), keyOf) as string[]).join('');
    if (v instanceof Map) return uniqueHash(v, keyOf);
    if (Array.isArray(v)) return uniqueBy(v, keyOf);
    return uniqueBy([...sequenceOf('unique', v, 1, block).forward()], keyOf);
  },
  'optional',
);

// ---------------------------------------------------------------------------------------------------------
// length, size, empty

function lengthOf(fn: string, v: Value): number {
  if (typeof v === 'string') return characterCount(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (v instanceof PBinary) return v.bytes.length;
  // Through the describer, as Puppet's three dispatches are: it names the value's type as normalized
  // (an Iterator of [1, 2, 3] is `Iterator[Integer]`, of [1, 3] `Iterator[Variant]`).
  const accepted = variantOf(['Collection', 'String', 'Binary'].map((name) => puppetType(name)));
  throw argumentMismatch(fn, 'arg', accepted, v);
}

const length = defineFunction('length', 1, 1, (_ctx, args) => lengthOf('length', args[0]));
const size = defineFunction('size', 1, 1, (_ctx, args) => lengthOf('size', args[0]));

const empty = defineFunction('empty', 1, 1, (ctx: CallContext, args) => {
  const v = args[0];
  if (v === undefined) return true;
  if (typeof v === 'string' || Array.isArray(v) || v instanceof Map || v instanceof PBinary) {
    return lengthOf('empty', v) === 0;
  }
  if (v instanceof PSensitive && typeof v.value === 'string') return v.value === '';
  if (isNumeric(v)) {
    warnOnce(ctx, 'empty-numeric', 'Calling function empty() with Numeric value is deprecated.');
    return false;
  }
  const accepted = ['Collection', 'String', 'Numeric', 'Undef'].map((name) => puppetType(name));
  throw argumentMismatch('empty', '', puppetType('Variant', ...accepted), v);
});

// ---------------------------------------------------------------------------------------------------------
// dig, get

/** Thrown by dig (and get) when the path meets something that is not a collection or a bad index. */
export class SliceError extends EppEvalError {
  constructor(
    message: string,
    readonly issueCode: 'EXPECTED_COLLECTION' | 'EXPECTED_INTEGER_INDEX',
    readonly details: PHash,
  ) {
    super('EPP_ACCESS', message);
  }

  /** The error as the Hash a `get()` lambda receives (Puppet passes an Error object with these fields). */
  toValue(): PHash {
    return new Map<Value, Value>([
      ['msg', this.message],
      ['kind', 'SLICE_ERROR'],
      ['details', this.details],
      ['issue_code', this.issueCode],
    ]);
  }
}

function arrayAt(arr: readonly Value[], index: PInteger): Value {
  // A bigint index is beyond 2^53: outside any array.
  if (typeof index === 'bigint') return undefined;
  const i = index < 0 ? arr.length + index : index;
  return i >= 0 && i < arr.length ? arr[i] : undefined;
}

/** Puppet's dig: walks `path` through arrays (Integer indexes, negative from the end) and hashes. */
export function digValue(data: Value, path: readonly Value[]): Value {
  const walked: Value[] = [];
  let d = data;
  for (const k of path) {
    if (d === undefined || k === undefined) return undefined;
    if (!Array.isArray(d) && !(d instanceof Map)) {
      const t = inferType(d).toString();
      throw new SliceError(
        `The given data does not contain a Collection at ${rubyInspect(walked)}, got '${t}'`,
        'EXPECTED_COLLECTION',
        new Map<Value, Value>([
          ['walked_path', [...walked]],
          ['value_type', t],
        ]),
      );
    }
    walked.push(k);
    if (Array.isArray(d)) {
      if (!isInteger(k)) {
        const t = inferType(k).toString();
        throw new SliceError(
          `The given data requires an Integer index at ${rubyInspect(walked)}, got '${t}'`,
          'EXPECTED_INTEGER_INDEX',
          new Map<Value, Value>([
            ['walked_path', [...walked]],
            ['index_type', t],
          ]),
        );
      }
      d = arrayAt(d, k);
    } else d = hashLookup(d, k).value;
  }
  return d;
}

const dig = defineFunction('dig', 1, Number.POSITIVE_INFINITY, (_ctx, args) => {
  const [data, ...path] = args;
  if (data !== undefined && !Array.isArray(data) && !(data instanceof Map)) {
    throw mismatch('dig', 'data', 'Optional[Collection]', data);
  }
  return digValue(data, path);
});

/**
 * Splits a dotted navigation (`a.b.0`, `a."x.y"`) as Puppet's get() does: quoted segments are strings,
 * numeric ones Integers (also a lone `1`). Returns undefined on a syntax error.
 */
export function splitNavigation(key: string): Value[] | undefined {
  const parts = `x.${key}`.split(/(\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+)/);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.shift() !== '') return undefined;
  const count = parts.length;
  const segments = parts.filter((p) => p !== '.');
  if (count === 0 || segments.length * 2 !== count + 1) return undefined;
  segments.shift();
  return segments.map((raw): Value => {
    const seg = raw.trim();
    if (seg.startsWith('"') || seg.startsWith("'")) return seg.slice(1, -1);
    if (/^:?[+-]?[0-9]+$/.test(seg)) return seg.startsWith(':') ? 0 : integer(BigInt(seg));
    return seg;
  });
}

/** Puppet's get(): dig along a dotted path; undef (or a missing key) gives the default. */
export function getValue(
  value: Value,
  navigation: string,
  fallback: Value,
  block: Lambda | undefined,
): Value {
  if (value === undefined) return fallback;
  if (navigation === '') return value;
  const segments = splitNavigation(navigation);
  if (!segments) throw new EppEvalError('EPP_ARGUMENTS', 'Syntax error in dotted-navigation string');
  try {
    const result = digValue(value, segments);
    return result === undefined ? fallback : result;
  } catch (e) {
    if (block && e instanceof SliceError) return block(e.toValue());
    throw e;
  }
}

const get = defineFunction(
  'get',
  2,
  3,
  (_ctx, args, block) => {
    const [value, navigation, fallback] = args;
    if (typeof navigation !== 'string') throw mismatch('get', 'dotted_string', 'String', navigation);
    if (block) blockArity('get', block, 1);
    return getValue(value, navigation, fallback, block);
  },
  'optional',
);

// ---------------------------------------------------------------------------------------------------------
// min, max

// ---------------------------------------------------------------------------------------------------------
// group_by

const groupBy = withDispatches(
  defineFunction(
    'group_by',
    1,
    1,
    (_ctx, args, block) => {
      const out: PHash = new Map();
      if (!block) throw new EppEvalError('EPP_ARGUMENTS', `'group_by' expects a block`);
      visitCollection('group_by', args[0], block, (key, item) => {
        const found = hashLookup(out, key);
        if (found.found) (found.value as Value[]).push(item);
        else out.set(key, [item]);
      });
      return out;
    },
    'required',
  ),
);

// ---------------------------------------------------------------------------------------------------------
// abs, round, floor, ceiling, compare

function numericArg(fn: string, v: Value): PInteger | PFloat {
  if (isNumeric(v)) return v;
  throw mismatch(fn, 'val', 'Numeric', v);
}

/** Ruby's `Float()` of a string (used by floor and ceiling on strings), or undefined when not a number. */
function parseRubyFloat(s: string): number | undefined {
  const t = s.trim();
  if (/^[+-]?0[xX][0-9a-fA-F]+(_[0-9a-fA-F]+)*$/.test(t)) return Number.parseInt(t.replace(/_/g, ''), 16);
  if (/^[+-]?\d+(_\d+)*(\.\d+(_\d+)*)?([eE][+-]?\d+)?$/.test(t)) return Number(t.replace(/_/g, ''));
  return undefined;
}

/** The Integer of a whole (already rounded) float. */
function toInteger(fn: string, n: number): PInteger {
  if (!Number.isFinite(n))
    throw new EppEvalError('EPP_ARGUMENTS', `${fn}(): ${formatFloat(n)} is not a finite number`);
  return integer(n);
}

function roundingFunction(name: 'floor' | 'ceiling', op: (n: number) => number): FunctionDef {
  return defineFunction(name, 1, 1, (ctx, args) => {
    const v = args[0];
    if (isInteger(v)) return v;
    if (v instanceof PFloat) return toInteger(name, op(v.value));
    if (typeof v === 'string') {
      warnOnce(
        ctx,
        `${name}-string`,
        `The ${name}() function's auto conversion of String to Float is deprecated - change to convert input before calling`,
      );
      const f = parseRubyFloat(v);
      if (f === undefined) {
        throw new EppEvalError(
          'EPP_ARGUMENTS',
          `${name}(): cannot convert given value to a floating point value.`,
        );
      }
      return toInteger(name, op(f));
    }
    throw mismatch(name, 'val', 'Numeric or String', v);
  });
}

const abs = defineFunction('abs', 1, 1, (ctx, args) => {
  const v = args[0];
  if (typeof v === 'number') return Math.abs(v);
  if (typeof v === 'bigint') return integer(v < 0n ? -v : v);
  if (v instanceof PFloat) return float(Math.abs(v.value));
  if (typeof v === 'string') {
    warnOnce(
      ctx,
      'abs-string',
      "The abs() function's auto conversion of String to Numeric is deprecated - change to convert input before calling",
    );
    // Ruby: the pattern is tested per line, the number then read from the start of the text.
    if (/^-?\d+\.\d+$/m.test(v)) return float(Math.abs(Number.parseFloat(v)));
    if (/^-?\d+$/m.test(v)) {
      const n = BigInt(/^\s*([+-]?\d+)/.exec(v)?.[1] ?? '0');
      return integer(n < 0n ? -n : n);
    }
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      'abs(): Requires float or integer to work with - was given non decimal string',
    );
  }
  throw mismatch('abs', 'val', 'Numeric or String', v);
});

const round = defineFunction('round', 1, 1, (_ctx, args) => {
  const v = numericArg('round', args[0]);
  if (!(v instanceof PFloat)) return v;
  // Puppet rounds half away from zero: Integer(x + 0.5) for positives, Integer(x - 0.5) otherwise.
  const x = v.value;
  return toInteger('round', Math.trunc(x > 0 ? x + 0.5 : x - 0.5));
});

export const collectionFunctions: readonly FunctionDef[] = [
  keys,
  values,
  join,
  flatten,
  unique,
  length,
  size,
  empty,
  dig,
  get,
  groupBy,
  abs,
  round,
  roundingFunction('floor', Math.floor),
  roundingFunction('ceiling', Math.ceil),
];
