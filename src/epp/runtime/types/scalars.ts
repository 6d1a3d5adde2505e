/**
 * The simple types: Any, Unit, Undef, Default, NotUndef, Optional, the scalars (Numeric, Integer, Float,
 * Boolean, String, Enum, Pattern, Regexp, Timestamp, Timespan, SemVer) and the
 * shared ANY, UNIT, UNDEF and DEFAULT_SIZE.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { EppEvalError } from '../../errors.js';
import { regexpWithDelimiters, sourceWithDelimiters } from '../format/inspect.js';
import { timespanToString } from '../format/timespans.js';
import { timestampToString } from '../format/timestamps.js';
import {
  PDefault,
  PFloat,
  type PInteger,
  PRegexp,
  type PTimeData,
  PTimespan,
  PTimestamp,
  type Value,
} from '../values.js';
import {
  BOOLEAN,
  bound,
  byCodePoint,
  ContainerType,
  charLength,
  ENUM,
  FLOAT,
  INTEGER,
  literal,
  NUMERIC,
  type Num,
  PATTERN,
  PType,
  quote,
  REGEXP,
  rubyFloat,
  SCALAR,
  SCALAR_DATA,
  SEMVER,
  STRING,
  TIMESPAN,
  TIMESTAMP,
  VariantType,
} from './internal.js';

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
      v instanceof PTimestamp ||
      v instanceof PTimespan
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
  /** Puppet's `eql?`: the same patterns, in any order. */
  override equals(o: PType): boolean {
    if (!(o instanceof PatternType) || o.patterns.length !== this.patterns.length) return false;
    return this.patterns.every((p) => o.patterns.some((q) => q.source === p.source));
  }
  override toString(): string {
    if (this.patterns.length === 0) return 'Pattern';
    return `Pattern[${this.patterns.map((p) => regexpWithDelimiters(p)).join(', ')}]`;
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
    return this.pattern === undefined ? 'Regexp' : `Regexp[${sourceWithDelimiters(this.pattern)}]`;
  }
}

/**
 * Puppet's PAbstractTimeDataType: `Timestamp[from, to]` and `Timespan[from, to]`, a range of TimeData
 * (undefined ends are open), compared by nanoseconds.
 */
abstract class TimeDataType extends ScalarType {
  constructor(
    readonly from?: PTimeData,
    readonly to?: PTimeData,
  ) {
    super();
  }
  protected inRange(v: PTimeData): boolean {
    return (
      (this.from === undefined || v.nanos >= this.from.nanos) &&
      (this.to === undefined || v.nanos <= this.to.nanos)
    );
  }
  protected override assignableFrom(o: PType): boolean {
    if (o.constructor !== this.constructor) return false;
    const other = o as TimeDataType;
    const fromOk =
      this.from === undefined || (other.from !== undefined && this.from.nanos <= other.from.nanos);
    const toOk = this.to === undefined || (other.to !== undefined && this.to.nanos >= other.to.nanos);
    return fromOk && toOk;
  }
  override generalize(): PType {
    return this.kindDefault();
  }
  /** The text of a bound, as the type prints it (quoted). */
  protected abstract boundText(v: PTimeData): string;
  override toString(): string {
    if (this.from === undefined && this.to === undefined) return this.name;
    const from = this.from === undefined ? 'default' : quote(this.boundText(this.from));
    if (this.to === undefined || (this.from !== undefined && this.to.nanos === this.from.nanos)) {
      return `${this.name}[${from}]`;
    }
    return `${this.name}[${from}, ${quote(this.boundText(this.to))}]`;
  }
}

/** Timestamp[from, to]: a range of points in time. */
export class TimestampType extends TimeDataType {
  override readonly name = 'Timestamp';
  override isInstance(v: Value): boolean {
    return v instanceof PTimestamp && this.inRange(v);
  }
  override kindDefault(): PType {
    return TIMESTAMP;
  }
  protected override boundText(v: PTimeData): string {
    return timestampToString(v);
  }
}

/** Timespan[from, to]: a range of durations. */
export class TimespanType extends TimeDataType {
  override readonly name = 'Timespan';
  override isInstance(v: Value): boolean {
    return v instanceof PTimespan && this.inRange(v);
  }
  override kindDefault(): PType {
    return TIMESPAN;
  }
  protected override boundText(v: PTimeData): string {
    return timespanToString(v);
  }
}

/** A type templates have no values for (SemVer): parameters are kept for printing only. */
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

export class SemVerType extends LooseScalarType {
  override readonly name = 'SemVer';
  override kindDefault(): PType {
    return SEMVER;
  }
}

// Shared instances the collection constructors use: they are made here, before names.ts makes the other
// shared instances (whose constructors read these while that module is still loading).
export const DEFAULT_SIZE = new IntegerType(0);
export const ANY = new AnyType();
export const UNIT = new UnitType();
export const UNDEF = new UndefType();
