/**
 * Inference (Puppet's TypeCalculator): the type of a value, reduced and generic forms, common types.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import {
  PBinary,
  PDefault,
  PFloat,
  PIterator,
  PObject,
  PRegexp,
  PSemVer,
  PSemVerRange,
  PSensitive,
  PSymbol,
  PTimespan,
  PTimestamp,
  type Value,
} from '../values.js';
import {
  ANY,
  ArrayType,
  BinaryType,
  BooleanType,
  DATA,
  DefaultType,
  ENUM,
  EnumType,
  exactSize,
  FloatType,
  HashType,
  IntegerType,
  IteratorType,
  NUMERIC,
  numMax,
  numMin,
  PatternType,
  type PType,
  REGEXP,
  RegexpType,
  RICH_DATA,
  RuntimeType,
  SCALAR,
  SCALAR_DATA,
  SEMVER_RANGE,
  SemVerType,
  SensitiveType,
  STRING,
  StringType,
  StructElement,
  StructType,
  TimespanType,
  TimestampType,
  TupleType,
  TypeType,
  UNDEF,
  UNIT,
  UndefType,
  UnitType,
  VariantType,
  variantOf,
} from './internal.js';

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
const BINARY_TYPE = new BinaryType();
const SYMBOL_TYPE = new RuntimeType('ruby', 'Symbol');
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
  if (v instanceof PTimestamp) return new TimestampType(v, v);
  if (v instanceof PTimespan) return new TimespanType(v, v);
  if (v instanceof PIterator) return new IteratorType(v.elementType);
  if (v instanceof PBinary) return BINARY_TYPE;
  if (v instanceof PSymbol) return SYMBOL_TYPE;
  // Puppet's infer of a version: `SemVer['1.2.3 - 1.2.3']`, the range of it alone.
  if (v instanceof PSemVer) return new SemVerType([PSemVerRange.between(v, v, false)]);
  if (v instanceof PSemVerRange) return SEMVER_RANGE;
  if (v instanceof PObject) return v.type;
  return new TypeType(v);
}

/** The generalized type of a value (`Integer`, `Array[String]`): Puppet's `type(x, 'generalized')`. */
export function inferGenericType(v: Value): PType {
  return inferReducedType(v).generalize();
}

export function reduceTypes(types: readonly PType[]): PType | undefined {
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
