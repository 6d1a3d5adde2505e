/**
 * The Puppet type system, as far as templates can see it.
 *
 * Each Puppet type is a {@link PType} subclass that answers three questions the way Puppet 7 does
 * (the reference is Puppet's `pops/types/types.rb`):
 *
 * - `isInstance(value)`: is the value of this type (`$x =~ Integer`, parameter checks, `case` options);
 * - `isAssignable(type)`: is every value of the other type also of this one (`Type[T]`, mismatch reports);
 * - `toString()`: how Puppet prints the type (`Integer[1, 5]`, `Struct[{'a' => String}]`).
 *
 * The class hierarchy mirrors Puppet's (Integer and Float are Numeric, Numeric is ScalarData, ...)
 * because Puppet's rules are written in terms of it. Inference (`type()`), generalization and the
 * mismatch messages (`expects an Integer value, got String`) live at the end of this file.
 */
import { EppEvalError } from '../errors.js';
import {
  integer,
  PDefault,
  PFloat,
  type PInteger,
  PRegexp,
  PSensitive,
  PTimestamp,
  type Value,
} from './values.js';

/**
 * A range bound: an Integer bound is a canonical Integer (a number when safe, a bigint beyond), a Float
 * bound a number, an open end an infinity. JavaScript compares numbers with bigints exactly.
 */
type Num = number | bigint;

/** A bound in canonical form (a bigint within the safe range becomes a number). */
function bound(n: Num): Num {
  return typeof n === 'bigint' ? integer(n) : n;
}

export abstract class PType {
  readonly isPuppetType = true;
  /** Puppet's simple name (`Integer` for `Integer[1, 5]`), used in short mismatch messages. */
  abstract readonly name: string;
  abstract isInstance(value: Value): boolean;
  abstract toString(): string;

  /** Whether every value of `o` is also a value of this type (Puppet's `assignable?`). */
  isAssignable(o: PType): boolean {
    if (o instanceof UnitType) return true;
    if (o instanceof AliasType) return guarded(this, o, () => this.isAssignable(o.resolved()));
    if (o instanceof VariantType) {
      if (this.constructor === AnyType) return true;
      return o.types.length > 0 && o.types.every((t) => this.isAssignable(t));
    }
    if (o instanceof OptionalType) {
      return this.isAssignable(UNDEF) && (o.type === undefined || this.isAssignable(o.type));
    }
    if (o instanceof NotUndefType && o.type !== undefined && !o.type.isAssignable(UNDEF)) {
      return this.isAssignable(o.type);
    }
    return this.assignableFrom(o);
  }

  /** The class-specific part of {@link isAssignable}; the special right-hand sides are handled there. */
  protected assignableFrom(_o: PType): boolean {
    return true;
  }

  /** The type with value-specific details removed (`Integer[1, 1]` becomes `Integer`). */
  generalize(): PType {
    return this;
  }

  /** A simpler equivalent type (`Optional[Optional[T]]` becomes `Optional[T]`). */
  normalize(): PType {
    return this;
  }

  /** The unparameterized type of the same kind (Puppet's `DEFAULT` constant of the class). */
  kindDefault(): PType {
    return this;
  }

  /** Structural equality. */
  equals(o: PType): boolean {
    return this.constructor === o.constructor && this.toString() === o.toString();
  }
}

/** A type that wraps one optional inner type: Optional, NotUndef, Type, Sensitive, Iterable. */
abstract class ContainerType extends PType {
  constructor(readonly type: PType | undefined) {
    super();
  }
  protected abstract make(type: PType | undefined): PType;
  override generalize(): PType {
    return this.type === undefined ? this : this.make(this.type.generalize());
  }
  override normalize(): PType {
    return this.type === undefined ? this : this.make(this.type.normalize());
  }
  override kindDefault(): PType {
    return this.make(undefined);
  }
  override toString(): string {
    return this.type === undefined ? this.name : `${this.name}[${this.type}]`;
  }
}

// ---------------------------------------------------------------------------------------------------
// The simple types

export class AnyType extends PType {
  readonly name: string = 'Any';
  isInstance(_v: Value): boolean {
    return true;
  }
  toString(): string {
    return 'Any';
  }
}

/** Puppet's internal bottom type: the element type of an empty array. Prints as `Unit`. */
export class UnitType extends PType {
  readonly name = 'Unit';
  isInstance(_v: Value): boolean {
    return true;
  }
  toString(): string {
    return 'Unit';
  }
}

export class UndefType extends PType {
  readonly name = 'Undef';
  isInstance(v: Value): boolean {
    return v === undefined;
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof UndefType;
  }
  toString(): string {
    return 'Undef';
  }
}

export class DefaultType extends PType {
  readonly name = 'Default';
  isInstance(v: Value): boolean {
    return v instanceof PDefault;
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof DefaultType;
  }
  toString(): string {
    return 'Default';
  }
}

export class NotUndefType extends ContainerType {
  readonly name = 'NotUndef';
  constructor(type?: PType) {
    super(type === undefined || type.constructor === AnyType ? undefined : type);
  }
  protected make(type: PType | undefined): PType {
    return new NotUndefType(type);
  }
  override isAssignable(o: PType): boolean {
    if (o instanceof VariantType && o.types.length === 0) return this.assignableFrom(o);
    return super.isAssignable(o);
  }
  isInstance(v: Value): boolean {
    return v !== undefined && (this.type === undefined || this.type.isInstance(v));
  }
  protected override assignableFrom(o: PType): boolean {
    return !o.isAssignable(UNDEF) && (this.type === undefined || this.type.isAssignable(o));
  }
  override normalize(): PType {
    if (this.type === undefined) return this;
    const inner = this.type.normalize();
    if (inner instanceof OptionalType) return new NotUndefType(inner.type).normalize();
    if (!inner.isAssignable(UNDEF)) return inner;
    return new NotUndefType(inner);
  }
  override toString(): string {
    const t = this.type;
    if (t === undefined) return 'NotUndef';
    return `NotUndef[${t instanceof StringType && t.value !== undefined ? quote(t.value) : t}]`;
  }
}

export class OptionalType extends ContainerType {
  readonly name = 'Optional';
  protected make(type: PType | undefined): PType {
    return new OptionalType(type);
  }
  isInstance(v: Value): boolean {
    return v === undefined || this.type?.isInstance(v) === true;
  }
  protected override assignableFrom(o: PType): boolean {
    if (o instanceof UndefType || this.type === undefined) return true;
    return this.type.isAssignable(o instanceof OptionalType && o.type ? o.type : o);
  }
  override normalize(): PType {
    if (this.type === undefined) return this;
    const inner = this.type.normalize();
    if (inner instanceof NotUndefType) return new OptionalType(inner.type).normalize();
    if (inner.isAssignable(UNDEF)) return inner;
    return new OptionalType(inner);
  }
  override toString(): string {
    const t = this.type;
    if (t === undefined) return 'Optional';
    return `Optional[${t instanceof StringType && t.value !== undefined ? quote(t.value) : t}]`;
  }
}

export class ScalarType extends PType {
  readonly name: string = 'Scalar';
  isInstance(v: Value): boolean {
    const t = typeof v;
    return (
      t === 'string' ||
      t === 'number' ||
      t === 'bigint' ||
      t === 'boolean' ||
      v instanceof PFloat ||
      v instanceof PRegexp ||
      v instanceof PTimestamp
    );
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof ScalarType;
  }
  override kindDefault(): PType {
    return SCALAR;
  }
  toString(): string {
    return 'Scalar';
  }
}

export class ScalarDataType extends ScalarType {
  override readonly name: string = 'ScalarData';
  override isInstance(v: Value): boolean {
    const t = typeof v;
    return t === 'string' || t === 'number' || t === 'bigint' || t === 'boolean' || v instanceof PFloat;
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof ScalarDataType;
  }
  override kindDefault(): PType {
    return SCALAR_DATA;
  }
  override toString(): string {
    return 'ScalarData';
  }
}

/** Numeric, and the base of Integer and Float: a closed range, unbounded ends are infinities. */
export class NumericType extends ScalarDataType {
  override readonly name: string = 'Numeric';
  readonly from: Num;
  readonly to: Num;
  constructor(from: Num = Number.NEGATIVE_INFINITY, to: Num = Number.POSITIVE_INFINITY) {
    super();
    this.from = bound(from);
    this.to = bound(to);
    if (from > to) {
      throw new EppEvalError('EPP_ARGUMENTS', `'from' must be less or equal to 'to'. Got (${from}, ${to})`);
    }
  }
  override isInstance(v: Value): boolean {
    if (typeof v === 'number' || typeof v === 'bigint') return v >= this.from && v <= this.to;
    return v instanceof PFloat && v.value >= this.from && v.value <= this.to;
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof (this.constructor as typeof NumericType) && this.from <= o.from && this.to >= o.to;
  }
  get unbounded(): boolean {
    return this.from === Number.NEGATIVE_INFINITY && this.to === Number.POSITIVE_INFINITY;
  }
  override generalize(): PType {
    return this.kindDefault();
  }
  override kindDefault(): PType {
    return NUMERIC;
  }
  /** The `[from, to]` parameters as Puppet prints them (`default` for an open start). */
  protected rangeText(print: (n: Num) => string): string {
    if (this.unbounded) return '';
    const from = this.from === Number.NEGATIVE_INFINITY ? 'default' : print(this.from);
    return this.to === Number.POSITIVE_INFINITY ? `[${from}]` : `[${from}, ${print(this.to)}]`;
  }
  override toString(): string {
    return 'Numeric';
  }
}

export class IntegerType extends NumericType {
  override readonly name = 'Integer';
  override isInstance(v: Value): boolean {
    return (typeof v === 'number' || typeof v === 'bigint') && v >= this.from && v <= this.to;
  }
  /** The lower bound (an Integer), or undefined when unbounded. */
  get min(): PInteger | undefined {
    return Number.isFinite(this.from) || typeof this.from === 'bigint' ? this.from : undefined;
  }
  /** The upper bound (an Integer), or undefined when unbounded. */
  get max(): PInteger | undefined {
    return Number.isFinite(this.to) || typeof this.to === 'bigint' ? this.to : undefined;
  }
  /** As a collection size constraint: negative bounds clamp to 0. */
  toSize(): IntegerType {
    if (this.from >= 0) return this;
    return new IntegerType(0, this.to < 0 ? 0 : this.to);
  }
  override kindDefault(): PType {
    return INTEGER;
  }
  override toString(): string {
    return 'Integer' + this.rangeText(String);
  }
}

export class FloatType extends NumericType {
  override readonly name = 'Float';
  override isInstance(v: Value): boolean {
    return v instanceof PFloat && v.value >= this.from && v.value <= this.to;
  }
  override kindDefault(): PType {
    return FLOAT;
  }
  override toString(): string {
    return 'Float' + this.rangeText((n) => rubyFloat(Number(n)));
  }
}

export class BooleanType extends ScalarDataType {
  override readonly name = 'Boolean';
  constructor(readonly value?: boolean) {
    super();
  }
  override isInstance(v: Value): boolean {
    return typeof v === 'boolean' && (this.value === undefined || v === this.value);
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof BooleanType && (this.value === undefined || this.value === o.value);
  }
  override generalize(): PType {
    return BOOLEAN;
  }
  override kindDefault(): PType {
    return BOOLEAN;
  }
  override toString(): string {
    return this.value === undefined ? 'Boolean' : `Boolean[${this.value}]`;
  }
}

/** String, with either a size constraint or (for inferred types) the exact value. */
export class StringType extends ScalarDataType {
  override readonly name = 'String';
  readonly size: IntegerType | undefined;
  constructor(
    size?: IntegerType,
    readonly value?: string,
  ) {
    super();
    this.size = size?.toSize();
  }
  override isInstance(v: Value): boolean {
    if (typeof v !== 'string') return false;
    if (this.size) return this.size.isInstance(charLength(v));
    return this.value === undefined || v === this.value;
  }
  /** The size range its values have. */
  derivedSize(): IntegerType {
    if (this.size) return this.size;
    if (this.value !== undefined) {
      const n = charLength(this.value);
      return new IntegerType(n, n);
    }
    return DEFAULT_SIZE;
  }
  protected override assignableFrom(o: PType): boolean {
    if (this.size) {
      if (o instanceof StringType) return this.size.isAssignable(o.derivedSize());
      if (o instanceof EnumType) {
        if (o.values.length === 0) return this.size.isAssignable(DEFAULT_SIZE);
        const lengths = o.values.map(charLength);
        return lengths.every((n) => this.size!.isInstance(n));
      }
      if (o instanceof PatternType) return this.size.isAssignable(DEFAULT_SIZE);
      return false;
    }
    if (o instanceof StringType) return this.value === undefined || this.value === o.value;
    if (o instanceof EnumType) {
      return (
        this.value === undefined ||
        (o.values.length === 1 && !o.caseInsensitive && o.values[0] === this.value)
      );
    }
    if (o instanceof PatternType) return this.value === undefined;
    return false;
  }
  override generalize(): PType {
    return STRING;
  }
  override kindDefault(): PType {
    return STRING;
  }
  override equals(o: PType): boolean {
    return o instanceof StringType && o.value === this.value && o.toString() === this.toString();
  }
  override toString(): string {
    const size = this.size;
    if (size === undefined || size.unbounded) return 'String';
    return 'String' + size.toString().slice('Integer'.length);
  }
}

export class EnumType extends ScalarDataType {
  override readonly name = 'Enum';
  readonly values: readonly string[];
  constructor(
    values: readonly string[],
    readonly caseInsensitive = false,
  ) {
    super();
    // Puppet keeps the values unique and sorted (it prints `Enum['off', 'on']` for `Enum['on', 'off']`).
    this.values = [...new Set(values)].sort(byCodePoint);
  }
  override isInstance(v: Value): boolean {
    if (typeof v !== 'string') return false;
    if (this.caseInsensitive) {
      const lower = v.toLowerCase();
      return this.values.some((s) => s.toLowerCase() === lower);
    }
    return this.values.includes(v);
  }
  protected override assignableFrom(o: PType): boolean {
    if (this.equals(o)) return true;
    if (this.values.length === 0) {
      return o instanceof StringType || o instanceof EnumType || o instanceof PatternType;
    }
    if (o instanceof StringType) return o.value !== undefined && this.isInstance(o.value);
    if (o instanceof EnumType) {
      return (
        o.values.length > 0 &&
        (this.caseInsensitive || !o.caseInsensitive) &&
        o.values.every((s) => this.isInstance(s))
      );
    }
    return false;
  }
  override generalize(): PType {
    if (this.values.length === 0) return STRING;
    const lengths = this.values.map(charLength);
    return new StringType(new IntegerType(Math.min(...lengths), Math.max(...lengths)));
  }
  override kindDefault(): PType {
    return ENUM;
  }
  override toString(): string {
    if (this.values.length === 0) return 'Enum';
    const parts = this.values.map(quote);
    if (this.caseInsensitive) parts.push('true');
    return `Enum[${parts.join(', ')}]`;
  }
}

export class PatternType extends ScalarDataType {
  override readonly name = 'Pattern';
  constructor(readonly patterns: readonly PRegexp[]) {
    super();
  }
  override isInstance(v: Value): boolean {
    return (
      typeof v === 'string' && (this.patterns.length === 0 || this.patterns.some((p) => p.regex.test(v)))
    );
  }
  protected override assignableFrom(o: PType): boolean {
    if (this.equals(o)) return true;
    const matches = (s: string) => this.patterns.length === 0 || this.patterns.some((p) => p.regex.test(s));
    if (o instanceof StringType) return o.value === undefined ? this.patterns.length === 0 : matches(o.value);
    if (o instanceof EnumType) {
      return o.values.length === 0 ? this.patterns.length === 0 : o.values.every(matches);
    }
    if (o instanceof PatternType) return this.patterns.length === 0;
    return false;
  }
  override kindDefault(): PType {
    return PATTERN;
  }
  override toString(): string {
    if (this.patterns.length === 0) return 'Pattern';
    return `Pattern[${this.patterns.map((p) => `/${p.source}/`).join(', ')}]`;
  }
}

export class RegexpType extends ScalarType {
  override readonly name = 'Regexp';
  constructor(readonly pattern?: string) {
    super();
  }
  override isInstance(v: Value): boolean {
    return v instanceof PRegexp && (this.pattern === undefined || v.source === this.pattern);
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof RegexpType && (this.pattern === undefined || this.pattern === o.pattern);
  }
  override kindDefault(): PType {
    return REGEXP;
  }
  override toString(): string {
    return this.pattern === undefined ? 'Regexp' : `Regexp[/${this.pattern}/]`;
  }
}

/** Timestamp[from, to]: a range of points in time, in seconds since the epoch (open ends are infinite). */
export class TimestampType extends ScalarType {
  override readonly name = 'Timestamp';
  constructor(
    readonly from = Number.NEGATIVE_INFINITY,
    readonly to = Number.POSITIVE_INFINITY,
  ) {
    super();
  }
  override isInstance(v: Value): boolean {
    return v instanceof PTimestamp && v.seconds >= this.from && v.seconds <= this.to;
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof TimestampType && this.from <= o.from && this.to >= o.to;
  }
  override generalize(): PType {
    return TIMESTAMP;
  }
  override kindDefault(): PType {
    return TIMESTAMP;
  }
  override toString(): string {
    const open = (n: number) => !Number.isFinite(n);
    if (open(this.from) && open(this.to)) return 'Timestamp';
    const from = open(this.from) ? 'default' : quote(timestampText(this.from));
    if (open(this.to) || this.to === this.from) return `Timestamp[${from}]`;
    return `Timestamp[${from}, ${quote(timestampText(this.to))}]`;
  }
}

/** A type templates have no values for (Timespan, SemVer): parameters are kept for printing only. */
abstract class LooseScalarType extends ScalarType {
  constructor(readonly params: readonly Value[] = []) {
    super();
  }
  override isInstance(_v: Value): boolean {
    return false;
  }
  protected override assignableFrom(o: PType): boolean {
    return o.constructor === this.constructor && (this.params.length === 0 || this.equals(o));
  }
  override generalize(): PType {
    return this.kindDefault();
  }
  override toString(): string {
    return this.params.length === 0 ? this.name : `${this.name}[${this.params.map(literal).join(', ')}]`;
  }
}

export class TimespanType extends LooseScalarType {
  override readonly name = 'Timespan';
  override kindDefault(): PType {
    return TIMESPAN;
  }
}

export class SemVerType extends LooseScalarType {
  override readonly name = 'SemVer';
  override kindDefault(): PType {
    return SEMVER;
  }
}

/**
 * Seconds since the epoch of an ISO 8601 date or date-time (`2020-02-03`, `2020-02-03T04:05:06.5Z`,
 * `2020-02-03 04:05:06 +01:00`); without a zone it is UTC, as in Puppet. Undefined when not understood.
 */
export function parseTimestamp(text: string): number | undefined {
  const m =
    /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/.exec(
      text.trim(),
    );
  if (!m) return undefined;
  let zone = m[3] ?? 'Z';
  if (zone === 'UTC') zone = 'Z';
  else if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}${zone}`);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

/** How Puppet prints a Timestamp: `2020-02-03T04:05:06.500000000 UTC`. */
export function timestampText(seconds: number): string {
  let whole = Math.floor(seconds);
  let nanos = Math.round((seconds - whole) * 1e9);
  if (nanos >= 1e9) {
    whole += 1;
    nanos -= 1e9;
  }
  const date = new Date(whole * 1000).toISOString().slice(0, 19);
  return `${date}.${String(nanos).padStart(9, '0')} UTC`;
}

// ---------------------------------------------------------------------------------------------------
// Collections

export class CollectionType extends PType {
  readonly name: string = 'Collection';
  readonly size: IntegerType | undefined;
  constructor(size?: IntegerType) {
    super();
    this.size = size?.toSize();
  }
  isInstance(v: Value): boolean {
    if (!Array.isArray(v) && !(v instanceof Map)) return false;
    const n = Array.isArray(v) ? v.length : v.size;
    return this.size === undefined || this.size.isInstance(n);
  }
  /** The size range, `Integer[0]` when unconstrained. */
  sizeRange(): IntegerType {
    return this.size ?? DEFAULT_SIZE;
  }
  get hasEmptyRange(): boolean {
    const s = this.sizeRange();
    return s.from === 0 && s.to === 0;
  }
  protected override assignableFrom(o: PType): boolean {
    const size = this.sizeRange();
    if (o instanceof CollectionType) return size.isAssignable(o.sizeRange());
    if (o instanceof TupleType) return size.isAssignable(o.size ?? exactSize(o.types.length));
    if (o instanceof StructType) return size.isAssignable(exactSize(o.elements.length));
    return false;
  }
  override generalize(): PType {
    return COLLECTION;
  }
  override normalize(): PType {
    return COLLECTION;
  }
  override kindDefault(): PType {
    return COLLECTION;
  }
  /** `[from, to]` of the size, or '' when unconstrained. */
  protected sizeParams(): string[] {
    const s = this.size;
    if (s === undefined || s.unbounded) return [];
    const text = s.toString().slice('Integer['.length, -1);
    return text.split(', ');
  }
  toString(): string {
    const p = this.sizeParams();
    return p.length === 0 ? 'Collection' : `Collection[${p.join(', ')}]`;
  }
}

export class ArrayType extends CollectionType {
  override readonly name = 'Array';
  readonly element: PType;
  constructor(element?: PType, size?: IntegerType) {
    super(size);
    const s = this.size;
    this.element = s && s.from === 0 && s.to === 0 ? UNIT : (element ?? ANY);
  }
  override isInstance(v: Value): boolean {
    if (!Array.isArray(v)) return false;
    if (this.size !== undefined && !this.size.isInstance(v.length)) return false;
    // An indexed loop, no callback: first renders check fresh values in unoptimised code.
    const element = this.element;
    for (let i = 0; i < v.length; i++) if (!element.isInstance(v[i])) return false;
    return true;
  }
  protected override assignableFrom(o: PType): boolean {
    if (o instanceof TupleType) {
      const size = o.size ?? exactSize(o.types.length);
      return this.sizeRange().isAssignable(size) && o.types.every((t) => this.element.isAssignable(t));
    }
    if (o instanceof ArrayType) {
      return this.sizeRange().isAssignable(o.sizeRange()) && this.element.isAssignable(o.element);
    }
    return false;
  }
  override generalize(): PType {
    if (this.element instanceof AnyType) return ARRAY;
    return new ArrayType(this.element.generalize());
  }
  override normalize(): PType {
    if (this.element instanceof AnyType) return ARRAY;
    return new ArrayType(this.element.normalize(), this.size);
  }
  override kindDefault(): PType {
    return ARRAY;
  }
  override toString(): string {
    if (this.hasEmptyRange) return 'Array[0, 0]';
    if (this.element.constructor === AnyType && this.size === undefined) return 'Array';
    return `Array[${[this.element.toString(), ...this.sizeParams()].join(', ')}]`;
  }
}

export class HashType extends CollectionType {
  override readonly name = 'Hash';
  readonly key: PType;
  readonly value: PType;
  constructor(key?: PType, value?: PType, size?: IntegerType) {
    super(size);
    const empty = this.hasEmptyRange && this.size !== undefined;
    this.key = empty ? UNIT : (key ?? ANY);
    this.value = empty ? UNIT : (value ?? ANY);
  }
  override isInstance(v: Value): boolean {
    if (!(v instanceof Map)) return false;
    if (this.size !== undefined && !this.size.isInstance(v.size)) return false;
    // Keys, then values: no entry arrays to allocate and destructure (first renders check fresh values).
    const { key, value } = this;
    if (key !== ANY) for (const k of v.keys()) if (!key.isInstance(k)) return false;
    if (value !== ANY) for (const val of v.values()) if (!value.isInstance(val)) return false;
    return true;
  }
  private get isEmptyHash(): boolean {
    return this.size !== undefined && this.hasEmptyRange;
  }
  protected override assignableFrom(o: PType): boolean {
    if (o instanceof HashType) {
      if ((this.size === undefined || this.size.from === 0) && o.isEmptyHash) return true;
      return (
        this.key.isAssignable(o.key) &&
        this.value.isAssignable(o.value) &&
        this.sizeRange().isAssignable(o.sizeRange())
      );
    }
    if (o instanceof StructType) {
      return (
        this.sizeRange().isInstance(o.elements.length) &&
        o.elements.every((e) => this.key.isInstance(e.name) && this.value.isAssignable(e.value))
      );
    }
    return false;
  }
  override generalize(): PType {
    if (this.isEmptyHash || (this.key instanceof AnyType && this.value instanceof AnyType && !this.size)) {
      return this;
    }
    return new HashType(this.key.generalize(), this.value.generalize());
  }
  override normalize(): PType {
    if (this.isEmptyHash) return this;
    return new HashType(this.key.normalize(), this.value.normalize(), this.size);
  }
  override kindDefault(): PType {
    return HASH;
  }
  override toString(): string {
    if (this.hasEmptyRange) return 'Hash[0, 0]';
    if (this.key.constructor === AnyType && this.value.constructor === AnyType && this.size === undefined) {
      return 'Hash';
    }
    return `Hash[${[this.key.toString(), this.value.toString(), ...this.sizeParams()].join(', ')}]`;
  }
}

export class TupleType extends PType {
  readonly name = 'Tuple';
  readonly size: IntegerType | undefined;
  constructor(
    readonly types: readonly PType[],
    size?: IntegerType,
  ) {
    super();
    this.size = size?.toSize();
  }
  /** The size range: the number of types unless a size is given (`[0, ∞)` for the empty tuple). */
  sizeRange(): IntegerType {
    if (this.size) return this.size;
    return this.types.length === 0 ? DEFAULT_SIZE : exactSize(this.types.length);
  }
  /** The type of the element at `index` (the last type repeats). */
  typeAt(index: number): PType | undefined {
    return this.types[Math.min(index, this.types.length - 1)];
  }
  isInstance(v: Value): boolean {
    if (!Array.isArray(v)) return false;
    if (this.size) {
      if (!this.size.isInstance(v.length)) return false;
    } else if (this.types.length > 0 && this.types.length !== v.length) {
      return false;
    }
    return this.types.length === 0 || v.every((e, i) => this.typeAt(i)!.isInstance(e));
  }
  protected override assignableFrom(o: PType): boolean {
    if (this.equals(o)) return true;
    const size = this.sizeRange();
    if (o instanceof TupleType) {
      if (!size.isAssignable(o.sizeRange())) return false;
      if (this.types.length === 0) return true;
      if (o.types.length === 0) return size.from === 0;
      return o.types.every((t, i) => this.typeAt(i)!.isAssignable(t));
    }
    if (o instanceof ArrayType) {
      const oSize = o.sizeRange();
      if (!size.isAssignable(oSize)) return false;
      if (this.types.length === 0) return true;
      const count = Math.min(this.types.length, oSize.max === undefined ? Infinity : Number(oSize.max));
      for (let i = 0; i < count; i++) if (!this.typeAt(i)!.isAssignable(o.element)) return false;
      return true;
    }
    return false;
  }
  override generalize(): PType {
    return this.types.length === 0
      ? this
      : new TupleType(
          this.types.map((t) => t.generalize()),
          this.size,
        );
  }
  override normalize(): PType {
    return this.types.length === 0
      ? this
      : new TupleType(
          this.types.map((t) => t.normalize()),
          this.size,
        );
  }
  override kindDefault(): PType {
    return TUPLE;
  }
  toString(): string {
    if (this.types.length === 0) return 'Tuple';
    const parts = this.types.map(String);
    const s = this.size;
    if (s && !s.unbounded) parts.push(...s.toString().slice('Integer['.length, -1).split(', '));
    return `Tuple[${parts.join(', ')}]`;
  }
}

/** One `key => value` member of a Struct. `key` is a String with a value, possibly in Optional. */
export class StructElement {
  constructor(
    readonly key: PType,
    readonly value: PType,
  ) {}
  get name(): string {
    const k = this.key instanceof OptionalType ? this.key.type : this.key;
    return (k as StringType).value ?? '';
  }
  /** Whether the key may be absent. */
  get optional(): boolean {
    return this.key.isAssignable(UNDEF);
  }
}

export class StructType extends PType {
  readonly name = 'Struct';
  constructor(readonly elements: readonly StructElement[]) {
    super();
  }
  element(name: string): StructElement | undefined {
    return this.elements.find((e) => e.name === name);
  }
  isInstance(v: Value): boolean {
    if (!(v instanceof Map)) return false;
    let matched = 0;
    for (const e of this.elements) {
      if (!v.has(e.name)) {
        if (!e.optional) return false;
      } else {
        matched++;
        if (!e.value.isInstance(v.get(e.name))) return false;
      }
    }
    return matched === v.size;
  }
  protected override assignableFrom(o: PType): boolean {
    if (o instanceof StructType) {
      let matched = 0;
      for (const e1 of this.elements) {
        const e2 = o.element(e1.name);
        if (e2 === undefined) {
          if (!e1.optional) return false;
        } else {
          matched++;
          if (!e1.key.isAssignable(e2.key) || !e1.value.isAssignable(e2.value)) return false;
        }
      }
      return matched === o.elements.length;
    }
    if (o instanceof HashType) {
      let required = 0;
      for (const e of this.elements) {
        if (e.optional) continue;
        required++;
        if (!e.value.isAssignable(o.value) || !e.key.generalize().isAssignable(o.key)) return false;
      }
      return new IntegerType(required, this.elements.length).isAssignable(o.sizeRange());
    }
    return false;
  }
  override generalize(): PType {
    return new StructType(this.elements.map((e) => new StructElement(e.key, e.value.generalize())));
  }
  override normalize(): PType {
    return new StructType(this.elements.map((e) => new StructElement(e.key, e.value.normalize())));
  }
  override kindDefault(): PType {
    return STRUCT;
  }
  toString(): string {
    if (this.elements.length === 0) return 'Struct';
    const parts = this.elements.map((e) => {
      const valueOptional = e.value.isAssignable(UNDEF);
      let k: string;
      if (e.key instanceof OptionalType) k = valueOptional ? quote(e.name) : e.key.toString();
      else k = valueOptional ? `NotUndef[${quote(e.name)}]` : quote(e.name);
      return `${k} => ${e.value}`;
    });
    return `Struct[{${parts.join(', ')}}]`;
  }
}

// ---------------------------------------------------------------------------------------------------
// Combining and meta types

export class VariantType extends PType {
  readonly name = 'Variant';
  constructor(readonly types: readonly PType[]) {
    super();
  }
  isInstance(v: Value): boolean {
    return this.types.some((t) => t.isInstance(v));
  }
  override isAssignable(o: PType): boolean {
    if (o instanceof UndefType && this.types.length === 0) return false;
    if (!(o instanceof VariantType)) return super.isAssignable(o);
    if (this.types.length === 0) return true;
    return o.types.length > 0 && o.types.every((t) => super.isAssignable(t));
  }
  protected override assignableFrom(o: PType): boolean {
    return this.types.some((t) => t.isAssignable(o));
  }
  override generalize(): PType {
    return this.types.length === 0 ? this : variantOf(this.types.map((t) => t.generalize()));
  }
  override normalize(): PType {
    if (this.types.length === 0) return this;
    const types = flattenVariants(this.types.map((t) => t.normalize()));
    if (types.length === 1) return types[0]!;
    if (types.some((t) => t instanceof UndefType || t instanceof OptionalType)) {
      const rest = types
        .filter((t) => !(t instanceof UndefType))
        .map((t) => (t instanceof OptionalType ? (t.type ?? ANY) : t));
      return new OptionalType(variantOf(rest)).normalize();
    }
    return variantOf(types);
  }
  override kindDefault(): PType {
    return VARIANT;
  }
  override equals(o: PType): boolean {
    if (!(o instanceof VariantType) || o.types.length !== this.types.length) return false;
    return this.types.every((t) => o.types.some((u) => t.equals(u)));
  }
  toString(): string {
    return this.types.length === 0 ? 'Variant' : `Variant[${this.types.join(', ')}]`;
  }
}

/** `Type[T]`: the type of types. */
export class TypeType extends ContainerType {
  readonly name = 'Type';
  protected make(type: PType | undefined): PType {
    return new TypeType(type);
  }
  isInstance(v: Value): boolean {
    return isPuppetType(v) && (this.type === undefined || this.type.isAssignable(v));
  }
  protected override assignableFrom(o: PType): boolean {
    if (!(o instanceof TypeType)) return false;
    if (this.type === undefined) return true;
    return o.type !== undefined && this.type.isAssignable(o.type);
  }
}

export class SensitiveType extends ContainerType {
  readonly name = 'Sensitive';
  constructor(type?: PType) {
    super(type === undefined || type.constructor === AnyType ? undefined : type.generalize());
  }
  protected make(type: PType | undefined): PType {
    return new SensitiveType(type);
  }
  isInstance(v: Value): boolean {
    return v instanceof PSensitive && (this.type === undefined || this.type.isInstance(v.value));
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof SensitiveType && (this.type === undefined || this.type.isAssignable(o.type ?? ANY));
  }
}

/** `Iterable[T]`: strings, arrays, hashes, non-negative integers and finite Integer/Enum types. */
export class IterableType extends ContainerType {
  readonly name = 'Iterable';
  protected make(type: PType | undefined): PType {
    return new IterableType(type);
  }
  isInstance(v: Value): boolean {
    const elements = iterableElementType(v);
    if (elements === undefined) return false;
    return this.type === undefined || this.type.isAssignable(elements);
  }
  protected override assignableFrom(o: PType): boolean {
    if (o instanceof IterableType) return this.type === undefined || this.type.isAssignable(o.type ?? ANY);
    const element = iterableTypeOf(o);
    if (element === undefined) return false;
    return this.type === undefined || this.type.isAssignable(element);
  }
}

/** `Callable` (loose): templates cannot hold functions as values, so nothing is an instance. */
export class CallableType extends PType {
  readonly name = 'Callable';
  constructor(readonly params: readonly Value[] = []) {
    super();
  }
  isInstance(_v: Value): boolean {
    return false;
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof CallableType && (this.params.length === 0 || this.equals(o));
  }
  override kindDefault(): PType {
    return CALLABLE;
  }
  toString(): string {
    return this.params.length === 0 ? 'Callable' : `Callable[${this.params.map(literal).join(', ')}]`;
  }
}

/** The alias checks in progress: a check that comes back to itself holds (as Puppet's RecursionGuard). */
const aliasChecks: [PType, PType][] = [];

function guarded(a: PType, b: PType, check: () => boolean): boolean {
  if (aliasChecks.some(([x, y]) => x === a && y === b)) return true;
  aliasChecks.push([a, b]);
  try {
    return check();
  } finally {
    aliasChecks.pop();
  }
}

/** A named alias of a (recursive) type: Data and RichData. */
export class AliasType extends PType {
  private target: PType | undefined;
  constructor(
    readonly name: string,
    private readonly build: (self: AliasType) => PType,
  ) {
    super();
  }
  resolved(): PType {
    this.target ??= this.build(this);
    return this.target;
  }
  isInstance(v: Value): boolean {
    return this.resolved().isInstance(v);
  }
  override isAssignable(o: PType): boolean {
    // An alias is assignable from itself; this also ends the recursion of `Hash[String, Data]`.
    if (o === this) return true;
    return guarded(this, o, () => this.resolved().isAssignable(o));
  }
  override equals(o: PType): boolean {
    return o === this;
  }
  toString(): string {
    return this.name;
  }
}

// ---------------------------------------------------------------------------------------------------
// Shared instances and names

const DEFAULT_SIZE = new IntegerType(0);
export const ANY = new AnyType();
const UNIT = new UnitType();
export const UNDEF = new UndefType();
const SCALAR = new ScalarType();
const SCALAR_DATA = new ScalarDataType();
const NUMERIC = new NumericType();
const INTEGER = new IntegerType();
const FLOAT = new FloatType();
const BOOLEAN = new BooleanType();
const STRING = new StringType();
const ENUM = new EnumType([]);
const PATTERN = new PatternType([]);
const REGEXP = new RegexpType();
const TIMESTAMP = new TimestampType();
const TIMESPAN = new TimespanType();
const SEMVER = new SemVerType();
const COLLECTION = new CollectionType();
const ARRAY = new ArrayType();
const HASH = new HashType();
const TUPLE = new TupleType([]);
const STRUCT = new StructType([]);
const VARIANT = new VariantType([]);
const CALLABLE = new CallableType();

/** `Data`: `Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]`. */
class DataAlias extends AliasType {
  /** What the variant answers, without its dispatch: settings are checked against Data on first render. */
  override isInstance(v: Value): boolean {
    return isData(v);
  }
}

export const DATA: AliasType = new DataAlias(
  'Data',
  (self) => new VariantType([SCALAR_DATA, UNDEF, new HashType(STRING, self), new ArrayType(self)]),
);

function isData(v: Value): boolean {
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'undefined':
      return true;
  }
  if (v instanceof PFloat) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!isData(v[i])) return false;
    return true;
  }
  if (!(v instanceof Map)) return false;
  for (const k of v.keys()) if (typeof k !== 'string') return false;
  for (const val of v.values()) if (!isData(val)) return false;
  return true;
}

/** `RichData`: Data plus regexps, types, default, Sensitive, timestamps, and non-string hash keys. */
export const RICH_DATA: AliasType = new AliasType(
  'RichData',
  (self) =>
    new VariantType([
      SCALAR,
      new SensitiveType(),
      new TypeType(undefined),
      UNDEF,
      new DefaultType(),
      new HashType(new VariantType([STRING, NUMERIC]), self),
      new ArrayType(self),
    ]),
);

const TYPE_NAMES: ReadonlyMap<string, () => PType> = new Map<string, () => PType>([
  ['any', () => ANY],
  ['undef', () => UNDEF],
  ['notundef', () => new NotUndefType()],
  ['default', () => new DefaultType()],
  ['scalar', () => SCALAR],
  ['scalardata', () => SCALAR_DATA],
  ['data', () => DATA],
  ['richdata', () => RICH_DATA],
  ['numeric', () => NUMERIC],
  ['integer', () => INTEGER],
  ['float', () => FLOAT],
  ['boolean', () => BOOLEAN],
  ['string', () => STRING],
  ['enum', () => ENUM],
  ['pattern', () => PATTERN],
  ['regexp', () => REGEXP],
  ['collection', () => COLLECTION],
  ['array', () => ARRAY],
  ['hash', () => HASH],
  ['tuple', () => TUPLE],
  ['struct', () => STRUCT],
  ['optional', () => new OptionalType(undefined)],
  ['variant', () => VARIANT],
  ['type', () => new TypeType(undefined)],
  ['sensitive', () => new SensitiveType()],
  ['iterable', () => new IterableType(undefined)],
  ['callable', () => CALLABLE],
  ['timestamp', () => TIMESTAMP],
  ['timespan', () => TIMESPAN],
  ['semver', () => SEMVER],
]);

/** The type a capitalized name such as `Integer` or `ScalarData` refers to, or undefined when unknown. */
export function resolveTypeName(name: string): PType | undefined {
  return TYPE_NAMES.get(name.toLowerCase())?.();
}

/** The names {@link resolveTypeName} knows, as Puppet spells them. */
export const TYPE_NAME_LIST: readonly string[] = [
  'Any',
  'Array',
  'Boolean',
  'Callable',
  'Collection',
  'Data',
  'Default',
  'Enum',
  'Float',
  'Hash',
  'Integer',
  'Iterable',
  'NotUndef',
  'Numeric',
  'Optional',
  'Pattern',
  'Regexp',
  'RichData',
  'Scalar',
  'ScalarData',
  'SemVer',
  'Sensitive',
  'String',
  'Struct',
  'Timespan',
  'Timestamp',
  'Tuple',
  'Type',
  'Undef',
  'Variant',
];

export function isPuppetType(v: unknown): v is PType {
  return v instanceof PType;
}

export function typeEquals(a: PType, b: PType): boolean {
  return a.equals(b);
}

/** Whether every value of `b` is a value of `a`. */
export function isAssignable(a: PType, b: PType): boolean {
  return a.isAssignable(b);
}

// ---------------------------------------------------------------------------------------------------
// Helpers used above (and by parameterize/infer below)

/** Min and max of mixed bigint/number bounds (Math.min would not take bigints). */
function numMin(a: Num, b: Num): Num {
  return b < a ? b : a;
}

function numMax(a: Num, b: Num): Num {
  return b > a ? b : a;
}

function exactSize(n: number): IntegerType {
  return new IntegerType(n, n);
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Ruby's String#size: characters (code points), not UTF-16 units. */
function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function flattenVariants(types: readonly PType[]): PType[] {
  return types.flatMap((t) => (t instanceof VariantType ? [...t.types] : [t]));
}

/** Puppet's `PVariantType.maybe_create`: flattened, unique, and unwrapped when only one is left. */
export function variantOf(types: readonly PType[]): PType {
  const unique: PType[] = [];
  for (const t of flattenVariants(types)) if (!unique.some((u) => u.equals(t))) unique.push(t);
  return unique.length === 1 ? unique[0]! : new VariantType(unique);
}

/** The element type an iterable value yields, or undefined when the value is not iterable. */
function iterableElementType(v: Value): PType | undefined {
  if (typeof v === 'string') return new StringType(new IntegerType(1, 1));
  if (typeof v === 'number' || typeof v === 'bigint') return v >= 0 ? INTEGER : undefined;
  if (Array.isArray(v)) return v.length === 0 ? UNIT : reduceTypes(v.map(inferReducedType))!;
  if (v instanceof Map) {
    return new TupleType([
      reduceTypes([...v.keys()].map(inferReducedType)) ?? UNIT,
      reduceTypes([...v.values()].map(inferReducedType)) ?? UNIT,
    ]);
  }
  // A type value is iterable when it is a finite Integer range or an Enum (`Integer[1, 3].each`).
  if (isPuppetType(v)) return iterableTypeOf(new TypeType(v));
  return undefined;
}

/** The element type of an iterable type, or undefined when values of the type are not iterable. */
function iterableTypeOf(t: PType): PType | undefined {
  if (t instanceof StringType) return new StringType(new IntegerType(1, 1));
  if (t instanceof EnumType) return new StringType(new IntegerType(1, 1));
  if (t instanceof IntegerType) return INTEGER;
  if (t instanceof ArrayType) return t.element;
  if (t instanceof TupleType) return variantOf(t.types.length ? t.types : [ANY]);
  if (t instanceof HashType) return new TupleType([t.key, t.value]);
  if (t instanceof StructType) {
    return new TupleType([
      variantOf(t.elements.map((e) => e.key)),
      variantOf(t.elements.map((e) => e.value)),
    ]);
  }
  if (t instanceof IterableType) return t.type ?? ANY;
  if (t instanceof TypeType) {
    const inner = t.type;
    if (inner instanceof EnumType) return inner;
    if (inner instanceof IntegerType && inner.min !== undefined && inner.max !== undefined) return inner;
  }
  return undefined;
}

/** Puppet's single-quoted form of a string (`'it\'s'`), double-quoted when it has control characters. */
export function quote(s: string): string {
  let out = "'";
  let escaped = false;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20) return doubleQuote(s);
    if (escaped) {
      out += '\\' + ch;
      escaped = false;
    } else if (ch === "'") out += "\\'";
    else if (ch === '\\') escaped = true;
    else out += ch;
  }
  if (escaped) out += '\\';
  return out + "'";
}

function doubleQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '$') out += '\\$';
    else if (cp < 0x20) out += `\\u{${cp.toString(16).toUpperCase()}}`;
    else out += ch;
  }
  return out + '"';
}

/** Ruby's Float#to_s: `1.0`, `2.5`, `1.0e+16`, `1.0e-05`. */
export function rubyFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 15) {
    const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  const fixed = n.toFixed(Math.max(0, Math.min(100, 17 - exp)));
  const shortest = String(n).includes('e') ? fixed : String(n);
  return shortest.includes('.') ? shortest : `${shortest}.0`;
}

/** How a value prints as a type parameter (Puppet's TypeFormatter). */
function literal(v: Value): string {
  if (v === undefined) return 'undef';
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof PFloat) return rubyFloat(v.value);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${literal(k)} => ${literal(x)}`).join(', ')}}`;
  if (v instanceof PRegexp) return `/${v.source}/`;
  if (v instanceof PDefault) return 'default';
  if (v instanceof PSensitive) return 'Sensitive [value redacted]';
  if (v instanceof PTimestamp) return quote(timestampText(v.seconds));
  return v.toString();
}

// ---------------------------------------------------------------------------------------------------
// Parameterization: `Integer[1, 5]`, `Struct[{...}]` (Puppet's AccessOperator on types)

function argError(message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', message);
}

/** `an Enum-Type`, `a String-Type`: how Puppet labels a type in access errors. */
function typeLabel(t: PType, capital = false): string {
  const label = `${t.name}-Type`;
  const article = /^[AEIOU]/.test(label) ? 'an' : 'a';
  return `${capital ? article[0]!.toUpperCase() + article.slice(1) : article} ${label}`;
}

/** The Ruby class name Puppet shows for a bad parameter (`Got String`). */
function rubyClass(v: Value): string {
  if (v === undefined) return 'NilClass';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number' || typeof v === 'bigint') return 'Integer';
  if (v instanceof PFloat) return 'Float';
  if (typeof v === 'boolean') return v ? 'TrueClass' : 'FalseClass';
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Map) return 'Hash';
  if (v instanceof PRegexp) return 'Regexp';
  if (v instanceof PDefault) return 'Symbol';
  if (isPuppetType(v)) return `${v.name}-Type`;
  return 'Object';
}

/** The generalized Puppet type name of a bad key (`Cannot use Integer where String is expected`). */
function keyTypeName(v: Value): string {
  if (v === undefined) return 'Undef';
  if (v instanceof PDefault) return 'Default';
  return inferGenericType(v).toString();
}

function isRangeParam(v: Value): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PDefault || v === 'default';
}

function rangeEnd(v: Value, open: number): Num {
  return typeof v === 'number' || typeof v === 'bigint' ? v : open;
}

/** A collection size from parameters: one `Integer` type, or one or two integers / `default`. */
function sizeFrom(params: readonly Value[]): IntegerType {
  if (params.length === 1 && params[0] instanceof IntegerType) return params[0];
  for (const p of params) {
    if (typeof p !== 'number' && typeof p !== 'bigint' && !(p instanceof PDefault)) {
      const cls = rubyClass(p);
      throw argError(
        "A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). " +
          `Got ${/^[AEIOU]/.test(cls) ? 'an' : 'a'} ${cls}`,
      );
    }
  }
  return new IntegerType(
    rangeEnd(params[0], Number.NEGATIVE_INFINITY),
    rangeEnd(params[1], Number.POSITIVE_INFINITY),
  );
}

function arityError(type: PType | string, min: number, max: number, actual: number): EppEvalError {
  const label = typeof type === 'string' ? type : typeLabel(type, true);
  if (max === Number.POSITIVE_INFINITY)
    return argError(`${label}[] accepts ${min} or more arguments. Got ${actual}`);
  if (max !== min) return argError(`${label}[] accepts ${min} to ${max} arguments. Got ${actual}`);
  return argError(`${label}[] accepts ${min} argument${min === 1 ? '' : 's'}. Got ${actual}`);
}

function mustBeTypes(base: string, v: Value): EppEvalError {
  return argError(`${base}[] arguments must be types. Got ${rubyClass(v)}`);
}

/** Checks Puppet's `assert_keys`: count and the accepted kinds of each parameter. */
function assertKeys(
  type: PType,
  args: readonly Value[],
  min: number,
  max: number,
  expected: string,
  accept: (v: Value) => boolean,
): void {
  if (args.length < min || args.length > max) throw arityError(type, 1, max, args.length);
  for (const a of args) {
    if (!accept(a)) {
      throw argError(
        `Error creating type specialization of ${typeLabel(type)}, Cannot use ${keyTypeName(a)} where ${expected} is expected`,
      );
    }
  }
}

function flat(args: readonly Value[]): Value[] {
  return args.flatMap((a) => (Array.isArray(a) ? flat(a) : [a]));
}

function asOptionalInner(v: Value, base: string): PType {
  if (typeof v === 'string') return new StringType(undefined, v);
  if (isPuppetType(v)) return v;
  throw argError(`${base}[] argument must be a Type or a String. Got ${rubyClass(v)}`);
}

/**
 * `Type[args]`: the type parameterized with already-evaluated arguments, with Puppet's checks and
 * wording. Throws EppEvalError `EPP_ARGUMENTS` on bad parameters.
 */
export function parameterizeType(type: PType, args: Value[]): PType {
  if (type instanceof StructType) {
    assertKeys(type, args, 1, 1, 'Hash', (v) => v instanceof Map);
    return structOf(args[0] as Map<Value, Value>);
  }
  if (type instanceof CallableType) return new CallableType(args);
  const keys = flat(args);
  const n = keys.length;
  if (type instanceof IntegerType || type instanceof FloatType) {
    const isInt = type instanceof IntegerType;
    const label = isInt ? 'Integer-Type' : 'Float-Type';
    if (n < 1 || n > 2) throw argError(`${label} supports [] with one or two arguments (from, to). Got ${n}`);
    for (const k of keys) {
      const ok =
        typeof k === 'number' ||
        typeof k === 'bigint' ||
        k instanceof PDefault ||
        (!isInt && k instanceof PFloat);
      if (!ok) {
        throw argError(
          isInt
            ? `Integer-Type [] requires all arguments to be integers (or default). Got ${rubyClass(k)}`
            : `Float-Type [] requires all arguments to be floats, or integers (or default). Got ${rubyClass(k)}`,
        );
      }
    }
    if (isInt) return new IntegerType(rangeEnd(keys[0], -Infinity), rangeEnd(keys[1], Infinity));
    const end = (v: Value, open: number) =>
      v instanceof PFloat ? v.value : typeof v === 'number' || typeof v === 'bigint' ? Number(v) : open;
    return new FloatType(end(keys[0], -Infinity), end(keys[1], Infinity));
  }
  if (type instanceof StringType) {
    if (n < 1 || n > 2) throw argError(`String supports [] with one or two arguments. Got ${n}`);
    return new StringType(sizeFrom(keys));
  }
  if (type instanceof EnumType) {
    let values = keys;
    let ci = false;
    const last = keys[n - 1];
    if (typeof last === 'boolean') {
      values = keys.slice(0, -1);
      ci = last;
    }
    assertKeys(type, values, 1, Infinity, 'String', (v) => typeof v === 'string');
    return new EnumType(values as string[], ci);
  }
  if (type instanceof PatternType) {
    assertKeys(type, keys, 1, Infinity, 'String or Regexp or Pattern-Type or Regexp-Type', (v) => {
      return (
        typeof v === 'string' || v instanceof PRegexp || v instanceof PatternType || v instanceof RegexpType
      );
    });
    const patterns = keys.flatMap((k): PRegexp[] => {
      if (typeof k === 'string') return [new PRegexp(k)];
      if (k instanceof PRegexp) return [k];
      if (k instanceof PatternType) return [...k.patterns];
      return [new PRegexp((k as RegexpType).pattern ?? '')];
    });
    return new PatternType(patterns);
  }
  if (type instanceof RegexpType) {
    if (n !== 1) throw arityError(type, 1, 1, n);
    assertKeys(type, keys, 1, 1, 'String or Regexp', (v) => typeof v === 'string' || v instanceof PRegexp);
    const k = keys[0]!;
    return new RegexpType(k instanceof PRegexp ? k.source : (k as string));
  }
  if (type instanceof BooleanType) {
    assertKeys(type, keys, 1, 1, 'TrueClass or FalseClass', (v) => typeof v === 'boolean');
    return new BooleanType(keys[0] as boolean);
  }
  if (type instanceof VariantType) {
    assertKeys(type, keys, 1, Infinity, 'Any-Type', isPuppetType);
    // Puppet flattens nested variants, drops duplicates and unwraps a single type.
    return variantOf(keys as PType[]);
  }
  if (type instanceof TupleType) {
    let types = keys;
    let size: IntegerType | undefined;
    if (n >= 2 && isRangeParam(keys[n - 2]) && isRangeParam(keys[n - 1])) {
      size = new IntegerType(rangeEnd(keys[n - 2], 0), rangeEnd(keys[n - 1], Infinity));
      types = keys.slice(0, -2);
    } else if (n >= 1 && isRangeParam(keys[n - 1])) {
      size = new IntegerType(rangeEnd(keys[n - 1], 0), Infinity);
      types = keys.slice(0, -1);
    }
    assertKeys(type, types, 1, Infinity, 'Any-Type', isPuppetType);
    return new TupleType(types as PType[], size);
  }
  if (type instanceof ArrayType) {
    const first = keys[0];
    if (n === 1) {
      if (!isPuppetType(first)) throw mustBeTypes('Array-Type', first);
      return new ArrayType(first);
    }
    if (n === 2) {
      return isPuppetType(first)
        ? new ArrayType(first, sizeFrom(keys.slice(1)))
        : new ArrayType(ANY, sizeFrom(keys));
    }
    if (n === 3) {
      if (!isPuppetType(first)) throw mustBeTypes('Array-Type', first);
      return new ArrayType(first, sizeFrom(keys.slice(1)));
    }
    throw arityError('Array-Type', 1, 3, n);
  }
  if (type instanceof HashType) {
    const [k0, k1] = keys;
    if (
      n === 2 &&
      (typeof k0 === 'number' || typeof k0 === 'bigint') &&
      (typeof k1 === 'number' || typeof k1 === 'bigint')
    ) {
      return new HashType(ANY, ANY, new IntegerType(k0, k1));
    }
    if (n < 2 || n > 4) throw arityError('Hash-Type', 2, 4, n);
    const [k, v] = keys;
    if (!isPuppetType(k)) throw mustBeTypes('Hash-Type', k);
    if (!isPuppetType(v)) throw mustBeTypes('Hash-Type', v);
    if (n === 2) return new HashType(k, v);
    if (n === 3) {
      const s = keys[2];
      return new HashType(k, v, s instanceof IntegerType ? s : sizeFrom([s]));
    }
    return new HashType(k, v, sizeFrom(keys.slice(2)));
  }
  if (type instanceof CollectionType) {
    if (n < 1 || n > 2) throw arityError('Collection-Type', 1, 2, n);
    return new CollectionType(sizeFrom(keys));
  }
  if (type instanceof OptionalType) {
    if (n !== 1) throw arityError('Optional-Type', 1, 1, n);
    const k = keys[0];
    if (typeof k === 'string') return new OptionalType(new StringType(undefined, k));
    if (!isPuppetType(k)) throw argError(`Optional-Type[] arguments must be types. Got ${rubyClass(k)}`);
    return new OptionalType(k);
  }
  if (type instanceof NotUndefType) {
    if (n === 0) return new NotUndefType();
    if (n !== 1) throw arityError('NotUndef-Type', 0, 1, n);
    return new NotUndefType(asOptionalInner(keys[0], 'NotUndef-Type'));
  }
  if (type instanceof TypeType || type instanceof SensitiveType || type instanceof IterableType) {
    const base = `${type.name}-Type`;
    if (n !== 1) throw arityError(base, 1, 1, n);
    const k = keys[0];
    if (!isPuppetType(k)) throw mustBeTypes(base, k);
    if (type instanceof TypeType) return new TypeType(k);
    return type instanceof SensitiveType ? new SensitiveType(k) : new IterableType(k);
  }
  if (type instanceof SemVerType) {
    assertKeys(type, keys, 1, Infinity, 'String or VersionRange', (v) => typeof v === 'string');
    return new SemVerType(keys);
  }
  if (type instanceof TimespanType || type instanceof TimestampType) {
    if (n > 2) throw arityError(type, 0, 2, n);
    return type instanceof TimespanType ? new TimespanType(keys) : timestampRange(keys);
  }
  throw argError(`Operator '[]' is not applicable to ${typeLabel(type)}.`);
}

/** `Timestamp[from, to]`: each end a time string, seconds, or `default`. */
function timestampRange(keys: readonly Value[]): TimestampType {
  const end = (v: Value, open: number): number => {
    if (v === undefined || v instanceof PDefault) return open;
    if (typeof v === 'number' || typeof v === 'bigint') return Number(v);
    if (v instanceof PFloat) return v.value;
    if (v instanceof PTimestamp) return v.seconds;
    const seconds = typeof v === 'string' ? parseTimestamp(v) : undefined;
    if (seconds === undefined) throw argError(`Timestamp-Type[] cannot use ${literal(v)} as a time`);
    return seconds;
  };
  const from = end(keys[0], Number.NEGATIVE_INFINITY);
  const to = end(keys[1], Number.POSITIVE_INFINITY);
  if (from > to)
    throw argError(`'from' must be less or equal to 'to'. Got (${keys.map(literal).join(', ')})`);
  return new TimestampType(from, to);
}

/** `Struct[{...}]` from its hash: keys are strings or Optional/NotUndef/Enum-wrapped strings. */
function structOf(hash: Map<Value, Value>): StructType {
  const elements: StructElement[] = [];
  for (const [k, v] of hash) {
    if (!isPuppetType(v)) throw argError('Struct element value_type must be a Type');
    let key: PType;
    if (typeof k === 'string') {
      if (k === '') throw argError('Struct element key cannot be an empty String');
      const s = new StringType(undefined, k);
      key = v.isAssignable(UNDEF) ? new OptionalType(s) : s;
    } else {
      let s: PType | undefined;
      if (k instanceof NotUndefType) key = s = k.type ?? ANY;
      else if (k instanceof OptionalType) {
        key = k;
        s = k.type;
      } else if (k instanceof StringType) key = s = k;
      else if (k instanceof EnumType && k.values.length === 1)
        key = s = new StringType(undefined, k.values[0]);
      else {
        throw argError(
          `Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: ${rubyClass(k)}`,
        );
      }
      if (!(s instanceof StringType) || s.value === undefined) {
        throw argError(
          `Unable to extract a non-empty literal string from Struct member key type ${literal(k)}`,
        );
      }
    }
    elements.push(new StructElement(key, v));
  }
  return new StructType(elements);
}

// ---------------------------------------------------------------------------------------------------
// Inference (Puppet's TypeCalculator)

/**
 * The detailed type of a value, as Puppet's `type()` returns it: `Integer[1, 1]`, `String`,
 * `Tuple[Integer[1, 1], String]`, `Struct[{'a' => Integer[1, 1]}]`. This is the "actual" of mismatch messages.
 */
export function inferType(v: Value): PType {
  if (Array.isArray(v)) return v.length === 0 ? EMPTY_ARRAY : new TupleType(v.map(inferType));
  if (v instanceof Map) {
    if (v.size === 0) return EMPTY_HASH;
    const keys = [...v.keys()];
    if (keys.every((k) => typeof k === 'string' && k !== '')) {
      return new StructType(
        [...v].map(([k, x]) => new StructElement(new StringType(undefined, k as string), inferType(x))),
      );
    }
    const sz = exactSize(v.size);
    return new HashType(variantOf(keys.map(inferType)), variantOf([...v.values()].map(inferType)), sz);
  }
  return inferReducedType(v);
}

const EMPTY_ARRAY = new ArrayType(UNIT, new IntegerType(0, 0));
const EMPTY_HASH = new HashType(UNIT, UNIT, new IntegerType(0, 0));

/** Puppet's `infer`: collections get one common element type (`type(x, 'reduced')`). */
export function inferReducedType(v: Value): PType {
  if (v === undefined) return UNDEF;
  if (typeof v === 'string') return new StringType(undefined, v);
  if (typeof v === 'number' || typeof v === 'bigint') return new IntegerType(v, v);
  if (v instanceof PFloat) return new FloatType(v.value, v.value);
  if (typeof v === 'boolean') return new BooleanType(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return EMPTY_ARRAY;
    return new ArrayType(reduceTypes(v.map(inferReducedType)), exactSize(v.length));
  }
  if (v instanceof Map) {
    if (v.size === 0) return EMPTY_HASH;
    const k = reduceTypes([...v.keys()].map(inferReducedType));
    const val = reduceTypes([...v.values()].map(inferReducedType));
    return new HashType(k, val, exactSize(v.size));
  }
  if (v instanceof PRegexp) return new RegexpType(v.source);
  if (v instanceof PDefault) return new DefaultType();
  if (v instanceof PSensitive) return new SensitiveType(inferReducedType(v.value));
  if (v instanceof PTimestamp) return new TimestampType(v.seconds, v.seconds);
  return new TypeType(v);
}

/** The generalized type of a value (`Integer`, `Array[String]`): Puppet's `type(x, 'generalized')`. */
export function inferGenericType(v: Value): PType {
  return inferReducedType(v).generalize();
}

function reduceTypes(types: readonly PType[]): PType | undefined {
  let memo: PType | undefined;
  for (const t of types) memo = commonType(memo, t);
  return memo;
}

/** Puppet's `common_type`: the narrowest type both values' types fit in (approximately). */
export function commonType(a: PType | undefined, b: PType): PType {
  if (a === undefined || a instanceof UndefType) return b;
  if (b instanceof UndefType) return a;
  if (a instanceof UnitType) return b;
  if (b instanceof UnitType) return a;
  if (a.isAssignable(b)) return a;
  if (b.isAssignable(a)) return b;
  if (a instanceof ArrayType && b instanceof ArrayType)
    return new ArrayType(commonType(a.element, b.element));
  if (a instanceof HashType && b instanceof HashType) {
    return new HashType(commonType(a.key, b.key), commonType(a.value, b.value));
  }
  if (a instanceof IntegerType && b instanceof IntegerType) {
    return new IntegerType(numMin(a.from, b.from), numMax(a.to, b.to));
  }
  if (a instanceof FloatType && b instanceof FloatType) {
    return new FloatType(numMin(a.from, b.from), numMax(a.to, b.to));
  }
  const strings = (t: PType) => (t instanceof EnumType ? t.values : [(t as StringType).value]);
  if (
    (a instanceof StringType || a instanceof EnumType) &&
    (b instanceof StringType || b instanceof EnumType)
  ) {
    if (a instanceof StringType && b instanceof StringType && a.size && b.size) {
      return new StringType(commonType(a.size, b.size) as IntegerType);
    }
    const values = [...strings(a), ...strings(b)];
    if (values.some((x) => x === undefined))
      return a instanceof StringType && b instanceof StringType ? STRING : ENUM;
    return new EnumType(values as string[]);
  }
  if (a instanceof PatternType && b instanceof PatternType)
    return new PatternType([...a.patterns, ...b.patterns]);
  if (a instanceof VariantType && b instanceof VariantType) return variantOf([...a.types, ...b.types]);
  if (a instanceof RegexpType && b instanceof RegexpType) return REGEXP;
  for (const kind of [NUMERIC, SCALAR_DATA, SCALAR, DATA]) {
    if (kind.isAssignable(a) && kind.isAssignable(b)) return kind;
  }
  if (a instanceof TypeType && b instanceof TypeType) return new TypeType(commonType(a.type, b.type ?? ANY));
  if (RICH_DATA.isAssignable(a) && RICH_DATA.isAssignable(b)) return RICH_DATA;
  return ANY;
}

// ---------------------------------------------------------------------------------------------------
// Mismatch descriptions (Puppet's TypeMismatchDescriber)

type PathElement = { readonly kind: 'subject' | 'entry' | 'key' | 'index' | 'variant'; readonly key: string };

function pathText(e: PathElement): string {
  switch (e.kind) {
    case 'entry':
      return `entry '${e.key}'`;
    case 'key':
      return `key of entry '${e.key}'`;
    case 'index':
      return `index ${e.key}`;
    case 'variant':
      return `variant ${e.key}`;
    default:
      return e.key;
  }
}

abstract class Mismatch {
  constructor(readonly path: readonly PathElement[]) {}
  /** The path without the variant steps: mismatches from different variants at one place merge. */
  canonical(): string {
    return this.path
      .filter((e) => e.kind !== 'variant')
      .map(pathText)
      .join('\0');
  }
  abstract text(): string;
  format(): string {
    const position = this.path.length === 0 ? '' : ` ${this.path.map(pathText).join(' ')}`;
    return `${position} ${this.text()}`;
  }
  chop(index: number): this {
    if (index >= this.path.length) return this;
    const copy = Object.create(Object.getPrototypeOf(this)) as this;
    Object.assign(copy, this, { path: this.path.filter((_, i) => i !== index) });
    return copy;
  }
}

class MissingKey extends Mismatch {
  constructor(
    path: readonly PathElement[],
    readonly key: string,
  ) {
    super(path);
  }
  text(): string {
    return `expects a value for key '${this.key}'`;
  }
}

class ExtraneousKey extends MissingKey {
  override text(): string {
    return `unrecognized key '${this.key}'`;
  }
}

class TypeMismatch extends Mismatch {
  readonly expected: PType;
  readonly actual: PType;
  constructor(path: readonly PathElement[], expected: PType | PType[], actual: PType) {
    super(path);
    this.expected = (Array.isArray(expected) ? variantOf(expected) : expected).normalize();
    this.actual = actual.normalize();
  }
  /** The same mismatch expecting either type (mismatches of all variants at one place merge). */
  merge(o: TypeMismatch): TypeMismatch {
    const Self = this.constructor as typeof TypeMismatch;
    return new Self(this.path, [this.expected, o.expected], this.actual);
  }
  text(): string {
    let e: PType | readonly PType[] = this.expected;
    const a = this.actual;
    let optional = false;
    if (e instanceof OptionalType) {
      e = e.type ?? ANY;
      optional = true;
    }
    if (e instanceof VariantType) e = e.types;
    let eText: string;
    let aText: string;
    let multi = false;
    if (Array.isArray(e)) {
      const list = e as readonly PType[];
      let names: string[];
      if (reportDetailed(list, a)) {
        aText = detailedActual(list, a);
        names = list.map(String);
      } else {
        names = [...new Set(list.map(shortName))];
        aText = shortName(a);
      }
      if (optional) names.unshift('Undef');
      if (names.length === 1) eText = names[0]!;
      else {
        multi = true;
        eText =
          names.length === 2
            ? `${names[0]} or ${names[1]}`
            : `${names.slice(0, -1).join(', ')}, or ${names.at(-1)}`;
      }
    } else {
      const single = e as PType;
      if (reportDetailed([single], a)) {
        aText = detailedActual([single], a);
        eText = single.toString();
      } else {
        eText = shortName(single);
        aText = shortName(a);
      }
      if (optional) {
        eText = `Undef or ${eText}`;
        multi = true;
      }
    }
    return multi
      ? `expects a value of type ${eText}, got ${aText}`
      : `expects ${aAn(eText)} value, got ${aText}`;
  }
}

class PatternMismatch extends TypeMismatch {
  override text(): string {
    let e = this.expected;
    let prefix = '';
    if (e instanceof OptionalType) {
      e = e.type ?? ANY;
      prefix = 'an undef value or ';
    }
    const a = this.actual;
    const actual = a instanceof StringType && a.value !== undefined ? `'${a.value}'` : shortName(a);
    return `expects ${prefix}a match for ${e}, got ${actual}`;
  }
}

class SizeMismatch extends Mismatch {
  constructor(
    path: readonly PathElement[],
    readonly expected: IntegerType,
    readonly actual: IntegerType,
  ) {
    super(path);
  }
  merge(o: SizeMismatch): SizeMismatch {
    const range = new IntegerType(
      numMin(this.expected.from, o.expected.from),
      numMax(this.expected.to, o.expected.to),
    );
    return new SizeMismatch(this.path, range, this.actual);
  }
  text(): string {
    return `expects size to be ${rangeText(this.expected)}, got ${rangeText(this.actual)}`;
  }
}

function rangeText(r: IntegerType): string {
  const min = r.min ?? 0;
  const max = r.max;
  if (max !== undefined && min === max) return String(min);
  if (min === 0) return max === undefined ? 'unlimited' : `at most ${max}`;
  return max === undefined ? `at least ${min}` : `between ${min} and ${max}`;
}

function aAn(text: string): string {
  return `${/^[AEIOUaeiou]/.test(text) ? 'an' : 'a'} ${text}`;
}

/** `Optional[String]` keeps its parameter's name in short messages; other types use their simple name. */
function shortName(t: PType): string {
  if (t instanceof ContainerType && t.type !== undefined && !(t.type instanceof AnyType)) {
    return `${t.name}[${t.type.name}]`;
  }
  return t.name;
}

function alwaysDetailed(e: readonly PType[], a: PType): boolean {
  return e.some(
    (t) =>
      t.constructor === a.constructor ||
      t instanceof AliasType ||
      a instanceof AliasType ||
      (t instanceof StructType && a instanceof HashType) ||
      (t instanceof TupleType && a instanceof ArrayType),
  );
}

function reportDetailed(e: readonly PType[], a: PType): boolean {
  return (
    alwaysDetailed(e, a) ||
    e.some((t) => (t instanceof AliasType ? t.resolved() : t).kindDefault().isAssignable(a))
  );
}

function detailedActual(e: readonly PType[], a: PType): string {
  const resolved = e.map((t) => (t instanceof AliasType ? t.resolved() : t));
  if (alwaysDetailed(resolved, a)) return a.toString();
  const general = a.generalize();
  return resolved.some((t) => t.isAssignable(general)) ? a.toString() : a.name;
}

function describe(expected: PType, actual: PType, path: PathElement[]): Mismatch[] {
  return describeNormalized(expected.normalize(), expected, actual, path);
}

function describeNormalized(
  expected: PType,
  original: PType,
  actual: PType,
  path: PathElement[],
): Mismatch[] {
  if (expected instanceof VariantType) return describeVariant(expected, original, actual, path);
  if (expected instanceof StructType) return describeStruct(expected, original, actual, path);
  if (expected instanceof HashType) return describeHash(expected, original, actual, path);
  if (expected instanceof TupleType) return describeTuple(expected, original, actual, path);
  if (expected instanceof ArrayType) return describeArray(expected, original, actual, path);
  if (expected instanceof OptionalType) {
    if (actual instanceof UndefType || expected.type === undefined) return [];
    return describeNormalized(
      expected.type,
      original instanceof AliasType ? original : expected,
      actual,
      path,
    );
  }
  if (expected instanceof PatternType || expected instanceof EnumType) {
    return [new PatternMismatch(path, original, actual)];
  }
  if (expected instanceof AliasType) {
    return expected.isAssignable(actual) ? [] : [new TypeMismatch(path, expected, actual)];
  }
  return expected.isAssignable(actual) ? [] : [new TypeMismatch(path, original, actual)];
}

function describeVariant(
  expected: VariantType,
  original: PType,
  actual: PType,
  path: PathElement[],
): Mismatch[] {
  const all: Mismatch[][] = [];
  const types = original instanceof OptionalType ? [UNDEF, ...expected.types] : expected.types;
  for (const [i, t] of types.entries()) {
    const d = describe(t, actual, [...path, { kind: 'variant', key: String(i) }]);
    if (d.length === 0) return [];
    all.push(d);
  }
  return mergeDescriptions(path.length, all);
}

function mergeDescriptions(position: number, variants: Mismatch[][]): Mismatch[] {
  let descriptions = variants.flat();
  for (const cls of [SizeMismatch, TypeMismatch] as const) {
    const same = descriptions.filter((d) => d instanceof cls);
    if (same.length !== variants.length || same.length === 0) continue;
    const canonical = same[0]!.canonical();
    if (!same.every((d) => d.canonical() === canonical)) continue;
    let merged = same[0]!;
    for (const d of same.slice(1)) {
      merged =
        merged instanceof SizeMismatch
          ? merged.merge(d as SizeMismatch)
          : (merged as TypeMismatch).merge(d as TypeMismatch);
    }
    descriptions = [merged];
    break;
  }
  const unique: Mismatch[] = [];
  for (const d of descriptions) if (!unique.some((u) => u.format() === d.format())) unique.push(d);
  return unique.length === 1 ? [unique[0]!.chop(position)] : unique;
}

function describeArray(expected: ArrayType, original: PType, actual: PType, path: PathElement[]): Mismatch[] {
  const element = expected.element;
  if (actual instanceof TupleType) {
    const eSize = expected.sizeRange();
    const aSize = actual.size ?? exactSize(actual.types.length);
    if (!eSize.isAssignable(aSize)) return [new SizeMismatch(path, eSize, aSize)];
    return actual.types.flatMap((t, i) =>
      element.isAssignable(t) ? [] : describe(element, t, [...path, { kind: 'index', key: String(i) }]),
    );
  }
  if (actual instanceof ArrayType) {
    const aSize = actual.sizeRange();
    if (expected.size === undefined || expected.size.isAssignable(aSize)) {
      return [new TypeMismatch(path, original, new ArrayType(actual.element))];
    }
    return [new SizeMismatch(path, expected.size, aSize)];
  }
  return [new TypeMismatch(path, original, actual)];
}

function describeHash(expected: HashType, original: PType, actual: PType, path: PathElement[]): Mismatch[] {
  if (actual instanceof StructType) {
    const eSize = expected.sizeRange();
    const required = actual.elements.filter((e) => !e.key.isAssignable(UNDEF)).length;
    const aSize = new IntegerType(required, actual.elements.length);
    if (!eSize.isAssignable(aSize)) return [new SizeMismatch(path, eSize, aSize)];
    return actual.elements.flatMap((a) => [
      ...(expected.key.isAssignable(a.key)
        ? []
        : describe(expected.key, a.key, [...path, { kind: 'key', key: a.name }])),
      ...(expected.value.isAssignable(a.value)
        ? []
        : describe(expected.value, a.value, [...path, { kind: 'entry', key: a.name }])),
    ]);
  }
  if (actual instanceof HashType) {
    const aSize = actual.sizeRange();
    if (expected.size === undefined || expected.size.isAssignable(aSize)) {
      return [new TypeMismatch(path, original, new HashType(actual.key, actual.value))];
    }
    return [new SizeMismatch(path, expected.size, aSize)];
  }
  return [new TypeMismatch(path, original, actual)];
}

function describeStruct(
  expected: StructType,
  original: PType,
  actual: PType,
  path: PathElement[],
): Mismatch[] {
  if (actual instanceof StructType) {
    const out: Mismatch[] = [];
    const rest = new Map(actual.elements.map((e) => [e.name, e]));
    for (const e1 of expected.elements) {
      const e2 = rest.get(e1.name);
      rest.delete(e1.name);
      if (e2 === undefined) {
        if (!e1.optional) out.push(new MissingKey(path, e1.name));
        continue;
      }
      if (!e1.key.isAssignable(e2.key))
        out.push(...describe(e1.key, e2.key, [...path, { kind: 'key', key: e1.name }]));
      if (!e1.value.isAssignable(e2.value)) {
        out.push(...describe(e1.value, e2.value, [...path, { kind: 'entry', key: e1.name }]));
      }
    }
    for (const key of rest.keys()) out.push(new ExtraneousKey(path, key));
    return out;
  }
  if (actual instanceof HashType) {
    const required = expected.elements.filter((e) => !e.optional).length;
    const eSize = new IntegerType(required, expected.elements.length);
    const aSize = actual.sizeRange();
    if (eSize.isAssignable(aSize))
      return [new TypeMismatch(path, original, new HashType(actual.key, actual.value))];
    return [new SizeMismatch(path, eSize, aSize)];
  }
  return [new TypeMismatch(path, original, actual)];
}

function describeTuple(expected: TupleType, original: PType, actual: PType, path: PathElement[]): Mismatch[] {
  if (expected.equals(actual) || (expected.types.length === 0 && actual instanceof ArrayType)) return [];
  const eSize = expected.sizeRange();
  if (actual instanceof TupleType) {
    const aSize = actual.sizeRange();
    if (!eSize.isAssignable(aSize)) return [new SizeMismatch(path, eSize, aSize)];
    if (expected.types.length === 0) return [];
    return actual.types.flatMap((t, i) => {
      const index = Math.min(i, expected.types.length - 1);
      return describe(expected.types[index]!, t, [...path, { kind: 'index', key: String(index) }]);
    });
  }
  if (actual instanceof ArrayType) {
    const aSize = actual.sizeRange();
    if (!eSize.isAssignable(aSize)) return [new SizeMismatch(path, eSize, aSize)];
    return expected.types.flatMap((t, i) =>
      describe(t, actual.element, [...path, { kind: 'index', key: String(i) }]),
    );
  }
  return [new TypeMismatch(path, original, actual)];
}

/**
 * Puppet's message for a value that is not an instance of `expected`, starting with `subject`:
 * `parameter 'x' expects an Integer value, got String`,
 * `parameter 's' entry 'port' expects an Integer value, got String`,
 * `parameter 'mode' expects a match for Enum['off', 'on'], got 'maybe'`.
 * With an empty subject the message starts with `expects`. Several problems are joined with "\n ".
 */
export function describeMismatch(expected: PType, value: Value, subject: string): string {
  const path: PathElement[] = subject === '' ? [] : [{ kind: 'subject', key: subject }];
  const errors = describe(expected, inferType(value), path);
  if (errors.length === 0) return `${subject} expects ${aAn(expected.toString())} value`.trim();
  if (errors.length === 1) return errors[0]!.format().trim();
  return errors.map((e) => e.format().trim()).join('\n ');
}
