/** `new` of Timestamp and Timespan: their positional and hash forms, formats and fields. */
import { EppEvalError } from '../../errors.js';
import { parseTimespan, parseTimestampText } from '../../runtime/format.js';
import { nanosOfSeconds, TIMESPAN_FIELD_NANOS } from '../../runtime/time.js';
import {
  bigOf,
  type PFloat,
  type PHash,
  type PInteger,
  PTimespan,
  PTimestamp,
  type Value,
} from '../../runtime/values.js';
import { conversionError } from './arguments.js';
import { dispatch, localAlias, once, type Signature, struct, typeOf } from './dispatch.js';

/** The signatures of Puppet 7's `new_timestamp` and `new_timespan`, in the order it tries them. */
const text = typeOf('String', 1);
const formatText = typeOf('String', 2);
const formats = () => localAlias('Formats', typeOf('Variant', formatText, typeOf('Array', formatText, 1)));
const seconds = typeOf('Variant', typeOf('Integer'), typeOf('Float'));
const integer = typeOf('Integer');
const boolean = typeOf('Boolean');

const TIMESTAMP_SIGNATURES: readonly Signature[] = [
  [],
  [{ name: 'seconds', type: seconds }],
  [
    { name: 'string', type: text },
    { name: 'format', type: formats, optional: true },
    { name: 'timezone', type: text, optional: true },
  ],
  [
    {
      name: 'hash_arg',
      type: once(() =>
        struct([
          ['string', text()],
          ['format', formats(), true],
          ['timezone', text(), true],
        ]),
      ),
    },
  ],
];

const TIMESPAN_FIELDS = [
  'days',
  'hours',
  'minutes',
  'seconds',
  'milliseconds',
  'microseconds',
  'nanoseconds',
];

const TIMESPAN_SIGNATURES: readonly Signature[] = [
  [{ name: 'seconds', type: seconds }],
  [
    { name: 'string', type: text },
    { name: 'format', type: formats, optional: true },
  ],
  TIMESPAN_FIELDS.map((name, i) => ({ name, type: integer, optional: i >= 4 })),
  [
    {
      name: 'hash_arg',
      type: once(() =>
        struct([
          ['string', text()],
          ['format', formats(), true],
        ]),
      ),
    },
  ],
  [
    {
      name: 'hash_arg',
      type: once(() =>
        struct([['negative', boolean(), true], ...TIMESPAN_FIELDS.map((f) => [f, integer(), true] as const)]),
      ),
    },
  ],
];

/**
 * `Timestamp.new`: now (no argument), seconds since the epoch, or a text read with Puppet's formats (or
 * those given) and a timezone, positionally or as `{string => ..., format => ..., timezone => ...}`.
 */
export function toTimestamp(args: Value[]): PTimestamp {
  const signature = dispatch('new_timestamp', TIMESTAMP_SIGNATURES, args);
  if (signature === 0) return new PTimestamp(BigInt(Date.now()) * 1_000_000n);
  if (signature === 1) return new PTimestamp(nanosOfSeconds(args[0] as PInteger | PFloat));
  const [text, formats, zone] = signature === 3 ? fieldsOf(args[0], 'string', 'format', 'timezone') : args;
  return new PTimestamp(
    wrapTimeError(() =>
      parseTimestampText(
        text as string,
        formats as string | string[] | undefined,
        zone as string | undefined,
      ),
    ),
  );
}

/** The values of a hash form's keys, in order (undefined for a key left out). */
function fieldsOf(hash: Value, ...keys: string[]): Value[] {
  return keys.map((k) => (hash as PHash).get(k));
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

/** `Timespan.from_fields`: days, hours, minutes, seconds, and the fractions, each an Integer. */
function timespanOfFields(values: readonly Value[], negative = false): PTimespan {
  let ns = 0n;
  values.forEach((v, i) => {
    if (v !== undefined) ns += bigOf(v as PInteger) * TIMESPAN_FIELD_NANOS[i]!;
  });
  return new PTimespan(negative ? -ns : ns);
}

/**
 * `Timespan.new`: seconds, a text read with Puppet's formats (or those given), days, hours, minutes and
 * seconds (and their fractions), or a hash of either form.
 */
export function toTimespan(args: Value[]): PTimespan {
  const signature = dispatch('new_timespan', TIMESPAN_SIGNATURES, args);
  switch (signature) {
    case 0:
      return new PTimespan(nanosOfSeconds(args[0] as PInteger | PFloat));
    case 2:
      return timespanOfFields(args);
    case 4: {
      const [negative, ...fields] = fieldsOf(args[0], 'negative', ...TIMESPAN_FIELDS);
      return timespanOfFields(fields, negative === true);
    }
    default: {
      const [text, formats] = signature === 3 ? fieldsOf(args[0], 'string', 'format') : args;
      const parse = () => parseTimespan(text as string, formats as string | string[] | undefined);
      return new PTimespan(wrapTimeError(parse));
    }
  }
}
