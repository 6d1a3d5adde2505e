/**
 * Onigmo's named sets of characters as `v`-flag JavaScript classes: POSIX brackets (`[[:alpha:]]`) and
 * property escapes (`\p{Alpha}`, `\p{Lu}`, `\p{Greek}`). Each was checked against Puppet 7 (Ruby's Onigmo)
 * on non-ASCII text: POSIX brackets and properties are Unicode sets there, where `\w`, `\d`, `\s` and
 * `[[:xdigit:]]` are ASCII.
 */
import { RegexpSyntaxError } from './scanner.js';

/** What is not graphic: Onigmo's `graph` is everything but White_Space, Control, Unassigned, Surrogate. */
const NOT_GRAPH = '\\p{White_Space}\\p{Cc}\\p{Cn}\\p{Cs}';

/** The contents of a class for each of Onigmo's POSIX names, Unicode-aware as Ruby's are. */
const POSIX: Readonly<Record<string, string>> = {
  alpha: '\\p{Alphabetic}',
  alnum: '\\p{Alphabetic}\\p{Nd}',
  blank: '\\p{Zs}\\t',
  cntrl: '\\p{Cc}',
  digit: '\\p{Nd}',
  graph: `[^${NOT_GRAPH}]`,
  lower: '\\p{Lowercase}',
  print: `[^${NOT_GRAPH}]\\p{Zs}`,
  punct: '\\p{P}',
  space: '\\p{White_Space}',
  upper: '\\p{Uppercase}',
  xdigit: '0-9A-Fa-f',
  word: '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}',
  ascii: '\\u{0}-\\u{7f}',
  any: '\\u{0}-\\u{10ffff}',
};

/** `[[:punct:]]` (not `\p{Punct}`) also takes ASCII's nine symbols, as Onigmo 6 does. */
const POSIX_BRACKET_PUNCT = `${POSIX.punct}\\u{24}\\u{2b}\\u{3c}\\u{3d}\\u{3e}\\u{5e}\\u{60}\\u{7c}\\u{7e}`;

/** Unicode general categories by Onigmo's long names (normalised); the short ones (`Lu`) are JavaScript's. */
const CATEGORIES: Readonly<Record<string, string>> = {
  letter: 'L',
  uppercaseletter: 'Lu',
  lowercaseletter: 'Ll',
  titlecaseletter: 'Lt',
  casedletter: 'LC',
  modifierletter: 'Lm',
  otherletter: 'Lo',
  mark: 'M',
  nonspacingmark: 'Mn',
  spacingmark: 'Mc',
  enclosingmark: 'Me',
  number: 'N',
  decimalnumber: 'Nd',
  letternumber: 'Nl',
  othernumber: 'No',
  punctuation: 'P',
  connectorpunctuation: 'Pc',
  dashpunctuation: 'Pd',
  openpunctuation: 'Ps',
  closepunctuation: 'Pe',
  initialpunctuation: 'Pi',
  finalpunctuation: 'Pf',
  otherpunctuation: 'Po',
  symbol: 'S',
  mathsymbol: 'Sm',
  currencysymbol: 'Sc',
  modifiersymbol: 'Sk',
  othersymbol: 'So',
  separator: 'Z',
  spaceseparator: 'Zs',
  lineseparator: 'Zl',
  paragraphseparator: 'Zp',
  other: 'C',
  control: 'Cc',
  format: 'Cf',
  surrogate: 'Cs',
  privateuse: 'Co',
  unassigned: 'Cn',
};
const SHORT_CATEGORIES = new Map(Object.values(CATEGORIES).map((c) => [c.toLowerCase(), c]));

/** A POSIX bracket's class (`[:alpha:]`, `[:^alpha:]`), or undefined for a name Onigmo does not know. */
export function posixBracketClass(name: string, negated: boolean): string | undefined {
  const body = name === 'punct' ? POSIX_BRACKET_PUNCT : name === 'any' ? undefined : POSIX[name];
  return body === undefined ? undefined : `[${negated ? '^' : ''}${body}]`;
}

/** A property escape's class (`\p{Alpha}`, `\P{Lu}`, `\p{^Greek}`); `offset` is where it starts. */
export function propertyClass(name: string, negated: boolean, offset: number): string {
  const key = name.toLowerCase().replace(/[\s_-]/g, '');
  const body = propertyBody(name, key);
  if (body === undefined) {
    if (key.startsWith('in'))
      throw new RegexpSyntaxError(`Unicode blocks (\\p{${name}}) are not supported`, offset, true);
    throw new RegexpSyntaxError(`invalid character property name {${name}}`, offset);
  }
  return `[${negated ? '^' : ''}${body}]`;
}

function propertyBody(name: string, key: string): string | undefined {
  if (key === 'punct') return POSIX.punct;
  const posix = POSIX[key];
  if (posix !== undefined) return posix;
  const category = CATEGORIES[key] ?? SHORT_CATEGORIES.get(key);
  if (category !== undefined) return `\\p{${category}}`;
  // Scripts (`Greek`, `Han`, `Old_Italic`) and binary properties (`Emoji`), as JavaScript spells them.
  const spelled = name.replace(/\s/g, '_');
  const titled = spelled
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
  for (const candidate of [`Script=${spelled}`, `Script=${titled}`, spelled, titled]) {
    if (isJsProperty(candidate)) return `\\p{${candidate}}`;
  }
  return undefined;
}

function isJsProperty(name: string): boolean {
  if (!/^[A-Za-z_=]+$/.test(name)) return false;
  try {
    new RegExp(`\\p{${name}}`, 'v');
    return true;
  } catch {
    return false;
  }
}
