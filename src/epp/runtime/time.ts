/**
 * Puppet's TimeData arithmetic (puppet/pops/time/timespan.rb): Timestamps and Timespans are integer
 * nanoseconds, seconds come in as `(seconds * NSECS_PER_SEC).to_i` (a Float's product truncated, so
 * `Timestamp(1.000001)` is `...01.000000999`), and they read as seconds where Ruby's `to_i` (floored) and
 * `to_f` (`Integer#fdiv`) take them.
 */
import { EppEvalError } from '../errors.js';
import { PFloat, type PInteger, type PTimeData } from './values.js';

export const NSECS_PER_SEC = 1_000_000_000n;

/** Nanoseconds in each field of a Timespan given as fields: days, hours, minutes, seconds, ms, µs, ns. */
export const TIMESPAN_FIELD_NANOS: readonly bigint[] = [
  86_400_000_000_000n,
  3_600_000_000_000n,
  60_000_000_000n,
  NSECS_PER_SEC,
  1_000_000n,
  1000n,
  1n,
];

/** Ruby's `(seconds * NSECS_PER_SEC).to_i`: exact for an Integer, the Float product truncated. */
export function nanosOfSeconds(seconds: PInteger | PFloat): bigint {
  if (!(seconds instanceof PFloat)) return BigInt(seconds) * NSECS_PER_SEC;
  const product = seconds.value * 1e9;
  if (!Number.isFinite(product)) {
    // Ruby's FloatDomainError of `Infinity.to_i`.
    throw new EppEvalError('EPP_ARGUMENTS', formatNonFinite(product));
  }
  return BigInt(Math.trunc(product));
}

function formatNonFinite(n: number): string {
  return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
}

/** Ruby's Integer division (`/`, `div`): rounds toward negative infinity. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** Ruby's Integer modulo (`%`): takes the sign of the divisor. */
export function floorMod(a: bigint, b: bigint): bigint {
  const r = a % b;
  return r !== 0n && r < 0n !== b < 0n ? r + b : r;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/**
 * Ruby's `Integer#fdiv` (Ruby 3.1): both reduced by their gcd, then divided as doubles (`to_f` of a
 * TimeData, `Timespan / Timespan`).
 */
export function rubyFdiv(a: bigint, b: bigint): number {
  if (b === 0n) return a === 0n ? Number.NaN : a > 0n ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  const g = gcd(a, b);
  const x = g > 1n ? a / g : a;
  const y = g > 1n ? b / g : b;
  return Number(x) / Number(y);
}

/** A TimeData's `to_f`: its seconds as a Float. */
export function timeToFloat(t: PTimeData): number {
  return rubyFdiv(t.nanos, NSECS_PER_SEC);
}

/** A TimeData's `to_i`: whole seconds, rounded down (Ruby's Integer `/`). */
export function timeToInteger(t: PTimeData): bigint {
  return floorDiv(t.nanos, NSECS_PER_SEC);
}

function sign(a: number | bigint, b: number | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * TimeData's `<=>` with a number: an Integer against its whole seconds (`to_int`), a Float against its
 * `to_f`. NaN compares as nothing (undefined).
 */
export function compareTimeWithNumber(t: PTimeData, n: PInteger | PFloat): number | undefined {
  if (n instanceof PFloat) {
    if (Number.isNaN(n.value)) return undefined;
    return sign(timeToFloat(t), n.value);
  }
  return sign(timeToInteger(t), typeof n === 'bigint' ? n : BigInt(n));
}

/** Compares two counts of nanoseconds. */
export function compareNanos(a: bigint, b: bigint): number {
  return sign(a, b);
}
