/**
 * How Puppet values are represented at run time.
 *
 * The representation is chosen so that the common cases need no wrapper objects and are as fast as plain
 * JavaScript: an Integer is a JavaScript number, so templates count, compare and print them at native speed.
 *
 * | Puppet     | JavaScript                                    |
 * |------------|-----------------------------------------------|
 * | Undef      | `undefined`                                   |
 * | String     | `string`                                      |
 * | Integer    | `number` (a safe integer), or `bigint` beyond ±(2^53 - 1), within 64 bits |
 * | Float      | {@link PFloat} (one object per value: `===` and Map keys compare by value) |
 * | Boolean    | `boolean`                                     |
 * | Array      | `Value[]` (treated as immutable)              |
 * | Hash       | `Map<Value, Value>` (insertion order, as Puppet) |
 * | Regexp     | {@link PRegexp}                               |
 * | Sensitive  | {@link PSensitive}                            |
 * | Default    | {@link DEFAULT}                               |
 * | Type       | `PType` from `types.ts`                       |
 */
import type { PType } from './types.js';

export type Value =
  | undefined
  | string
  | number
  | bigint
  | PFloat
  | boolean
  | Value[]
  | PHash
  | PRegexp
  | PSensitive
  | PDefault
  | PType
  | PTimestamp;

export type PHash = Map<Value, Value>;

/** The `default` literal (used in `case`, selectors and type parameters). */
export class PDefault {
  toString(): string {
    return 'default';
  }
}
export const DEFAULT = new PDefault();

/** A Puppet regular expression, `/.../`. `source` is the text between the slashes. */
export class PRegexp {
  readonly regex: RegExp;
  constructor(
    readonly source: string,
    flags = '',
  ) {
    this.regex = toJsRegExp(source, flags);
  }
}

/** A `Sensitive` wrapper: prints as its value with `<%= %>`, redacted everywhere else. */
export class PSensitive {
  constructor(readonly value: Value) {}
}

/** A point in time (`Timestamp`), as produced by `Timestamp()` / used by `strftime`. */
export class PTimestamp {
  constructor(
    /** Seconds since the epoch, with fraction. */
    readonly seconds: number,
  ) {}
}

/** Puppet's 64-bit integer range. */
export const MAX_INTEGER = 9223372036854775807n;
export const MIN_INTEGER = -9223372036854775808n;

// ---------------------------------------------------------------- Integer and Float

/**
 * A Puppet Integer: a JavaScript number when it is a safe integer (the common case: fast arithmetic and
 * printing), a bigint only beyond ±(2^53 - 1). The representation is canonical: a bigint is never within
 * the safe range, so `===`, Map keys and `typeof` work on Integers without normalising them first.
 */
export type PInteger = number | bigint;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** The canonical Integer for a mathematical integer (no range check: see `checkedInteger` in operators). */
export function integer(n: bigint | number): PInteger {
  if (typeof n === 'number') {
    if (Number.isSafeInteger(n)) return n === 0 ? 0 : n; // no -0 among Integers
    if (!Number.isInteger(n)) throw new TypeError(`not an integer: ${n}`);
    return BigInt(n);
  }
  return n <= MAX_SAFE && n >= MIN_SAFE ? Number(n) : n;
}

/** An Integer as a bigint, for exact arithmetic beyond the safe range. */
export function bigOf(n: PInteger): bigint {
  return typeof n === 'bigint' ? n : BigInt(n);
}

/**
 * A Puppet Float. Boxed, so that a JavaScript number always means an Integer (`1` and `1.0` are different
 * Puppet values). Made only by {@link float}, which returns one object per value while it is alive: two
 * Floats of the same value are `===`, and hashes keyed by Floats find their keys, as with numbers.
 */
export class PFloat {
  /** @internal what `<%= %>` prints for it, kept once computed (a Float never changes; see runtime.ts). */
  rendered: string | undefined = undefined;
  /** @internal use {@link float}. */
  constructor(readonly value: number) {}
}

/** Live Floats by value (weakly held: a Float no value refers to any more can go). */
const floats = new Map<number, WeakRef<PFloat>>();
let negativeZero: PFloat | undefined;
const forget = new FinalizationRegistry<number>((value) => {
  const ref = floats.get(value);
  if (ref && ref.deref() === undefined) floats.delete(value);
});

/** The Float of a JavaScript number (the same object for the same value; -0.0 is its own Float). */
export function float(value: number): PFloat {
  if (Object.is(value, -0)) {
    negativeZero ??= new PFloat(-0);
    return negativeZero;
  }
  const existing = floats.get(value)?.deref();
  if (existing) return existing;
  const created = new PFloat(value);
  floats.set(value, new WeakRef(created));
  forget.register(created, value);
  return created;
}

/** The JavaScript number of an Integer or Float (inexact for Integers beyond 2^53). */
export function numberOf(v: PInteger | PFloat): number {
  return v instanceof PFloat ? v.value : Number(v);
}

export function isHash(v: Value): v is PHash {
  return v instanceof Map;
}

export function isArray(v: Value): v is Value[] {
  return Array.isArray(v);
}

export function isInteger(v: Value): v is PInteger {
  return typeof v === 'number' || typeof v === 'bigint';
}

export function isFloat(v: Value): v is PFloat {
  return v instanceof PFloat;
}

export function isNumeric(v: Value): v is PInteger | PFloat {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PFloat;
}

/** Only `undef` and `false` are falsy in Puppet. */
export function isTruthy(v: Value): boolean {
  return v !== undefined && v !== false;
}

/** Makes a hash from entries, keeping their order. */
export function hashOf(entries: Iterable<readonly [Value, Value]>): PHash {
  return new Map(entries as Iterable<[Value, Value]>);
}

/**
 * `(?i:...)` around the whole pattern (stdlib's `Stdlib::HTTPUrl`): its flags, as a match whose `index` is
 * -1 to say that the closing parenthesis goes too. JavaScript (Node 20) has no scoped modifiers.
 */
function wholeGroupFlags(src: string): (RegExpExecArray & { index: number }) | null {
  const open = /^\(\?([imx]+):/.exec(src);
  if (!open || !src.endsWith(')')) return null;
  let depth = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0 && i !== src.length - 1) return null;
  }
  open.index = -1;
  return open;
}

/**
 * Turns a Puppet (Ruby Onigmo) regexp source into a JavaScript RegExp. The differences that matter in
 * templates: `\A`, `\z`, `\Z` anchors, `(?i)`-style inline flags at the start, and POSIX classes.
 */
export function toJsRegExp(source: string, flags = ''): RegExp {
  let src = source;
  let f = flags;
  const inline = /^\(\?([imx]+)\)/.exec(src) ?? wholeGroupFlags(src);
  if (inline) {
    src = inline.index === -1 ? src.slice(inline[0].length, -1) : src.slice(inline[0].length);
    if (inline[1]!.includes('i') && !f.includes('i')) f += 'i';
    if (inline[1]!.includes('m') && !f.includes('s')) f += 's';
    if (inline[1]!.includes('x')) src = stripExtended(src);
  }
  src = src
    .replace(/\\A/g, '(?<![\\s\\S])')
    .replace(/\\z/g, '(?![\\s\\S])')
    .replace(/\\Z/g, '(?=\\n?(?![\\s\\S]))')
    .replace(/\\h/g, '[0-9a-fA-F]')
    .replace(/\[:alpha:\]/g, 'a-zA-Z')
    .replace(/\[:digit:\]/g, '0-9')
    .replace(/\[:alnum:\]/g, 'a-zA-Z0-9')
    .replace(/\[:space:\]/g, '\\s')
    .replace(/\[:upper:\]/g, 'A-Z')
    .replace(/\[:lower:\]/g, 'a-z')
    .replace(/\[:punct:\]/g, '!-\\/:-@\\[-`{-~')
    .replace(/\[:xdigit:\]/g, '0-9a-fA-F')
    .replace(/\[:word:\]/g, '\\w')
    .replace(/\[:blank:\]/g, ' \\t')
    .replace(/\[:cntrl:\]/g, '\\x00-\\x1f\\x7f')
    .replace(/\[:print:\]/g, '\\x20-\\x7e')
    .replace(/\[:graph:\]/g, '\\x21-\\x7e')
    // Onigmo's `{,n}` is `{0,n}`; JavaScript reads it as text.
    .replace(/(?<!\\)\{,(\d+)\}/g, '{0,$1}');
  if (NAMED_GROUP.test(src)) src = withoutUnnamedCaptures(src);
  // Ruby's `^`/`$` are always line anchors.
  if (!f.includes('m')) f += 'm';
  return new RegExp(src, f);
}

/** Removes the whitespace and comments of an extended (`x`) regexp, outside character classes. */
export function stripExtended(source: string): string {
  return rewriteOutsideClasses(source, (c, i) => {
    if (c === '#') {
      const newline = source.indexOf('\n', i);
      return { text: '', end: newline < 0 ? source.length : newline };
    }
    return { text: /\s/.test(c) ? '' : c, end: i };
  });
}

/**
 * Rewrites a regexp source one character at a time outside escapes and character classes, which pass
 * through as they are: `rewrite` gives a character's text and the index of the last character it used.
 */
function rewriteOutsideClasses(
  source: string,
  rewrite: (c: string, i: number) => { readonly text: string; readonly end: number },
): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else {
      const r = rewrite(c, i);
      out += r.text;
      i = r.end;
    }
  }
  return out;
}

/** A named group `(?<name>` (not a lookbehind `(?<=` / `(?<!`). */
const NAMED_GROUP = /\(\?<[A-Za-z_]/;

/**
 * In Ruby, a regexp with named groups captures only those: its plain `(...)` groups do not count, so
 * `$1` is the first named group. JavaScript counts both; the plain ones become `(?:...)`. Escapes and
 * character classes are skipped, where a `(` is no group.
 */
function withoutUnnamedCaptures(src: string): string {
  return rewriteOutsideClasses(src, (c, i) => ({
    text: c === '(' && src[i + 1] !== '?' ? '(?:' : c,
    end: i,
  }));
}
