/**
 * Onigmo's character classes as `v`-flag JavaScript classes. Onigmo has what the `v` flag has: nested
 * classes (`[a-c[x-z]]`, a union) and intersections (`[a-z&&[^aeiou]]`, `&&` binding loosest), so a class is
 * written with the same shape; its items are written so that the `v` flag's stricter syntax reads them.
 * A `]` first in a class is a literal, as in Onigmo.
 */
import { caselessRange, caseVariants, classLiteral } from './characters.js';
import { posixBracketClass, propertyClass } from './properties.js';
import type { PatternScanner } from './scanner.js';

/** What a class needs to know of the pattern around it. */
export interface ClassContext {
  /** This part of the pattern ignores case and JavaScript's `i` flag does not say so: letters get both cases. */
  readonly caseless: boolean;
  readonly captures: number;
}

/** Escapes that are a set of characters, in a class and outside one (`\s`, `\h` are ASCII in Onigmo). */
export const SET_ESCAPES: Readonly<Record<string, string>> = {
  d: '\\d',
  D: '\\D',
  w: '\\w',
  W: '\\W',
  s: '[\\t\\n\\v\\f\\r ]',
  S: '[^\\t\\n\\v\\f\\r ]',
  h: '[0-9a-fA-F]',
  H: '[^0-9a-fA-F]',
};

/** Reads a class from its `[` (the scanner is on it) and returns its JavaScript. */
export function readClass(scanner: PatternScanner, context: ClassContext): string {
  const start = scanner.i;
  scanner.i++;
  const negated = scanner.startsWith('^');
  if (negated) scanner.i++;
  const operands: string[][] = [[]];
  let first = true;
  while (true) {
    if (scanner.done) throw scanner.error('premature end of char-class', start);
    if (scanner.startsWith(']') && !first) {
      scanner.i++;
      break;
    }
    if (scanner.startsWith('&&')) {
      scanner.i += 2;
      operands.push([]);
      first = false;
      continue;
    }
    operands[operands.length - 1]!.push(readItem(scanner, context, first));
    first = false;
  }
  const body =
    operands.length === 1 ? operands[0]!.join('') : operands.map((items) => `[${items.join('')}]`).join('&&');
  return `[${negated ? '^' : ''}${body}]`;
}

/** One item of a class: a character, a range, an escape, a POSIX bracket or a nested class. */
function readItem(scanner: PatternScanner, context: ClassContext, first: boolean): string {
  const posix = /^\[:(\^?)([a-z]+):\]/.exec(scanner.src.slice(scanner.i));
  if (posix) {
    const set = posixBracketClass(posix[2]!, posix[1] === '^');
    if (set === undefined) throw scanner.error('invalid POSIX bracket type');
    scanner.i += posix[0].length;
    return set;
  }
  if (scanner.startsWith('[')) return readClass(scanner, context);
  const from = readSingle(scanner, context, first);
  if (typeof from === 'string') return from;
  // A range `a-z`; a `-` before the class's end, or before something that is no character, is a literal.
  if (scanner.startsWith('-') && !scanner.startsWith('-]') && !scanner.startsWith('-[')) {
    const dash = scanner.i;
    scanner.i++;
    const to = readSingle(scanner, context, false);
    if (typeof to === 'string') {
      scanner.i = dash;
    } else {
      if (to < from) throw scanner.error('empty range in char class', dash);
      return context.caseless ? caselessRange(from, to) : `${classLiteral(from)}-${classLiteral(to)}`;
    }
  }
  return single(from, context);
}

/** A character (its code point), or the JavaScript of an escape that is a set (`\d`, `\p{L}`). */
function readSingle(scanner: PatternScanner, context: ClassContext, first: boolean): number | string {
  if (!scanner.startsWith('\\')) {
    if (!first && scanner.startsWith(']')) return '';
    return scanner.next();
  }
  const start = scanner.i;
  scanner.i++;
  const cp = scanner.charEscape(true, context.captures);
  if (cp !== undefined) return cp;
  const letter = scanner.src[scanner.i]!;
  const set = SET_ESCAPES[letter];
  if (set !== undefined) {
    scanner.i++;
    return set;
  }
  if (letter === 'p' || letter === 'P') return readProperty(scanner, start);
  if (
    letter === 'R' ||
    letter === 'X' ||
    letter === 'A' ||
    letter === 'z' ||
    letter === 'Z' ||
    letter === 'G'
  )
    throw scanner.error(`invalid escape in a character class: \\${letter}`, start);
  // Onigmo takes an escaped letter it does not know as the letter.
  scanner.i++;
  return letter.codePointAt(0)!;
}

/** `\p{Name}`, `\p{^Name}`, `\P{Name}`: the scanner is on the `p`. */
export function readProperty(scanner: PatternScanner, start: number): string {
  const m = /^([pP])\{(\^?)([^}]*)\}/.exec(scanner.src.slice(scanner.i));
  if (!m) throw scanner.error('invalid character property name {}', start);
  scanner.i += m[0].length;
  return propertyClass(m[3]!, (m[1] === 'P') !== (m[2] === '^'), start);
}

function single(cp: number, context: ClassContext): string {
  return context.caseless ? caseVariants(cp).map(classLiteral).join('') : classLiteral(cp);
}
