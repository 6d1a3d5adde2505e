/**
 * Ruby's `DateTime._strptime` (the date gem 3.2's date_strptime.c): the fields a text gives under a format,
 * directive by directive. Reading a Timestamp's text with it is timestamp-text.ts; the zones it knows,
 * zone-offsets.ts.
 */

import { isDigit, isSpace } from './c-chars.js';
import { DAYS, MONTHS } from './calendar-names.js';
import { zoneToDiff } from './zone-offsets.js';

/** What `_strptime` found (the fields Puppet reads, and the rest to tell a match from a failure). */
export interface Strptime {
  year?: bigint;
  mon?: number;
  mday?: number;
  hour?: number;
  min?: number;
  sec?: number;
  /** `sec_fraction`: numerator and denominator (a power of ten). */
  fraction?: readonly [bigint, bigint];
  zone?: string;
  /** The zone's offset in seconds, or null when the zone is not known (Ruby's nil). */
  offset?: number | null;
  leftover?: string;
  cent?: bigint;
  merid?: number;
  fail?: boolean;
}

/** `num_pattern_p`: whether what follows in the format reads digits (a width is then kept to). */
function numPattern(fmt: string, i: number): boolean {
  let c = fmt[i];
  if (isDigit(c)) return true;
  if (c !== '%') return false;
  c = fmt[++i];
  if (c === 'E' || c === 'O') c = fmt[++i];
  return c !== undefined && ('CDdeFGgHIjkLlMmNQRrSsTUuVvWwXxYy'.includes(c) || isDigit(c));
}

// Ruby's zone pattern of `%z`/`%Z` (case-insensitive; `[[:alpha:]]`, `\s` and `\b` on ASCII).
const ZONE =
  /^((?:gmt|utc?)?[-+]\d+(?:[,.:]\d+(?::\d+)?)?|[A-Za-z.\t\n\v\f\r ]+(?:standard|daylight)[\t\n\v\f\r ]+time(?![A-Za-z0-9_])|[A-Za-z]+(?:[\t\n\v\f\r ]+dst)?(?![A-Za-z0-9_]))/i;

/** `date__strptime_internal`: the index in `str` it reached, or -1 when it failed (`h.fail` set). */
function strptimeInternal(str: string, fmt: string, h: Strptime): number {
  let si = 0;
  let fi = 0;
  const fail = () => {
    h.fail = true;
    return -1;
  };
  const readDigits = (width: number): bigint | undefined => {
    let l = 0;
    while (si + l < str.length && isDigit(str[si + l])) if (++l === width) break;
    if (l === 0) return undefined;
    const n = BigInt(str.slice(si, si + l));
    si += l;
    return n;
  };
  // `%d`, `%e`, `%H`, `%I` and their like read a blank and one digit, or up to two digits.
  const readBlankThenDigit = (): bigint | undefined => {
    si++;
    return readDigits(1);
  };
  const recur = (sub: string): boolean => {
    const l = strptimeInternal(str.slice(si), sub, h);
    if (h.fail) return false;
    si += l;
    return true;
  };
  const inRange = (n: bigint, a: number, b: number) => n >= BigInt(a) && n <= BigInt(b);
  while (fi < fmt.length) {
    if (isSpace(fmt[fi])) {
      while (si < str.length && isSpace(str[si])) si++;
      while (++fi < fmt.length && isSpace(fmt[fi]));
      continue;
    }
    if (si >= str.length) return fail();
    if (fmt[fi] !== '%') {
      if (str[si] !== fmt[fi]) return fail();
      si++;
      fi++;
      continue;
    }
    // A directive: its modifiers first (E and O before some, colons before z).
    fi++;
    let c = fmt[fi];
    if (
      (c === 'E' && fmt[fi + 1] !== undefined && 'cCxXyY'.includes(fmt[fi + 1]!)) ||
      (c === 'O' && fmt[fi + 1] !== undefined && 'deHImMSuUVwWy'.includes(fmt[fi + 1]!))
    ) {
      c = fmt[++fi];
    } else if (c === 'E' || c === 'O') {
      // Not a modifier here: the `%` is an ordinary character.
      fi--;
      if (str[si] !== fmt[fi]) return fail();
      si++;
      fi++;
      continue;
    } else if (c === ':') {
      let i = 1;
      while (i < 3 && fi + i < fmt.length && fmt[fi + i] === ':') i++;
      if (fmt[fi + i] !== 'z') return fail();
      fi += i;
      c = 'z';
    }
    const digitsOr = (width: number) => (numPattern(fmt, fi + 1) ? width : Number.POSITIVE_INFINITY);
    switch (c) {
      case 'A':
      case 'a':
      case 'B':
      case 'b':
      case 'h': {
        const names = c === 'A' || c === 'a' ? DAYS : MONTHS;
        const at = str.slice(si).toLowerCase();
        const i = names.findIndex(
          (n) => at.startsWith(n.toLowerCase()) || at.startsWith(n.slice(0, 3).toLowerCase()),
        );
        if (i < 0) return fail();
        si += at.startsWith(names[i]!.toLowerCase()) ? names[i]!.length : 3;
        if (names === MONTHS) h.mon = i + 1;
        break;
      }
      case 'C': {
        const n = readDigits(digitsOr(2));
        if (n === undefined) return fail();
        h.cent = n;
        break;
      }
      case 'c':
        if (!recur('%a %b %e %H:%M:%S %Y')) return -1;
        break;
      case 'D':
      case 'x':
        if (!recur('%m/%d/%y')) return -1;
        break;
      case 'd':
      case 'e': {
        const n = str[si] === ' ' ? readBlankThenDigit() : readDigits(2);
        if (n === undefined || !inRange(n, 1, 31)) return fail();
        h.mday = Number(n);
        break;
      }
      case 'F':
        if (!recur('%Y-%m-%d')) return -1;
        break;
      case 'G': {
        if (readDigits(digitsOr(4)) === undefined) return fail();
        break;
      }
      case 'g': {
        const n = readDigits(2);
        if (n === undefined || !inRange(n, 0, 99)) return fail();
        h.cent ??= n >= 69n ? 19n : 20n;
        break;
      }
      case 'H':
      case 'k':
      case 'I':
      case 'l': {
        const n = str[si] === ' ' ? readBlankThenDigit() : readDigits(2);
        if (n === undefined || !(c === 'H' || c === 'k' ? inRange(n, 0, 24) : inRange(n, 1, 12)))
          return fail();
        h.hour = Number(n);
        break;
      }
      case 'j': {
        const n = readDigits(3);
        if (n === undefined || !inRange(n, 1, 366)) return fail();
        break;
      }
      case 'L':
      case 'N': {
        let sign = 1n;
        if (str[si] === '-' || str[si] === '+') {
          if (str[si] === '-') sign = -1n;
          si++;
        }
        const start = si;
        const n = readDigits(digitsOr(c === 'L' ? 3 : 9));
        if (n === undefined) return fail();
        h.fraction = [sign * n, 10n ** BigInt(si - start)];
        break;
      }
      case 'M':
      case 'S': {
        const n = readDigits(2);
        if (n === undefined || !inRange(n, 0, c === 'M' ? 59 : 60)) return fail();
        if (c === 'M') h.min = Number(n);
        else h.sec = Number(n);
        break;
      }
      case 'm': {
        const n = readDigits(2);
        if (n === undefined || !inRange(n, 1, 12)) return fail();
        h.mon = Number(n);
        break;
      }
      case 'n':
      case 't':
        if (!recur(' ')) return -1;
        break;
      case 'P':
      case 'p': {
        if (str.length - si < 2) return fail();
        let ch = str[si]!;
        const hour = ch === 'P' || ch === 'p' ? 12 : 0;
        if (!hour && !(ch === 'A' || ch === 'a')) return fail();
        ch = str[si + 1]!;
        if (ch === '.') {
          if (str.length - si < 4 || str[si + 3] !== '.') return fail();
          si += 2;
          ch = str[si]!;
        }
        if (!(ch === 'M' || ch === 'm')) return fail();
        si += 2;
        h.merid = hour;
        break;
      }
      case 'Q':
      case 's': {
        if (str[si] === '-') si++;
        if (readDigits(Number.POSITIVE_INFINITY) === undefined) return fail();
        break;
      }
      case 'R':
        if (!recur('%H:%M')) return -1;
        break;
      case 'r':
        if (!recur('%I:%M:%S %p')) return -1;
        break;
      case 'T':
      case 'X':
        if (!recur('%H:%M:%S')) return -1;
        break;
      case 'U':
      case 'W': {
        const n = readDigits(2);
        if (n === undefined || !inRange(n, 0, 53)) return fail();
        break;
      }
      case 'u': {
        const n = readDigits(1);
        if (n === undefined || !inRange(n, 1, 7)) return fail();
        break;
      }
      case 'V': {
        const n = readDigits(2);
        if (n === undefined || !inRange(n, 1, 53)) return fail();
        break;
      }
      case 'v':
        if (!recur('%e-%b-%Y')) return -1;
        break;
      case 'w': {
        const n = readDigits(1);
        if (n === undefined || !inRange(n, 0, 6)) return fail();
        break;
      }
      case 'Y': {
        let sign = 1n;
        if (str[si] === '-' || str[si] === '+') {
          if (str[si] === '-') sign = -1n;
          si++;
        }
        const n = readDigits(digitsOr(4));
        if (n === undefined) return fail();
        h.year = sign * n;
        break;
      }
      case 'y': {
        const n = readDigits(2);
        if (n === undefined || !inRange(n, 0, 99)) return fail();
        h.year = n;
        h.cent ??= n >= 69n ? 19n : 20n;
        break;
      }
      case 'Z':
      case 'z': {
        const m = ZONE.exec(str.slice(si));
        if (!m) return fail();
        h.zone = m[1]!;
        h.offset = zoneToDiff(m[1]!);
        si += m[0].length;
        break;
      }
      case '%':
        if (str[si] !== '%') return fail();
        si++;
        break;
      case '+':
        if (!recur('%a %b %e %H:%M:%S %Z %Y')) return -1;
        break;
      default:
        // An unknown directive reads itself: `%` and the character.
        if (str[si] !== '%') return fail();
        si++;
        if (fi < fmt.length) {
          if (si >= str.length || str[si] !== fmt[fi]) return fail();
          si++;
        }
    }
    fi++;
  }
  return si;
}

/** Ruby's `DateTime._strptime(str, fmt)`: the fields found, or undefined where Ruby gives nil. */
export function rubyStrptime(str: string, fmt: string): Strptime | undefined {
  const h: Strptime = {};
  const si = strptimeInternal(str, fmt, h);
  if (h.fail) return undefined;
  if (str.length > si) h.leftover = str.slice(si);
  if (h.cent !== undefined) {
    if (h.year !== undefined) h.year += h.cent * 100n;
    delete h.cent;
  }
  if (h.merid !== undefined) {
    if (h.hour !== undefined) h.hour = (h.hour % 12) + h.merid;
    delete h.merid;
  }
  return h;
}
