/**
 * The types of no kind of value in particular: Any, Unit, Undef, Default, and the wrappers NotUndef and
 * Optional.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { PDefault, type Value } from '../values.js';
import { ContainerType, PType, quote, StringType, UNDEF, VariantType } from './internal.js';

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
