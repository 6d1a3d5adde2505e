/**
 * Timespans as Puppet prints and reads them (puppet/pops/time/timespan.rb, `Timespan::Format` and its
 * `FormatParser`): `%D-%H:%M:%S.%-N`, the directives D, H, M, S, L, N with the flags `-` (no padding,
 * trailing zeroes of a fraction dropped), `_` (blanks) and `0`, and a width. The largest unit of a format
 * counts the whole span (`%H` of 25 hours is 25 when the format has no `%D`).
 */
import { EppEvalError } from '../../errors.js';
import type { PTimeData } from '../values.js';

const NSECS_PER_USEC = 1000n;
const NSECS_PER_MSEC = NSECS_PER_USEC * 1000n;
const NSECS_PER_SEC = NSECS_PER_MSEC * 1000n;
const NSECS_PER_MIN = NSECS_PER_SEC * 60n;
const NSECS_PER_HOUR = NSECS_PER_MIN * 60n;
const NSECS_PER_DAY = NSECS_PER_HOUR * 24n;

type Unit = 'D' | 'H' | 'M' | 'S' | 'L' | 'N';

/** The order of magnitude of each unit (Puppet's NSEC_MAX .. DAY_MAX). */
const MAGNITUDE: Record<Unit, number> = { N: 0, L: 1, S: 2, M: 3, H: 4, D: 5 };
const DEFAULT_WIDTH: Record<Unit, number> = { D: 1, H: 2, M: 2, S: 2, L: 3, N: 9 };
const MULTIPLIER: Record<Unit, bigint> = {
  D: NSECS_PER_DAY,
  H: NSECS_PER_HOUR,
  M: NSECS_PER_MIN,
  S: NSECS_PER_SEC,
  L: NSECS_PER_MSEC,
  N: 1n,
};

interface LiteralSegment {
  readonly literal: string;
}

interface ValueSegment {
  readonly unit: Unit;
  /** null: `-` (no padding), ' ': `_`, '0': the default. */
  readonly padchar: null | ' ' | '0';
  readonly width: number | undefined;
  useTotal: boolean;
}

type Segment = LiteralSegment | ValueSegment;

/** A compiled Timespan format. */
export interface TimespanFormat {
  readonly text: string;
  readonly segments: readonly Segment[];
  regexp?: RegExp;
}

function formatError(message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', message);
}

const compiled = new Map<string, TimespanFormat>();

/** Puppet's `FormatParser#parse_format` (its errors included), cached as Puppet caches it. */
export function compileTimespanFormat(text: string): TimespanFormat {
  const known = compiled.get(text);
  if (known) return known;
  const format = parseFormat(text);
  if (compiled.size < 1000) compiled.set(text, format);
  return format;
}

function parseFormat(str: string): TimespanFormat {
  const segments: Segment[] = [];
  const LITERAL = 0;
  const PAD = 1;
  const WIDTH = 2;
  let highest = -1;
  let state = LITERAL;
  let padchar: null | ' ' | '0' = '0';
  let width: number | undefined;
  let position = -1;
  let fstart = 0;
  const chars = [...str];
  const bad = (): EppEvalError =>
    formatError(
      `Bad format specifier '${chars.slice(fstart, position).join('')}' in '${str}', at position ${position}`,
    );
  const literal = (c: string) => {
    const last = segments[segments.length - 1];
    if (last !== undefined && 'literal' in last)
      segments[segments.length - 1] = { literal: last.literal + c };
    else segments.push({ literal: c });
  };
  for (const c of chars) {
    position++;
    if (state === LITERAL) {
      if (c === '%') {
        state = PAD;
        fstart = position;
        padchar = '0';
        width = undefined;
      } else literal(c);
      continue;
    }
    if (c === '%') {
      literal(c);
      state = LITERAL;
    } else if (c === '-' || c === '_') {
      if (state !== PAD) throw bad();
      padchar = c === '-' ? null : ' ';
      state = WIDTH;
    } else if (c === 'D' || c === 'H' || c === 'M' || c === 'S' || c === 'L' || c === 'N') {
      highest = Math.max(highest, MAGNITUDE[c]);
      segments.push({ unit: c, padchar, width, useTotal: false });
      state = LITERAL;
    } else {
      if (!(c >= '0' && c <= '9')) throw bad();
      if (state === PAD && c === '0') padchar = '0';
      else width = (width ?? 0) * 10 + Number(c);
      state = WIDTH;
    }
  }
  if (state !== LITERAL) throw bad();
  if (highest !== -1) {
    const unit = (Object.keys(MAGNITUDE) as Unit[]).find((u) => MAGNITUDE[u] === highest);
    const first = segments.find((s): s is ValueSegment => 'unit' in s && s.unit === unit);
    if (first) first.useTotal = true;
  }
  return { text: str, segments };
}

/** Ruby's `sprintf('%d' / '%Nd' / '%0Nd' / '%-Nd', n)`. */
function printValue(seg: ValueSegment, n: bigint): string {
  const fragment = seg.unit === 'L' || seg.unit === 'N';
  let v = n;
  if (fragment && !seg.useTotal && seg.padchar !== '0') {
    // Trailing zeroes of a fraction are dropped (`%-N` of half a second is `5`).
    v = BigInt(String(v).replace(/^([0-9]+?)0*$/, '$1'));
  }
  const s = String(v);
  if (seg.padchar === null) return s;
  const width = seg.width ?? DEFAULT_WIDTH[seg.unit];
  if (fragment) return s.padEnd(width, ' ');
  return s.padStart(width, seg.padchar);
}

function segmentValue(seg: ValueSegment, total: bigint): bigint {
  switch (seg.unit) {
    case 'D':
      return total / NSECS_PER_DAY;
    case 'H':
      return seg.useTotal ? total / NSECS_PER_HOUR : (total / NSECS_PER_HOUR) % 24n;
    case 'M':
      return seg.useTotal ? total / NSECS_PER_MIN : (total / NSECS_PER_MIN) % 60n;
    case 'S':
      return seg.useTotal ? total / NSECS_PER_SEC : (total / NSECS_PER_SEC) % 60n;
    case 'L':
      return seg.useTotal ? total / NSECS_PER_MSEC : (total / NSECS_PER_MSEC) % 1000n;
    case 'N': {
      const width = seg.width ?? 9;
      if (width < 9) {
        const ns = total / 10n ** BigInt(9 - width);
        return seg.useTotal ? ns : ns % 10n ** BigInt(width);
      }
      return seg.useTotal ? total : total % NSECS_PER_SEC;
    }
  }
}

/** `Timespan#format`: a `-` first for a negative span, then the segments. */
export function formatTimespan(t: PTimeData, format: string | TimespanFormat): string {
  const f = typeof format === 'string' ? compileTimespanFormat(format) : format;
  const total = t.nanos < 0n ? -t.nanos : t.nanos;
  let out = t.nanos < 0n ? '-' : '';
  for (const seg of f.segments) {
    out += 'literal' in seg ? seg.literal : printValue(seg, segmentValue(seg, total));
  }
  return out;
}

/** Puppet's `Timespan::Format::DEFAULTS`, the formats a Timespan's text is read with (the first prints it). */
export const TIMESPAN_DEFAULT_FORMATS = [
  '%D-%H:%M:%S.%-N',
  '%H:%M:%S.%-N',
  '%M:%S.%-N',
  '%S.%-N',
  '%D-%H:%M:%S',
  '%H:%M:%S',
  '%D-%H:%M',
  '%S',
];

/** How Puppet prints a Timespan: `1-02:03:04.5`. */
export function timespanToString(t: PTimeData): string {
  return formatTimespan(t, TIMESPAN_DEFAULT_FORMATS[0]!);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Ruby's `\s`: space, tab, line feed, vertical tab, form feed, carriage return. */
const WS = '[ \\t\\n\\v\\f\\r]';

function formatRegExp(f: TimespanFormat): RegExp {
  if (f.regexp) return f.regexp;
  let src = '^-?';
  for (const seg of f.segments) {
    if ('literal' in seg) {
      src += `(${escapeRegExp(seg.literal)})`;
      continue;
    }
    const dw = DEFAULT_WIDTH[seg.unit];
    if (seg.width === undefined) {
      if (seg.padchar !== ' ') src += seg.useTotal ? '([0-9]+)' : `([0-9]{1,${dw}})`;
      else src += seg.useTotal ? `${WS}*([0-9]+)` : `([0-9 \\t\\n\\v\\f\\r]{1,${dw}})`;
    } else if (seg.padchar === null) src += `([0-9]{1,${seg.width}})`;
    else if (seg.padchar === '0') src += `([0-9]{${seg.width}})`;
    else src += `([0-9 \\t\\n\\v\\f\\r]{${seg.width}})`;
  }
  f.regexp = new RegExp(`${src}$`);
  return f.regexp;
}

/** `Timespan::Format#parse`: nanoseconds, or an error in Puppet's words. */
function parseWith(text: string, f: TimespanFormat): bigint {
  const unable = () => formatError(`Unable to parse '${text}' using format '${f.text}'`);
  // Ruby's `\z` is the very end, where JavaScript's `$` (without the m flag) is too.
  const m = formatRegExp(f).exec(text);
  if (!m) throw unable();
  let nanos = 0n;
  f.segments.forEach((seg, i) => {
    if ('literal' in seg) return;
    const group = m[i + 1]!.replace(/^[ \t\n\v\f\r\0]+/, '');
    if (!/^[0-9]+$/.test(group)) throw unable();
    if (seg.unit === 'L' || seg.unit === 'N') {
      if (seg.useTotal) {
        throw formatError(
          'Format specifiers %L and %N denotes fractions and must be used together with a specifier of higher magnitude',
        );
      }
      const p = 9 - group.length;
      nanos += p <= 0 ? BigInt(group) : BigInt(group) * 10n ** BigInt(p);
    } else nanos += BigInt(group) * MULTIPLIER[seg.unit];
  });
  return text.startsWith('-') ? -nanos : nanos;
}

/**
 * `Timespan.parse`: with one format, its own errors; with a list, the first that reads the text, or
 * "Unable to parse '...' using any of the formats ...".
 */
export function parseTimespan(
  text: string,
  format: string | readonly string[] = TIMESPAN_DEFAULT_FORMATS,
): bigint {
  if (typeof format === 'string') return parseWith(text, compileTimespanFormat(format));
  for (const text_ of format) {
    // Each format is compiled when it is reached (a bad one after the one that reads the text is no error).
    const f = compileTimespanFormat(text_);
    try {
      return parseWith(text, f);
    } catch (e) {
      if (!(e instanceof EppEvalError)) throw e;
    }
  }
  throw formatError(`Unable to parse '${text}' using any of the formats ${format.join(', ')}`);
}
