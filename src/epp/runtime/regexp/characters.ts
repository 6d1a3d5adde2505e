/**
 * Single characters in the JavaScript source the translator writes (a `v`-flag RegExp): how a literal
 * code point is written inside and outside a class, and its other cases where a part of a pattern ignores
 * case and the JavaScript `i` flag cannot say so.
 */

/** What must be escaped outside a class in a `v`-flag RegExp: its syntax characters and `/`. */
const SYNTAX = new Set('^$\\.*+?()[]{}|/');

/** A literal code point outside a class. */
export function literal(cp: number): string {
  const c = String.fromCodePoint(cp);
  return SYNTAX.has(c) ? `\\${c}` : c;
}

/**
 * A literal code point inside a class. A `v`-flag class refuses many punctuation characters unescaped
 * (`(`, `-`, `&&`, ...); a `\u{...}` escape is valid for every code point, so anything that is not a
 * letter or digit is written so.
 */
export function classLiteral(cp: number): string {
  return isAsciiAlnum(cp) ? String.fromCodePoint(cp) : `\\u{${cp.toString(16)}}`;
}

function isAsciiAlnum(cp: number): boolean {
  return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122);
}

/** The code point and its other cases (each one code point), for a part of a pattern that ignores case. */
export function caseVariants(cp: number): number[] {
  const c = String.fromCodePoint(cp);
  const variants = [cp];
  for (const other of [c.toLowerCase(), c.toUpperCase()]) {
    const o = other.codePointAt(0)!;
    if (other.length === String.fromCodePoint(o).length && !variants.includes(o)) variants.push(o);
  }
  return variants;
}

/** A literal that ignores case: `k` is `[kK]`; a character without cases stays itself. */
export function caselessLiteral(cp: number): string {
  const variants = caseVariants(cp);
  return variants.length === 1 ? literal(cp) : `[${variants.map(classLiteral).join('')}]`;
}

/** A range of a class that ignores case: ASCII letter ranges get their other case too, as Onigmo's do. */
export function caselessRange(from: number, to: number): string {
  const range = `${classLiteral(from)}-${classLiteral(to)}`;
  if (from >= 97 && to <= 122) return `${range}${classLiteral(from - 32)}-${classLiteral(to - 32)}`;
  if (from >= 65 && to <= 90) return `${range}${classLiteral(from + 32)}-${classLiteral(to + 32)}`;
  return range;
}
