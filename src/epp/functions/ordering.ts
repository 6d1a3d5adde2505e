/**
 * The functions that order values: sort, min, max and compare. `sort`, `min` and `max` are Ruby's methods
 * in Puppet, so they follow Ruby: strings by bytes (case-sensitive), a lambda answering with a number,
 * nil compared like any value; `compare` is Puppet's own (strings ignore case unless told otherwise).
 */
import { EppEvalError } from '../errors.js';
import {
  compareBytes,
  compareIgnoreCase,
  compareValues,
  comparisonFailed,
  operandLabel,
} from '../runtime/compare.js';
import { rubySort } from '../runtime/ruby-sort.js';
import { describeMismatch, inferGenericType } from '../runtime/types.js';
import { isNumeric, PFloat, PSemVer, PTimeData, type Value } from '../runtime/values.js';
import { noMatchingSignature, puppetType, warnOnce } from './arguments.js';
import { blockArity } from './block-arity.js';
import { dispatch, type Signature, typeOf } from './conversion/dispatch.js';
import { type CallContext, defineFunction, type FunctionDef, type Lambda } from './registry.js';
import { rubyToS } from './ruby-text.js';

// ---------------------------------------------------------------------------------------------------------
// sort

/**
 * Ruby's `rb_cmpint`: a comparator lambda must answer with a number. For undef Ruby names the compared
 * values; for anything else it fails comparing the answer with 0.
 */
function blockOrder(result: Value, a: Value, b: Value): number {
  if (typeof result === 'number') return Math.sign(result);
  if (typeof result === 'bigint') return result > 0n ? 1 : -1;
  if (result instanceof PFloat && !Number.isNaN(result.value)) return Math.sign(result.value);
  throw result === undefined ? comparisonFailed(a, b) : comparisonFailed(result, 0);
}

/** Sorts as Ruby's `Array#sort` does (ruby-sort.ts), with Ruby's `<=>` or the lambda as the comparator. */
function sortItems(items: readonly Value[], block: Lambda | undefined): Value[] {
  if (!block) return rubySort(items, compareValues);
  blockArity('sort', block, 2);
  return rubySort(items, (a, b) => blockOrder(block(a, b), a, b));
}

const STRING = puppetType('String');
const ARRAY = puppetType('Array');

const sort = defineFunction(
  'sort',
  1,
  1,
  (_ctx, args, block) => {
    const v = args[0];
    if (typeof v === 'string') return (sortItems(Array.from(v), block) as string[]).join('');
    if (Array.isArray(v)) return sortItems(v, block);
    throw noMatchingSignature('sort', [
      [
        '(String string_value, Callable[2, 2] block?)',
        describeMismatch(STRING, v, "parameter 'string_value'"),
      ],
      ['(Array array_value, Callable[2, 2] block?)', describeMismatch(ARRAY, v, "parameter 'array_value'")],
    ]);
  },
  'optional',
);

// ---------------------------------------------------------------------------------------------------------
// min, max

const NUMERIC_TEXT = /^-?\d+([._eE]\d+)?$/;

/** Ruby's `String#to_f` for the texts {@link NUMERIC_TEXT} accepts. */
function textToFloat(s: string): number {
  return Number.parseFloat(s.replace(/_/g, ''));
}

/**
 * Strings that both look numeric compare as numbers, others by bytes (Puppet's deprecated coercion, which
 * it warns about once). `anyValues` tells that the values were not all strings to start with.
 */
function textComparer(ctx: CallContext, name: string, anyValues: boolean): (a: Value, b: Value) => number {
  return (a, b) => {
    const x = rubyToS(a);
    const y = rubyToS(b);
    if (NUMERIC_TEXT.test(x) && NUMERIC_TEXT.test(y)) {
      warnOnce(
        ctx,
        `${name}-string-to-numeric`,
        `The ${name}() function's auto conversion of String to Numeric is deprecated - change to convert input before calling, or use lambda`,
      );
      const fx = textToFloat(x);
      const fy = textToFloat(y);
      return fx < fy ? -1 : fx > fy ? 1 : 0;
    }
    if (anyValues) {
      warnOnce(
        ctx,
        `${name}-any-to-string`,
        `The ${name}() function's auto conversion of Any to String is deprecated - change to convert input before calling, or use lambda`,
      );
    }
    return compareBytes(x, y);
  };
}

function extremeOf(items: readonly Value[], sign: number, cmp: (a: Value, b: Value) => number): Value {
  let result = items[0];
  for (let i = 1; i < items.length; i++) {
    const v = items[i];
    if (cmp(v, result) * sign > 0) result = v;
  }
  return result;
}

function minMax(name: 'min' | 'max'): FunctionDef {
  const sign = name === 'max' ? 1 : -1;
  return defineFunction(
    name,
    0,
    Number.POSITIVE_INFINITY,
    (ctx, args, block) => {
      const single = args.length === 1 && Array.isArray(args[0]);
      const items = single ? (args[0] as Value[]) : args;
      if (block) {
        blockArity(name, block, 2);
        return extremeOf(items, sign, (a, b) => blockOrder(block(a, b), a, b));
      }
      if (items.length === 0) {
        throw new EppEvalError('EPP_ARGUMENTS', `${name}(): Wrong number of arguments need at least one`);
      }
      if (items.every(isNumeric)) return extremeOf(items, sign, compareValues);
      const allStrings = items.every((v) => typeof v === 'string');
      return extremeOf(items, sign, textComparer(ctx, name, !allStrings));
    },
    'optional',
  );
}

// ---------------------------------------------------------------------------------------------------------
// compare

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

const comparable = (v: Value) =>
  typeof v === 'string' || isNumeric(v) || v instanceof PTimeData || v instanceof PSemVer;

const compare = defineFunction('compare', 2, 3, (_ctx, args) => {
  const [a, b, ignoreCase] = args;
  // Puppet's `on_error` handler, which judges the third argument, takes two comparable values only.
  if (args.length === 3 && comparable(a) && comparable(b)) {
    if (typeof a !== 'string' || typeof b !== 'string') {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        "'compare' compare(): The third argument (ignore case) can only be used when comparing strings",
      );
    }
    if (typeof ignoreCase !== 'boolean') {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `'compare' compare(): The third argument (ignore case) must be a Boolean. Got ${inferGenericType(ignoreCase).toString()}`,
      );
    }
  }
  if (isNumeric(a) && isNumeric(b)) return sign(compareValues(a, b));
  if (typeof a === 'string' && typeof b === 'string') {
    return sign(ignoreCase === false ? compareBytes(a, b) : compareIgnoreCase(a, b));
  }
  // Puppet's on_timestamp, on_timespan (`a <=> b`) and on_time_num_first (`-(b <=> a)`).
  if (a instanceof PTimeData && (isNumeric(b) || (b instanceof PTimeData && b.kind === a.kind))) {
    return sign(compareValues(a, b));
  }
  if (isNumeric(a) && b instanceof PTimeData) return -sign(compareValues(b, a));
  if (a instanceof PSemVer && b instanceof PSemVer) return sign(a.compare(b));
  if (comparable(a) && comparable(b)) {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `'compare' compare(): Can only compare values of the same type (or for Timestamp/Timespan also against Numeric). Got ${operandLabel(a)} and ${operandLabel(b)}`,
    );
  }
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    `'compare' compare(): Non comparable type. Only values of the types Numeric, String, Semver, Timestamp and Timestamp can be compared. Got ${operandLabel(a)} and ${operandLabel(b)}`,
  );
});

/**
 * compare's dispatches. Without a block, a call none of them takes goes to its `argument_mismatch`
 * handlers (the `compare(): ...` messages above); a call with a block matches no handler either, so
 * Puppet describes the mismatch against these (block-refused.ts).
 */
const COMPARE_SIGNATURES: readonly Signature[] = [
  [
    { name: 'a', type: typeOf('Numeric') },
    { name: 'b', type: typeOf('Numeric') },
  ],
  [
    { name: 'a', type: typeOf('String') },
    { name: 'b', type: typeOf('String') },
    { name: 'ignore_case', type: typeOf('Boolean'), optional: true },
  ],
  [
    { name: 'a', type: typeOf('SemVer') },
    { name: 'b', type: typeOf('SemVer') },
  ],
  [
    { name: 'a', type: typeOf('Numeric') },
    { name: 'b', type: typeOf('Variant', typeOf('Timespan'), typeOf('Timestamp')) },
  ],
  [
    { name: 'a', type: typeOf('Timestamp') },
    { name: 'b', type: typeOf('Variant', typeOf('Timestamp'), typeOf('Numeric')) },
  ],
  [
    { name: 'a', type: typeOf('Timespan') },
    { name: 'b', type: typeOf('Variant', typeOf('Timespan'), typeOf('Numeric')) },
  ],
];

const compareWithChecks: FunctionDef = {
  ...compare,
  checkArguments: (args) => void dispatch('compare', COMPARE_SIGNATURES, args),
};

export const orderingFunctions: readonly FunctionDef[] = [
  sort,
  minMax('min'),
  minMax('max'),
  compareWithChecks,
];
