/**
 * Puppet's `new`: `Integer('0x10')`, `Type.new(...)`, `new(Type, ...)` and `convert_to(value, Type)`.
 *
 * As in Puppet, a single argument that already is an instance of the type is returned unchanged; otherwise
 * the conversion of the type's kind runs (the rules of Puppet 7's `new_function`s in `pops/types`), and its
 * result must be an instance of the (possibly constrained) type: `Integer[1, 5]('10')` fails.
 * Conversion problems are EppEvalError `EPP_CONVERSION` with Puppet's wording
 * (`The string 'abc' cannot be converted to Integer`).
 *
 * Here: `new`'s dispatch on the type's kind, and the functions. The conversions of each kind are in
 * `conversion/` (`numbers.ts`, `collections.ts`, `regexp-and-type.ts`, `time.ts`), what they share in
 * `conversion/arguments.ts`.
 */
import { EppEvalError } from '../errors.js';
import { checkStringFormats, stringify } from '../runtime/format.js';
import {
  AliasType,
  ArrayType,
  BinaryType,
  BooleanType,
  describedTypeName,
  describeMismatch,
  FloatType,
  HashType,
  InitType,
  IntegerType,
  isPuppetType,
  NamedObjectType,
  NotUndefType,
  NumericType,
  OptionalType,
  type PType,
  RegexpType,
  SemVerRangeType,
  SemVerType,
  SensitiveType,
  StringType,
  StructType,
  TimespanType,
  TimestampType,
  TupleType,
  TypeType,
  VariantType,
} from '../runtime/types.js';
import { PSensitive, type Value } from '../runtime/values.js';
import { arity, conversionError } from './conversion/arguments.js';
import { toBinary } from './conversion/binary.js';
import { toArray, toHash } from './conversion/collections.js';
import { toBoolean, toFloat, toInteger, toNumeric } from './conversion/numbers.js';
import { toObject } from './conversion/object.js';
import { toRegexp, toType } from './conversion/regexp-and-type.js';
import { toSemVer, toSemVerRange } from './conversion/semver.js';
import { toTimespan, toTimestamp } from './conversion/time.js';
import { defineFunction, type FunctionDef } from './registry.js';

/**
 * Puppet's `new(type, *args)`: converts the arguments to a value of `type`.
 * Throws EppEvalError `EPP_CONVERSION`, `EPP_ARGUMENTS`, or `EPP_TYPE_MISMATCH` when the converted value is
 * outside a constrained type.
 */
export function newInstance(type: PType, args: Value[]): Value {
  if (type instanceof InitType) return initInstance(type, args);
  if (args.length === 1 && type.isInstance(args[0])) return args[0];
  const result = convert(type, args);
  if (!type.isInstance(result)) {
    throw new EppEvalError(
      'EPP_TYPE_MISMATCH',
      describeMismatch(type, result, `Converted value from ${type}.new() has wrong type,`),
    );
  }
  return result;
}

function convert(type: PType, args: Value[]): Value {
  // An alias makes what its definition makes (`Stdlib::Port('80')` is 80); Puppet's own (Data) make none.
  if (type instanceof AliasType && type.expands) return convert(type.resolved(), args);
  if (type instanceof IntegerType) return toInteger(args);
  if (type instanceof FloatType) return toFloat(args);
  if (type instanceof NumericType && type.constructor === NumericType) return toNumeric(args);
  if (type instanceof BooleanType) return toBoolean(args);
  if (type instanceof StringType) {
    arity('String', args, 1, 2);
    // An explicit undef too: Puppet's `string_formats` may be left out, not given as undef.
    if (args.length === 2) checkStringFormats(args[1]);
    return stringify(args[0], args[1]);
  }
  if (type instanceof ArrayType || type instanceof TupleType) return toArray(args);
  if (type instanceof HashType || type instanceof StructType) return toHash(args);
  if (type instanceof SensitiveType) {
    arity('Sensitive', args, 1, 1);
    return args[0] instanceof PSensitive ? args[0] : new PSensitive(args[0]);
  }
  if (type instanceof RegexpType) return toRegexp(args);
  if (type instanceof TypeType) return toType(args);
  if (type instanceof TimestampType) return toTimestamp(args);
  if (type instanceof TimespanType) return toTimespan(args);
  if (type instanceof BinaryType) return toBinary(args);
  if (type instanceof SemVerType) return toSemVer(args);
  if (type instanceof SemVerRangeType) return toSemVerRange(args);
  if (type instanceof NamedObjectType) return toObject(type, args);
  if (type instanceof OptionalType && type.type !== undefined) return convert(type.type, args);
  if (type instanceof NotUndefType) {
    if (type.type !== undefined) return convert(type.type, args);
    arity('NotUndef', args, 1, 1);
    return args[0];
  }
  // Puppet makes no value of a Variant (one not given already, see newInstance) but of a lone member's.
  if (type instanceof VariantType && type.types.length === 1) return convert(type.types[0]!, args);
  throw conversionError(`Creation of new instance of type '${type}' is not supported`);
}

/**
 * `Init[T](value)`: T.new of the value (and the Init's arguments). Puppet converts even a value that already
 * is an Init[T] (`Init[Integer]('12')` is 12), and its `new_Init` takes exactly one argument.
 */
function initInstance(type: InitType, args: Value[]): Value {
  if (type.type === undefined)
    throw conversionError("Creation of new instance of type 'Init' is not supported");
  if (args.length !== 1) {
    const got = args.length === 0 ? 'none' : String(args.length);
    throw new EppEvalError('EPP_ARGUMENTS', `'new_Init' expects 1 argument, got ${got}`);
  }
  return newInstance(type.type, type.newArguments(args[0]));
}

function typeParam(fn: string, v: Value): PType {
  if (isPuppetType(v)) return v;
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    `'${fn}' parameter 'type' expects a Type value, got ${describedTypeName(v)}`,
  );
}

/** `new(Type, args...)`, with an optional block that receives the new value. */
export const newFunction: FunctionDef = defineFunction(
  'new',
  1,
  Number.POSITIVE_INFINITY,
  (_ctx, args, block) => {
    const value = newInstance(typeParam('new', args[0]), args.slice(1));
    return block ? block(value) : value;
  },
  'optional',
);

/** `convert_to(value, Type, args...)`: `new(Type, value, args...)`, with an optional block. */
export const convertToFunction: FunctionDef = defineFunction(
  'convert_to',
  2,
  Number.POSITIVE_INFINITY,
  (_ctx, args, block) => {
    const value = newInstance(typeParam('convert_to', args[1]), [args[0], ...args.slice(2)]);
    return block ? block(value) : value;
  },
  'optional',
);
