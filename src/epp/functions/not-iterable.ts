/**
 * Puppet's error for an iteration function given something it cannot iterate (`true.each`, a SemVer's
 * `map`, a negative Integer): what Puppet's TypeMismatchDescriber says of the call against each of the
 * function's dispatches (its text checked against Puppet 7 by the conformance cases `error_*_not_iterable`
 * and test/epp/not-iterable.test.ts).
 *
 * The describer works on the arguments' types, not their values: a negative Integer is no Iterable value,
 * yet its type, `Integer[-3, -3]`, is an Iterable type, so a dispatch taking an Iterable finds nothing
 * wrong with it and is judged by its block alone. Per dispatch: the argument count, then the first
 * parameter's type; when some dispatch took the arguments, the block (missing, unexpected, or of the wrong
 * arity) stands for the dispatches the arguments left without fault, or for all when every dispatch has a
 * block fault. The faults found are one message when they are one (`'slice' parameter 'hash' expects a
 * Hash value, got Integer`) or counts that merge (`'each' block expects between 1 and 2 arguments, got 3`),
 * else every dispatch is listed with its faults (a faultless one with none).
 */
import { EppEvalError } from '../errors.js';
import { describeMismatch } from '../runtime/types.js';
import type { Value } from '../runtime/values.js';
import { puppetType, typeLabel } from './arguments.js';
import type { Lambda } from './registry.js';

/** How many arguments a block takes or is given: `max` Infinity for `*$rest` or an untyped `Callable`. */
interface Arity {
  readonly min: number;
  readonly max: number;
}

/** A dispatch's block: undefined for none; `optional` when it may be left out. */
interface BlockParam extends Arity {
  readonly optional: boolean;
}

/** A dispatch: its signature as Puppet prints it, its first parameter, how many arguments, its block. */
type Dispatch = readonly [signature: string, param: Param, argCount: number, block: BlockParam | undefined];
type Param = 'hash' | 'enumerable' | 'iterable' | 'str' | 'string' | 'array' | 'collection';

const HASH = puppetType('Hash');

const block = (min: number, max = min, optional = false): BlockParam => ({ min, max, optional });

/** each, map, filter, any, all (and index with a block): a Hash's two-parameter form first, as Puppet tries them. */
const LOOP: readonly Dispatch[] = [
  ['(Hash hash, Callable[2, 2] block)', 'hash', 1, block(2)],
  ['(Hash hash, Callable[1, 1] block)', 'hash', 1, block(1)],
  ['(Iterable enumerable, Callable[2, 2] block)', 'enumerable', 1, block(2)],
  ['(Iterable enumerable, Callable[1, 1] block)', 'enumerable', 1, block(1)],
];

/** group_by and partition: a Collection with one block parameter, an Array with two, a Collection with two. */
const GROUPING: readonly Dispatch[] = [
  ['(Collection collection, Callable[1, 1] block)', 'collection', 1, block(1)],
  ['(Array array, Callable[2, 2] block)', 'array', 1, block(2)],
  ['(Collection collection, Callable[2, 2] block)', 'collection', 1, block(2)],
];

const DISPATCHES: Readonly<Record<string, readonly Dispatch[]>> = {
  each: LOOP,
  group_by: GROUPING,
  partition: GROUPING,
  map: LOOP,
  filter: LOOP,
  any: LOOP,
  all: LOOP,
  index: [
    ...LOOP,
    ['(String str, Variant[String, Regexp] match)', 'str', 2, undefined],
    ['(Iterable enumerable, Any match)', 'enumerable', 2, undefined],
  ],
  reduce: [
    ['(Iterable enumerable, Callable[2, 2] block)', 'enumerable', 1, block(2)],
    ['(Iterable enumerable, Any memo, Callable[2, 2] block)', 'enumerable', 2, block(2)],
  ],
  slice: [
    ['(Hash hash, Integer[1] slice_size, Callable block?)', 'hash', 2, block(0, Infinity, true)],
    [
      '(Iterable enumerable, Integer[1] slice_size, Callable block?)',
      'enumerable',
      2,
      block(0, Infinity, true),
    ],
  ],
  unique: [
    ['(String string, Callable[String] block?)', 'string', 1, block(1, 1, true)],
    ['(Hash hash, Callable[Any] block?)', 'hash', 1, block(1, 1, true)],
    ['(Array array, Callable[Any] block?)', 'array', 1, block(1, 1, true)],
    ['(Iterable iterable, Callable[Any] block?)', 'iterable', 1, block(1, 1, true)],
  ],
  reverse_each: [
    ['(Iterable iterable)', 'iterable', 1, undefined],
    ['(Iterable iterable, Callable[1, 1] block)', 'iterable', 1, block(1)],
  ],
  step: [
    ['(Iterable iterable, Integer[1] step)', 'iterable', 2, undefined],
    ['(Iterable iterable, Integer[1] step, Callable[1, 1] block)', 'iterable', 2, block(1)],
  ],
};

function minMaxDispatches(): [string, BlockParam | undefined][] {
  return [
    ['(Numeric values*)', undefined],
    ['(String values*)', undefined],
    ['(Array[Numeric] values, Callable[2, 2] block?)', block(2, 2, true)],
    ['(Array[String] values, Callable[2, 2] block?)', block(2, 2, true)],
    ['(Array values, Callable[2, 2] block?)', block(2, 2, true)],
    ['(Any values*, Callable[2, 2] block)', block(2)],
    ['(Any values*)', undefined],
  ];
}

/** Puppet's `OptionsType` of tree_each, as its signatures print it. */
export const TREE_EACH_OPTIONS_TEXT =
  "Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], " +
  "'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], " +
  "'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}]";

/** A signature of tree_each, with its block (undefined for the dispatch without one). */
export function treeEachSignature(block: string | undefined): string {
  const blockText = block ? `, ${block}` : '';
  return `(Variant[Iterator, Array, Hash, Object] tree, OptionsType = ${TREE_EACH_OPTIONS_TEXT} options?${blockText})`;
}

/**
 * Functions whose dispatches matter only when a block is refused (their arguments are checked otherwise):
 * each signature with its block.
 */
const BLOCK_DISPATCHES: Readonly<Record<string, readonly (readonly [string, BlockParam | undefined])[]>> = {
  max: minMaxDispatches(),
  min: minMaxDispatches(),
  tree_each: [
    [treeEachSignature('Callable[2, 2] block'), block(2)],
    [treeEachSignature('Callable[1, 1] block'), block(1)],
    [treeEachSignature(undefined), undefined],
  ],
};

const PARAM_TYPES: Readonly<Record<Param, string>> = {
  hash: 'Hash',
  enumerable: 'Iterable',
  iterable: 'Iterable',
  str: 'String',
  string: 'String',
  array: 'Array',
  collection: 'Collection',
};

const EXPECTED: Readonly<Record<Param, string>> = {
  hash: 'a Hash value',
  enumerable: 'an Iterable value',
  iterable: 'an Iterable value',
  str: 'a String value',
  string: 'a String value',
  array: 'an Array value',
  collection: 'a Collection value',
};

/** A fault the describer finds: a count (of arguments or of the block's), or any other, as its text. */
type Fault =
  | { readonly kind: 'arguments' | 'block'; readonly expected: Arity; readonly got: Arity }
  | { readonly kind: 'other'; readonly text: string };

/**
 * The error for `name` called on `v` with `argCount` arguments (the receiver counted, not the block) and
 * `lambda` (undefined when no block was given).
 */
export function notIterable(name: string, v: Value, argCount: number, lambda?: Lambda): EppEvalError {
  if (DISPATCHES[name] === undefined) {
    return new EppEvalError('EPP_ARGUMENTS', `'${name}' expects an Iterable value, got ${typeLabel(v)}`);
  }
  // An Integer's type is an Iterable type (see above): only a Hash, String or Array parameter refuses it.
  const typeFits = (param: Param) =>
    (typeof v === 'number' || typeof v === 'bigint') && (param === 'enumerable' || param === 'iterable');
  return describeCall(name, v, argCount, lambda, typeFits);
}

/**
 * The error for `name` called on an iterable `v` with arguments no dispatch takes (`[1].index()`: no
 * block and no value to find): each dispatch judged by its count, its first parameter, then its block.
 */
export function refusedCall(name: string, v: Value, argCount: number, lambda?: Lambda): EppEvalError {
  const typeFits = (param: Param) =>
    param === 'hash'
      ? v instanceof Map
      : param === 'str' || param === 'string'
        ? typeof v === 'string'
        : param === 'array'
          ? Array.isArray(v)
          : param === 'collection'
            ? Array.isArray(v) || v instanceof Map
            : true;
  // Worded by the describer, which names an Array by its Tuple type.
  const typeFault = (param: Param) =>
    describeMismatch(puppetType(PARAM_TYPES[param]), v, `parameter '${param}'`);
  return describeCall(name, v, argCount, lambda, typeFits, typeFault);
}

function describeCall(
  name: string,
  v: Value,
  argCount: number,
  lambda: Lambda | undefined,
  typeFits: (param: Param) => boolean,
  typeFault = (param: Param) => `parameter '${param}' expects ${EXPECTED[param]}, got ${typeLabel(v)}`,
): EppEvalError {
  const dispatches = DISPATCHES[name]!;
  const given = lambda && arityOf(lambda);
  let faults: Fault[][] = dispatches.map(([, param, count]) => {
    if (count !== argCount) {
      return [
        { kind: 'arguments', expected: { min: count, max: count }, got: { min: argCount, max: argCount } },
      ];
    }
    if (typeFits(param)) return [];
    return [{ kind: 'other', text: typeFault(param) }];
  });
  if (faults.some((f) => f.length === 0)) {
    const blockFaults = dispatches.map(([, , , param]) => blockFault(param, given));
    const all = blockFaults.every((f) => f.length > 0);
    faults = faults.map((f, i) => (all || f.length === 0 ? blockFaults[i]! : f));
  }
  return describedCall(
    name,
    dispatches.map(([signature]) => signature),
    faults,
  );
}

/** What a lambda takes: `max` Infinity with `*$rest`. */
function arityOf(lambda: Lambda): Arity {
  return { min: lambda.requiredCount, max: lambda.hasRest ? Infinity : lambda.paramCount };
}

/**
 * The error for a block whose parameter count no dispatch of `name` takes (`expected`: the counts its
 * dispatches take, for a function not listed here). Its arguments fit (they were checked first), so each
 * dispatch is judged by its block alone: `step`'s two give `does not expect a block` and `block expects 1
 * argument, got 3`, listed; `each`'s four merge into `block expects between 1 and 2 arguments, got 3`.
 */
export function blockRefused(name: string, lambda: Lambda, expected: Arity): EppEvalError {
  const given = arityOf(lambda);
  const dispatches =
    DISPATCHES[name]?.map(([signature, , , param]) => [signature, param] as const) ?? BLOCK_DISPATCHES[name];
  if (dispatches === undefined) {
    return new EppEvalError(
      'EPP_ARGUMENTS',
      `'${name}' ${faultText({ kind: 'block', expected, got: given })}`,
    );
  }
  const faults = dispatches.map(([, param]) => blockFault(param, given));
  return describedCall(
    name,
    dispatches.map(([signature]) => signature),
    faults,
  );
}

/**
 * The error for `slice` given an iterable receiver and a size its `Integer[1]` refuses (`sizeFault`, as
 * `parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]`). The describer checks the
 * parameters in order: the hash dispatch refuses anything but a Hash at its first parameter, so only a
 * Hash receiver has the size's fault in both dispatches (one message); any other lists both.
 */
export function sliceSizeRefused(receiver: Value, sizeFault: string): EppEvalError {
  const dispatches = DISPATCHES.slice!;
  const faults: Fault[][] = dispatches.map(([, param]) => [
    {
      kind: 'other',
      text:
        param === 'hash' && !(receiver instanceof Map)
          ? describeMismatch(HASH, receiver, "parameter 'hash'")
          : sizeFault,
    },
  ]);
  return describedCall(
    'slice',
    dispatches.map(([signature]) => signature),
    faults,
  );
}

/** The faults of each dispatch as Puppet words them: one message when they are one, else the listing. */
function describedCall(
  name: string,
  signatures: readonly string[],
  faults: readonly Fault[][],
): EppEvalError {
  const one = asOne(faults.flat());
  if (one !== undefined) return new EppEvalError('EPP_ARGUMENTS', `'${name}' ${one}`);
  const lines = signatures.map(
    (signature, i) => `\n  ${signature}${faults[i]!.map((f) => `\n    rejected: ${faultText(f)}`).join('')}`,
  );
  return new EppEvalError(
    'EPP_ARGUMENTS',
    `The function '${name}' was called with arguments it does not accept. It expects one of:${lines.join('')}`,
  );
}

/** What a dispatch's block finds wrong with the block given (`given`, undefined for none). */
function blockFault(param: BlockParam | undefined, given: Arity | undefined): Fault[] {
  if (param === undefined) return given ? [{ kind: 'other', text: 'does not expect a block' }] : [];
  if (given === undefined) return param.optional ? [] : [{ kind: 'other', text: 'expects a block' }];
  if (given.min >= param.min && given.max <= param.max) return [];
  return [{ kind: 'block', expected: param, got: given }];
}

/**
 * The faults as one message, when they are one: all the same, or all counts of one kind given the same
 * count, their expected counts merged into one range (Puppet's `merge_descriptions`).
 */
function asOne(faults: readonly Fault[]): string | undefined {
  const texts = new Set(faults.map(faultText));
  if (texts.size === 1) return [...texts][0];
  const [first] = faults;
  if (first === undefined || first.kind === 'other') return undefined;
  const counts = faults.filter((f) => f.kind === first.kind && sameArity(f.got, first.got));
  if (counts.length !== faults.length) return undefined;
  const expected = {
    min: Math.min(...counts.map((f) => (f.kind === 'other' ? 0 : f.expected.min))),
    max: Math.max(...counts.map((f) => (f.kind === 'other' ? 0 : f.expected.max))),
  };
  return faultText({ ...first, expected });
}

function sameArity(a: Arity, b: Arity): boolean {
  return a.min === b.min && a.max === b.max;
}

/**
 * Puppet's CountMismatch for the arguments of a call: `expects no arguments, got 1`, `expects at most 3
 * arguments, got 4`, `expects between 4 and 7 arguments, got 2`.
 */
export function argumentCountText(expected: Arity, got: number): string {
  return faultText({ kind: 'arguments', expected, got: { min: got, max: got } });
}

/** A fault in Puppet's words: `block expects 2 arguments, got 1`, `expects 1 argument, got 2`. */
function faultText(fault: Fault): string {
  if (fault.kind === 'other') return fault.text;
  const { expected, got } = fault;
  // Puppet's CountMismatch: singular for 1, at least 1, and at most 1.
  const { min, max } = expected;
  const noun =
    (min === 1 && (max === 1 || max === Infinity)) || (min === 0 && max === 1) ? 'argument' : 'arguments';
  const what = fault.kind === 'block' ? 'block expects' : 'expects';
  return `${what} ${rangeText(expected, 'no')} ${noun}, got ${rangeText(got, 'none')}`;
}

/** Puppet's words for a count or range of counts (its `range_to_s`). */
function rangeText({ min, max }: Arity, zero: string): string {
  if (min === max) return min === 0 ? zero : String(min);
  if (min === 0) return max === Infinity ? 'unlimited' : `at most ${max}`;
  if (max === Infinity) return `at least ${min}`;
  return `between ${min} and ${max}`;
}
