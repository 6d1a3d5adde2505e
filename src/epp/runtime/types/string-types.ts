/**
 * The types of text: String (a size, or an inferred type's exact value), Enum, Pattern and Regexp.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { regexpWithDelimiters, sourceWithDelimiters } from '../format/inspect.js';
import { PRegexp, type Value } from '../values.js';
import {
  byCodePoint,
  charLength,
  DEFAULT_SIZE,
  ENUM,
  IntegerType,
  PATTERN,
  type PType,
  quote,
  REGEXP,
  ScalarDataType,
  ScalarType,
  STRING,
} from './internal.js';

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
