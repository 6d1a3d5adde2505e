/**
 * What Puppet iterates (its Iterable): arrays, hashes as `[key, value]` pairs, strings as characters, a
 * non-negative Integer, a finite Integer range and an Enum, forwards and backwards; and `visit`, the walk
 * of the functions that stop early (any, all, index).
 */
import { EppEvalError } from '../errors.js';
import { characters } from '../runtime/characters.js';
import { checkTimeLimit } from '../runtime/deadline.js';
import { EnumType, IntegerType, isPuppetType, iteratorElementType, type PType } from '../runtime/types.js';
import { bigOf, integer, type PHash, type PInteger, PIterator, type Value } from '../runtime/values.js';
import { blockArity } from './block-arity.js';
import { notIterable } from './not-iterable.js';
import type { Lambda } from './registry.js';

/** Something Puppet can iterate: how to go forwards and backwards. */
export interface Sequence {
  forward(): Iterable<Value>;
  backward(): Iterable<Value>;
}

function arraySequence(items: readonly Value[]): Sequence {
  return {
    forward: () => items,
    backward: function* () {
      for (let i = items.length - 1; i >= 0; i--) yield items[i];
    },
  };
}

/**
 * The most values an Integer range yields. Puppet has no limit, and `9223372036854775807.map` runs until the
 * process dies (here V8 aborts when the array outgrows it, which no error handling can catch); no template
 * means to iterate that far, so beyond this an iteration is an error.
 */
export const MAX_RANGE_VALUES = 10_000_000;

function* range(from: PInteger, to: PInteger, step: 1 | -1): Generator<Value> {
  // A range may be astronomically long: the number of values is limited, and the time limit of the
  // evaluation, if any, is checked now and then.
  let n = 0;
  if (typeof from === 'number' && typeof to === 'number') {
    // Both ends are safe integers, so is every element: plain numbers all the way.
    for (let i = from; step > 0 ? i <= to : i >= to; i += step) {
      if (++n > MAX_RANGE_VALUES) throw rangeLimit(from, to);
      if ((n & 4095) === 0) checkTimeLimit();
      yield i;
    }
    return;
  }
  const last = bigOf(to);
  const by = BigInt(step);
  for (let i = bigOf(from); step > 0 ? i <= last : i >= last; i += by) {
    if (++n > MAX_RANGE_VALUES) throw rangeLimit(from, to);
    if ((n & 4095) === 0) checkTimeLimit();
    yield integer(i);
  }
}

function rangeLimit(from: PInteger, to: PInteger): EppEvalError {
  const error = new EppEvalError(
    'EPP_ITERATION_LIMIT',
    `iterating the Integer range ${from}..${to} stopped after ${MAX_RANGE_VALUES} values`,
  );
  error.hint = `a template iterates at most ${MAX_RANGE_VALUES} values of a range: is the Integer what you meant?`;
  return error;
}

function rangeSequence(from: PInteger, to: PInteger): Sequence {
  return { forward: () => range(from, to, 1), backward: () => range(to, from, -1) };
}

/** `Integer[a, b]` (finite) and `Enum[...]` are iterable types. */
function typeSequence(type: PType): Sequence | undefined {
  if (type instanceof IntegerType) {
    const { min, max } = type;
    return min !== undefined && max !== undefined ? rangeSequence(min, max) : undefined;
  }
  if (type instanceof EnumType) return arraySequence(type.values);
  return undefined;
}

/** A hash's entries as `[key, value]` pairs, the elements Puppet iterates over a hash. */
export function hashPairs(hash: PHash): Value[][] {
  const pairs: Value[][] = [];
  for (const [k, v] of hash) pairs.push([k, v]);
  return pairs;
}

/**
 * Puppet's Iterable: arrays, hashes (as pairs), strings (as characters), a non-negative Integer `n`
 * (`0..n-1`), a finite `Integer[a, b]` and an `Enum[...]`. Anything else is an `EPP_ARGUMENTS` error,
 * worded from the call's `argCount` and `block` (not-iterable.ts).
 */
export function sequenceOf(name: string, v: Value, argCount = 1, block?: Lambda): Sequence {
  if (Array.isArray(v)) return arraySequence(v);
  if (v instanceof PIterator) return iteratorSequence(v);
  if (v instanceof Map) return arraySequence(hashPairs(v));
  if (typeof v === 'string') return arraySequence(characters(v));
  if (typeof v === 'number' && v >= 0) return rangeSequence(0, v - 1);
  if (typeof v === 'bigint' && v > 0n) return rangeSequence(0, integer(v - 1n));
  if (isPuppetType(v)) {
    const seq = typeSequence(v);
    if (seq) return seq;
  }
  throw notIterable(name, v, argCount, block);
}

function iteratorSequence(iterator: PIterator): Sequence {
  return { forward: () => iterator.elements(), backward: () => [...iterator.elements()].reverse() };
}

/** Puppet's Iterator over `source` (`reverse_each` and `step` without a block): `elements` walks it. */
export function iteratorOver(source: Value, elements: () => Iterable<Value>): PIterator {
  return new PIterator(elements, iteratorElementType(source));
}

/** Visits every element as Puppet passes it to a 1- or 2-parameter lambda; `step` false stops. */
export function visit(
  name: string,
  receiver: Value,
  block: Lambda,
  step: (result: Value, item: Value, key: Value) => boolean | undefined,
): void {
  // The receiver is checked before the lambda, as Puppet's dispatch checks its parameters in order.
  const sequence = receiver instanceof Map ? undefined : sequenceOf(name, receiver, 1, block);
  const arity = blockArity(name, block, 2, 1);
  if (receiver instanceof Map) {
    for (const [k, v] of receiver) {
      const pair = [k, v];
      if (step(arity === 2 ? block(k, v) : block(pair), pair, k) === false) return;
    }
    return;
  }
  let index = 0;
  for (const item of sequence!.forward()) {
    if (step(arity === 2 ? block(index, item) : block(item), item, index) === false) return;
    index++;
  }
}
