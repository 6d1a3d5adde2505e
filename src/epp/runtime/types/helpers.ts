/**
 * Helpers the type classes and parameterize/infer share: bounds, sizes, variants, iterable element types.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { PIterator, type Value } from '../values.js';
import {
  ANY,
  ArrayType,
  EnumType,
  HashType,
  INTEGER,
  IntegerType,
  IterableType,
  IteratorType,
  inferReducedType,
  inferType,
  isPuppetType,
  type Num,
  type PType,
  reduceTypes,
  StringType,
  StructType,
  TupleType,
  TypeType,
  UNIT,
  VariantType,
} from './internal.js';

/** Min and max of mixed bigint/number bounds (Math.min would not take bigints). */
export function numMin(a: Num, b: Num): Num {
  return b < a ? b : a;
}

export function numMax(a: Num, b: Num): Num {
  return b > a ? b : a;
}

export function exactSize(n: number): IntegerType {
  return new IntegerType(n, n);
}

export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Ruby's String#size: characters (code points), not UTF-16 units. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function flattenVariants(types: readonly PType[]): PType[] {
  return types.flatMap((t) => (t instanceof VariantType ? [...t.types] : [t]));
}

/** Puppet's `PVariantType.maybe_create`: flattened, unique, and unwrapped when only one is left. */
export function variantOf(types: readonly PType[]): PType {
  const unique: PType[] = [];
  for (const t of flattenVariants(types)) if (!unique.some((u) => u.equals(t))) unique.push(t);
  return unique.length === 1 ? unique[0]! : new VariantType(unique);
}

/** The element type an iterable value yields, or undefined when the value is not iterable. */
export function iterableElementType(v: Value): PType | undefined {
  if (typeof v === 'string') return new StringType(new IntegerType(1, 1));
  if (typeof v === 'number' || typeof v === 'bigint') return v >= 0 ? INTEGER : undefined;
  if (Array.isArray(v)) return v.length === 0 ? UNIT : reduceTypes(v.map(inferReducedType))!;
  if (v instanceof PIterator) return v.elementType;
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

/**
 * The element type of Puppet's Iterator over an Iterable value: each element's type for an Array
 * (`Variant[Integer[1, 1], Integer[2, 2]]`), `Tuple[K, V, 2, 2]` for a Hash's pairs, a character String for
 * a String, Integer for an Integer or a range.
 */
export function iteratorElementType(v: Value): PType {
  if (v instanceof PIterator) return v.elementType;
  if (Array.isArray(v)) return v.length === 0 ? UNIT : variantOf(v.map(inferType));
  if (v instanceof Map) {
    const part = (values: Value[]) => (values.length === 0 ? UNIT : variantOf(values.map(inferType)));
    return new TupleType([part([...v.keys()]), part([...v.values()])], exactSize(2));
  }
  return iterableElementType(v) ?? UNIT;
}

/** The element type of an iterable type, or undefined when values of the type are not iterable. */
export function iterableTypeOf(t: PType): PType | undefined {
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
  if (t instanceof IterableType || t instanceof IteratorType) return t.type ?? ANY;
  if (t instanceof TypeType) {
    const inner = t.type;
    if (inner instanceof EnumType) return inner;
    if (inner instanceof IntegerType && inner.min !== undefined && inner.max !== undefined) return inner;
  }
  return undefined;
}
