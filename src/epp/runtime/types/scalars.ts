/**
 * The scalar types: Scalar, ScalarData, Numeric, Integer, Float, Boolean and SemVer (the text types are in
 * string-types.ts, the time types in time-types.ts), and the shared ANY, UNIT, UNDEF and DEFAULT_SIZE.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { EppEvalError } from '../../errors.js';
import { coveredBy, mergeRanges, PSemVer, PSemVerRange } from '../semver.js';
import { PFloat, type PInteger, PRegexp, PTimespan, PTimestamp, type Value } from '../values.js';
import {
  AnyType,
  BOOLEAN,
  bound,
  FLOAT,
  INTEGER,
  literal,
  NUMERIC,
  type Num,
  PType,
  rubyFloat,
  SCALAR,
  SCALAR_DATA,
  SEMVER,
  UndefType,
  UnitType,
} from './internal.js';
import { mergeRangesOnePass } from './range-merge.js';

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
      v instanceof PTimespan ||
      v instanceof PSemVer ||
      v instanceof PSemVerRange
    );
  }
  protected override assignableFrom(o: PType): boolean {
    // Puppet's Scalar also takes SemVerRange, which is no Scalar type of its own.
    return o instanceof ScalarType || o instanceof SemVerRangeType;
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

/**
 * `SemVer` and `SemVer[ranges...]`: the versions within any of the ranges (Puppet merges ranges that touch,
 * as `PSemVerType#merge_ranges` does, and prints each range by its text).
 */
export class SemVerType extends ScalarType {
  override readonly name = 'SemVer';
  readonly ranges: readonly PSemVerRange[];
  constructor(ranges: readonly PSemVerRange[] = []) {
    super();
    // `PSemVerType#merge_ranges`: a Variant's one-pass merge, its result reversed as Puppet's is.
    this.ranges = ranges.length > 1 ? mergeRangesOnePass(ranges, mergeRanges).reverse() : ranges;
  }
  override isInstance(v: Value): boolean {
    return v instanceof PSemVer && (this.ranges.length === 0 || this.ranges.some((r) => r.includes(v)));
  }
  protected override assignableFrom(o: PType): boolean {
    if (!(o instanceof SemVerType)) return false;
    if (this.ranges.length === 0) return true;
    if (o.ranges.length === 0) return false;
    return o.ranges.every((or) => this.ranges.some((r) => coveredBy(or, r)));
  }
  override equals(o: PType): boolean {
    return (
      o instanceof SemVerType &&
      o.ranges.length === this.ranges.length &&
      this.ranges.every((r, i) => r.equals(o.ranges[i]!))
    );
  }
  override generalize(): PType {
    return SEMVER;
  }
  override kindDefault(): PType {
    return SEMVER;
  }
  override toString(): string {
    if (this.ranges.length === 0) return this.name;
    return `${this.name}[${this.ranges.map((r) => literal(r.text)).join(', ')}]`;
  }
}

/** `SemVerRange`: the type of version ranges; it takes no parameters. */
export class SemVerRangeType extends PType {
  readonly name = 'SemVerRange';
  isInstance(v: Value): boolean {
    return v instanceof PSemVerRange;
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof SemVerRangeType;
  }
  toString(): string {
    return this.name;
  }
}

// Shared instances the collection constructors use: they are made here, before names.ts makes the other
// shared instances (whose constructors read these while that module is still loading).
export const DEFAULT_SIZE = new IntegerType(0);
export const ANY = new AnyType();
export const UNIT = new UnitType();
export const UNDEF = new UndefType();
