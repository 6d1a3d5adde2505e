/** `new` of Array and Hash: an iterable's elements, an Integer range, pairs and trees of paths. */
import { EppEvalError } from '../../errors.js';
import { hashLookup, setEql } from '../../runtime/compare.js';
import { EnumType, IntegerType, inferGenericType, type PType } from '../../runtime/types.js';
import { bigOf, integer, type PHash, type PInteger, PIterator, type Value } from '../../runtime/values.js';
import { arity, cannotConvert, conversionError } from './arguments.js';
import { dispatch, localAlias, type Signature, typeOf } from './dispatch.js';

/** `Array[Tuple[K, Any], 1]`: a non-empty array of pairs whose first is a `key`. */
const pairs = (key: () => PType) => typeOf('Array', typeOf('Tuple', key, typeOf('Any')), 1);

/** The signatures of Puppet 7's `new_hash`, in the order it tries them. */
const HASH_SIGNATURES: readonly Signature[] = [
  [
    { name: 'from', type: () => localAlias('TreeArray', pairs(typeOf('Array'))) },
    {
      name: 'build_option',
      type: () => localAlias('NewHashOption', typeOf('Enum', 'hash_tree', 'tree')),
      optional: true,
    },
  ],
  [{ name: 'from', type: () => localAlias('KeyValueArray', pairs(typeOf('Any'))) }],
  [{ name: 'from', type: typeOf('Any') }],
];

/** The elements of an Iterable value, or undefined when it is not iterable. */
function iterate(v: Value): Value[] | undefined {
  if (Array.isArray(v)) return v;
  if (v instanceof Map) return [...v].map(([k, x]) => [k, x]);
  if (typeof v === 'string') return Array.from(v);
  if (typeof v === 'number') return v >= 0 ? rangeOf(0, v - 1) : undefined;
  if (typeof v === 'bigint') return v > 0n ? rangeOf(0, integer(v - 1n)) : undefined;
  if (v instanceof IntegerType && v.min !== undefined && v.max !== undefined) return rangeOf(v.min, v.max);
  if (v instanceof EnumType) return [...v.values];
  if (v instanceof PIterator) return [...v.elements()];
  return undefined;
}

function rangeOf(from: PInteger, to: PInteger): PInteger[] {
  const out: PInteger[] = [];
  if (typeof from === 'number' && typeof to === 'number') {
    for (let i = from; i <= to; i++) out.push(i);
    return out;
  }
  for (let i = bigOf(from); i <= bigOf(to); i++) out.push(integer(i));
  return out;
}

export function toArray(args: Value[]): Value[] {
  arity('Array', args, 1, 2);
  const [from, wrap = false] = args;
  if (typeof wrap !== 'boolean') {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `'new_array' parameter 'wrap' expects a Boolean value, got ${inferGenericType(wrap)}`,
    );
  }
  if (wrap) return Array.isArray(from) ? from : [from];
  const elements = iterate(from);
  if (elements === undefined) throw cannotConvert(from, 'Array');
  return elements;
}

export function toHash(args: Value[]): PHash {
  dispatch('new_hash', HASH_SIGNATURES, args);
  const [from, option] = args;
  if (option !== undefined) return fromTree(from as Value[][], option === 'hash_tree');
  if (from instanceof Map) return from;
  if (isPairs(from, false)) {
    const out: PHash = new Map();
    for (const [k, v] of from as Value[][]) setEql(out, k, v);
    return out;
  }
  const flat = iterate(from);
  if (flat === undefined) throw cannotConvert(from, 'Hash');
  if (flat.length % 2 !== 0) throw conversionError('odd number of arguments for Hash');
  const out: PHash = new Map();
  for (let i = 0; i < flat.length; i += 2) setEql(out, flat[i], flat[i + 1]);
  return out;
}

/** A non-empty array of `[key, value]` pairs (`[path array, value]` pairs for a tree). */
function isPairs(v: Value, tree: boolean): boolean {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((e) => Array.isArray(e) && e.length === 2 && (!tree || Array.isArray(e[0])))
  );
}

/** `Hash([[['a', 'b'], 1]], 'tree')` gives `{a => {b => 1}}`. Paths walk through hashes only. */
function fromTree(entries: Value[][], allHashes: boolean): PHash {
  const result: PHash = new Map();
  for (const [path, value] of entries as [Value[], Value][]) {
    if (path.length === 0) {
      const entries: Iterable<[Value, Value]> = Array.isArray(value)
        ? value.map((v, i): [Value, Value] => [i, v])
        : value instanceof Map
          ? value
          : [];
      for (const [k, v] of entries) setEql(result, k, v);
      continue;
    }
    let node = result;
    for (const key of path.slice(0, -1)) {
      const existing = hashLookup(node, key).value;
      if (existing instanceof Map) {
        node = existing;
        continue;
      }
      if (hashLookup(node, key).found) throw conversionError('a tree path can only walk through hashes');
      const next: PHash = new Map();
      setEql(node, key, next);
      node = next;
    }
    setEql(node, path.at(-1), allHashes ? arrayAsHash(value) : value);
  }
  return result;
}

function arrayAsHash(v: Value): Value {
  if (!Array.isArray(v)) return v;
  return new Map(v.map((e, i) => [i, arrayAsHash(e)]));
}
