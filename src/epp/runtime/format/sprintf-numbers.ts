/**
 * Ruby's Kernel#format for numbers: `%d %i %u %x %X %o %b %B` and `%f %e %E %g %G %a %A`.
 */
import { bigOf, type PInteger } from '../values.js';
import { type Digits, decompose, rubyDigits } from './dtoa.js';
import { toRubyFloat, toRubyInteger } from './ruby-args.js';
import { formatError, pad, type RubyArg, type Spec, signOf } from './sprintf-spec.js';

const RADIX: Record<string, number> = { x: 16, X: 16, o: 8, b: 2, B: 2 };

export function formatInteger(spec: Spec, arg: RubyArg): string {
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

export function formatFloatSpec(spec: Spec, arg: RubyArg): string {
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
