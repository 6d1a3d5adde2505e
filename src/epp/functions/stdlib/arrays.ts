/**
 * stdlib's 3.x functions on arrays, with stdlib 9.7's behaviour on Puppet 7: `member`, `union`,
 * `difference`, `intersection`, `zip`, `values_at`, `reject`, `count`, `any2array`, `clamp`, and `range`
 * (range.ts). They are Ruby's Array methods underneath: the set operations compare with `eql?`
 * (`1` and `1.0` differ, case counts), `count` with `==`.
 */
import { characters } from '../../runtime/characters.js';
import { checkCollectionSize } from '../../runtime/size-limits.js';
import { toJsRegExp, type Value } from '../../runtime/values.js';
import { flattenDeep } from '../flatten.js';
import { defineFunction, type FunctionDef } from '../registry.js';
import { rubyToS } from '../ruby-text.js';
import { range } from './range.js';
import {
  EqlSet,
  noMethod,
  notAString,
  rubyClass,
  rubyEquals,
  rubyError,
  rubyToI,
  rubyTruthy,
  str2bool,
  stringToI,
  uniqEql,
} from './ruby.js';

/** A 3.x function: Puppet passes any number of arguments, the function checks them itself. */
/** A stdlib 3.x function; `least` when its Ruby declares an arity of `-(least + 1)` (checked by Puppet). */
function define3(name: string, call: (args: Value[]) => Value, least = 0): FunctionDef {
  return defineFunction(name, least, Number.POSITIVE_INFINITY, (_ctx, args) => call(args));
}

/** How many elements the arrays have together. */
export function totalLength(arrays: readonly Value[][]): number {
  let n = 0;
  for (const a of arrays) n += a.length;
  return n;
}

// ---------------------------------------------------------------------------------------------------------
// member, union, difference, intersection

const member = define3('member', (args) => {
  if (args.length < 2) throw rubyError(`member(): Wrong number of arguments given (${args.length} for 2)`);
  const [array, wanted] = args;
  if (!Array.isArray(array)) throw rubyError('member(): Requires array to work with');
  const scalar = typeof wanted === 'string' || typeof wanted === 'number' || typeof wanted === 'bigint';
  if (!scalar && !Array.isArray(wanted)) {
    throw rubyError('member(): Item to search for must be a string, fixnum, or array');
  }
  const items = scalar ? [wanted] : (wanted as Value[]);
  if (items.length === 0) throw rubyError('member(): You must provide item to search for within array given');
  // `(item - array).empty?`
  const present = new EqlSet(array);
  return items.every((v) => present.has(v));
});

const union = define3('union', (args) => {
  if (args.length < 2) throw rubyError(`union(): Wrong number of arguments given (${args.length} for < 2)`);
  if (!args.every(Array.isArray)) throw rubyError('union(): Every parameter must be an array');
  checkCollectionSize(
    totalLength(args as Value[][]),
    'the union of the Arrays, before duplicates are removed,',
  );
  return uniqEql((args as Value[][]).flat(1));
});

const difference = define3('difference', (args) => {
  if (args.length !== 2)
    throw rubyError(`difference(): Wrong number of arguments given (${args.length} for 2)`);
  const [first, second] = args;
  if (!Array.isArray(first) || !Array.isArray(second)) throw rubyError('difference(): Requires 2 arrays');
  const removed = new EqlSet(second);
  return first.filter((v) => !removed.has(v));
});

const intersection = define3('intersection', (args) => {
  if (args.length !== 2)
    throw rubyError(`intersection(): Wrong number of arguments given (${args.length} for 2)`);
  const [first, second] = args;
  if (!Array.isArray(first) || !Array.isArray(second)) {
    throw rubyError(`intersection(): Requires 2 arrays, got ${rubyClass(first)} and ${rubyClass(second)}`);
  }
  const kept = new EqlSet(second);
  return uniqEql(first).filter((v) => kept.has(v));
});

// ---------------------------------------------------------------------------------------------------------
// zip, values_at

const zip = define3('zip', (args) => {
  if (args.length < 2) throw rubyError(`zip(): Wrong number of arguments given (${args.length} for 2)`);
  const [a, b] = args;
  if (!Array.isArray(a) || !Array.isArray(b)) throw rubyError('zip(): Requires array to work with');
  const pairs = a.map((v, i) => [v, b[i]]);
  return rubyTruthy(args[2]) && str2bool(args[2]) ? flattenDeep(pairs) : pairs;
});

/** values_at's index forms: `1`, `'1'`, and ranges `'1-3'`, `'1..3'` (inclusive), `'1...3'` (exclusive). */
function indicesOf(given: Value, size: number): number[] {
  const text = rubyToS(given);
  const m = /^(\d+)(\.\.\.?|-)(\d+)$/m.exec(text);
  if (m) {
    const start = Number(m[1]);
    const stop = Number(m[3]);
    if (start > stop) {
      throw rubyError('values_at(): Stop index in given indices range is smaller than the start index');
    }
    if (stop > size - 1) throw rubyError('values_at(): Stop index in given indices range exceeds array size');
    const end = m[2] === '...' ? stop - 1 : stop;
    return Array.from({ length: Math.max(0, end - start + 1) }, (_v, i) => start + i);
  }
  if (!/^\d+$/m.test(text)) throw rubyError('values_at(): Unknown format of given index');
  const index = Number(stringToI(text));
  if (index > size - 1) throw rubyError('values_at(): Given index exceeds array size');
  return [index];
}

const valuesAt = define3('values_at', (args) => {
  if (args.length < 2) throw rubyError(`values_at(): Wrong number of arguments given (${args.length} for 2)`);
  const [array, given] = args;
  if (!Array.isArray(array)) throw rubyError('values_at(): Requires array to work with');
  const indices = flattenDeep([given]);
  if (indices.length === 0) {
    throw rubyError('values_at(): You must provide at least one positive index to collect');
  }
  // Ruby's `compact`: undef elements are left out. Index ranges repeated can ask for more than any array.
  const out: Value[] = [];
  for (const given of indices) {
    const positions = indicesOf(given, array.length);
    checkCollectionSize(out.length + positions.length, 'the Array of values_at()');
    for (const i of positions) if (array[i] !== undefined) out.push(array[i]);
  }
  return out;
});

// ---------------------------------------------------------------------------------------------------------
// reject, count, any2array, clamp

/** Ruby's `Regexp.new(text)`. */
function rubyRegexp(pattern: Value): RegExp {
  if (typeof pattern !== 'string') throw notAString(pattern);
  try {
    return toJsRegExp(pattern);
  } catch {
    throw rubyError(`invalid regular expression: /${pattern}/`);
  }
}

const reject = define3('reject', (args) => {
  if (args.length !== 2) throw rubyError(`reject(): Wrong number of arguments given ${args.length} for 2`);
  const [items, pattern] = args;
  const regexp = rubyRegexp(pattern);
  // `grep_v`: only strings can match; a hash is enumerated as [key, value] pairs, which never do.
  if (items instanceof Map) return [...items].map(([k, v]) => [k, v]);
  if (!Array.isArray(items)) throw noMethod('grep_v', items);
  return items.filter((v) => typeof v !== 'string' || !regexp.test(v));
});

/** The characters of a `String#count` set such as `'a-z'` or `'^aeiou'`. */
function inCharSet(spec: string): (c: string) => boolean {
  const negate = spec.length > 1 && spec.startsWith('^');
  const chars = Array.from(negate ? spec.slice(1) : spec);
  const ranges: [number, number][] = [];
  for (let i = 0; i < chars.length; i++) {
    let c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) c = chars[++i]!;
    const from = c.codePointAt(0)!;
    if (chars[i + 1] === '-' && i + 2 < chars.length) {
      ranges.push([from, chars[i + 2]!.codePointAt(0)!]);
      i += 2;
    } else ranges.push([from, from]);
  }
  return (c) => {
    const code = c.codePointAt(0)!;
    return ranges.some(([lo, hi]) => code >= lo && code <= hi) !== negate;
  };
}

/** `collection.count(item)` for an array, a hash (its pairs) or a string (characters of a set). */
function countItem(collection: Value, item: Value): number {
  if (typeof collection === 'string') {
    if (typeof item !== 'string') throw notAString(item);
    return characters(collection).filter(inCharSet(item)).length;
  }
  const items = collection instanceof Map ? [...collection].map(([k, v]) => [k, v]) : collection;
  if (!Array.isArray(items)) throw noMethod('count', collection);
  return items.filter((v) => rubyEquals(v, item)).length;
}

const count = define3(
  'count',
  (args) => {
    if (args.length > 2)
      throw rubyError(`count(): Wrong number of arguments given ${args.length} for 1 or 2.`);
    const [collection, item] = args;
    if (rubyTruthy(item)) return countItem(collection, item);
    // Without an item, what is neither undef nor empty counts; a hash's pairs always do.
    if (collection instanceof Map) return collection.size;
    if (typeof collection === 'string') throw rubyError('wrong number of arguments (given 0, expected 1+)');
    if (!Array.isArray(collection)) throw noMethod('count', collection);
    return collection.filter((v) => v !== undefined && v !== '').length;
  },
  1,
);

const any2array = define3('any2array', (args) => {
  if (args.length !== 1) return args;
  const [v] = args;
  if (Array.isArray(v)) return v;
  if (v === '') return [];
  if (v instanceof Map) {
    checkCollectionSize(2 * v.size, "the Array of a Hash's keys and values");
    return [...v].flat(1);
  }
  return [v];
});

const clamp = define3(
  'clamp',
  (given) => {
    const args = flattenDeep(given);
    if (args.length !== 3) throw rubyError('clamp(): Wrong number of arguments, need three to clamp');
    for (const v of args) {
      if (typeof v === 'string' && !/^\d+$/m.test(v)) {
        throw rubyError(`clamp(): Required explicit numeric (${v}:String)`);
      }
      if (v instanceof Map) throw rubyError(`clamp(): The Hash type is not allowed (${rubyToS(v)})`);
    }
    const numbers = args.map(rubyToI).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return numbers[1]!;
  },
  1,
);

export const stdlibArrayFunctions: FunctionDef[] = [
  member,
  union,
  difference,
  intersection,
  zip,
  valuesAt,
  reject,
  count,
  any2array,
  clamp,
  range,
];
