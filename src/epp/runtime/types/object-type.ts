/**
 * `Object[{name => 'Point', attributes => {...}}]`: a named Object type with attributes, and the values
 * `new` makes of it ({@link PObject}). What a template can see of Puppet's `PObjectType` without Ruby
 * code: attributes with a type and an optional default (`{type => Integer, value => 0}`), constants
 * (`kind => constant`), and a parent whose attributes come first. Anything else in the initializer
 * (functions, equality, checks, derived attributes, type parameters) is refused as EPP_UNSUPPORTED where
 * the type is written (see `objectTypeOf` in parameterize.ts and docs/decisions.md).
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { PObject, type Value } from '../values.js';
import {
  literal,
  ObjectType,
  OptionalType,
  type PType,
  quote,
  StringType,
  StructElement,
  StructType,
} from './internal.js';

/** An attribute: its name, its type, and its default when it has one (an Optional type's is undef). */
export interface ObjectAttribute {
  readonly name: string;
  readonly type: PType;
  readonly hasDefault: boolean;
  readonly value: Value;
}

export class NamedObjectType extends ObjectType {
  /** Every attribute, the parent's first: the order of the values and of their printed hash. */
  readonly attributes: readonly ObjectAttribute[];
  /** The attributes in the order `new` takes them: the required ones, then those with a default. */
  readonly positional: readonly ObjectAttribute[];
  private initStruct: StructType | undefined;

  constructor(
    readonly typeName: string,
    readonly parent: NamedObjectType | undefined,
    readonly own: readonly ObjectAttribute[],
    readonly constants: ReadonlyMap<string, Value>,
  ) {
    super();
    this.attributes = [...(parent?.attributes ?? []), ...own];
    this.positional = [
      ...this.attributes.filter((a) => !a.hasDefault),
      ...this.attributes.filter((a) => a.hasDefault),
    ];
  }

  /** An attribute or constant by name, what `$p.x` reads. */
  member(name: string): { found: boolean; index: number; value: Value } {
    const index = this.attributes.findIndex((a) => a.name === name);
    if (index >= 0) return { found: true, index, value: undefined };
    for (let t: NamedObjectType | undefined = this; t; t = t.parent) {
      if (t.constants.has(name)) return { found: true, index: -1, value: t.constants.get(name) };
    }
    return { found: false, index: -1, value: undefined };
  }

  /** The type of `new`'s one-hash signature: `Struct[{'x' => Integer, Optional['y'] => Integer}]`. */
  get initHashType(): StructType {
    this.initStruct ??= new StructType(
      this.attributes.map((a) => {
        const key = new StringType(undefined, a.name);
        return new StructElement(a.hasDefault ? new OptionalType(key) : key, a.type);
      }),
    );
    return this.initStruct;
  }

  override isInstance(v: Value): boolean {
    if (!(v instanceof PObject)) return false;
    for (let t: NamedObjectType | undefined = v.type; t; t = t.parent) if (t.equals(this)) return true;
    return false;
  }

  protected override assignableFrom(o: PType): boolean {
    if (!(o instanceof NamedObjectType)) return false;
    for (let t: NamedObjectType | undefined = o; t; t = t.parent) if (t.equals(this)) return true;
    return false;
  }

  /** Inside another type (`Type[Point]`, `parent => Point`) Puppet names it. */
  override toString(): string {
    return this.typeName;
  }

  /** On its own, its initializer: `Object[{name => 'Point', attributes => {'x' => Integer}}]`. */
  override display(): string {
    const parts = [`name => ${quote(this.typeName)}`];
    if (this.parent) parts.push(`parent => ${this.parent.typeName}`);
    if (this.own.length > 0) {
      const attributes = this.own.map((a) => `${quote(a.name)} => ${attributeText(a)}`);
      parts.push(`attributes => {${attributes.join(', ')}}`);
    }
    if (this.constants.size > 0) {
      const constants = [...this.constants].map(([k, v]) => `${quote(k)} => ${literal(v)}`);
      parts.push(`constants => {${constants.join(', ')}}`);
    }
    return `Object[{${parts.join(', ')}}]`;
  }

  /** Equal when they print alike (Puppet's `eql?` compares the initializers). */
  override equals(o: PType): boolean {
    return o instanceof NamedObjectType && (o === this || o.display() === this.display());
  }
}

function attributeText(a: ObjectAttribute): string {
  if (!a.hasDefault) return a.type.toString();
  return `{type => ${a.type}, value => ${literal(a.value)}}`;
}
