/**
 * The base of the type system: {@link PType}, {@link ContainerType}, range bounds and the alias recursion
 * guard.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { integer, type Value } from '../values.js';
import { AliasType, AnyType, NotUndefType, OptionalType, UNDEF, UnitType, VariantType } from './internal.js';

/**
 * A range bound: an Integer bound is a canonical Integer (a number when safe, a bigint beyond), a Float
 * bound a number, an open end an infinity. JavaScript compares numbers with bigints exactly.
 */
export type Num = number | bigint;

/** A bound in canonical form (a bigint within the safe range becomes a number). */
export function bound(n: Num): Num {
  return typeof n === 'bigint' ? integer(n) : n;
}

export abstract class PType {
  readonly isPuppetType = true;
  /** Puppet's simple name (`Integer` for `Integer[1, 5]`), used in short mismatch messages. */
  abstract readonly name: string;
  abstract isInstance(value: Value): boolean;
  abstract toString(): string;

  /**
   * The type printed on its own (`<%= T %>`, `String(T)`), as Puppet's `to_s`: as `toString`, but an
   * alias is expanded (`Demo::Pair = Array[Demo::Port = Integer[1, 65535]]`), where inside another type
   * aliases print their names (`Array[Demo::Port]`).
   */
  display(): string {
    return this.toString();
  }

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
export abstract class ContainerType extends PType {
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

/** The alias checks in progress: a check that comes back to itself holds (as Puppet's RecursionGuard). */
const aliasChecks: [PType, PType][] = [];

export function guarded(a: PType, b: PType, check: () => boolean): boolean {
  if (aliasChecks.some(([x, y]) => x === a && y === b)) return true;
  aliasChecks.push([a, b]);
  try {
    return check();
  } finally {
    aliasChecks.pop();
  }
}
