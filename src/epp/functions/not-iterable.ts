/**
 * Puppet's error for an iteration function given something it cannot iterate (`true.each`, a SemVer's
 * `map`): the function's dispatches, each with why it refused the call, as Puppet's dispatcher lists them
 * (its text, checked against Puppet 7 by the conformance cases `error_*_not_iterable`). A dispatch refuses
 * by its argument count first, then by its first parameter's type: the receiver's.
 */
import { EppEvalError } from '../errors.js';
import type { Value } from '../runtime/values.js';
import { noMatchingSignature, typeLabel } from './arguments.js';

/** A dispatch: its signature as Puppet prints it, its first parameter, and how many arguments it takes. */
type Dispatch = readonly [signature: string, param: Param, argCount: number];
type Param = 'hash' | 'enumerable' | 'iterable' | 'str' | 'string' | 'array';

/** each, map and filter (and index with a block): a Hash's two-parameter form first, as Puppet tries them. */
const LOOP: readonly Dispatch[] = [
  ['(Hash hash, Callable[2, 2] block)', 'hash', 1],
  ['(Hash hash, Callable[1, 1] block)', 'hash', 1],
  ['(Iterable enumerable, Callable[2, 2] block)', 'enumerable', 1],
  ['(Iterable enumerable, Callable[1, 1] block)', 'enumerable', 1],
];

const DISPATCHES: Readonly<Record<string, readonly Dispatch[]>> = {
  each: LOOP,
  map: LOOP,
  filter: LOOP,
  index: [
    ...LOOP,
    ['(String str, Variant[String, Regexp] match)', 'str', 2],
    ['(Iterable enumerable, Any match)', 'enumerable', 2],
  ],
  reduce: [
    ['(Iterable enumerable, Callable[2, 2] block)', 'enumerable', 1],
    ['(Iterable enumerable, Any memo, Callable[2, 2] block)', 'enumerable', 2],
  ],
  slice: [
    ['(Hash hash, Integer[1] slice_size, Callable block?)', 'hash', 2],
    ['(Iterable enumerable, Integer[1] slice_size, Callable block?)', 'enumerable', 2],
  ],
  unique: [
    ['(String string, Callable[String] block?)', 'string', 1],
    ['(Hash hash, Callable[Any] block?)', 'hash', 1],
    ['(Array array, Callable[Any] block?)', 'array', 1],
    ['(Iterable iterable, Callable[Any] block?)', 'iterable', 1],
  ],
};

/** The functions with one dispatch, whose message names its parameter: `'step' parameter 'iterable' ...`. */
const SINGLE = new Set(['reverse_each', 'step']);

const EXPECTED: Readonly<Record<Param, string>> = {
  hash: 'a Hash value',
  enumerable: 'an Iterable value',
  iterable: 'an Iterable value',
  str: 'a String value',
  string: 'a String value',
  array: 'an Array value',
};

/**
 * The error for `name` called on `v` with `argCount` arguments (the receiver counted, not the block). A
 * negative Integer keeps the short form: Puppet's Iterable takes every Integer, and its message then
 * names the block's arity in ways of its own.
 */
export function notIterable(name: string, v: Value, argCount: number): EppEvalError {
  const got = typeLabel(v);
  const dispatches = DISPATCHES[name];
  if (SINGLE.has(name)) {
    return new EppEvalError(
      'EPP_ARGUMENTS',
      `'${name}' parameter 'iterable' expects an Iterable value, got ${got}`,
    );
  }
  if (dispatches === undefined || typeof v === 'number' || typeof v === 'bigint') {
    return new EppEvalError('EPP_ARGUMENTS', `'${name}' expects an Iterable value, got ${got}`);
  }
  return noMatchingSignature(
    name,
    dispatches.map(([signature, param, count]) => [
      signature,
      count === argCount
        ? `parameter '${param}' expects ${EXPECTED[param]}, got ${got}`
        : `expects ${count} argument${count === 1 ? '' : 's'}, got ${argCount}`,
    ]),
  );
}
