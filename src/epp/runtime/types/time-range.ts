/**
 * `Timestamp[from, to]` and `Timespan[from, to]`: the bounds of a time type from what Puppet takes for them.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { EppEvalError } from '../../errors.js';
import { parseTimespan } from '../format/timespans.js';
import { parseTimestampText } from '../format/timestamp-text.js';
import { timeDataToString } from '../format/timestamps.js';
import { nanosOfSeconds, TIMESPAN_FIELD_NANOS } from '../time.js';
import { PDefault, PFloat, PRegexp, type PTimeData, PTimespan, PTimestamp, type Value } from '../values.js';
import { TimespanType, TimestampType } from './internal.js';

function argError(message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', message);
}

/** A Ruby error while Puppet makes the type, worded as the access expression's (as in parameterize.ts). */
function accessError(message: string): EppEvalError {
  return argError(`Error while evaluating a '[]' expression, ${message}`);
}

/**
 * `Timestamp[from, to]` and `Timespan[from, to]` (Puppet's `convert_arg`): each end a value of the kind, a
 * text read with Puppet's default formats, seconds, a hash as `new` takes it, or `default`.
 */
export function timeRange(span: boolean, keys: readonly Value[]): TimestampType | TimespanType {
  const make = (nanos: bigint) => (span ? new PTimespan(nanos) : new PTimestamp(nanos));
  const end = (v: Value): PTimeData | undefined => {
    try {
      return timeOf(v);
    } catch (e) {
      // Raised in Ruby as the type is made: worded as the access expression's (see `accessError`).
      throw e instanceof EppEvalError ? accessError(e.message) : e;
    }
  };
  const timeOf = (v: Value): PTimeData | undefined => {
    if (v === undefined || v instanceof PDefault) return undefined;
    if (span ? v instanceof PTimespan : v instanceof PTimestamp) return v as PTimeData;
    if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PFloat) return make(nanosOfSeconds(v));
    if (typeof v === 'string') return make(span ? parseTimespan(v) : parseTimestampText(v));
    if (v instanceof Map) return make(timeOfHash(span, v));
    const rubyClass =
      v === true ? 'TrueClass' : v === false ? 'FalseClass' : v instanceof PRegexp ? 'Regexp' : 'Object';
    throw argError(
      `Unable to create a Puppet::Pops::Time::${span ? 'Timespan' : 'Timestamp'} from a ${rubyClass}`,
    );
  };
  const from = end(keys[0]);
  const to = end(keys[1]);
  if (from !== undefined && to !== undefined && from.nanos > to.nanos) {
    // Ruby's ArgumentError, its `)` missing.
    throw accessError(
      `'from' must be less or equal to 'to'. Got (${timeDataToString(from)}, ${timeDataToString(to)}`,
    );
  }
  return span ? new TimespanType(from, to) : new TimestampType(from, to);
}

/** `Timestamp.from_hash` and `Timespan.from_hash`, for a bound of a type. */
function timeOfHash(span: boolean, h: Map<Value, Value>): bigint {
  const str = (k: string): string | undefined => {
    const v = h.get(k);
    return typeof v === 'string' ? v : undefined;
  };
  const formats = (): string | string[] | undefined => {
    const f = h.get('format');
    return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : str('format');
  };
  if (!span) return parseTimestampText(str('string') ?? '', formats(), str('timezone'));
  if (h.has('string')) return parseTimespan(str('string') ?? '', formats());
  const fields = ['days', 'hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'];
  let ns = 0n;
  fields.forEach((k, i) => {
    const v = h.get(k);
    if (typeof v === 'number' || typeof v === 'bigint') ns += BigInt(v) * TIMESPAN_FIELD_NANOS[i]!;
  });
  return h.get('negative') === true ? -ns : ns;
}
