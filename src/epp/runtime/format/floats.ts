/**
 * Ruby's `Float#to_s`: how a Float prints in `<%= %>`, interpolation and inspect texts.
 */
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
