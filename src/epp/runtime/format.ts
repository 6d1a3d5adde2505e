/**
 * How Puppet 7 turns values into text: `<%= %>` output, string interpolation, `String(x[, fmt])` and
 * `sprintf`, byte for byte as Puppet running on Ruby prints them.
 *
 * Three layers, top to bottom:
 * - `renderValue` / `interpolate`: Puppet's evaluator `string()` (strings bare, undef empty, `[a, b]`).
 * - `stringify`: Puppet's `StringConverter` (quotes strings inside collections, spells `undef`, `%f` floats).
 * - `sprintf`: Ruby's `Kernel#format`, including its float rounding. Ruby's dtoa rounds the last digit in
 *   floating point and treats anything within a few ulps of a tie as a tie, rounded half to even; that is
 *   why `%.2f` of 2.675 is `2.68` where C gives `2.67`. `rubyDigits` replays that algorithm step by step.
 */
import { EppEvalError } from '../errors.js';
import { isPuppetType, type PType, resolveTypeName } from './types.js';
import {
  bigOf,
  float,
  integer,
  PDefault,
  PFloat,
  type PHash,
  type PInteger,
  PRegexp,
  PSensitive,
  PTimestamp,
  type Value,
} from './values.js';

const REDACTED = 'Sensitive [value redacted]';

// ---------------------------------------------------------------------------------------------------------
// Ruby's Float#to_s

/** Shortest round-trip digits of a finite positive float: the value is 0.DIGITS x 10^decpt. */
function shortestDigits(n: number): { digits: string; decpt: number } {
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  return { digits: mantissa.replace('.', ''), decpt: Number(exp) + 1 };
}

/** A Float as Ruby's `Float#to_s` prints it: `3.0`, `0.1`, `1.0e+15`, `1.0e-05`, `-0.0`. */
export function formatFloat(n: number): string {
  // Fast path: where Ruby and JavaScript both print fixed notation, the shortest digits are the same.
  const abs = Math.abs(n);
  if (abs >= 1e-4 && abs < 1e15) return Number.isInteger(n) ? `${n}.0` : String(n);
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const sign = n < 0 ? '-' : '';
  const { digits, decpt } = shortestDigits(Math.abs(n));
  // Ruby: fixed notation when the point falls inside the digits, or up to 15 integer digits.
  if (decpt > 0 && (decpt < digits.length || decpt <= 15)) {
    const int = digits.slice(0, decpt).padEnd(decpt, '0');
    return `${sign}${int}.${digits.slice(decpt) || '0'}`;
  }
  if (decpt <= 0 && decpt > -4) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  const e = decpt - 1;
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------------------
// Ruby's dtoa in modes 2 (significant digits) and 3 (digits after the point)

const TENS = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
const BIGTENS = [1e16, 1e32, 1e64, 1e128, 1e256];
const QUICK_MAX = 14;
const scratch = new DataView(new ArrayBuffer(8));

interface Digits {
  /** Significant digits without trailing zeros; '' for a value that rounds to zero. */
  readonly digits: string;
  /** Position of the decimal point: the value is 0.DIGITS x 10^decpt. */
  readonly decpt: number;
}

/** floor(log10(x)) as dtoa first estimates it, and whether it may still be one too high. */
function estimateK(x: number): { k: number; check: boolean } {
  scratch.setFloat64(0, x);
  const hi = scratch.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  let k: number;
  if (biased === 0) {
    k = exactFloorLog10(x); // subnormal: computed exactly instead of replaying the estimate
  } else {
    scratch.setUint32(0, (hi & 0xfffff) | 0x3ff00000);
    const d2 = scratch.getFloat64(0);
    k = Math.floor((d2 - 1.5) * 0.289529654602168 + 0.1760912590558 + (biased - 1023) * 0.301029995663981);
  }
  if (k >= 0 && k <= 22) return { k: x < TENS[k]! ? k - 1 : k, check: false };
  return { k, check: true };
}

/** x = mantissa * 2^exponent, exactly. */
function decompose(x: number): { m: bigint; e: number } {
  scratch.setFloat64(0, x);
  const hi = scratch.getUint32(0);
  const lo = scratch.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return biased === 0 ? { m: frac, e: -1074 } : { m: frac | (1n << 52n), e: biased - 1075 };
}

/** x * 10^p as an exact fraction num/den. */
function scaled(x: number, p: number): { num: bigint; den: bigint } {
  const { m, e } = decompose(x);
  let num = m;
  let den = 1n;
  if (e >= 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  if (p >= 0) num *= 10n ** BigInt(p);
  else den *= 10n ** BigInt(-p);
  return { num, den };
}

function exactFloorLog10(x: number): number {
  let k = Math.floor(Math.log10(x));
  for (;;) {
    const { num, den } = scaled(x, -k);
    if (num < den) k--;
    else if (num >= den * 10n) k++;
    else return k;
  }
}

/**
 * Rounds num/den to an integer as dtoa's exact passes do: half to even, or truncating when the quick pass
 * already settled a tie. `keepZeros` replays a quirk of two of those passes, which return the digits without
 * dropping trailing zeros: the big-number pass when a settled tie is really above half, and the small-integer
 * pass (integers below 1e15) whenever it does not round up. So `%g` of 38040.05 is `38040.0` and of 3804005.0
 * is `3.80400e+06`.
 */
function roundExact(
  num: bigint,
  den: bigint,
  tieSettled: boolean,
  smallInt: boolean,
): { n: bigint; keepZeros: boolean } {
  const q = num / den;
  const rem = num % den;
  const twice = rem * 2n;
  const up = twice > den || (twice === den && (q & 1n) === 1n);
  if (smallInt) return up ? { n: q + 1n, keepZeros: false } : { n: q, keepZeros: rem !== 0n };
  if (tieSettled) return { n: q, keepZeros: twice > den };
  return { n: up ? q + 1n : q, keepZeros: false };
}

function trimZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return digits.slice(0, end);
}

/** Adds one to the last digit, carrying: '199' -> '2', '99' -> '1' with the point moved. */
function bumpUp(digits: string, decpt: number): Digits {
  let end = digits.length;
  while (end > 0 && digits[end - 1] === '9') end--;
  if (end === 0) return { digits: '1', decpt: decpt + 1 };
  return { digits: digits.slice(0, end - 1) + String(Number(digits[end - 1]) + 1), decpt };
}

/** The floating-point first pass of dtoa; undefined when it cannot decide (then `tie` may be set). */
function quickDigits(
  x: number,
  k0: number,
  check: boolean,
  ilim0: number,
  ilim1: number,
  tie: { settled: boolean },
): Digits | undefined {
  let d = x;
  let k = k0;
  let ilim = ilim0;
  let ieps = 2;
  let i = 0;
  if (k > 0) {
    let ds = TENS[k & 0xf]!;
    let j = k >> 4;
    if (j & 16) {
      j &= 15;
      d /= BIGTENS[4]!;
      ieps++;
    }
    for (; j; j >>= 1, i++) {
      if (j & 1) {
        ieps++;
        ds *= BIGTENS[i]!;
      }
    }
    d /= ds;
  } else if (k < 0) {
    const j1 = -k;
    d *= TENS[j1 & 0xf]!;
    for (let j = j1 >> 4; j; j >>= 1, i++) {
      if (j & 1) {
        ieps++;
        d *= BIGTENS[i]!;
      }
    }
  }
  if (check && d < 1 && ilim > 0) {
    if (ilim1 <= 0) return undefined;
    ilim = ilim1;
    k--;
    d *= 10;
    ieps++;
  }
  let eps = (ieps * d + 7) * 2 ** -52;
  if (ilim === 0) {
    d -= 5;
    if (d > eps) return { digits: '1', decpt: k + 2 };
    if (d < -eps) return { digits: '', decpt: k + 1 };
    return undefined;
  }
  eps *= TENS[ilim - 1]!;
  let digits = '';
  for (let n = 1; ; n++, d *= 10) {
    const L = Math.trunc(d);
    d -= L;
    if (d === 0) ilim = n;
    digits += String(L);
    if (n === ilim) {
      if (d > 0.5 + eps) return bumpUp(digits, k + 1);
      if (d < 0.5 - eps) return { digits: trimZeros(digits), decpt: k + 1 };
      // Within a few ulps of a tie: Ruby rounds it half to even.
      tie.settled = true;
      return L & 1 ? bumpUp(digits, k + 1) : undefined;
    }
  }
}

/**
 * Ruby's `dtoa(x, mode, ndigits)` for a finite x > 0: mode 2 gives `ndigits` significant digits, mode 3
 * `ndigits` digits after the decimal point (trailing zeros dropped in both).
 */
export function rubyDigits(x: number, mode: 2 | 3, ndigits: number): Digits {
  const { k, check } = estimateK(x);
  let ilim: number;
  let ilim1: number;
  if (mode === 2) {
    ilim = ilim1 = ndigits <= 0 ? 1 : ndigits;
  } else {
    ilim = ndigits + k + 1;
    ilim1 = ilim - 1;
  }
  const tie = { settled: false };
  if (ilim >= 0 && ilim <= QUICK_MAX) {
    const quick = quickDigits(x, k, check, ilim, ilim1, tie);
    if (quick) return quick;
  }
  const smallInt = Number.isInteger(x) && k <= 14;
  if (mode === 3) {
    const { num, den } = scaled(x, ndigits);
    const { n, keepZeros } = roundExact(num, den, tie.settled, smallInt);
    if (n === 0n) return { digits: '', decpt: 0 - ndigits };
    const s = n.toString();
    return { digits: keepZeros ? s : trimZeros(s), decpt: s.length - ndigits };
  }
  const nd = ilim;
  let kx = exactFloorLog10(x);
  const { num, den } = scaled(x, nd - 1 - kx);
  let { n, keepZeros } = roundExact(num, den, tie.settled, smallInt);
  if (n === 10n ** BigInt(nd)) {
    n = 10n ** BigInt(nd - 1);
    kx++;
  }
  return { digits: keepZeros ? n.toString() : trimZeros(n.toString()), decpt: kx + 1 };
}

// ---------------------------------------------------------------------------------------------------------
// Ruby's Kernel#format

/** Limits on width and precision: Ruby accepts any int, but a template has no use for gigabytes of padding. */
const MAX_WIDTH = 1_000_000;
const MAX_PRECISION = 10_000;

/** One parsed `%...` directive. */
interface Spec {
  minus: boolean;
  plus: boolean;
  space: boolean;
  zero: boolean;
  alt: boolean;
  width: number | undefined;
  prec: number | undefined;
  conv: string;
}

/** A value as a Ruby format argument sees it: Puppet values after Puppet's 3.x function conversion. */
type RubyArg = Value;

function formatError(message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', message);
}

/** Ruby's `String#inspect` for UTF-8 strings. */
export function rubyInspectString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const code = c.charCodeAt(0);
    switch (c) {
      case '"':
        out += '\\"';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\v':
        out += '\\v';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\x07':
        out += '\\a';
        break;
      case '\x1b':
        out += '\\e';
        break;
      case '#': {
        const next = s[i + 1];
        out += next === '{' || next === '$' || next === '@' ? '\\#' : '#';
        break;
      }
      default:
        out += code < 0x20 || code === 0x7f ? `\\u${code.toString(16).toUpperCase().padStart(4, '0')}` : c;
    }
  }
  return `${out}"`;
}

/** Ruby's `to_s` of a converted argument (`%s`). */
function rubyToS(v: RubyArg): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  if (Array.isArray(v) || v instanceof Map) return rubyInspect(v);
  return rubyScalarText(v);
}

/** Ruby's `inspect` of a converted argument (`%p`, and inside arrays and hashes). */
function rubyInspect(v: RubyArg): string {
  if (typeof v === 'string') return rubyInspectString(v);
  if (v === undefined) return 'nil';
  if (Array.isArray(v)) return `[${v.map(rubyInspect).join(', ')}]`;
  if (v instanceof Map) {
    const parts: string[] = [];
    for (const [k, val] of v) parts.push(`${rubyInspect(k)}=>${rubyInspect(val)}`);
    return `{${parts.join(', ')}}`;
  }
  if (v instanceof PDefault) return ':default';
  if (v instanceof PSensitive) return `#<${REDACTED}>`;
  if (v instanceof PRegexp || v instanceof PTimestamp) return rubyInspectString(rubyScalarText(v));
  return rubyScalarText(v);
}

function rubyScalarText(v: Exclude<Value, string | undefined | Value[] | PHash>): string {
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PFloat) return formatFloat(v.value);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof PRegexp) return regexpWithDelimiters(v);
  if (v instanceof PSensitive) return REDACTED;
  if (v instanceof PTimestamp) return timestampToString(v);
  return v.toString();
}

/** Ruby's `Integer(x)` as `%d` applies it. */
function toRubyInteger(v: RubyArg): PInteger {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (v instanceof PFloat) {
    const x = v.value;
    if (!Number.isFinite(x)) throw formatError(`${formatFloat(x)} cannot be converted to an Integer`);
    return integer(Math.trunc(x));
  }
  if (typeof v === 'string') {
    const parsed = parseRubyInteger(v);
    if (parsed === undefined) throw formatError(`invalid value for Integer(): ${rubyInspectString(v)}`);
    return parsed;
  }
  throw formatError(`can't convert ${rubyClassName(v)} into Integer`);
}

function parseRubyInteger(text: string): PInteger | undefined {
  const m =
    /^\s*([-+]?)(0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*|0[bB][01]+(?:_[01]+)*|0[oO]?[0-7]+(?:_[0-7]+)*|[1-9]\d*(?:_\d+)*|0)\s*$/.exec(
      text,
    );
  if (!m) return undefined;
  let body = m[2]!.replace(/_/g, '');
  if (/^0[0-7]/.test(body)) body = `0o${body.slice(1)}`;
  else if (/^0[oO]/.test(body)) body = `0o${body.slice(2)}`;
  const n = BigInt(body);
  return integer(m[1] === '-' ? -n : n);
}

/** Ruby's `Float(x)` as `%f` applies it. */
function toRubyFloat(v: RubyArg): number {
  if (v instanceof PFloat) return v.value;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^[-+]?(\d+(_\d+)*)(\.\d+(_\d+)*)?([eE][-+]?\d+)?$/.test(t)) return Number(t.replace(/_/g, ''));
    const int = parseRubyInteger(t);
    if (int !== undefined && /^[-+]?0[xX]/.test(t)) return Number(int);
    throw formatError(`invalid value for Float(): ${rubyInspectString(v)}`);
  }
  throw formatError(`can't convert ${rubyClassName(v)} into Float`);
}

function rubyClassName(v: RubyArg): string {
  if (v === undefined) return 'nil';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Map) return 'Hash';
  return 'Object';
}

/** Pads `body` (whose sign/prefix is `head`) to the spec's width. */
function pad(spec: Spec, head: string, body: string, zeroAllowed: boolean): string {
  const width = spec.width ?? 0;
  const len = head.length + body.length;
  if (len >= width) return head + body;
  if (spec.minus) return head + body + ' '.repeat(width - len);
  if (spec.zero && zeroAllowed) return head + '0'.repeat(width - len) + body;
  return ' '.repeat(width - len) + head + body;
}

function signOf(negative: boolean, spec: Spec): string {
  if (negative) return '-';
  if (spec.plus) return '+';
  return spec.space ? ' ' : '';
}

const RADIX: Record<string, number> = { x: 16, X: 16, o: 8, b: 2, B: 2 };

function formatInteger(spec: Spec, arg: RubyArg): string {
  const n = toRubyInteger(arg);
  const conv = spec.conv;
  const radix = RADIX[conv] ?? 10;
  const negative = n < 0;
  const upper = conv === 'X';
  let prefix = '';
  // Integers are canonical: zero is always the number 0.
  if (spec.alt && n !== 0) {
    if (radix === 16) prefix = upper ? '0X' : '0x';
    else if (radix === 2) prefix = conv === 'B' ? '0B' : '0b';
    else if (radix === 8) prefix = '0';
  }
  if (negative && radix !== 10 && !spec.plus && !spec.space) {
    return formatTwosComplement(spec, bigOf(n), radix, radix === 8 ? '' : prefix, upper);
  }
  // As in C, a zero precision prints nothing for zero.
  let digits = n === 0 && spec.prec === 0 && !(spec.alt && radix === 8) ? '' : magnitude(n).toString(radix);
  if (upper) digits = digits.toUpperCase();
  if (spec.prec !== undefined) digits = digits.padStart(spec.prec, '0');
  if (radix === 8 && prefix === '0' && digits.startsWith('0')) prefix = '';
  return pad(spec, signOf(negative, spec) + prefix, digits, spec.prec === undefined);
}

function magnitude(n: PInteger): PInteger {
  return typeof n === 'number' ? Math.abs(n) : n < 0n ? -n : n;
}

/** Ruby prints a negative number in hex, octal or binary without a sign flag as `..f01` (two's complement). */
function formatTwosComplement(spec: Spec, n: bigint, radix: number, prefix: string, upper: boolean): string {
  const base = BigInt(radix);
  const size = (-n).toString(radix).length + 1;
  const max = (radix - 1).toString(radix);
  let digits = (base ** BigInt(size) + n).toString(radix);
  let start = 0;
  while (start < digits.length && digits[start] === max) start++;
  digits = max + digits.slice(start);
  const fill = (len: number) => (digits.length < len ? max.repeat(len - digits.length) + digits : digits);
  if (spec.prec !== undefined) digits = fill(spec.prec - 2);
  else if (spec.zero && !spec.minus && spec.width !== undefined)
    digits = fill(spec.width - 2 - prefix.length);
  if (upper) digits = digits.toUpperCase();
  return pad({ ...spec, zero: false }, prefix, `..${digits}`, false);
}

function fixedText(d: Digits, prec: number, alt: boolean): string {
  const { digits, decpt } = d;
  let int: string;
  let frac: string;
  if (digits === '') {
    int = '0';
    frac = '';
  } else if (decpt > 0) {
    int = digits.slice(0, decpt).padEnd(decpt, '0');
    frac = digits.slice(decpt);
  } else {
    int = '0';
    frac = '0'.repeat(-decpt) + digits;
  }
  frac = frac.padEnd(prec, '0');
  return prec > 0 || alt ? `${int}.${frac}` : int;
}

function expText(digits: string, exp: number, prec: number, alt: boolean, upper: boolean): string {
  const all = digits.padEnd(prec + 1, '0');
  const mant = prec > 0 || alt ? `${all[0]}.${all.slice(1)}` : all[0]!;
  const e = `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return `${mant}${upper ? 'E' : 'e'}${e}`;
}

/** `%a`: the hexadecimal form `0x1.8p+1`, with a leading 1 and the mantissa rounded half to even. */
function hexFloatText(ax: number, prec: number | undefined, alt: boolean): { prefix: string; body: string } {
  let lead = '1';
  let digits = '';
  let exp = 0;
  if (ax === 0) {
    lead = '0';
    digits = prec === undefined ? '' : '0'.repeat(prec);
  } else {
    let { m, e } = decompose(ax);
    while (m < 1n << 52n) {
      m <<= 1n;
      e--;
    }
    exp = e + 52;
    if (prec !== undefined && prec <= 13) {
      // Ruby's hdtoa rounds by adding a float; at 13 digits that crosses a binade and drops one more bit.
      const drop = BigInt(Math.max((13 - prec) * 4, 1));
      let q = m >> drop;
      const r = m & ((1n << drop) - 1n);
      const half = 1n << (drop - 1n);
      if (r > half || (r === half && (q & 1n) === 1n)) q++;
      if (q === 1n << (53n - drop)) {
        q >>= 1n;
        exp++;
      }
      digits = ((q << drop) - (1n << 52n)).toString(16).padStart(13, '0').slice(0, prec);
    } else {
      digits = (m - (1n << 52n)).toString(16).padStart(13, '0');
      digits = prec === undefined ? digits.replace(/0+$/, '') : digits.padEnd(prec, '0');
    }
  }
  const point = digits !== '' || alt ? '.' : '';
  return { prefix: '0x', body: `${lead}${point}${digits}p${exp < 0 ? '-' : '+'}${Math.abs(exp)}` };
}

function formatFloatSpec(spec: Spec, arg: RubyArg): string {
  const x = toRubyFloat(arg);
  const negative = x < 0 || Object.is(x, -0);
  const sign = signOf(negative, spec);
  const conv = spec.conv;
  const upper = conv === 'E' || conv === 'G';
  if (!Number.isFinite(x)) {
    return pad(spec, sign, Number.isNaN(x) ? 'NaN' : 'Inf', false);
  }
  const ax = Math.abs(x);
  if (conv === 'a' || conv === 'A') {
    const { prefix, body } = hexFloatText(ax, spec.prec, spec.alt);
    return conv === 'A'
      ? pad(spec, sign + prefix.toUpperCase(), body.toUpperCase(), true)
      : pad(spec, sign + prefix, body, true);
  }
  let body: string;
  if (conv === 'f') {
    const prec = spec.prec ?? 6;
    body = fixedText(ax === 0 ? { digits: '', decpt: 0 } : rubyDigits(ax, 3, prec), prec, spec.alt);
  } else if (conv === 'e' || conv === 'E') {
    const prec = spec.prec ?? 6;
    const d = ax === 0 ? { digits: '0', decpt: 1 } : rubyDigits(ax, 2, prec + 1);
    body = expText(d.digits, d.decpt - 1, prec, spec.alt, upper);
  } else if (conv === 'g' || conv === 'G') {
    const p = spec.prec === undefined ? 6 : spec.prec === 0 ? 1 : spec.prec;
    const d = ax === 0 ? { digits: '0', decpt: 1 } : rubyDigits(ax, 2, p);
    const exp = d.decpt - 1;
    if (exp < -4 || exp >= p) {
      const prec = spec.alt ? p - 1 : Math.max(d.digits.length - 1, 0);
      body = expText(d.digits, exp, prec, spec.alt, upper);
    } else {
      const prec = spec.alt ? p - 1 - exp : Math.max(d.digits.length - d.decpt, 0);
      body = fixedText(ax === 0 ? { digits: '', decpt: 0 } : d, prec, spec.alt);
    }
  } else {
    throw formatError(`malformed format string - %${conv}`);
  }
  return pad(spec, sign, body, true);
}

function formatString(spec: Spec, text: string): string {
  const s = spec.prec === undefined ? text : [...text].slice(0, spec.prec).join('');
  return pad({ ...spec, zero: false }, '', s, false);
}

function formatChar(spec: Spec, arg: RubyArg): string {
  let ch: string;
  if (typeof arg === 'string') {
    if ([...arg].length !== 1) throw formatError('%c requires a character');
    ch = arg;
  } else {
    const code = toRubyInteger(arg);
    if (code < 0 || code > 0x10ffff) throw formatError(`${code} out of char range`);
    ch = String.fromCodePoint(Number(code));
  }
  return pad({ ...spec, zero: false }, '', ch, false);
}

function formatDirective(spec: Spec, arg: RubyArg): string {
  switch (spec.conv) {
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o':
    case 'b':
    case 'B':
      return formatInteger(spec, arg);
    case 'f':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      return formatFloatSpec(spec, arg);
    case 's':
      return formatString(spec, rubyToS(arg));
    case 'p':
      return formatString(spec, rubyInspect(arg));
    case 'c':
      return formatChar(spec, arg);
    default:
      throw formatError(`malformed format string - %${spec.conv}`);
  }
}

/** Puppet's conversion of a 3.x function argument: top-level undef becomes '', regexps and timestamps text. */
function toRubyArg(v: Value, top: boolean): RubyArg {
  if (v === undefined) return top ? '' : undefined;
  if (v instanceof PRegexp) return regexpWithDelimiters(v);
  if (v instanceof PTimestamp) return timestampToString(v);
  if (Array.isArray(v)) return v.map((e) => toRubyArg(e, false));
  if (v instanceof Map) {
    const out: PHash = new Map();
    for (const [k, val] of v) out.set(toRubyArg(k, false), toRubyArg(val, false));
    return out;
  }
  return v;
}

/** Where directives take their arguments from: in order, by position (`%1$s`) or by name (`%<a>s`). */
class ArgSource {
  private next = 0;
  constructor(private readonly args: readonly RubyArg[]) {}

  take(): RubyArg {
    if (this.next >= this.args.length) throw formatError('too few arguments');
    return this.args[this.next++];
  }

  at(position: number): RubyArg {
    if (position < 1 || position > this.args.length) throw formatError('too few arguments');
    return this.args[position - 1];
  }

  named(name: string): RubyArg {
    const hash = this.args[0];
    if (this.args.length !== 1 || !(hash instanceof Map)) throw formatError('one hash required');
    if (!hash.has(name)) throw formatError(`key<${name}> not found`);
    return hash.get(name);
  }
}

function checkLimits(spec: Spec): Spec {
  if ((spec.width ?? 0) > MAX_WIDTH) throw formatError('width too big');
  if ((spec.prec ?? 0) > MAX_PRECISION) throw formatError('prec too big');
  return spec;
}

/** One directive: what it prints and the index just after it in the format. */
interface Directive {
  readonly text: string;
  readonly end: number;
}

/** Parses and formats the directive whose `%` is just before `start`. */
function directive(format: string, start: number, args: ArgSource): Directive {
  const spec: Spec = {
    minus: false,
    plus: false,
    space: false,
    zero: false,
    alt: false,
    width: undefined,
    prec: undefined,
    conv: '',
  };
  let arg: { value: RubyArg } | undefined;
  let i = start;
  for (; i < format.length && !spec.conv; i++) {
    const c = format[i]!;
    if (c === '-') spec.minus = true;
    else if (c === '+') spec.plus = true;
    else if (c === ' ') spec.space = true;
    else if (c === '0') spec.zero = true;
    else if (c === '#') spec.alt = true;
    else if (c === '<' || c === '{') {
      const close = format.indexOf(c === '<' ? '>' : '}', i);
      if (close < 0) throw formatError('malformed name - unmatched parenthesis');
      const value = args.named(format.slice(i + 1, close));
      // `%{name}` is complete here and prints the value's to_s; `%<name>` goes on to its conversion.
      if (c === '{') return { text: formatString(checkLimits(spec), rubyToS(value)), end: close + 1 };
      arg = { value };
      i = close;
    } else if (c === '*') {
      const w = toRubyInteger(args.take());
      if (w < 0) spec.minus = true;
      spec.width = Math.abs(Number(w));
    } else if (c >= '1' && c <= '9') {
      const digits = /^\d+/.exec(format.slice(i))![0];
      if (format[i + digits.length] === '$') {
        arg = { value: args.at(Number(digits)) };
        i += digits.length;
      } else {
        spec.width = Number(digits);
        i += digits.length - 1;
      }
    } else if (c === '.') {
      if (format[i + 1] === '*') {
        spec.prec = Math.max(Number(toRubyInteger(args.take())), 0);
        i++;
      } else {
        const digits = /^\d*/.exec(format.slice(i + 1))![0];
        spec.prec = digits === '' ? 0 : Number(digits);
        i += digits.length;
      }
    } else {
      spec.conv = c;
    }
  }
  if (!spec.conv) throw formatError('malformed format string - %');
  checkLimits(spec);
  if (spec.conv === '%') return { text: '%', end: i };
  if (!'diuxXobBfeEgGaAspc'.includes(spec.conv)) throw formatError(`malformed format string - %${spec.conv}`);
  return { text: formatDirective(spec, arg ? arg.value : args.take()), end: i };
}

/**
 * `sprintf(format, *args)`: Ruby's `Kernel#format` over Puppet values (`%s %d %i %f %e %g %a %x %o %b %c %p %%`,
 * flags `-+ 0#`, width, precision, `*`, `%1$s`, and `%<name>s` / `%{name}` with a hash argument).
 */
export function sprintf(format: string, args: readonly Value[]): string {
  const source = new ArgSource(args.map((a) => toRubyArg(a, true)));
  let out = '';
  let i = 0;
  while (i < format.length) {
    const pct = format.indexOf('%', i);
    if (pct < 0) return out + format.slice(i);
    out += format.slice(i, pct);
    if (pct + 1 >= format.length) throw formatError('incomplete format specifier; use %% (double %) instead');
    if (format[pct + 1] === '%') {
      out += '%';
      i = pct + 2;
      continue;
    }
    const d = directive(format, pct + 1, source);
    out += d.text;
    i = d.end;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Puppet's evaluator string(): `<%= %>` and interpolation

function regexpWithDelimiters(r: PRegexp): string {
  // Ruby's Regexp#inspect escapes a `/` that the source leaves bare.
  return `/${r.source.replace(/(\\.)|\//g, (_m, esc: string | undefined) => esc ?? '\\/')}/`;
}

function evalString(v: Value, redactTop: boolean): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i > 0 ? ', ' : '') + evalString(v[i], true);
    return `${s}]`;
  }
  if (v instanceof Map) {
    const parts: string[] = [];
    for (const [k, val] of v) parts.push(`${evalString(k, true)} => ${evalString(val, true)}`);
    return `{${parts.join(', ')}}`;
  }
  if (v instanceof PSensitive) return redactTop ? REDACTED : evalString(v.value, true);
  return rubyScalarText(v);
}

/** What `<%= expr %>` prints. A Sensitive value given directly prints its secret (Puppet 7 does). */
export function renderValue(value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value); // an Integer: the common case, no detour
  return evalString(value, false);
}

/** What `"${expr}"` gives: as {@link renderValue}, but a Sensitive value is always redacted. */
export function interpolate(value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return evalString(value, true);
}

// ---------------------------------------------------------------------------------------------------------
// Puppet's StringConverter: String(x) and String(x, format)

interface StringFormat {
  readonly orig: string;
  readonly conv: string;
  readonly alt: boolean;
  readonly left: boolean;
  readonly zeroPad: boolean;
  readonly plus: 'space' | 'plus' | 'ignore';
  readonly width: number | undefined;
  readonly prec: number | undefined;
  readonly delimiters: string | undefined;
  readonly separator?: string | undefined;
  readonly separator2?: string | undefined;
  readonly containerFormats?: FormatMap | undefined;
}

type Matcher = (v: Value) => boolean;
/** Type-to-format entries, most specific first; `key` is the Puppet type when the entry has one. */
interface FormatEntry {
  readonly key: PType | undefined;
  readonly matches: Matcher;
  readonly format: StringFormat;
}
type FormatMap = readonly FormatEntry[];

const FMT_PATTERN = /^%([\s[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/;
const DELIMITER_MAP: Record<string, readonly [string, string]> = {
  '[': ['[', ']'],
  '{': ['{', '}'],
  '(': ['(', ')'],
  '<': ['<', '>'],
  '|': ['|', '|'],
  space: ['', ''],
};

function conversionError(message: string): EppEvalError {
  return new EppEvalError('EPP_CONVERSION', message);
}

function parseStringFormat(fmt: string, extra: Partial<StringFormat> = {}): StringFormat {
  const m = FMT_PATTERN.exec(fmt);
  if (!m)
    throw conversionError(
      `The format '${fmt}' is not a valid format on the form '%<flags><width>.<prec><format>'`,
    );
  const flags = [...m[1]!];
  if (new Set(flags).size !== flags.length)
    throw conversionError(`The same flag can only be used once, got '${fmt}'`);
  const delims = flags.filter((f) => '[{(<|'.includes(f));
  if (delims.length > 1) {
    throw conversionError(
      `Only one of the delimiters [ { ( < | can be given in the format flags, got '${fmt}'`,
    );
  }
  return {
    orig: fmt,
    conv: m[4]!,
    alt: flags.includes('#'),
    left: flags.includes('-'),
    zeroPad: flags.includes('0'),
    plus: flags.some((f) => /\s/.test(f)) ? 'space' : flags.includes('+') ? 'plus' : 'ignore',
    width: m[2] ? Number(m[2]) : undefined,
    prec: m[3] ? Number(m[3]) : undefined,
    delimiters: delims[0],
    ...extra,
  };
}

const entry = (typeName: string, format: StringFormat): FormatEntry => {
  const key = resolveTypeName(typeName)!;
  return { key, matches: (v) => key.isInstance(v), format };
};
const anyEntry = (format: StringFormat): FormatEntry => entry('Any', format);

const DEFAULT_CONTAINER_FORMATS: FormatMap = [anyEntry(parseStringFormat('%p'))];
const DEFAULT_STRING_FORMATS: FormatMap = [
  entry('Float', parseStringFormat('%f')),
  entry('Numeric', parseStringFormat('%d')),
  entry(
    'Array',
    parseStringFormat('%a', {
      separator: ', ',
      separator2: ', ',
      containerFormats: DEFAULT_CONTAINER_FORMATS,
    }),
  ),
  entry(
    'Hash',
    parseStringFormat('%h', {
      separator: ', ',
      separator2: ' => ',
      containerFormats: DEFAULT_CONTAINER_FORMATS,
    }),
  ),
  anyEntry(parseStringFormat('%s')),
];

function getFormat(v: Value, map: FormatMap): StringFormat {
  for (const e of map) if (e.matches(v)) return e.format;
  return parseStringFormat('%s');
}

/** Kernel.format with a single argument (the converter's workhorse). */
function kformat(fmt: string, arg: Value): string {
  return sprintf(fmt, [arg]);
}

function applyStringFlags(f: StringFormat, s: string): string {
  if (!f.left && f.width === undefined && f.prec === undefined) return s;
  const fmt = `%${f.left ? '-' : ''}${f.width ?? ''}${f.prec !== undefined ? `.${f.prec}` : ''}s`;
  return kformat(fmt, s);
}

function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 0x20) return true;
  return false;
}

/** Puppet's `puppet_quote`: single quotes unless the text has control characters. */
export function puppetQuote(s: string, forceDouble = false): string {
  if (forceDouble || hasControl(s)) return puppetDoubleQuote(s);
  let out = "'";
  let escaped = false;
  for (const ch of s) {
    if (escaped) {
      out += `\\${ch}`;
      escaped = false;
    } else if (ch === "'") out += "\\'";
    else if (ch === '\\') escaped = true;
    else out += ch;
  }
  if (escaped) out += '\\';
  return `${out}'`;
}

function puppetDoubleQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '"') out += '\\"';
    else if (ch === '$') out += '\\$';
    else if (ch === '\\') out += '\\\\';
    else if (code < 0x20) out += `\\u{${code.toString(16).toUpperCase()}}`;
    else out += ch;
  }
  return `${out}"`;
}

interface Indentation {
  readonly level: number;
  readonly first: boolean;
  readonly indenting: boolean;
}

const DEFAULT_INDENTATION: Indentation = { level: 0, first: true, indenting: false };
const subsequent = (i: Indentation): Indentation => (i.first ? { ...i, first: false } : i);
const increase = (i: Indentation, indenting = false): Indentation => ({
  level: i.level + 1,
  first: true,
  indenting,
});
const breaks = (i: Indentation): boolean => i.indenting && i.level > 0 && !i.first;
const padding = (i: Indentation): string => ' '.repeat(2 * i.level);

function illegal(typeName: string, f: StringFormat, expected: string): EppEvalError {
  return conversionError(
    `Illegal format '${f.conv}' specified for value of ${typeName} type - expected one of the characters '${expected}'`,
  );
}

function isContainer(v: Value): boolean {
  return Array.isArray(v) || v instanceof Map;
}

function convert(v: Value, map: FormatMap, ind: Indentation): string {
  const f = getFormat(v, map);
  if (v === undefined) return convertUndef(f);
  if (typeof v === 'string') return convertString(f, v);
  if (typeof v === 'number' || typeof v === 'bigint') return convertInteger(f, v);
  if (v instanceof PFloat) return convertFloat(f, v);
  if (typeof v === 'boolean') return convertBoolean(f, v, ind);
  if (Array.isArray(v)) return convertArray(f, v, map, ind);
  if (v instanceof Map) return convertHash(f, v, map, ind);
  if (v instanceof PDefault) {
    if ('dsp'.includes(f.conv)) return applyStringFlags(f, f.alt ? '"default"' : 'default');
    if (f.conv === 'D') return applyStringFlags(f, f.alt ? '"Default"' : 'Default');
    throw illegal('Default', f, 'dDsp');
  }
  if (v instanceof PRegexp) {
    if (f.conv === 'p') {
      const text = regexpWithDelimiters(v);
      return f.orig === '%p' ? text : kformat(f.orig.replace('p', 's'), text);
    }
    if (f.conv === 's') {
      const text = f.alt ? puppetQuote(v.source) : v.source;
      return f.orig === '%s' ? text : kformat(f.orig, text);
    }
    throw illegal('Regexp', f, 'sp');
  }
  if (v instanceof PSensitive || v instanceof PTimestamp) return kformat(f.orig, v);
  // A type.
  if (f.conv === 's') return kformat(f.orig, f.alt ? `"${v.toString()}"` : v.toString());
  if (f.conv === 'p') return kformat(f.orig.replace('p', 's'), v.toString());
  throw illegal('Type', f, 'sp');
}

function convertUndef(f: StringFormat): string {
  let s: string;
  if (f.conv === 'n') s = f.alt ? 'null' : 'nil';
  else if (f.conv === 'u') s = f.alt ? 'undefined' : 'undef';
  else if ('dxXobBeEfgGaA'.includes(f.conv)) s = 'NaN';
  else if (f.conv === 'v') s = 'n/a';
  else if (f.conv === 'V') s = 'N/A';
  else if (f.conv === 's') s = f.alt ? '""' : '';
  else if (f.conv === 'p') s = f.alt ? '"undef"' : 'undef';
  else throw illegal('Undef', f, 'nudxXobBeEfgGaAvVsp');
  return applyStringFlags(f, s);
}

function convertString(f: StringFormat, v: string): string {
  const variant = (text: string, letter: string) =>
    f.alt ? applyStringFlags(f, puppetQuote(text)) : kformat(f.orig.replace(letter, 's'), text);
  switch (f.conv) {
    case 's':
      return kformat(f.orig, v);
    case 'p':
      return applyStringFlags(f, puppetQuote(v, f.alt));
    case 'c':
      return variant(rubyCapitalize(v), 'c');
    case 'C':
      return variant(v.split('::').map(rubyCapitalize).join('::'), 'C');
    case 'u':
      return variant(v.toUpperCase(), 'u');
    case 'd':
      return variant(v.toLowerCase(), 'd');
    case 't':
      return variant(rubyStrip(v), 't');
    default:
      throw illegal('String', f, 'cCudspt');
  }
}

function convertInteger(f: StringFormat, v: PInteger): string {
  if ('dxXobBp'.includes(f.conv)) return kformat(f.orig, v);
  if ('eEfgGaA'.includes(f.conv)) return kformat(f.orig, float(Number(v)));
  if (f.conv === 'c') {
    if (v < 0 || v > 0x10ffff) throw conversionError(`${v} out of char range`);
    const ch = String.fromCodePoint(Number(v));
    return kformat(f.orig.replace('c', 's'), f.alt ? `"${ch}"` : ch);
  }
  if (f.conv === 's') return kformat(f.orig.replace(/s/g, f.alt ? 'p' : 's'), v.toString());
  throw illegal('Integer', f, 'dxXobBeEfgGaAspc');
}

function convertFloat(f: StringFormat, v: PFloat): string {
  if ('dxXobB'.includes(f.conv)) return kformat(f.orig, toRubyInteger(v));
  if ('eEfgGaAp'.includes(f.conv)) return kformat(f.orig, v);
  if (f.conv === 's') {
    const text = formatFloat(v.value);
    return kformat(f.orig, f.alt ? `"${text}"` : text);
  }
  throw illegal('Float', f, 'dxXobBeEfgGaAsp');
}

function convertBoolean(f: StringFormat, v: boolean, ind: Indentation): string {
  const short = (s: string) => applyStringFlags(f, f.alt ? s[0]! : s);
  switch (f.conv) {
    case 't':
      return short(String(v));
    case 'T':
      return short(v ? 'True' : 'False');
    case 'y':
      return short(v ? 'yes' : 'no');
    case 'Y':
      return short(v ? 'Yes' : 'No');
    case 's':
    case 'p':
      return applyStringFlags(f, String(v));
    default:
      if ('dxXobB'.includes(f.conv)) return convert(v ? 1 : 0, [anyEntry(f)], ind);
      if ('eEfgGaA'.includes(f.conv)) return convert(float(v ? 1 : 0), [anyEntry(f)], ind);
      throw illegal('Boolean', f, 'tTyYdxXobBeEfgGaAsp');
  }
}

function delimiterPair(f: StringFormat, fallback: readonly [string, string]): readonly [string, string] {
  const key = f.delimiters ?? f.plus;
  return DELIMITER_MAP[key] ?? fallback;
}

function convertArray(f: StringFormat, v: readonly Value[], map: FormatMap, ind0: Indentation): string {
  if (!'asp'.includes(f.conv)) throw illegal('Array', f, 'asp');
  const sep = f.separator ?? ', ';
  const elementFormats = f.containerFormats ?? DEFAULT_CONTAINER_FORMATS;
  const [open, close] = delimiterPair(f, ['[', ']']);
  const ind: Indentation = { ...ind0, indenting: f.alt || ind0.indenting };
  let buf = breaks(ind) ? `\n${padding(ind)}` : '';
  buf += open;
  let children = increase(ind, f.alt);
  const mapped = v.map((e) => {
    if (children.first) children = subsequent(children);
    return convert(e, isContainer(e) ? map : elementFormats, children);
  });
  let szBreak = false;
  if (f.alt && f.width !== undefined) {
    const widths = [0];
    v.forEach((e, i) => {
      if (isContainer(e)) widths.push(0);
      else widths[widths.length - 1]! += mapped[i]!.length;
    });
    szBreak = Math.max(...widths) > f.width;
  }
  children = increase(ind, f.alt);
  v.forEach((e, i) => {
    const str = mapped[i]!;
    if (children.first) {
      children = subsequent(children);
      if (szBreak && !isContainer(e)) buf += ' ';
    } else {
      buf += sep;
      if ((szBreak && !isContainer(e)) || (f.alt && i > 0 && isContainer(v[i - 1]) && !isContainer(e))) {
        if (!buf.endsWith('\n')) buf = buf.trimEnd();
        buf += `\n${padding(children)}`;
      }
    }
    if (buf.endsWith(' ') && str.startsWith('\n')) buf = buf.trimEnd();
    buf += str;
  });
  return buf + close;
}

function convertHash(f: StringFormat, v: PHash, map: FormatMap, ind0: Indentation): string {
  if (f.conv === 'a')
    return convert(
      [...v].map(([k, val]) => [k, val]),
      map,
      ind0,
    );
  if (!'hsp'.includes(f.conv)) throw illegal('Hash', f, 'hasp');
  let sep = f.separator ?? ', ';
  const assoc = f.separator2 ?? ' => ';
  const elementFormats = f.containerFormats ?? DEFAULT_CONTAINER_FORMATS;
  const [open, close] = delimiterPair(f, ['{', '}']);
  if (f.alt) sep = `${sep.endsWith('\n') ? sep : sep.trimEnd()}\n`;
  const ind: Indentation = { ...ind0, indenting: f.alt || ind0.indenting };
  let buf = breaks(ind) ? `\n${padding(ind)}` : '';
  const children = increase(ind);
  const condBreak = f.alt ? '\n' : '';
  const pad = f.alt ? padding(children) : '';
  buf += open + condBreak;
  const parts: string[] = [];
  for (const [k, val] of v) {
    const key = convert(k, isContainer(k) ? map : elementFormats, children);
    const value = convert(val, isContainer(val) ? map : elementFormats, children);
    parts.push(`${pad}${key}${assoc}${value}`);
  }
  buf += parts.join(sep);
  if (f.alt) buf += condBreak + padding(ind);
  return buf + close;
}

/** A `String(x, format)` format argument: a format string or a hash of type to format. */
function userFormats(value: Value, format: Value): FormatMap {
  if (typeof format === 'string') {
    const f = parseStringFormat(format);
    if (Array.isArray(value)) return mergeFormats(DEFAULT_STRING_FORMATS, [entry('Array', f)]);
    if (value instanceof Map) return mergeFormats(DEFAULT_STRING_FORMATS, [entry('Hash', f)]);
    // The value's own (exact) type: only the value itself matches it.
    return [{ key: undefined, matches: (v) => Object.is(v, value), format: f }, ...DEFAULT_STRING_FORMATS];
  }
  if (format instanceof Map) return mergeFormats(DEFAULT_STRING_FORMATS, formatEntries(format));
  throw conversionError(
    `string conversion expects a Default value or a Hash of type to format mappings, got a '${typeof format}'`,
  );
}

/**
 * Puppet's `merge_string_formats`: a lower entry goes when a different higher key covers its type, entries
 * of the same type merge (the higher format, the lower separators), and the result is ordered most
 * specific type first.
 */
function mergeFormats(lower: FormatMap, higher: FormatMap): FormatMap {
  const kept = lower.filter(
    (l) => !higher.some((h) => h.key && l.key && !h.key.equals(l.key) && h.key.isAssignable(l.key)),
  );
  const merged: FormatEntry[] = [];
  for (const e of [...kept, ...higher]) {
    const i = merged.findIndex((m) => m.key && e.key && m.key.equals(e.key));
    if (i < 0) {
      merged.push(e);
      continue;
    }
    const low = merged[i]!.format;
    merged[i] = {
      ...e,
      format: {
        ...e.format,
        separator: e.format.separator ?? low.separator,
        separator2: e.format.separator2 ?? low.separator2,
        containerFormats:
          e.format.containerFormats && low.containerFormats
            ? mergeFormats(low.containerFormats, e.format.containerFormats)
            : (e.format.containerFormats ?? low.containerFormats),
      },
    };
  }
  return sortFormats(merged);
}

const TYPE_RANK: Record<string, number> = {
  Struct: 1,
  Hash: 2,
  Tuple: 3,
  Array: 4,
  Pattern: 10,
  Enum: 11,
  String: 12,
};

/** Orders entries so that a type comes before the types that cover it (Puppet's `sort_formats`). */
function sortFormats(entries: FormatEntry[]): FormatEntry[] {
  const out: FormatEntry[] = [];
  for (const e of entries) {
    let i = out.findIndex((o) => compareEntries(e, o) < 0);
    if (i < 0) i = out.length;
    out.splice(i, 0, e);
  }
  return out;
}

function compareEntries(a: FormatEntry, b: FormatEntry): number {
  if (!a.key || !b.key) return 0;
  if (a.key.equals(b.key)) return 0;
  const ab = b.key.isAssignable(a.key);
  const ba = a.key.isAssignable(b.key);
  if (ab && !ba) return -1;
  if (!ab && ba) return 1;
  const ra = TYPE_RANK[a.key.name] ?? 0;
  const rb = TYPE_RANK[b.key.name] ?? 0;
  if (ra === 0 || rb === 0) return compareText(a.key.toString(), b.key.toString());
  return ra - rb;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function formatEntries(hash: PHash): FormatEntry[] {
  const out: FormatEntry[] = [];
  for (const [key, fmt] of hash) {
    if (!isPuppetType(key)) throw conversionError('top level keys in the format hash must be data types');
    const matches: Matcher = (v) => key.isInstance(v);
    if (typeof fmt === 'string') out.push({ key, matches, format: parseStringFormat(fmt) });
    else if (fmt instanceof Map) out.push({ key, matches, format: containerFormat(fmt) });
    else throw conversionError('a format must be a String or a Hash');
  }
  return out;
}

function containerFormat(hash: PHash): StringFormat {
  const allowed = ['separator', 'separator2', 'format', 'string_formats'];
  for (const k of hash.keys()) {
    if (typeof k !== 'string' || !allowed.includes(k)) {
      throw conversionError(
        `only 'separator', 'separator2', 'format', 'string_formats' are allowed in a container format`,
      );
    }
  }
  const fmt = hash.get('format');
  const sep = hash.get('separator');
  const sep2 = hash.get('separator2');
  const nested = hash.get('string_formats');
  return parseStringFormat(typeof fmt === 'string' ? fmt : '%s', {
    separator: typeof sep === 'string' ? sep : undefined,
    separator2: typeof sep2 === 'string' ? sep2 : undefined,
    containerFormats: nested instanceof Map ? sortFormats(formatEntries(nested)) : undefined,
  });
}

/**
 * `String(value)` / `String(value, format)`: strings inside collections are quoted (`['x']`), undef is
 * spelled `undef` there, a Float prints as `%f` (`1.000000`). `format` is a format string for the value
 * (`'%x'`, `'%.2f'`, `'%#p'`, `'%(a'`) or a hash of type to format, as in Puppet.
 */
export function stringify(value: Value, format?: Value): string {
  const map =
    format === undefined || format instanceof PDefault ? DEFAULT_STRING_FORMATS : userFormats(value, format);
  return convert(value, map, DEFAULT_INDENTATION);
}

// ---------------------------------------------------------------------------------------------------------
// Ruby string helpers shared with the string functions

const RUBY_SPACE = ' \t\n\v\f\r\0';

/** Ruby's `String#strip`: ASCII whitespace and NUL only, not Unicode spaces. */
export function rubyStrip(s: string): string {
  return rubyRstrip(rubyLstrip(s));
}

export function rubyLstrip(s: string): string {
  let i = 0;
  while (i < s.length && RUBY_SPACE.includes(s[i]!)) i++;
  return s.slice(i);
}

export function rubyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && RUBY_SPACE.includes(s[end - 1]!)) end--;
  return s.slice(0, end);
}

/** Ruby's `String#capitalize`: first character upper (title) case, the rest lower case. */
export function rubyCapitalize(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const head = String.fromCodePoint(first);
  return titleCase(head) + s.slice(head.length).toLowerCase();
}

const TITLE_CASE: Record<string, string> = {
  Ǆ: 'ǅ',
  ǅ: 'ǅ',
  ǆ: 'ǅ',
  Ǉ: 'ǈ',
  ǈ: 'ǈ',
  ǉ: 'ǈ',
  Ǌ: 'ǋ',
  ǋ: 'ǋ',
  ǌ: 'ǋ',
};

function titleCase(ch: string): string {
  return TITLE_CASE[ch] ?? (ch === 'ß' ? 'Ss' : ch.toUpperCase());
}

// ---------------------------------------------------------------------------------------------------------
// Timestamps: Ruby's Time#strftime on a UTC time (or a fixed offset)

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A timestamp as Puppet prints it: `2020-02-03T04:05:06.000000000 UTC`. */
export function timestampToString(ts: PTimestamp): string {
  return strftime(ts, '%FT%T.%N %Z');
}

/** Parses a timezone argument: `UTC`, `Z`, `+01:00`, `-0530`. Returns the offset in seconds. */
export function parseTimezone(tz: string): number {
  if (/^(utc|gmt|z)$/i.test(tz)) return 0;
  const m = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(tz);
  if (!m) throw new EppEvalError('EPP_ARGUMENTS', `Illegal timezone '${tz}'`);
  const secs = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60;
  return m[1] === '-' ? -secs : secs;
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

function timeParts(seconds: number, offset: number): TimeParts {
  // A double near 1.6e9 s holds microseconds reliably but not nanoseconds: round to the microsecond.
  let whole = Math.floor(seconds);
  let micros = Math.round((seconds - whole) * 1e6);
  if (micros === 1_000_000) {
    whole++;
    micros = 0;
  }
  const nanos = micros * 1000;
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
export function strftime(ts: PTimestamp, format: string, timezone?: string): string {
  const offset = timezone === undefined ? 0 : parseTimezone(timezone);
  const utc = timezone === undefined;
  const t = timeParts(ts.seconds, offset);
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    const m = /^([-_0^#]*)(\d*)(:{0,2})([a-zA-Z%+])/.exec(format.slice(i + 1));
    if (!m) {
      out += c;
      continue;
    }
    i += m[0].length;
    const width = m[2] ? Number(m[2]) : undefined;
    if (width !== undefined && width > MAX_WIDTH)
      throw new EppEvalError('EPP_ARGUMENTS', 'strftime: width too big');
    out += strftimeDirective(t, m[4]!, m[1]!, width, m[3]!.length, offset, utc);
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
    if (width !== undefined && r.length < width) r = r.padStart(width, flags.includes('0') ? '0' : ' ');
    return r;
  };
  const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  switch (conv) {
    case 'Y':
      return num(t.year, 1);
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
      return num(isoWeek(t).year, 1);
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
      return '\n';
    case 't':
      return '\t';
    case '%':
      return '%';
    case 'c':
      return text(
        `${DAYS[t.wday]!.slice(0, 3)} ${MONTHS[t.month - 1]!.slice(0, 3)} ${String(t.day).padStart(2, ' ')} ${hms(t)} ${t.year}`,
      );
    case 'D':
    case 'x':
      return text(`${pad2(t.month)}/${pad2(t.day)}/${pad2(t.year % 100)}`);
    case 'F':
      return text(`${t.year}-${pad2(t.month)}-${pad2(t.day)}`);
    case 'T':
    case 'X':
      return text(hms(t));
    case 'R':
      return text(`${pad2(t.hour)}:${pad2(t.minute)}`);
    case 'r':
      return text(`${pad2(hour12)}:${pad2(t.minute)}:${pad2(t.second)} ${t.hour < 12 ? 'AM' : 'PM'}`);
    case '+':
      return text(
        `${DAYS[t.wday]!.slice(0, 3)} ${MONTHS[t.month - 1]!.slice(0, 3)} ${String(t.day).padStart(2, ' ')} ${hms(t)} ${utc ? 'UTC' : ''} ${t.year}`,
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
