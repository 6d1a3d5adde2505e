/**
 * Reading a Timestamp's text as Puppet 7 does (puppet/pops/time/timestamp.rb, `Timestamp.parse`): Ruby's
 * `DateTime._strptime` (the date gem 3.2's date_strptime.c) tried with each of Puppet's default formats,
 * or with the formats given, then `Time.utc` of the fields it found, less the zone's offset (the date gem's
 * `date_zone_to_diff` and its table of zone names).
 */
import { EppEvalError } from '../../errors.js';
import { DAYS, MONTHS } from './calendar-names.js';

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

const isSpace = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

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

// The date gem's zonetab.list: the names `date_zone_to_diff` knows, and their offsets in seconds.
const ZONES: Record<string, number> = {
  ut: 0,
  gmt: 0,
  est: -5 * 3600,
  edt: -4 * 3600,
  cst: -6 * 3600,
  cdt: -5 * 3600,
  mst: -7 * 3600,
  mdt: -6 * 3600,
  pst: -8 * 3600,
  pdt: -7 * 3600,
  a: 1 * 3600,
  b: 2 * 3600,
  c: 3 * 3600,
  d: 4 * 3600,
  e: 5 * 3600,
  f: 6 * 3600,
  g: 7 * 3600,
  h: 8 * 3600,
  i: 9 * 3600,
  k: 10 * 3600,
  l: 11 * 3600,
  m: 12 * 3600,
  n: -1 * 3600,
  o: -2 * 3600,
  p: -3 * 3600,
  q: -4 * 3600,
  r: -5 * 3600,
  s: -6 * 3600,
  t: -7 * 3600,
  u: -8 * 3600,
  v: -9 * 3600,
  w: -10 * 3600,
  x: -11 * 3600,
  y: -12 * 3600,
  z: 0,
  utc: 0,
  wet: 0,
  at: -2 * 3600,
  brst: -2 * 3600,
  ndt: -(2 * 3600 + 1800),
  art: -3 * 3600,
  adt: -3 * 3600,
  brt: -3 * 3600,
  clst: -3 * 3600,
  nst: -(3 * 3600 + 1800),
  ast: -4 * 3600,
  clt: -4 * 3600,
  akdt: -8 * 3600,
  ydt: -8 * 3600,
  akst: -9 * 3600,
  hadt: -9 * 3600,
  hdt: -9 * 3600,
  yst: -9 * 3600,
  ahst: -10 * 3600,
  hast: -10 * 3600,
  hst: -10 * 3600,
  nt: -11 * 3600,
  idlw: -12 * 3600,
  bst: 1 * 3600,
  cet: 1 * 3600,
  fwt: 1 * 3600,
  met: 1 * 3600,
  mewt: 1 * 3600,
  mez: 1 * 3600,
  swt: 1 * 3600,
  wat: 1 * 3600,
  west: 1 * 3600,
  cest: 2 * 3600,
  eet: 2 * 3600,
  fst: 2 * 3600,
  mest: 2 * 3600,
  mesz: 2 * 3600,
  sast: 2 * 3600,
  sst: 2 * 3600,
  cat: 2 * 3600,
  bt: 3 * 3600,
  eat: 3 * 3600,
  eest: 3 * 3600,
  msk: 3 * 3600,
  msd: 4 * 3600,
  zp4: 4 * 3600,
  zp5: 5 * 3600,
  ist: 5 * 3600 + 1800,
  zp6: 6 * 3600,
  wast: 7 * 3600,
  cct: 8 * 3600,
  sgt: 8 * 3600,
  wadt: 8 * 3600,
  jst: 9 * 3600,
  kst: 9 * 3600,
  east: 10 * 3600,
  gst: 10 * 3600,
  eadt: 11 * 3600,
  idle: 12 * 3600,
  nzst: 12 * 3600,
  nzt: 12 * 3600,
  nzdt: 13 * 3600,
  afghanistan: 16200,
  alaskan: -32400,
  arab: 10800,
  arabian: 14400,
  arabic: 10800,
  atlantic: -14400,
  'aus central': 34200,
  'aus eastern': 36000,
  azores: -3600,
  'canada central': -21600,
  'cape verde': -3600,
  caucasus: 14400,
  'cen. australia': 34200,
  'central america': -21600,
  'central asia': 21600,
  'central europe': 3600,
  'central european': 3600,
  'central pacific': 39600,
  central: -21600,
  china: 28800,
  dateline: -43200,
  'e. africa': 10800,
  'e. australia': 36000,
  'e. europe': 7200,
  'e. south america': -10800,
  eastern: -18000,
  egypt: 7200,
  ekaterinburg: 18000,
  fiji: 43200,
  fle: 7200,
  greenland: -10800,
  greenwich: 0,
  gtb: 7200,
  hawaiian: -36000,
  india: 19800,
  iran: 12600,
  jerusalem: 7200,
  korea: 32400,
  mexico: -21600,
  'mid-atlantic': -7200,
  mountain: -25200,
  myanmar: 23400,
  'n. central asia': 21600,
  nepal: 20700,
  'new zealand': 43200,
  newfoundland: -12600,
  'north asia east': 28800,
  'north asia': 25200,
  'pacific sa': -14400,
  pacific: -28800,
  romance: 3600,
  russian: 10800,
  'sa eastern': -10800,
  'sa pacific': -18000,
  'sa western': -14400,
  samoa: -39600,
  'se asia': 25200,
  'malay peninsula': 28800,
  'south africa': 7200,
  'sri lanka': 21600,
  taipei: 28800,
  tasmania: 36000,
  tokyo: 32400,
  tonga: 46800,
  'us eastern': -18000,
  'us mountain': -25200,
  vladivostok: 36000,
  'w. australia': 28800,
  'w. central africa': 3600,
  'w. europe': 3600,
  'west asia': 18000,
  'west pacific': 36000,
  yakutsk: 32400,
  acdt: 37800,
  acst: 34200,
  act: -18000,
  acwst: 31500,
  aedt: 39600,
  aest: 36000,
  aft: 16200,
  almt: 21600,
  anast: 43200,
  anat: 43200,
  aoe: -43200,
  aqtt: 18000,
  awdt: 32400,
  awst: 28800,
  azost: 0,
  azot: -3600,
  azst: 18000,
  azt: 14400,
  bnt: 28800,
  bot: -14400,
  btt: 21600,
  cast: 28800,
  chadt: 49500,
  chast: 45900,
  chost: 32400,
  chot: 28800,
  chst: 36000,
  chut: 36000,
  cidst: -14400,
  cist: -18000,
  ckt: -36000,
  cot: -18000,
  cvt: -3600,
  cxt: 25200,
  davt: 25200,
  ddut: 36000,
  easst: -18000,
  ect: -18000,
  egst: 0,
  egt: -3600,
  fet: 10800,
  fjst: 46800,
  fjt: 43200,
  fkst: -10800,
  fkt: -14400,
  fnt: -7200,
  galt: -21600,
  gamt: -32400,
  get: 14400,
  gft: -10800,
  gilt: 43200,
  gyt: -14400,
  hkt: 28800,
  hovst: 28800,
  hovt: 25200,
  ict: 25200,
  idt: 10800,
  iot: 21600,
  irdt: 16200,
  irkst: 32400,
  irkt: 28800,
  irst: 12600,
  kgt: 21600,
  kost: 39600,
  krast: 28800,
  krat: 25200,
  kuyt: 14400,
  lhdt: 39600,
  lhst: 37800,
  lint: 50400,
  magst: 43200,
  magt: 39600,
  mart: -30600,
  mawt: 18000,
  mht: 43200,
  mmt: 23400,
  mut: 14400,
  mvt: 18000,
  myt: 28800,
  nct: 39600,
  nfdt: 43200,
  nft: 39600,
  novst: 25200,
  novt: 25200,
  npt: 20700,
  nrt: 43200,
  nut: -39600,
  omsst: 25200,
  omst: 21600,
  orat: 18000,
  pet: -18000,
  petst: 43200,
  pett: 43200,
  pgt: 36000,
  phot: 46800,
  pht: 28800,
  pkt: 18000,
  pmdt: -7200,
  pmst: -10800,
  pont: 39600,
  pwt: 32400,
  pyst: -10800,
  qyzt: 21600,
  ret: 14400,
  rott: -10800,
  sakt: 39600,
  samt: 14400,
  sbt: 39600,
  sct: 14400,
  sret: 39600,
  srt: -10800,
  syot: 10800,
  taht: -36000,
  tft: 18000,
  tjt: 18000,
  tkt: 46800,
  tlt: 32400,
  tmt: 18000,
  tost: 50400,
  tot: 46800,
  trt: 10800,
  tvt: 43200,
  ulast: 32400,
  ulat: 28800,
  uyst: -7200,
  uyt: -10800,
  uzt: 18000,
  vet: -14400,
  vlast: 39600,
  vlat: 36000,
  vost: 21600,
  vut: 39600,
  wakt: 43200,
  warst: -10800,
  wft: 43200,
  wgst: -7200,
  wgt: -10800,
  wib: 25200,
  wit: 32400,
  wita: 28800,
  wt: 0,
  yakst: 36000,
  yakt: 32400,
  yapt: 36000,
  yekst: 21600,
  yekt: 18000,
};

/** `str_end_with_word`: the length of a last word `w` and the blanks before it, or 0. */
function endWithWord(s: string, l: number, w: string): number {
  let n = w.length;
  if (l <= n || !isSpace(s[l - n - 1])) return 0;
  if (s.slice(l - n, l).toLowerCase() !== w) return 0;
  do ++n;
  while (l > n && isSpace(s[l - n - 1]));
  return n;
}

/** Leading digits of `s` as C's `strtoul`, and where they end. */
function strtoul(s: string, from: number): [number, number] {
  let i = from;
  while (isDigit(s[i])) i++;
  return [i > from ? Number(s.slice(from, i)) : 0, i];
}

/** The date gem's `date_zone_to_diff`: a zone's offset from UTC in seconds, or null when unknown. */
export function zoneToDiff(zone: string): number | null {
  let s = zone;
  let l = s.length;
  let dst = false;
  let w = endWithWord(s, l, 'time');
  if (w > 0) {
    const wtime = w;
    l -= w;
    if ((w = endWithWord(s, l, 'standard')) > 0) l -= w;
    else if ((w = endWithWord(s, l, 'daylight')) > 0) {
      l -= w;
      dst = true;
    } else l += wtime;
  } else if ((w = endWithWord(s, l, 'dst')) > 0) {
    l -= w;
    dst = true;
  }
  // Blanks shrunk to one space, and looked up without case.
  const name = s
    .slice(0, l)
    .trim()
    .replace(/[\t\n\v\f\r ]+/g, ' ')
    .toLowerCase();
  const known = Object.hasOwn(ZONES, name) ? ZONES[name] : undefined;
  if (known !== undefined) return known + (dst ? 3600 : 0);
  s = s.slice(0, l);
  if (s.length > 3 && /^(gmt|utc)/i.test(s)) s = s.slice(3);
  if (s[0] !== '-' && s[0] !== '+') return null;
  const negative = s[0] === '-';
  s = s.slice(1);
  let hour: number;
  let min = 0;
  let sec = 0;
  let p: number;
  [hour, p] = strtoul(s, 0);
  if (s[p] === ':') {
    [min, p] = strtoul(s, p + 1);
    if (s[p] === ':') [sec] = strtoul(s, p + 1);
  } else if (s[p] === ',' || s[p] === '.') {
    const [frac, e] = strtoul(s, p + 1);
    const fraction = (frac * 3600) / 10 ** (e - p - 1);
    const total = hour * 3600 + fraction;
    return negative ? -total : total;
  } else if (s.length > 2) {
    const odd = s.length % 2;
    const digits = (from: number, n: number) => {
      const m = /^\d*/.exec(s.slice(from, from + n))![0];
      return m === '' ? 0 : Number(m);
    };
    hour = digits(0, 2 - odd);
    if (s.length >= 3) min = digits(2 - odd, 2);
    if (s.length >= 5) sec = digits(4 - odd, 2);
  }
  const total = sec + min * 60 + hour * 3600;
  return negative ? -total : total;
}

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
