/**
 * Timestamps: Ruby's Time#strftime on a UTC time (or a fixed offset), and a timestamp's text. Reading
 * one is in `timestamp-text.ts`, Timespans in `timespans.ts`.
 */
import { EppEvalError } from '../../errors.js';
import { MAX_STRING_LENGTH, textTooLong } from '../size-limits.js';
import type { PTimeData } from '../values.js';
import { DAYS, MONTHS } from './calendar-names.js';
import { MAX_WIDTH } from './sprintf-spec.js';
import { timespanToString } from './timespans.js';
import { timezoneOffset } from './timestamp-text.js';

/** A timestamp as Puppet prints it: `2020-02-03T04:05:06.000000000 UTC`. */
export function timestampToString(ts: PTimeData): string {
  return strftime(ts, '%FT%T.%N %Z');
}

/** A Timestamp's or a Timespan's `to_s`. */
export function timeDataToString(t: PTimeData): string {
  return t.kind === 'Timespan' ? timespanToString(t) : timestampToString(t);
}

interface TimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  wday: number;
  yday: number;
  epoch: number;
}

function timeParts(total: bigint, offset: number): TimeParts {
  // Whole seconds (rounded down, as Ruby's Time keeps them) and the nanoseconds within the second.
  let wholeBig = total / 1_000_000_000n;
  let nanosBig = total % 1_000_000_000n;
  if (nanosBig < 0n) {
    wholeBig -= 1n;
    nanosBig += 1_000_000_000n;
  }
  const whole = Number(wholeBig);
  const nanos = Number(nanosBig);
  const local = new Date((whole + offset) * 1000);
  if (Number.isNaN(local.getTime())) throw new EppEvalError('EPP_ARGUMENTS', 'the timestamp is out of range');
  const start = Date.UTC(local.getUTCFullYear(), 0, 1);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    nanos,
    wday: local.getUTCDay(),
    yday: Math.floor((local.getTime() - start) / 86_400_000) + 1,
    epoch: whole,
  };
}

/** ISO 8601 week-based year and week number: the week of this week's Thursday. */
function isoWeek(t: TimeParts): { year: number; week: number } {
  const monday0 = (t.wday + 6) % 7;
  const thursday = new Date(Date.UTC(t.year, t.month - 1, t.day + 3 - monday0));
  const year = thursday.getUTCFullYear();
  const ordinal = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / 86_400_000);
  return { year, week: 1 + Math.floor(ordinal / 7) };
}

/**
 * Ruby's `Time#strftime` for a timestamp, in UTC or at the given timezone offset. Supports the flags `-`
 * (no padding), `_` (space padding), `0`, `^` (upper case), `#` (swap case) and a width.
 */
export function strftime(ts: PTimeData, format: string, timezone?: string): string {
  // Puppet's `format_time`: no timezone (or an empty one) is UTC, any other Ruby's `Time#localtime` at
  // the offset `convert_timezone` makes of it (a fixed offset: `%Z` is then empty).
  const utc = timezone === undefined || timezone === '';
  const offset = utc ? 0 : timezoneOffset(timezone);
  const t = timeParts(ts.nanos, offset);
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    // Flags, a width, Ruby's E and O modifiers (which change nothing here) and colons (for `z` only).
    const m = /^([-_0^#]*)(\d*)[EO]?(:{0,3})([a-zA-Z%+])/.exec(format.slice(i + 1));
    if (!m) {
      // A directive the format ends inside of (`%`, `%-`, `%5` at its end) is Ruby's "invalid format".
      if (/^[-_0^#]*\d*[EO]?:{0,3}$/.test(format.slice(i + 1))) {
        throw new EppEvalError('EPP_ARGUMENTS', `invalid format: ${format}`);
      }
      out += c;
      continue;
    }
    if (m[3] !== '' && m[4] !== 'z') {
      // Colons mean something to `z` alone: Ruby prints any other such directive as it is.
      out += c + m[0];
      i += m[0].length;
      continue;
    }
    i += m[0].length;
    const width = m[2] ? Number(m[2]) : undefined;
    if (width !== undefined && width > MAX_WIDTH)
      throw new EppEvalError('EPP_ARGUMENTS', 'strftime: width too big');
    out += strftimeDirective(t, m[4]!, m[1]!, width, m[3]!.length, offset, utc);
    // Each directive may be a million characters wide: the text is bounded as it grows.
    if (out.length > MAX_STRING_LENGTH) throw textTooLong('the text of strftime()');
  }
  return out;
}

function strftimeDirective(
  t: TimeParts,
  conv: string,
  flags: string,
  width: number | undefined,
  colons: number,
  offset: number,
  utc: boolean,
): string {
  const num = (n: number, w: number, padChar = '0') => {
    const p = flags.includes('-') ? '' : flags.includes('_') ? ' ' : flags.includes('0') ? '0' : padChar;
    const s = String(Math.abs(n));
    const len = width ?? w;
    return (n < 0 ? '-' : '') + (p ? s.padStart(len - (n < 0 ? 1 : 0), p) : s);
  };
  const text = (s: string) => {
    let r = s;
    if (flags.includes('^')) r = r.toUpperCase();
    if (flags.includes('#')) r = r === r.toUpperCase() ? r.toLowerCase() : r.toUpperCase();
    // `-` leaves text unpadded, whatever the width (`%-10A` is `Thursday`).
    if (width !== undefined && r.length < width && !flags.includes('-')) {
      r = r.padStart(width, flags.includes('0') ? '0' : ' ');
    }
    return r;
  };
  const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  switch (conv) {
    case 'Y':
      // Ruby pads the year to four digits (`0001`), unless a flag or width says otherwise.
      return num(t.year, 4);
    case 'C':
      return num(Math.floor(t.year / 100), 2);
    case 'y':
      return num(t.year % 100, 2);
    case 'm':
      return num(t.month, 2);
    case 'B':
      return text(MONTHS[t.month - 1]!);
    case 'b':
    case 'h':
      return text(MONTHS[t.month - 1]!.slice(0, 3));
    case 'd':
      return num(t.day, 2);
    case 'e':
      return num(t.day, 2, ' ');
    case 'j':
      return num(t.yday, 3);
    case 'H':
      return num(t.hour, 2);
    case 'k':
      return num(t.hour, 2, ' ');
    case 'I':
      return num(hour12, 2);
    case 'l':
      return num(hour12, 2, ' ');
    case 'P':
      return text(t.hour < 12 ? 'am' : 'pm');
    case 'p':
      return flags.includes('#') ? (t.hour < 12 ? 'am' : 'pm') : text(t.hour < 12 ? 'AM' : 'PM');
    case 'M':
      return num(t.minute, 2);
    case 'S':
      return num(t.second, 2);
    case 'L':
      return String(t.nanos)
        .padStart(9, '0')
        .slice(0, width ?? 3)
        .padEnd(width ?? 3, '0');
    case 'N':
      return String(t.nanos)
        .padStart(9, '0')
        .slice(0, width ?? 9)
        .padEnd(width ?? 9, '0');
    case 'z': {
      const sign = offset < 0 ? '-' : '+';
      const hh = String(Math.floor(Math.abs(offset) / 3600)).padStart(2, '0');
      const mm = String(Math.floor((Math.abs(offset) % 3600) / 60)).padStart(2, '0');
      const ss = String(Math.abs(offset) % 60).padStart(2, '0');
      if (colons === 1) return `${sign}${hh}:${mm}`;
      if (colons === 2) return `${sign}${hh}:${mm}:${ss}`;
      // `%:::z`: as much as the offset needs (`+00`, `+05:30`).
      if (colons === 3) return `${sign}${hh}${ss !== '00' ? `:${mm}:${ss}` : mm !== '00' ? `:${mm}` : ''}`;
      return `${sign}${hh}${mm}`;
    }
    case 'Z':
      return text(utc ? 'UTC' : '');
    case 'A':
      return text(DAYS[t.wday]!);
    case 'a':
      return text(DAYS[t.wday]!.slice(0, 3));
    case 'u':
      return num(t.wday === 0 ? 7 : t.wday, 1);
    case 'w':
      return num(t.wday, 1);
    case 'G':
      return num(isoWeek(t).year, 4);
    case 'g':
      return num(isoWeek(t).year % 100, 2);
    case 'V':
      return num(isoWeek(t).week, 2);
    case 'U':
      return num(Math.floor((t.yday - 1 - t.wday + 7) / 7), 2);
    case 'W':
      return num(Math.floor((t.yday - 1 - ((t.wday + 6) % 7) + 7) / 7), 2);
    case 's':
      return num(t.epoch, 1);
    case 'n':
      return text('\n');
    case 't':
      return text('\t');
    case '%':
      return text('%');
    case 'c':
      return text(
        `${DAYS[t.wday]!.slice(0, 3)} ${MONTHS[t.month - 1]!.slice(0, 3)} ${String(t.day).padStart(2, ' ')} ${hms(t)} ${t.year}`,
      );
    case 'D':
    case 'x':
      return text(`${pad2(t.month)}/${pad2(t.day)}/${pad2(t.year % 100)}`);
    case 'F':
      return text(`${String(t.year).padStart(4, '0')}-${pad2(t.month)}-${pad2(t.day)}`);
    case 'T':
    case 'X':
      return text(hms(t));
    case 'R':
      return text(`${pad2(t.hour)}:${pad2(t.minute)}`);
    case 'r':
      return text(`${pad2(hour12)}:${pad2(t.minute)}:${pad2(t.second)} ${t.hour < 12 ? 'AM' : 'PM'}`);
    case 'v':
      return text(
        `${String(t.day).padStart(2, ' ')}-${MONTHS[t.month - 1]!.slice(0, 3).toUpperCase()}-${t.year}`,
      );
    default:
      return `%${flags}${width ?? ''}${conv}`;
  }
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function hms(t: TimeParts): string {
  return `${pad2(t.hour)}:${pad2(t.minute)}:${pad2(t.second)}`;
}
