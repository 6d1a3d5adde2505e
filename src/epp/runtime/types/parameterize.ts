/**
 * Parameterization: `Integer[1, 5]`, `Struct[{...}]` (Puppet's AccessOperator on types).
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { EppEvalError, TypeKeyError } from '../../errors.js';
import { PSemVerRange, VersionSyntaxError } from '../semver.js';
import { PDefault, PFloat, PRegexp, type Value } from '../values.js';
import {
  ANY,
  ArrayType,
  BooleanType,
  CallableType,
  ClassType,
  CollectionType,
  EnumType,
  FloatType,
  HashType,
  InitType,
  IntegerType,
  IterableType,
  IteratorType,
  inferGenericType,
  isPuppetType,
  literal,
  NamedObjectType,
  NotUndefType,
  type Num,
  ObjectType,
  OptionalType,
  objectTypeOf,
  PatternType,
  type PType,
  RegexpType,
  ResourceType,
  RuntimeType,
  rubyFloat,
  SemVerType,
  SensitiveType,
  StringType,
  StructElement,
  StructType,
  TimespanType,
  TimestampType,
  TupleType,
  TypeType,
  timeRange,
  UNDEF,
  VariantType,
  variantOf,
} from './internal.js';

function argError(message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', message);
}

/** An error Puppet places at the key at `index` (keys flattened), not at the whole access. */
function keyError(message: string, index: number): TypeKeyError {
  return new TypeKeyError(message, index);
}

/**
 * An error Ruby raises while Puppet makes the type (its `TypeFactory`'s ArgumentError): Puppet's evaluator
 * words it as the access expression's and places it there.
 */
function accessError(message: string): EppEvalError {
  return argError(`Error while evaluating a '[]' expression, ${message}`);
}

/** `an Enum-Type`, `an Enum['a']-Type`: how Puppet labels a type in access errors (its `to_s`). */
function typeLabel(t: PType, capital = false): string {
  const label = `${t}-Type`;
  const article = /^[AEIOU]/.test(label) ? 'an' : 'a';
  return `${capital ? article[0]!.toUpperCase() + article.slice(1) : article} ${label}`;
}

/** The Ruby class name Puppet shows for a bad parameter (`Got String`). */
function rubyClass(v: Value): string {
  if (v === undefined) return 'NilClass';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number' || typeof v === 'bigint') return 'Integer';
  if (v instanceof PFloat) return 'Float';
  if (typeof v === 'boolean') return v ? 'TrueClass' : 'FalseClass';
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Map) return 'Hash';
  if (v instanceof PRegexp) return 'Regexp';
  if (v instanceof PDefault) return 'Symbol';
  if (isPuppetType(v)) return `Puppet::Pops::Types::P${v.name}Type`;
  return 'Object';
}

/** The generalized Puppet type name of a bad key (`Cannot use Integer where String is expected`). */
function keyTypeName(v: Value): string {
  if (v === undefined) return 'Undef';
  if (v instanceof PDefault) return 'Default';
  return inferGenericType(v).toString();
}

function isRangeParam(v: Value): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PDefault || v === 'default';
}

function rangeEnd(v: Value, open: number): Num {
  return typeof v === 'number' || typeof v === 'bigint' ? v : open;
}

/**
 * A collection size from parameters: one `Integer` type, or one or two integers / `default`; `start` is the
 * index of the first among the access's keys, where Puppet places an error.
 */
function sizeFrom(params: readonly Value[], start: number): IntegerType {
  if (params.length === 1 && params[0] instanceof IntegerType) return params[0];
  params.forEach((p, i) => {
    if (typeof p !== 'number' && typeof p !== 'bigint' && !(p instanceof PDefault)) {
      // Puppet's label of the value's Ruby class: a type's is `String-Type`, not the class's own name.
      const cls = isPuppetType(p) ? `${p.name}-Type` : rubyClass(p);
      throw keyError(
        "A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). " +
          `Got ${/^[AEIOU]/.test(cls) ? 'an' : 'a'} ${cls}`,
        start + i,
      );
    }
  });
  return integerRange(
    rangeEnd(params[0], Number.NEGATIVE_INFINITY),
    rangeEnd(params[1], Number.POSITIVE_INFINITY),
  );
}

/** `Integer[from, to]`, with Puppet's words for a reversed range (Ruby's, its `)` missing). */
function integerRange(from: Num, to: Num): IntegerType {
  if (from > to) throw accessError(`'from' must be less or equal to 'to'. Got (${from}, ${to}`);
  return new IntegerType(from, to);
}

function arityError(type: PType | string, min: number, max: number, actual: number): EppEvalError {
  const label = typeof type === 'string' ? type : typeLabel(type, true);
  if (max === Number.POSITIVE_INFINITY)
    return argError(`${label}[] accepts ${min} or more arguments. Got ${actual}`);
  if (max !== min) return argError(`${label}[] accepts ${min} to ${max} arguments. Got ${actual}`);
  return argError(`${label}[] accepts ${min} argument${min === 1 ? '' : 's'}. Got ${actual}`);
}

function mustBeTypes(base: string, v: Value, index: number): EppEvalError {
  return keyError(`${base}[] arguments must be types. Got ${rubyClass(v)}`, index);
}

/** Checks Puppet's `assert_keys`: count and the accepted kinds of each parameter. */
function assertKeys(
  type: PType,
  args: readonly Value[],
  min: number,
  max: number,
  expected: string,
  accept: (v: Value) => boolean,
): void {
  if (args.length < min || args.length > max) throw arityError(type, 1, max, args.length);
  args.forEach((a, i) => {
    if (!accept(a)) {
      throw keyError(
        `Error creating type specialization of ${typeLabel(type)}, Cannot use ${keyTypeName(a)} where ${expected} is expected`,
        i,
      );
    }
  });
}

function flat(args: readonly Value[]): Value[] {
  return args.flatMap((a) => (Array.isArray(a) ? flat(a) : [a]));
}

function asOptionalInner(v: Value, base: string): PType {
  if (typeof v === 'string') return new StringType(undefined, v);
  if (isPuppetType(v)) return v;
  throw keyError(`${base}[] argument must be a Type or a String. Got ${rubyClass(v)}`, 0);
}

/**
 * `Type[args]`: the type parameterized with already-evaluated arguments, with Puppet's checks and
 * wording. Throws EppEvalError `EPP_ARGUMENTS` on bad parameters.
 */
export function parameterizeType(type: PType, args: Value[]): PType {
  if (type instanceof StructType) {
    assertKeys(type, args, 1, 1, 'Hash', (v) => v instanceof Map);
    return structOf(args[0] as Map<Value, Value>);
  }
  if (type instanceof CallableType) return new CallableType(args);
  // Puppet does not flatten Init's keys: the first is the type, the others `new`'s arguments after the value.
  if (type instanceof InitType && type.type === undefined) {
    if (!isPuppetType(args[0])) throw mustBeTypes('Init-Type', args[0], 0);
    return new InitType(args[0], args.slice(1));
  }
  const keys = flat(args);
  const n = keys.length;
  if (type instanceof IntegerType || type instanceof FloatType) {
    const isInt = type instanceof IntegerType;
    const label = isInt ? 'Integer-Type' : 'Float-Type';
    if (n < 1 || n > 2) throw argError(`${label} supports [] with one or two arguments (from, to). Got ${n}`);
    keys.forEach((k, i) => {
      const ok =
        typeof k === 'number' ||
        typeof k === 'bigint' ||
        k instanceof PDefault ||
        (!isInt && k instanceof PFloat);
      if (!ok) {
        throw keyError(
          isInt
            ? `Integer-Type [] requires all arguments to be integers (or default). Got ${rubyClass(k)}`
            : `Float-Type [] requires all arguments to be floats, or integers (or default). Got ${rubyClass(k)}`,
          i,
        );
      }
    });
    if (isInt) return integerRange(rangeEnd(keys[0], -Infinity), rangeEnd(keys[1], Infinity));
    const end = (v: Value, open: number) =>
      v instanceof PFloat ? v.value : typeof v === 'number' || typeof v === 'bigint' ? Number(v) : open;
    const from = end(keys[0], -Infinity);
    const to = end(keys[1], Infinity);
    if (from > to) {
      throw accessError(`'from' must be less or equal to 'to'. Got (${rubyFloat(from)}, ${rubyFloat(to)}`);
    }
    return new FloatType(from, to);
  }
  if (type instanceof StringType) {
    if (n < 1 || n > 2) throw argError(`String supports [] with one or two arguments. Got ${n}`);
    return new StringType(sizeFrom(keys, 0));
  }
  if (type instanceof EnumType) {
    let values = keys;
    let ci = false;
    const last = keys[n - 1];
    if (typeof last === 'boolean') {
      values = keys.slice(0, -1);
      ci = last;
    }
    assertKeys(type, values, 1, Infinity, 'String', (v) => typeof v === 'string');
    return new EnumType(values as string[], ci);
  }
  if (type instanceof PatternType) {
    assertKeys(type, keys, 1, Infinity, 'String or Regexp or Pattern-Type or Regexp-Type', (v) => {
      return (
        typeof v === 'string' || v instanceof PRegexp || v instanceof PatternType || v instanceof RegexpType
      );
    });
    const patterns = keys.flatMap((k): PRegexp[] => {
      if (typeof k === 'string') return [new PRegexp(k)];
      if (k instanceof PRegexp) return [k];
      if (k instanceof PatternType) return [...k.patterns];
      return [new PRegexp((k as RegexpType).pattern ?? '')];
    });
    // Puppet keeps each pattern once (`Pattern['a', /a/]` is `Pattern[/a/]`).
    const unique = patterns.filter((p, i) => patterns.findIndex((q) => q.source === p.source) === i);
    return new PatternType(unique);
  }
  if (type instanceof RegexpType) {
    // Puppet blames the second key for a count other than one.
    if (n !== 1) throw new TypeKeyError(arityError(type, 1, 1, n).message, n === 0 ? -1 : 1);
    assertKeys(type, keys, 1, 1, 'String or Regexp', (v) => typeof v === 'string' || v instanceof PRegexp);
    const k = keys[0]!;
    return new RegexpType(k instanceof PRegexp ? k.source : (k as string));
  }
  if (type instanceof BooleanType) {
    assertKeys(type, keys, 1, 1, 'TrueClass or FalseClass', (v) => typeof v === 'boolean');
    return new BooleanType(keys[0] as boolean);
  }
  if (type instanceof VariantType) {
    assertKeys(type, keys, 1, Infinity, 'Any-Type', isPuppetType);
    // Puppet flattens nested variants, drops duplicates and unwraps a single type.
    return variantOf(keys as PType[]);
  }
  if (type instanceof TupleType) {
    let types = keys;
    let size: IntegerType | undefined;
    if (n >= 2 && isRangeParam(keys[n - 2]) && isRangeParam(keys[n - 1])) {
      size = new IntegerType(rangeEnd(keys[n - 2], 0), rangeEnd(keys[n - 1], Infinity));
      types = keys.slice(0, -2);
    } else if (n >= 1 && isRangeParam(keys[n - 1])) {
      size = new IntegerType(rangeEnd(keys[n - 1], 0), Infinity);
      types = keys.slice(0, -1);
    }
    assertKeys(type, types, 1, Infinity, 'Any-Type', isPuppetType);
    return new TupleType(types as PType[], size);
  }
  if (type instanceof ArrayType) {
    const first = keys[0];
    if (n === 1) {
      if (!isPuppetType(first)) throw mustBeTypes('Array-Type', first, 0);
      return new ArrayType(first);
    }
    if (n === 2) {
      return isPuppetType(first)
        ? new ArrayType(first, sizeFrom(keys.slice(1), 1))
        : new ArrayType(ANY, sizeFrom(keys, 0));
    }
    if (n === 3) {
      if (!isPuppetType(first)) throw mustBeTypes('Array-Type', first, 0);
      return new ArrayType(first, sizeFrom(keys.slice(1), 1));
    }
    throw arityError('Array-Type', 1, 3, n);
  }
  if (type instanceof HashType) {
    const [k0, k1] = keys;
    if (
      n === 2 &&
      (typeof k0 === 'number' || typeof k0 === 'bigint') &&
      (typeof k1 === 'number' || typeof k1 === 'bigint')
    ) {
      return new HashType(ANY, ANY, new IntegerType(k0, k1));
    }
    // Puppet checks the first two keys before it counts them (`Hash[1]`: "must be types").
    const [k, v] = keys;
    if (n >= 1 && !isPuppetType(k)) throw mustBeTypes('Hash-Type', k, 0);
    if (n >= 2 && !isPuppetType(v)) throw mustBeTypes('Hash-Type', v, 1);
    if (n < 2 || n > 4) throw arityError('Hash-Type', 2, 4, n);
    if (n === 2) return new HashType(k as PType, v as PType);
    if (n === 3) {
      const s = keys[2];
      // Puppet makes `Integer[s]` of the third key unchecked: a String fails in Ruby's comparison.
      if (typeof s === 'string') throw accessError('comparison of String with Infinity failed');
      return new HashType(k as PType, v as PType, s instanceof IntegerType ? s : sizeFrom([s], 2));
    }
    return new HashType(k as PType, v as PType, sizeFrom(keys.slice(2), 2));
  }
  if (type instanceof CollectionType) {
    if (n < 1 || n > 2) throw arityError('Collection-Type', 1, 2, n);
    return new CollectionType(sizeFrom(keys, 0));
  }
  if (type instanceof OptionalType) {
    if (n !== 1) throw arityError('Optional-Type', 1, 1, n);
    const k = keys[0];
    if (typeof k === 'string') return new OptionalType(new StringType(undefined, k));
    if (!isPuppetType(k)) throw mustBeTypes('Optional-Type', k, 0);
    return new OptionalType(k);
  }
  if (type instanceof NotUndefType) {
    if (n === 0) return new NotUndefType();
    if (n !== 1) throw arityError('NotUndef-Type', 0, 1, n);
    return new NotUndefType(asOptionalInner(keys[0], 'NotUndef-Type'));
  }
  if (
    type instanceof TypeType ||
    type instanceof SensitiveType ||
    type instanceof IterableType ||
    type instanceof IteratorType
  ) {
    const base = `${type.name}-Type`;
    if (n !== 1) throw arityError(base, 1, 1, n);
    const k = keys[0];
    if (!isPuppetType(k)) throw mustBeTypes(base, k, 0);
    if (type instanceof TypeType) return new TypeType(k);
    if (type instanceof IteratorType) return new IteratorType(k);
    return type instanceof SensitiveType ? new SensitiveType(k) : new IterableType(k);
  }
  if (type instanceof SemVerType) {
    assertKeys(
      type,
      keys,
      1,
      Infinity,
      'String or SemanticPuppet::VersionRange',
      (v) => typeof v === 'string' || v instanceof PSemVerRange,
    );
    return new SemVerType(keys.map((k) => (k instanceof PSemVerRange ? k : parseSemVerRange(k as string))));
  }
  if (type instanceof TimespanType || type instanceof TimestampType) {
    if (n > 2) throw arityError(type, 0, 2, n);
    return timeRange(type instanceof TimespanType, keys);
  }
  const catalogType = parameterizeCatalogType(type, keys);
  if (catalogType) return catalogType;
  throw argError(`Operator '[]' is not applicable to ${typeLabel(type)}.`);
}

/** A range of `SemVer[...]`, from its text; Puppet's error when the text is no range. */
function parseSemVerRange(text: string): PSemVerRange {
  try {
    return PSemVerRange.parse(text);
  } catch (e) {
    if (e instanceof VersionSyntaxError) throw accessError(e.message);
    throw e;
  }
}

/**
 * A type's access: {@link parameterizeType}, but `Class[a, b]` and `Resource[file, '/a', '/b']` (also
 * `File['/a', '/b']`) give an array of types, one per name or title, as Puppet's access operator does.
 */
export function accessType(type: PType, args: Value[]): Value {
  const keys = flat(args);
  if (type instanceof ClassType && type.className === undefined && keys.length > 1) {
    return keys.map((k) => parameterizeType(type, [k]));
  }
  if (type instanceof ResourceType && type.title === undefined) {
    if (type.typeName === undefined && Array.isArray(args[0])) {
      throw keyError(
        `First argument to Resource[] must be a resource type or a String. Got ${inferredLabel(args[0])}.`,
        0,
      );
    }
    const named = type.typeName === undefined ? 1 : 0;
    if (keys.length - named > 1) {
      const resource = named === 1 ? parameterizeType(type, keys.slice(0, 1)) : type;
      return keys.slice(named).map((title) => parameterizeType(resource, [title]));
    }
  }
  return parameterizeType(type, args);
}

/**
 * Puppet's inferred type of an array in this message (its `infer`, not `infer_set`): `Array[String[1, 7]]`,
 * the strings' lengths as a range, without the array's size; other elements by their generalized type.
 */
function inferredLabel(array: Value[]): string {
  if (array.length > 0 && array.every((v) => typeof v === 'string')) {
    const lengths = (array as string[]).map((v) => [...v].length);
    return `Array[String[${Math.min(...lengths)}, ${Math.max(...lengths)}]]`;
  }
  return inferGenericType(array).toString();
}

/** `Runtime[ruby, 'Symbol']`, `Class[apache]`, `Resource['file', '/tmp']`, `File['/tmp']`, as Puppet makes them. */
function parameterizeCatalogType(type: PType, keys: Value[]): PType | undefined {
  const n = keys.length;
  if (type instanceof RuntimeType && type.runtime === undefined) {
    if (n !== 2) throw arityError(type, 1, 2, n);
    assertKeys(type, keys, 2, 2, 'String', (v) => typeof v === 'string');
    return new RuntimeType(keys[0] as string, keys[1] as string);
  }
  if (type instanceof ClassType && type.className === undefined && n === 1 && typeof keys[0] === 'string') {
    return new ClassType(keys[0].replace(/^::/, '').toLowerCase());
  }
  if (type instanceof ResourceType && type.title === undefined) {
    const names = type.typeName === undefined ? keys.slice(0, 1) : [];
    const titles = keys.slice(names.length);
    if (titles.length > 1 || !keys.every((k) => typeof k === 'string')) return undefined;
    const typeName = type.typeName ?? (names[0] as string).replace(/^::/, '').toLowerCase();
    return new ResourceType(typeName, titles[0] as string | undefined);
  }
  if (type instanceof ObjectType && !(type instanceof NamedObjectType)) {
    if (n === 1 && keys[0] instanceof Map) return objectTypeOf(keys[0]);
    throw new EppEvalError(
      'EPP_UNSUPPORTED',
      'Object types other than from one initializer hash are not supported in templates',
      undefined,
      "write Object[{name => 'Point', attributes => {x => Integer}}]",
    );
  }
  return undefined;
}

/**
 * `Struct[{...}]` from its hash: keys are strings or Optional/NotUndef/Enum-wrapped strings; a value that
 * is no type stands for its generalized type (`{'a' => 1}` is `{'a' => Integer}`), as in Puppet's
 * `TypeFactory.struct`, whose errors are Ruby's (see `accessError`).
 */
function structOf(hash: Map<Value, Value>): StructType {
  const elements: StructElement[] = [];
  for (const [k, value] of hash) {
    // Puppet makes a String value a Runtime type, which Pantograph does not have.
    if (typeof value === 'string') throw accessError('Struct element value_type must be a Type');
    const v = isPuppetType(value) ? value : inferGenericType(value);
    let key: PType;
    if (typeof k === 'string') {
      if (k === '') throw accessError('Struct element key cannot be an empty String');
      const s = new StringType(undefined, k);
      key = v.isAssignable(UNDEF) ? new OptionalType(s) : s;
    } else {
      let s: PType | undefined;
      if (k instanceof NotUndefType) key = s = k.type ?? ANY;
      else if (k instanceof OptionalType) {
        key = k;
        s = k.type;
      } else if (k instanceof StringType) key = s = k;
      else if (k instanceof EnumType) {
        // One value names the member; with more, Puppet means the error below (its Ruby fails first).
        key = s = k.values.length === 1 ? new StringType(undefined, k.values[0]) : k;
      } else {
        throw accessError(
          `Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: ${rubyClass(k)}`,
        );
      }
      if (!(s instanceof StringType) || s.value === undefined) {
        throw accessError(
          `Unable to extract a non-empty literal string from Struct member key type ${literal(k)}`,
        );
      }
    }
    elements.push(new StructElement(key, v));
  }
  return new StructType(elements);
}
