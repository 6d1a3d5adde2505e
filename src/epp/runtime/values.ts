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
 * | Timestamp  | {@link PTimestamp} (integer nanoseconds since the epoch) |
 * | Timespan   | {@link PTimespan} (integer nanoseconds)        |
 * | Binary     | {@link PBinary} (its bytes)                   |
 * | Runtime    | {@link PSymbol} (a Ruby Symbol, from a YAML values file's `:foo`) |
 * | SemVer     | {@link PSemVer} (one object per version), `semver.ts` |
 * | SemVerRange | {@link PSemVerRange}                          |
 * | Object     | {@link PObject} (a value of an `Object[{name => ..., attributes => ...}]` type) |
 */
import { toJsRegExp } from './regexp/translate.js';
import type { PSemVer, PSemVerRange } from './semver.js';
import type { NamedObjectType, PType } from './types.js';
import { WeakInterned } from './weak-interned.js';

export { RegexpSyntaxError, toJsRegExp } from './regexp/translate.js';
export { PSemVer, PSemVerRange } from './semver.js';

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
  | PTimestamp
  | PTimespan
  | PIterator
  | PBinary
  | PSymbol
  | PSemVer
  | PSemVerRange
  | PObject;

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
    /** The source to run instead, when `source` says what JavaScript cannot but this says alike. */
    runAs = source,
  ) {
    this.regex = toJsRegExp(runAs, flags);
  }
}

/**
 * A value of a named Object type (`Point({'x' => 1, 'y' => 2})`): its type and its attributes' values, in
 * the order of `type.attributes`.
 */
export class PObject {
  constructor(
    readonly type: NamedObjectType,
    readonly values: readonly Value[],
  ) {}
}

/** A `Sensitive` wrapper: prints as its value with `<%= %>`, redacted everywhere else. */
export class PSensitive {
  constructor(readonly value: Value) {}
}

/**
 * Puppet's TimeData: a Timestamp or a Timespan, held as Puppet holds them, an integer count of nanoseconds
 * (a bigint: 2^63 ns is only 292 years, and Ruby's Integer has no limit).
 */
export abstract class PTimeData {
  abstract readonly kind: 'Timestamp' | 'Timespan';
  constructor(
    /** Nanoseconds: since the epoch (1970-01-01T00:00:00 UTC) for a Timestamp, in all for a Timespan. */
    readonly nanos: bigint,
  ) {}
}

/** A point in time (`Timestamp`), as produced by `Timestamp()` / used by `strftime`. */
export class PTimestamp extends PTimeData {
  readonly kind = 'Timestamp' as const;
}

/** A duration (`Timespan`): `Timespan(3600)`, a Timestamp minus a Timestamp. */
export class PTimespan extends PTimeData {
  readonly kind = 'Timespan' as const;
}

/**
 * Puppet's Iterator: what `reverse_each` and `step` give without a block, a lazy walk over another
 * Iterable. It is no Array: it prints as `Iterator[Integer]-Value`, and only what takes an Iterable
 * (each, map, filter, reduce, `Array(...)`, a splat, ...) takes it.
 */
export class PIterator {
  constructor(
    /** The elements, walked anew each time they are asked for (the source is a value: it does not change). */
    readonly elements: () => Iterable<Value>,
    /** The type of its elements as Puppet infers it (`Variant[Integer[1, 1], Integer[2, 2]]`). */
    readonly elementType: PType,
  ) {}

  /** How Puppet prints it, its type generalized: `Iterator[Integer]-Value`. */
  display(): string {
    return `Iterator[${this.elementType.generalize()}]-Value`;
  }
}

/**
 * Puppet's Binary: a sequence of bytes (`Binary('aGk=')`, `Binary('hi', '%r')`). It prints as its strict
 * base64 text, and equals only a Binary of the same bytes.
 */
export class PBinary {
  /** @internal use {@link PBinary.of}: one object per content while it lives, as {@link float}. */
  constructor(readonly bytes: Uint8Array) {}

  /**
   * The Binary of these bytes: the same object for the same bytes, so that Map keys, `===` and `unique`
   * find equal Binaries as Ruby's `eql?` does (`{Binary('aGk=') => 1, Binary('hi', '%s') => 2}` has one key).
   */
  static of(bytes: Uint8Array): PBinary {
    const key = base64Of(bytes);
    return binaries.get(key) ?? binaries.keep(key, new PBinary(bytes));
  }

  /** Strict base64 (RFC 4648, no line breaks): what `<%= %>` and `%B` print. */
  display(): string {
    return base64Of(this.bytes);
  }

  /** Ruby's `to_s` (what `join` and the conversion messages print). */
  toString(): string {
    return this.display();
  }
}

/** Live Binaries by their base64 text. */
const binaries = new WeakInterned<string, PBinary>();

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 with padding; by hand rather than Buffer/btoa, so that the browser's bundle has it alike. */
export function base64Of(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = i + 1 < bytes.length ? bytes[i + 1]! : -1;
    const c = i + 2 < bytes.length ? bytes[i + 2]! : -1;
    out += BASE64[a >> 2]! + BASE64[((a & 3) << 4) | (b < 0 ? 0 : b >> 4)]!;
    out += b < 0 ? '=' : BASE64[((b & 15) << 2) | (c < 0 ? 0 : c >> 6)]!;
    out += c < 0 ? '=' : BASE64[c & 63]!;
  }
  return out;
}

/**
 * A Ruby Symbol, which Puppet gives for a YAML values file's `:foo` (type `Runtime[ruby, 'Symbol']`). It
 * prints as its name, equals no String, and Puppet's functions refuse it (`got Runtime`).
 */
export class PSymbol {
  /** @internal use {@link PSymbol.of}: one object per name, so `===` and hash keys compare as Ruby's. */
  constructor(readonly name: string) {}

  static of(name: string): PSymbol {
    let symbol = symbols.get(name);
    if (symbol === undefined) {
      symbol = new PSymbol(name);
      symbols.set(name, symbol);
    }
    return symbol;
  }

  display(): string {
    return this.name;
  }

  /** Ruby's `Symbol#to_s` (what `join` and the conversion messages print). */
  toString(): string {
    return this.name;
  }
}

const symbols = new Map<string, PSymbol>();

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

/** Live Floats by value (-0.0, which a Map key takes for 0, is kept apart). */
const floats = new WeakInterned<number, PFloat>();
let negativeZero: PFloat | undefined;

/** The Float of a JavaScript number (the same object for the same value; -0.0 is its own Float). */
export function float(value: number): PFloat {
  if (Object.is(value, -0)) {
    negativeZero ??= new PFloat(-0);
    return negativeZero;
  }
  return floats.get(value) ?? floats.keep(value, new PFloat(value));
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
