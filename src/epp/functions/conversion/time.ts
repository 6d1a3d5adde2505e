/** `new` of Timestamp and Timespan: their positional and hash forms, formats and fields. */
import { EppEvalError } from '../../errors.js';
import { parseTimespan, parseTimestampText } from '../../runtime/format.js';
import { nanosOfSeconds, TIMESPAN_FIELD_NANOS } from '../../runtime/time.js';
import { inferGenericType } from '../../runtime/types.js';
import {
  bigOf,
  isInteger,
  PDefault,
  PFloat,
  type PHash,
  PTimespan,
  PTimestamp,
  type Value,
} from '../../runtime/values.js';
import { arity, cannotConvert, conversionError } from './arguments.js';

/** Puppet's `Formats` of a Timestamp's or Timespan's `new`: a format, or a non-empty list of them. */
function formatsArg(target: string, v: Value): string | string[] {
  if (typeof v === 'string' && [...v].length >= 2) return v;
  if (Array.isArray(v) && v.length > 0 && v.every((f) => typeof f === 'string' && [...f].length >= 2)) {
    return v as string[];
  }
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    `${target}.new() parameter 'format' expects a value of type String[2] or Array[String[2], 1], got ${inferGenericType(v)}`,
  );
}

/** A hash form's keys, each of `keys` (Puppet's Struct of the dispatch); anything else is not converted. */
function hashForm(h: PHash, keys: readonly string[], target: string): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [k, v] of h) {
    if (typeof k !== 'string' || !keys.includes(k)) throw cannotConvert(h, target);
    out.set(k, v);
  }
  return out;
}

function nonEmptyString(target: string, name: string, v: Value): string {
  if (typeof v === 'string' && v !== '') return v;
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    `${target}.new() parameter '${name}' expects a String[1] value, got ${inferGenericType(v)}`,
  );
}

/**
 * `Timestamp.new`: now (no argument), seconds since the epoch, or a text read with Puppet's formats (or
 * those given) and a timezone, positionally or as `{string => ..., format => ..., timezone => ...}`.
 */
export function toTimestamp(args: Value[]): PTimestamp {
  arity('Timestamp', args, 0, 3);
  if (args.length === 0) return new PTimestamp(BigInt(Date.now()) * 1_000_000n);
  let [from, format, timezone] = args;
  if (args.length === 1 && from instanceof Map) {
    const h = hashForm(from, ['string', 'format', 'timezone'], 'Timestamp');
    if (!h.has('string')) throw cannotConvert(from, 'Timestamp');
    [from, format, timezone] = [h.get('string'), h.get('format'), h.get('timezone')];
  }
  if (args.length === 1 && (isInteger(from) || from instanceof PFloat)) {
    return new PTimestamp(nanosOfSeconds(from));
  }
  if (typeof from !== 'string') throw cannotConvert(from, 'Timestamp');
  const text = nonEmptyString('Timestamp', 'string', from);
  const formats =
    format === undefined || format instanceof PDefault ? undefined : formatsArg('Timestamp', format);
  const zone = timezone === undefined ? undefined : nonEmptyString('Timestamp', 'timezone', timezone);
  return new PTimestamp(wrapTimeError(() => parseTimestampText(text, formats, zone)));
}

/** The errors Puppet's time parsing raises (Ruby's ArgumentError) are conversion errors here. */
function wrapTimeError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof EppEvalError && e.code === 'EPP_ARGUMENTS') throw conversionError(e.message);
    throw e;
  }
}

const TIMESPAN_FIELDS = [
  'days',
  'hours',
  'minutes',
  'seconds',
  'milliseconds',
  'microseconds',
  'nanoseconds',
];

/** `Timespan.from_fields`: days, hours, minutes, seconds, and the fractions, each an Integer. */
function timespanOfFields(values: readonly Value[], negative = false): PTimespan {
  let ns = 0n;
  values.forEach((v, i) => {
    if (v === undefined) return;
    if (!isInteger(v)) {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `Timespan.new() parameter '${TIMESPAN_FIELDS[i]}' expects an Integer value, got ${inferGenericType(v)}`,
      );
    }
    ns += bigOf(v) * TIMESPAN_FIELD_NANOS[i]!;
  });
  return new PTimespan(negative ? -ns : ns);
}

/**
 * `Timespan.new`: seconds, a text read with Puppet's formats (or those given), days, hours, minutes and
 * seconds (and their fractions), or a hash of either form.
 */
export function toTimespan(args: Value[]): PTimespan {
  arity('Timespan', args, 1, 7);
  const [from, format] = args;
  if (args.length === 1 && (isInteger(from) || from instanceof PFloat))
    return new PTimespan(nanosOfSeconds(from));
  if (args.length === 1 && from instanceof Map) {
    if (from.has('string')) {
      const h = hashForm(from, ['string', 'format'], 'Timespan');
      const text = nonEmptyString('Timespan', 'string', h.get('string'));
      const f = h.get('format');
      const formats = f === undefined ? undefined : formatsArg('Timespan', f);
      return new PTimespan(wrapTimeError(() => parseTimespan(text, formats)));
    }
    const h = hashForm(from, ['negative', ...TIMESPAN_FIELDS], 'Timespan');
    const negative = h.get('negative');
    if (negative !== undefined && typeof negative !== 'boolean') throw cannotConvert(from, 'Timespan');
    return timespanOfFields(
      TIMESPAN_FIELDS.map((k) => h.get(k)),
      negative === true,
    );
  }
  if (typeof from === 'string' && args.length <= 2) {
    const text = nonEmptyString('Timespan', 'string', from);
    const formats = format === undefined ? undefined : formatsArg('Timespan', format);
    return new PTimespan(wrapTimeError(() => parseTimespan(text, formats)));
  }
  if (isInteger(from) && args.length >= 4) return timespanOfFields(args);
  if (args.length > 1 && isInteger(from)) arity('Timespan', args, 4, 7);
  throw cannotConvert(from, 'Timespan');
}
