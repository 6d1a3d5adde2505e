/**
 * stdlib's functions that build hashes and arrays from others, with stdlib 9.7's behaviour on Puppet 7
 * (test/conformance/stdlib-cases): `merge`, `stdlib::merge`, `deep_merge`, `concat`, `delete`,
 * `delete_at`, `delete_regex`, `delete_values`, `prefix`, `suffix`, `stdlib::nested_values`,
 * `stdlib::sort_by`, `is_a`; and, from arrays.ts, the array functions.
 *
 * Most are 3.x functions (stdlib's lib/puppet/parser/functions): thin Ruby, so they follow Ruby's rules
 * (`delete` compares with Ruby's `==`, `prefix` prints elements with `to_s`) and raise Ruby's errors.
 */
import { EppEvalError } from '../../errors.js';
import { characters } from '../../runtime/characters.js';
import { compareValues, hashLookup, rubyEql } from '../../runtime/compare.js';
import { checkCollectionSize, MAX_COLLECTION_SIZE, tooManyElements } from '../../runtime/size-limits.js';
import { describeMismatch, isPuppetType } from '../../runtime/types.js';
import { type PHash, toJsRegExp, type Value } from '../../runtime/values.js';
import { acceptsArgs, argumentMismatch, noMatchingSignature, puppetType } from '../arguments.js';
import { defineFunction, type FunctionDef, type Lambda } from '../registry.js';
import { rubyInspect, rubyToS } from '../ruby-text.js';
import { sequenceOf } from '../sequences.js';
import { stdlibArrayFunctions, totalLength } from './arrays.js';
import {
  conversionName,
  noMethod,
  rubyArray,
  rubyClass,
  rubyEquals,
  rubyError,
  rubyToI,
  rubyTruthy,
  setEql,
} from './ruby.js';

// ---------------------------------------------------------------------------------------------------------
// merge, stdlib::merge, deep_merge

const MERGE_ARG = puppetType(
  'Variant',
  puppetType('Hash', puppetType('Scalar'), puppetType('Any')),
  puppetType('Undef'),
  puppetType('String', 0, 0),
);
const MERGE_SIGNATURES = [
  '(Variant[Hash[Scalar, Any], Undef, String[0, 0]] args*)',
  '(Iterable args*, Callable[3, 3] block)',
  '(Iterable args*, Callable[2, 2] block)',
];

/** Ruby's `Hash#merge!`: later keys win, in the place the key first had. */
function mergeInto(out: PHash, hash: PHash): void {
  for (const [k, v] of hash) setEql(out, k, v);
}

function mergeHashes(args: readonly Value[]): PHash {
  const out: PHash = new Map();
  let size = 0;
  for (const arg of args) if (arg instanceof Map) size += arg.size;
  checkCollectionSize(size, 'the merged Hash, before duplicate keys are removed,');
  for (const arg of args) {
    if (!MERGE_ARG.isInstance(arg)) {
      throw noMatchingSignature('stdlib::merge', [
        [MERGE_SIGNATURES[0]!, describeMismatch(MERGE_ARG, arg, "parameter 'args'")],
        [MERGE_SIGNATURES[1]!, 'expects a block'],
        [MERGE_SIGNATURES[2]!, 'expects a block'],
      ]);
    }
    if (arg instanceof Map) mergeInto(out, arg);
  }
  return out;
}

/**
 * The block forms: each element of one Iterable is given to the block with the hash built so far
 * (a copy: Puppet hands the block the accumulator itself), and each hash the block returns is merged in.
 */
function mergeIterable(args: readonly Value[], block: Lambda, params: 2 | 3): PHash {
  if (args.length !== 1) {
    throw rubyError(`wrong number of arguments (given ${args.length}, expected 1)`);
  }
  const out: PHash = new Map();
  const add = (r: Value): void => {
    if (!(r instanceof Map)) return;
    checkCollectionSize(out.size + r.size, 'the merged Hash, before duplicate keys are removed,');
    mergeInto(out, r);
  };
  const iterable = args[0];
  if (params === 3 && iterable instanceof Map) {
    for (const [k, v] of iterable) add(block(new Map(out), k, v));
    return out;
  }
  let index = 0;
  for (const v of sequenceOf('stdlib::merge', iterable).forward()) {
    add(params === 3 ? block(new Map(out), index++, v) : block(new Map(out), v));
  }
  return out;
}

function stdlibMerge(args: readonly Value[], block: Lambda | undefined): PHash {
  if (!block) return mergeHashes(args);
  if (acceptsArgs(block, 3)) return mergeIterable(args, block, 3);
  if (acceptsArgs(block, 2)) return mergeIterable(args, block, 2);
  const got = block.paramCount;
  throw noMatchingSignature('stdlib::merge', [
    [MERGE_SIGNATURES[0]!, 'does not expect a block'],
    [MERGE_SIGNATURES[1]!, `block expects 3 arguments, got ${got}`],
    [MERGE_SIGNATURES[2]!, `block expects 2 arguments, got ${got}`],
  ]);
}

const stdlibMergeFn = defineFunction(
  'stdlib::merge',
  0,
  Number.POSITIVE_INFINITY,
  (_ctx, args, block) => stdlibMerge(args, block),
  'optional',
);

// stdlib 9's `merge` is a deprecated 4.x function that calls stdlib::merge (its 3.x twin is shadowed);
// its own signature takes only a 2- or 3-parameter block. The deprecation warning is not repeated.
const merge = defineFunction(
  'merge',
  0,
  Number.POSITIVE_INFINITY,
  (_ctx, args, block) => {
    if (block && !acceptsArgs(block, 2) && !acceptsArgs(block, 3)) {
      throw new EppEvalError('EPP_ARGUMENTS', "'merge' block variant 0 expects an Undef value, got Callable");
    }
    return stdlibMerge(args, block);
  },
  'optional',
);

/**
 * Ruby's `hash1.merge(hash2)` where two hashes under one key are merged in turn. Hashes that share their
 * values would merge into as many copies as there are paths to them, many times their size: a pair
 * merged before is merged once (`merged`), and the result shares it as the arguments do.
 */
function deepMerged(a: PHash, b: PHash, merged: Map<PHash, Map<PHash, PHash>>): PHash {
  const known = merged.get(a)?.get(b);
  if (known !== undefined) return known;
  const out: PHash = new Map(a);
  for (const [k, v] of b) {
    const old = hashLookup(out, k);
    setEql(out, k, old.value instanceof Map && v instanceof Map ? deepMerged(old.value, v, merged) : v);
  }
  let row = merged.get(a);
  if (row === undefined) merged.set(a, (row = new Map()));
  row.set(b, out);
  return out;
}

const deepMerge = defineFunction('deep_merge', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length < 2) {
    throw rubyError(`deep_merge(): wrong number of arguments (${args.length}; must be at least 2)`);
  }
  let result: PHash = new Map();
  for (const arg of args) {
    if (arg === '') continue; // stdlib: the empty string stands for undef
    if (!(arg instanceof Map)) {
      throw rubyError(`deep_merge: unexpected argument type ${rubyClass(arg)}, only expects hash arguments`);
    }
    result = deepMerged(result, arg, new Map());
  }
  return result;
});

// ---------------------------------------------------------------------------------------------------------
// concat, delete, delete_at, delete_regex, delete_values

const concat = defineFunction('concat', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length < 2) throw rubyError(`concat(): Wrong number of arguments given (${args.length} for < 2)`);
  const [first, ...rest] = args;
  if (!Array.isArray(first)) throw rubyError('concat(): Requires array to work with');
  const arrays = rest.map((x) => (Array.isArray(x) ? x : [x]));
  checkCollectionSize(first.length + totalLength(arrays), 'the concatenated Array');
  const out = first.slice();
  for (const a of arrays) for (const x of a) out.push(x);
  return out;
});

/** One item out of a `delete` collection: array elements by Ruby's `==`, hash keys by `eql?`, substrings. */
function deleteItem(collection: Value, item: Value): Value {
  if (Array.isArray(collection)) return collection.filter((v) => !rubyEquals(v, item));
  if (collection instanceof Map) {
    if (!hashLookup(collection, item).found) return collection;
    return new Map([...collection].filter(([k]) => !rubyEql(k, item)));
  }
  if (typeof collection === 'string') {
    // `String#gsub!(item, '')`: a string item is literal text.
    if (typeof item !== 'string')
      throw rubyError(`wrong argument type ${conversionName(item)} (expected Regexp)`);
    return item === '' ? collection : collection.split(item).join('');
  }
  throw rubyError(
    `delete(): First argument must be an Array, String, or Hash. Given an argument of class ${rubyClass(collection)}.`,
  );
}

const deleteFn = defineFunction('delete', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 2) throw rubyError(`delete(): Wrong number of arguments given ${args.length} for 2`);
  let collection = args[0];
  for (const item of rubyArray(args[1])) collection = deleteItem(collection, item);
  return collection;
});

const deleteAt = defineFunction('delete_at', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length < 2) throw rubyError(`delete_at(): Wrong number of arguments given (${args.length} for 2)`);
  const [array, given] = args;
  if (!Array.isArray(array)) throw rubyError('delete_at(): Requires array to work with');
  if (typeof given === 'string' && !/^\d+$/m.test(given)) {
    throw rubyError('delete_at(): You must provide non-negative numeric index');
  }
  const index = rubyToI(given);
  if (index > array.length - 1) throw rubyError('delete_at(): Given index exceeds size of array given');
  // Ruby's `Array#delete_at`: a negative index counts from the end; one before the start deletes nothing.
  const at = Number(index) < 0 ? Number(index) + array.length : Number(index);
  return at < 0 ? array : array.filter((_v, i) => i !== at);
});

/** stdlib's `%r{\b#{item}\b}`: the item is Ruby regexp text. */
function wordRegExp(fn: string, item: Value): RegExp {
  const source = `\\b${rubyToS(item)}\\b`;
  try {
    return toJsRegExp(source);
  } catch {
    throw rubyError(`${fn}(): invalid regular expression: /${source}/`);
  }
}

const deleteRegex = defineFunction('delete_regex', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 2)
    throw rubyError(`delete_regex(): Wrong number of arguments given ${args.length} for 2`);
  let collection = args[0];
  for (const item of rubyArray(args[1])) {
    // Only strings match (`=~` of other values is nil); of a hash, the keys.
    const regexp = wordRegExp('delete_regex', item);
    const matches = (v: Value): boolean => typeof v === 'string' && regexp.test(v);
    if (Array.isArray(collection)) collection = collection.filter((v) => !matches(v));
    else if (collection instanceof Map) collection = new Map([...collection].filter(([k]) => !matches(k)));
    else if (typeof collection === 'string') throw noMethod('reject!', collection);
    else {
      throw rubyError(
        `delete_regex(): First argument must be an Array, Hash, or String. Given an argument of class ${rubyClass(collection)}.`,
      );
    }
  }
  return collection;
});

const deleteValues = defineFunction('delete_values', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 2)
    throw rubyError(`delete_values(): Wrong number of arguments given (${args.length} of 2)`);
  const [hash, item] = args;
  if (!(hash instanceof Map)) {
    throw rubyError(
      `delete_values(): First argument must be a Hash. Given an argument of class ${rubyClass(hash)}.`,
    );
  }
  return new Map([...hash].filter(([, v]) => !rubyEquals(item, v)));
});

// ---------------------------------------------------------------------------------------------------------
// prefix, suffix

/** prefix() and suffix(): each element (or hash key) as Ruby's `to_s`, with the text put before or after. */
function affixFunction(name: 'prefix' | 'suffix'): FunctionDef {
  return defineFunction(name, 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
    if (args.length === 0) throw rubyError(`${name}(): Wrong number of arguments given (0 for 1)`);
    const enumerable = args[0];
    if (!Array.isArray(enumerable) && !(enumerable instanceof Map)) {
      throw rubyError(
        `${name}(): expected first argument to be an Array or a Hash, got ${rubyInspect(enumerable)}`,
      );
    }
    const affix = rubyTruthy(args[1]) ? args[1] : '';
    if (typeof affix !== 'string') {
      throw rubyError(`${name}(): expected second argument to be a String, got ${rubyInspect(affix)}`);
    }
    const apply = (v: Value): string => (name === 'prefix' ? affix + rubyToS(v) : rubyToS(v) + affix);
    if (Array.isArray(enumerable)) return enumerable.map(apply);
    const out: PHash = new Map();
    for (const [k, v] of enumerable) out.set(apply(k), v);
    return out;
  });
}

// ---------------------------------------------------------------------------------------------------------
// stdlib::nested_values, stdlib::sort_by, is_a

/** The values of nested hashes; hashes that share values list them once per path, up to the size cap. */
function nestedValues(hash: PHash, out: Value[]): Value[] {
  for (const v of hash.values()) {
    if (v instanceof Map) nestedValues(v, out);
    else if (out.length < MAX_COLLECTION_SIZE) out.push(v);
    else throw tooManyElements('the Array of nested values');
  }
  return out;
}

const nestedValuesFn = defineFunction('stdlib::nested_values', 1, 1, (_ctx, [hash]) => {
  if (!(hash instanceof Map))
    throw argumentMismatch('stdlib::nested_values', 'hash', puppetType('Hash'), hash);
  return nestedValues(hash, []);
});

/** Ruby's `sort_by`: the elements ordered by the block's answer for each, compared with `<=>`. */
function sortBy(items: readonly Value[], block: Lambda): Value[] {
  const keyed = items.map((item) => ({ item, key: block(item) }));
  // JavaScript's sort asks (later, earlier) where Ruby asks (earlier, later): swapped, so that an error
  // names the values in Ruby's order ("comparison of Integer with String failed").
  keyed.sort((a, b) => -compareValues(b.key, a.key));
  return keyed.map((k) => k.item);
}

function sortByMismatch(v: Value, block: Lambda): EppEvalError {
  const oneParam = acceptsArgs(block, 1) && !block.hasRest && block.paramCount === 1;
  const arrayWhy = Array.isArray(v)
    ? `block expects 1 argument, got ${block.paramCount}`
    : describeMismatch(puppetType('Array'), v, "parameter 'ary'");
  const stringWhy =
    typeof v === 'string' && !oneParam
      ? `block expects 1 argument, got ${block.paramCount}`
      : describeMismatch(puppetType('String'), v, "parameter 'str'");
  const hashWhy =
    v instanceof Map
      ? `block expects between 1 and 2 arguments, got ${block.paramCount}`
      : describeMismatch(puppetType('Hash'), v, "parameter 'hsh'");
  return noMatchingSignature('stdlib::sort_by', [
    ['(Array ary, Callable[1, 1] block)', arrayWhy],
    ['(String str, Callable[1, 1] block)', stringWhy],
    ['(Hash hsh)', hashWhy],
  ]);
}

const sortByFn = defineFunction(
  'stdlib::sort_by',
  1,
  1,
  (_ctx, [v], block) => {
    // Puppet words a missing block without the registry's "(lambda)".
    if (!block) throw new EppEvalError('EPP_ARGUMENTS', "'stdlib::sort_by' expects a block");
    const lambda = block;
    // A hash's block may take one or two parameters; Puppet gives it the [key, value] pair either way.
    const fits = acceptsArgs(lambda, 1) || (v instanceof Map && acceptsArgs(lambda, 2));
    if (!fits || (!Array.isArray(v) && typeof v !== 'string' && !(v instanceof Map))) {
      throw sortByMismatch(v, lambda);
    }
    if (Array.isArray(v)) return sortBy(v, lambda);
    if (typeof v === 'string') return (sortBy(characters(v), lambda) as string[]).join('');
    const pairs = sortBy(
      [...v].map(([k, val]) => [k, val]),
      lambda,
    ) as Value[][];
    return new Map(pairs.map(([k, val]) => [k, val]));
  },
  'optional',
);

const isA = defineFunction('is_a', 2, 2, (_ctx, [value, type]) => {
  if (!isPuppetType(type)) throw argumentMismatch('is_a', 'type', puppetType('Type'), type);
  return type.isInstance(value);
});

/** stdlib's 3.x functions of this group, before Puppet's argument conversion (stdlib.ts applies it). */
export const stdlibCollections3: FunctionDef[] = [
  deepMerge,
  concat,
  deleteFn,
  deleteAt,
  deleteRegex,
  deleteValues,
  affixFunction('prefix'),
  affixFunction('suffix'),
  ...stdlibArrayFunctions,
];

/** stdlib's 4.x functions of this group. */
export const stdlibCollections4: FunctionDef[] = [merge, stdlibMergeFn, nestedValuesFn, sortByFn, isA];
