/**
 * The combining and meta types: Variant, Type, Sensitive, Iterable, Iterator, Callable, Alias.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { PIterator, PSensitive, type Value } from '../values.js';
import {
  ANY,
  AnyType,
  CALLABLE,
  ContainerType,
  flattenVariants,
  guarded,
  isPuppetType,
  iterableElementType,
  iterableTypeOf,
  literal,
  mergeVariantMembers,
  OptionalType,
  PType,
  UndefType,
  VARIANT,
  variantOf,
} from './internal.js';

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
    const merged = mergeVariantMembers(types);
    return merged.length === 1 ? merged[0]! : variantOf(merged);
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

/** `Iterator[T]`: what `reverse_each` and `step` give without a block, its elements of type T. */
export class IteratorType extends ContainerType {
  readonly name = 'Iterator';
  protected make(type: PType | undefined): PType {
    return new IteratorType(type);
  }
  isInstance(v: Value): boolean {
    return v instanceof PIterator && (this.type === undefined || this.type.isAssignable(v.elementType));
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof IteratorType && (this.type === undefined || this.type.isAssignable(o.type ?? ANY));
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

/**
 * A named alias of a (possibly recursive) type: Puppet's own `Data` and `RichData`, stdlib's
 * (`Stdlib::Port`) and a module's (`Redis::LogLevel`), its definition built on first use.
 */
export class AliasType extends PType {
  private target: PType | undefined;
  constructor(
    readonly name: string,
    private readonly build: (self: AliasType) => PType,
    /**
     * Whether it prints with its definition where Puppet expands aliases (`Stdlib::Port = Integer[0,
     * 65535]`): every alias but Puppet's built-in ones (`Data`, `RichData`).
     */
    readonly expands = true,
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
  /** On its own, an alias is expanded with the aliases its definition names (see PType.display). */
  override display(): string {
    return this.expands ? aliasExpandedString(this) : this.name;
  }
  toString(): string {
    if (expanding === undefined || !this.expands || expanding.has(this)) return this.name;
    expanding.add(this);
    try {
      return `${this.name} = ${this.resolved()}`;
    } finally {
      expanding.delete(this);
    }
  }
}

/** The aliases being expanded by {@link aliasExpandedString} (inside itself, an alias prints its name). */
let expanding: Set<AliasType> | undefined;

/**
 * A type with every alias in it expanded (`Array[Demo::Port = Integer[1, 65535]]`), as Puppet's mismatch
 * messages print what they expected.
 */
export function aliasExpandedString(t: PType): string {
  if (expanding !== undefined) return t.toString();
  expanding = new Set();
  try {
    return t.toString();
  } finally {
    expanding = undefined;
  }
}
