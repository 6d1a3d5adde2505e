/**
 * Reading a Timestamp's text as Puppet 7 does (puppet/pops/time/timestamp.rb, `Timestamp.parse`): Ruby's
 * `DateTime._strptime` (strptime.ts) tried with each of Puppet's default formats, or with the formats
 * given, then `Time.utc` of the fields it found, less the zone's offset (zone-offsets.ts).
 */
import { EppEvalError } from '../../errors.js';
import { rubyStrptime, type Strptime } from './strptime.js';

function argumentError(message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', message);
}

/**
 * Puppet's `Timestamp.utc_offset`: `current` is the machine's offset now, anything else what
 * `_strptime(timezone, '%z')` reads (an offset, or a zone name the date gem knows).
 */
export function utcOffset(timezone: string): number {
  if (timezone.toLowerCase() === 'current') return -new Date().getTimezoneOffset() * 60;
  const offset = rubyStrptime(timezone, '%z')?.offset;
  if (offset === undefined || offset === null) throw argumentError(`Illegal timezone '${timezone}'`);
  return offset;
}

/** Puppet's `Timestamp::DEFAULT_FORMATS_WO_TZ` and `DEFAULT_FORMATS`. */
export const TIMESTAMP_FORMATS_WITHOUT_ZONE = ['%FT%T.%N', '%FT%T', '%F %T.%N', '%F %T', '%F'];
export const TIMESTAMP_FORMATS = [
  '%FT%T.%N %Z',
  '%FT%T %Z',
  '%F %T.%N %Z',
  '%F %T %Z',
  '%F %Z',
  ...TIMESTAMP_FORMATS_WITHOUT_ZONE,
];

/** Days from 1970-01-01 to the first of a month of the proleptic Gregorian calendar (any year). */
function daysFromCivil(year: bigint, month: number): bigint {
  const y = month <= 2 ? year - 1n : year;
  const era = (y >= 0n ? y : y - 399n) / 400n;
  const yoe = y - era * 400n;
  const m = BigInt(month);
  const doy = (153n * (m > 2n ? m - 3n : m + 9n) + 2n) / 5n;
  const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
  return era * 146097n + doe - 719468n;
}

/** Ruby's `Time.utc(year, mon, mday, hour, min, sec, usec)` as Puppet calls it, in nanoseconds. */
function timeUtc(h: Strptime): bigint {
  if (h.year === undefined)
    throw new EppEvalError('EPP_ARGUMENTS', 'no implicit conversion of nil into Integer');
  const mon = h.mon ?? 1;
  const mday = h.mday ?? 1;
  const hour = h.hour ?? 0;
  const min = h.min ?? 0;
  const sec = h.sec ?? 0;
  // Ruby allows hour 24 only at 24:00:00 (the next day), and second 60 (the next minute).
  if (hour === 24 && min !== 0) throw argumentError('min out of range');
  if (hour === 24 && sec !== 0) throw argumentError('sec out of range');
  const days = daysFromCivil(h.year, mon) + BigInt(mday - 1);
  const seconds = days * 86400n + BigInt(hour * 3600 + min * 60 + sec);
  let nanos = seconds * 1_000_000_000n;
  if (h.fraction) {
    const [num, den] = h.fraction;
    // `sec_fraction * 1000000` microseconds, a Rational: Time keeps it exactly, to the nanosecond
    // (rounded down), as Time#nsec gives it.
    const scaled = num * 1_000_000_000n;
    nanos += scaled >= 0n ? scaled / den : -((-scaled + den - 1n) / den);
  }
  return nanos;
}

/**
 * Puppet's `Timestamp.parse(str, format, timezone)`: nanoseconds since the epoch. `format` is undefined
 * for Puppet's defaults, a format, or a list of formats; `timezone` an explicit zone (no zone then may be
 * in the text).
 */
export function parseTimestampText(
  str: string,
  format?: string | readonly string[],
  timezone?: string,
): bigint {
  const hasTimezone = timezone !== undefined && timezone !== '';
  const formats = format ?? (hasTimezone ? TIMESTAMP_FORMATS_WITHOUT_ZONE : TIMESTAMP_FORMATS);
  let parsed: Strptime | undefined;
  if (typeof formats !== 'string') {
    for (const fmt of formats) {
      parsed = rubyStrptime(str, fmt);
      if (parsed === undefined) continue;
      if (parsed.leftover !== undefined || (hasTimezone && parsed.zone !== undefined)) {
        parsed = undefined;
        continue;
      }
      break;
    }
    if (parsed === undefined) {
      throw argumentError(`Unable to parse '${str}' using any of the formats ${formats.join(', ')}`);
    }
  } else {
    parsed = rubyStrptime(str, formats);
    if (parsed === undefined || parsed.leftover !== undefined) {
      throw argumentError(`Unable to parse '${str}' using format '${formats}'`);
    }
    if (hasTimezone && parsed.zone !== undefined) {
      throw argumentError(
        'Using a Timezone designator in format specification is mutually exclusive to providing an explicit timezone argument',
      );
    }
  }
  const zone = hasTimezone ? timezone : parsed.zone;
  const nanos = timeUtc(parsed);
  if (zone === undefined) return nanos;
  return nanos - BigInt(Math.round(utcOffset(zone) * 1e9));
}

/** Puppet's `Timestamp.convert_timezone` to the offset Ruby's `Time#localtime` takes, in seconds. */
export function timezoneOffset(timezone: string): number {
  const m = /^([+-])(\d\d):(\d\d)$/.exec(timezone);
  if (m) {
    const secs = Number(m[2]) * 3600 + Number(m[3]) * 60;
    return m[1] === '-' ? -secs : secs;
  }
  // `utc_offset(tz) / 60`: whole minutes, rounded down.
  return Math.floor(utcOffset(timezone) / 60) * 60;
}
