/**
 * The collection types: Collection, Array, Hash, Tuple, Struct.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { everyKey, everyValue, RecordHash } from '../record-hash.js';
import type { Value } from '../values.js';
import {
  ANY,
  AnyType,
  ARRAY,
  COLLECTION,
  DATA,
  DEFAULT_SIZE,
  exactSize,
  HASH,
  IntegerType,
  OptionalType,
  PType,
  quote,
  STRING,
  STRUCT,
  type StringType,
  TUPLE,
  UNDEF,
  UNIT,
} from './internal.js';

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
    if (v instanceof RecordHash) {
      // Made from JavaScript data (`Hash[String, Data]` is the common type of such values): its keys are
      // strings, and whether its values are Data was seen as it was made.
      if (key !== ANY && key !== STRING && !v.everyKey((k) => key.isInstance(k))) return false;
      return value === ANY || (value === DATA && v.allData) || v.everyValue((val) => value.isInstance(val));
    }
    if (key !== ANY && !everyKey(v, (k) => key.isInstance(k))) return false;
    return value === ANY || everyValue(v, (val) => value.isInstance(val));
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
