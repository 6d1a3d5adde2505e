/**
 * How Puppet values are represented at run time.
 *
 * The representation is chosen so that the common cases need no wrapper objects and the Puppet type of a
 * value can be told from `typeof` alone:
 *
 * | Puppet     | JavaScript                                    |
 * |------------|-----------------------------------------------|
 * | Undef      | `undefined`                                   |
 * | String     | `string`                                      |
 * | Integer    | `bigint` (64-bit range is checked on arithmetic) |
 * | Float      | `number`                                      |
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
  | bigint
  | number
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

export function isHash(v: Value): v is PHash {
  return v instanceof Map;
}

export function isArray(v: Value): v is Value[] {
  return Array.isArray(v);
}

export function isInteger(v: Value): v is bigint {
  return typeof v === 'bigint';
}

export function isFloat(v: Value): v is number {
  return typeof v === 'number';
}

export function isNumeric(v: Value): v is bigint | number {
  return typeof v === 'bigint' || typeof v === 'number';
}

/** Only `undef` and `false` are falsy in Puppet. */
export function isTruthy(v: Value): boolean {
  return v !== undefined && v !== false;
}

/** Makes a hash from entries, keeping their order. */
export function hashOf(entries: Iterable<readonly [Value, Value]>): PHash {
  return new Map(entries as Iterable<[Value, Value]>);
}

export interface FromJsOptions {
  /**
   * How JavaScript numbers convert. `'infer'` (default): whole numbers become Integers, others Floats.
   * `'float'`: every number is a Float, for data parsed with integers as bigint (YAML with `intAsBigInt`),
   * which keeps the `1` / `1.0` distinction of the source.
   */
  readonly numbers?: 'infer' | 'float';
}

/**
 * Converts plain JavaScript data (JSON-like: objects, arrays, numbers, bigints, strings, booleans, null)
 * into Puppet values: objects and Maps become hashes, null becomes undef.
 */
export function fromJs(data: unknown, options: FromJsOptions = {}): Value {
  return convertFromJs(data, options.numbers === 'float');
}

function convertFromJs(data: unknown, numbersAreFloats: boolean): Value {
  if (data === null || data === undefined) return undefined;
  switch (typeof data) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return data;
    case 'number':
      // Whole numbers become Integers, except beyond 2^53, where a JavaScript number is no exact integer.
      return Number.isSafeInteger(data) && !numbersAreFloats ? BigInt(data) : data;
    case 'object':
      if (Array.isArray(data)) return data.map((item) => convertFromJs(item, numbersAreFloats));
      if (data instanceof Map) {
        const out: PHash = new Map();
        for (const [k, v] of data)
          out.set(convertFromJs(k, numbersAreFloats), convertFromJs(v, numbersAreFloats));
        return out;
      }
      if (isValueObject(data)) return data as Value;
      {
        const out: PHash = new Map();
        // for...in rather than Object.entries: no array of pairs per object (values are converted often).
        const record = data as Record<string, unknown>;
        for (const k in record)
          if (Object.hasOwn(record, k)) out.set(k, convertFromJs(record[k], numbersAreFloats));
        return out;
      }
    default:
      throw new TypeError(`cannot convert a JavaScript ${typeof data} to a Puppet value`);
  }
}

function isValueObject(data: object): boolean {
  return (
    data instanceof PRegexp ||
    data instanceof PSensitive ||
    data instanceof PDefault ||
    data instanceof PTimestamp ||
    (data as { readonly isPuppetType?: boolean }).isPuppetType === true
  );
}

/** Converts Puppet values back to plain JavaScript data (hashes become objects, Integers numbers when safe). */
export function toJs(v: Value): unknown {
  if (v === undefined) return null;
  if (typeof v === 'bigint') {
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(v)
      : v.toString();
  }
  if (Array.isArray(v)) return v.map(toJs);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, val] of v) out[typeof k === 'string' ? k : String(toJs(k))] = toJs(val);
    return out;
  }
  if (v instanceof PSensitive) return toJs(v.value);
  if (v instanceof PRegexp) return v.source;
  return v;
}

/**
 * Turns a Puppet (Ruby Onigmo) regexp source into a JavaScript RegExp. The differences that matter in
 * templates: `\A`, `\z`, `\Z` anchors, `(?i)`-style inline flags at the start, and POSIX classes.
 */
export function toJsRegExp(source: string, flags = ''): RegExp {
  let src = source;
  let f = flags;
  const inline = /^\(\?([imx]+)\)/.exec(src);
  if (inline) {
    src = src.slice(inline[0].length);
    if (inline[1]!.includes('i') && !f.includes('i')) f += 'i';
    if (inline[1]!.includes('m') && !f.includes('s')) f += 's';
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
    .replace(/\[:word:\]/g, '\\w');
  // Ruby's `^`/`$` are always line anchors.
  if (!f.includes('m')) f += 'm';
  return new RegExp(src, f);
}
