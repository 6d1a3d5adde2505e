/**
 * The merging half of Puppet's `PVariantType#normalize`: a Variant's members of one kind that can be
 * one type become it (`Variant[Integer[1, 1], Integer[2, 2]]` is `Integer[1, 2]`, two Enums one Enum).
 * A mismatch message names the normalized type, so this decides `got Iterator[Integer]` over
 * `got Iterator[Variant]` and `expects a match for Enum['a', 'b']`.
 * Part of the Puppet type system; import it from `../types.js`.
 *
 * Puppet merges each kind in one pass that is no fixpoint (see {@link mergeRangesOnePass}); the describer
 * normalizes again each time it merges two mismatches, so how many passes a type gets is part of the
 * message, and this does exactly one.
 */
import type { PRegexp } from '../values.js';
import {
  EnumType,
  FloatType,
  IntegerType,
  NotUndefType,
  type NumericType,
  PatternType,
  type PType,
  SemVerType,
  StringType,
  TimespanType,
  TimestampType,
  variantOf,
} from './internal.js';
import { mergeRangesOnePass } from './range-merge.js';

/** The members of a flattened Variant (no Undef or Optional among them) after Puppet's merges, in its order. */
export function mergeVariantMembers(types: readonly PType[]): PType[] {
  let out = swapNotUndefs([...types]);
  out = mergeEnums(out);
  out = mergePatterns(out);
  out = mergeVersionRanges(out);
  out = mergeNumbers(out, IntegerType);
  out = mergeNumbers(out, FloatType);
  out = mergeTimes(out, TimespanType);
  out = mergeTimes(out, TimestampType);
  return out;
}

function partition(types: readonly PType[], test: (t: PType) => boolean): [PType[], PType[]] {
  return [types.filter(test), types.filter((t) => !test(t))];
}

/** Several `NotUndef[T]` become one `NotUndef[Variant[T...]]`, last. */
function swapNotUndefs(types: PType[]): PType[] {
  const [notUndefs, others] = partition(types, (t) => t instanceof NotUndefType);
  if (notUndefs.length < 2) return types;
  const inner = variantOf(notUndefs.map((t) => (t as NotUndefType).type!)).normalize();
  return [...others, new NotUndefType(inner)];
}

/** Case-sensitive Enums and Strings of one value become one Enum, then case-insensitive Enums one. */
function mergeEnums(types: PType[]): PType[] {
  let out = types;
  const [sensitive, rest] = partition(
    out,
    (t) =>
      (t instanceof EnumType && t.values.length > 0 && !t.caseInsensitive) ||
      (t instanceof StringType && t.value !== undefined),
  );
  if (sensitive.length > 1) {
    const values = sensitive.flatMap((t) => (t instanceof StringType ? [t.value!] : (t as EnumType).values));
    out = [...rest, new EnumType(values)];
  }
  const [insensitive, others] = partition(
    out,
    (t) => t instanceof EnumType && t.values.length > 0 && t.caseInsensitive,
  );
  if (insensitive.length > 1) {
    const values = insensitive.flatMap((t) => (t as EnumType).values.map((v) => v.toLowerCase()));
    out = [...others, new EnumType(values, true)];
  }
  return out;
}

function mergePatterns(types: PType[]): PType[] {
  const [patterns, others] = partition(types, (t) => t instanceof PatternType);
  if (patterns.length < 2) return types;
  const unique: PRegexp[] = [];
  for (const p of patterns.flatMap((t) => (t as PatternType).patterns)) {
    if (!unique.some((u) => u.source === p.source)) unique.push(p);
  }
  return [...others, new PatternType(unique)];
}

/** SemVer types become one, first (its constructor merges the ranges that touch). */
function mergeVersionRanges(types: PType[]): PType[] {
  const [versions, others] = partition(types, (t) => t instanceof SemVerType);
  if (versions.length < 2) return types;
  return [new SemVerType(versions.flatMap((t) => (t as SemVerType).ranges)), ...others];
}

function mergeNumbers(types: PType[], kind: typeof IntegerType | typeof FloatType): PType[] {
  const [ranges, others] = partition(types, (t) => t instanceof kind);
  if (ranges.length < 2) return types;
  return [...mergeRangesOnePass(ranges as NumericType[], (a, b) => mergeNumeric(a, b, kind)), ...others];
}

/** Integer ranges merge when they overlap or touch, Float ranges when they overlap. */
function mergeNumeric(a: NumericType, b: NumericType, kind: typeof IntegerType | typeof FloatType) {
  const overlap = !(a.to < b.from || b.to < a.from);
  const adjacent = kind === IntegerType && (followedBy(a.to, b.from) || followedBy(b.to, a.from));
  if (!overlap && !adjacent) return undefined;
  return new kind(a.from <= b.from ? a.from : b.from, a.to >= b.to ? a.to : b.to);
}

/** Whether Integer `y` is `x + 1` (exact past 2^53; an open end is followed by nothing). */
function followedBy(x: number | bigint, y: number | bigint): boolean {
  if (typeof x === 'number' && !Number.isFinite(x)) return false;
  if (typeof y === 'number' && !Number.isFinite(y)) return false;
  return BigInt(x) + 1n === BigInt(y);
}

type TimeType = TimespanType | TimestampType;

/**
 * Overlapping Timespan (Timestamp) ranges merge. Puppet's own merge of two that do not overlap fails
 * (`undefined method 'adjacent?'`, a Ruby error no template should meet), so those are left apart here.
 */
function mergeTimes(types: PType[], kind: typeof TimespanType | typeof TimestampType): PType[] {
  const [ranges, others] = partition(types, (t) => t instanceof kind);
  if (ranges.length < 2) return types;
  const merge = (a: TimeType, b: TimeType): TimeType | undefined => {
    const [aFrom, aTo] = nanoBounds(a);
    const [bFrom, bTo] = nanoBounds(b);
    if (aTo < bFrom || bTo < aFrom) return undefined;
    return new kind(aFrom <= bFrom ? a.from : b.from, aTo >= bTo ? a.to : b.to);
  };
  return [...mergeRangesOnePass(ranges as TimeType[], merge), ...others];
}

function nanoBounds(t: TimeType): [number | bigint, number | bigint] {
  return [t.from?.nanos ?? Number.NEGATIVE_INFINITY, t.to?.nanos ?? Number.POSITIVE_INFINITY];
}
