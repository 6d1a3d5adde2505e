/**
 * Ruby's dtoa in modes 2 (significant digits) and 3 (digits after the point), for `sprintf`'s `%f %e %g`.
 *
 * Ruby's dtoa rounds the last digit in floating point and treats anything within a few ulps of a tie as a tie,
 * rounded half to even; that is why `%.2f` of 2.675 is `2.68` where C gives `2.67`. `rubyDigits` replays that
 * algorithm step by step.
 */
const TENS = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
const BIGTENS = [1e16, 1e32, 1e64, 1e128, 1e256];
const QUICK_MAX = 14;
const scratch = new DataView(new ArrayBuffer(8));

export interface Digits {
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
export function decompose(x: number): { m: bigint; e: number } {
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
