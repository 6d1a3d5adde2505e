/**
 * The parameter types of each signature of a type's `new`, as Puppet 7's dispatchers declare them
 * (`pops/types/types.rb`, `p_binary_type.rb`, `p_timespan_type.rb`, ...; its `argument_mismatch`
 * dispatchers, which only word errors, are left out). `Init[T]` is built on them (`init-type.ts`).
 * Written as Puppet type source with the local aliases expanded, evaluated on first use.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import {
  AliasType,
  ArrayType,
  BinaryType,
  BooleanType,
  FloatType,
  HashType,
  IntegerType,
  NumericType,
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
  typeFromText,
} from './internal.js';

const INTEGER_TEXT = String.raw`Pattern[/\A[+-]?\s*(?:(?:\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\z/]`;
const FLOAT_TEXT = String.raw`Pattern[/\A[+-]?\s*(?:(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\z/]`;
const RADIX = 'Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]]';
const FORMAT = String.raw`Pattern[/^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/]`;
const STRING_FORMATS = `Variant[Default, String[1], Hash[Type, Variant[${FORMAT}, Struct[{Optional[format] => ${FORMAT}, Optional[separator] => String, Optional[separator2] => String, Optional[string_formats] => Hash[Type, ${FORMAT}]}]]]]`;
const TIME_FORMATS = 'Variant[String[2], Array[String[2], 1]]';
const BASE64_FORMAT = "Enum['%B', '%b', '%r', '%s', '%u']";

function numberSignatures(convertible: string, radix: boolean): string[] {
  const options = radix ? `${RADIX}, Boolean, 1, 3` : 'Boolean, 1, 2';
  const named = radix ? `Optional[radix] => ${RADIX}, ` : '';
  return [
    `Tuple[${convertible}, ${options}]`,
    `Tuple[Struct[{from => ${convertible}, ${named}Optional[abs] => Boolean}]]`,
  ];
}

/** Each kind's signatures as Puppet source, by the kind's name. */
const SIGNATURE_TEXTS: Readonly<Record<string, readonly string[]>> = {
  Integer: numberSignatures(`Variant[Numeric, Boolean, ${INTEGER_TEXT}, Timespan, Timestamp]`, true),
  Float: numberSignatures(`Variant[Numeric, Boolean, ${FLOAT_TEXT}, Timespan, Timestamp]`, false),
  Numeric: numberSignatures(`Variant[Integer, Float, Boolean, ${FLOAT_TEXT}, Timespan, Timestamp]`, false),
  Boolean: ["Tuple[Variant[Integer, Float, Boolean, Enum['false', 'n', 'no', 'true', 'y', 'yes', true]]]"],
  String: [`Tuple[Any, ${STRING_FORMATS}, 1, 2]`],
  Array: ['Tuple[Variant[Array, Hash, Binary, Iterable], Boolean[false], 1, 2]', 'Tuple[Any, Boolean[true]]'],
  Hash: [
    "Tuple[Array[Tuple[Array, Any], 1], Enum['hash_tree', 'tree'], 1, 2]",
    'Tuple[Array[Tuple[Any, Any], 1]]',
    'Tuple[Any]',
  ],
  Sensitive: ['Tuple[Sensitive]', 'Tuple[Any]'],
  Regexp: ['Tuple[String, Boolean, 1, 2]'],
  Type: ['Tuple[String[1]]'],
  Timestamp: [
    'Tuple[Any, 0, 0]',
    'Tuple[Variant[Integer, Float]]',
    `Tuple[String[1], ${TIME_FORMATS}, String[1], 1, 3]`,
    `Tuple[Struct[{string => String[1], Optional[format] => ${TIME_FORMATS}, Optional[timezone] => String[1]}]]`,
  ],
  Timespan: [
    'Tuple[Variant[Integer, Float]]',
    `Tuple[String[1], ${TIME_FORMATS}, 1, 2]`,
    'Tuple[Integer, Integer, Integer, Integer, Integer, Integer, Integer, 4, 7]',
    `Tuple[Struct[{string => String[1], Optional[format] => ${TIME_FORMATS}}]]`,
    'Tuple[Struct[{Optional[negative] => Boolean, Optional[days] => Integer, Optional[hours] => Integer, Optional[minutes] => Integer, Optional[seconds] => Integer, Optional[milliseconds] => Integer, Optional[microseconds] => Integer, Optional[nanoseconds] => Integer}]]',
  ],
  // `Init` matches by these only (its messages print no signature): the prerelease pattern's `\g<part>`
  // is written out, as JavaScript has no subexpression calls.
  SemVer: [
    String.raw`Tuple[Pattern[/\A(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?\Z/]]`,
    String.raw`Tuple[Integer[0], Integer[0], Integer[0], Pattern[/\A[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*\Z/], Pattern[/\A[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*\Z/], 3, 5]`,
    String.raw`Tuple[Struct[{major => Integer[0], minor => Integer[0], patch => Integer[0], Optional[prerelease] => Pattern[/\A[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*\Z/], Optional[build] => Pattern[/\A[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*\Z/]}]]`,
  ],
  SemVerRange: [
    'Tuple[String[1]]',
    'Tuple[Variant[Default, SemVer], Variant[Default, SemVer], Boolean, 2, 3]',
    'Tuple[Struct[{min => Variant[Default, SemVer], Optional[max] => Variant[Default, SemVer], Optional[exclude_max] => Boolean}]]',
  ],
  Binary: [
    `Tuple[String, ${BASE64_FORMAT}, 1, 2]`,
    'Tuple[Array[Integer[0, 255]]]',
    `Tuple[Variant[Struct[{value => String, format => Optional[${BASE64_FORMAT}]}], Struct[{value => Array[Integer[0, 255]]}]]]`,
  ],
};

/** The kind whose `new` makes values of `t`, as `new` itself dispatches (functions/conversion.ts). */
function kindOf(t: PType): string | undefined {
  if (t instanceof AliasType) return t.expands ? kindOf(t.resolved()) : undefined;
  if (t instanceof IntegerType) return 'Integer';
  if (t instanceof FloatType) return 'Float';
  if (t instanceof NumericType && t.constructor === NumericType) return 'Numeric';
  if (t instanceof BooleanType) return 'Boolean';
  if (t instanceof StringType) return 'String';
  if (t instanceof ArrayType || t instanceof TupleType) return 'Array';
  if (t instanceof HashType || t instanceof StructType) return 'Hash';
  if (t instanceof SensitiveType) return 'Sensitive';
  if (t instanceof RegexpType) return 'Regexp';
  if (t instanceof TypeType) return 'Type';
  if (t instanceof TimestampType) return 'Timestamp';
  if (t instanceof TimespanType) return 'Timespan';
  if (t instanceof BinaryType) return 'Binary';
  if (t instanceof SemVerType) return 'SemVer';
  if (t instanceof SemVerRangeType) return 'SemVerRange';
  return undefined;
}

const evaluated = new Map<string, readonly TupleType[]>();

/** The signatures of `t`'s `new` as tuples of parameter types, or undefined when `t` has no `new`. */
export function newSignatures(t: PType): readonly TupleType[] | undefined {
  const kind = kindOf(t);
  if (kind === undefined) return undefined;
  let tuples = evaluated.get(kind);
  if (tuples === undefined) {
    tuples = (SIGNATURE_TEXTS[kind] ?? []).map((text) => typeFromText(text) as TupleType);
    evaluated.set(kind, tuples);
  }
  return tuples;
}
