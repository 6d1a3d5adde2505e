/**
 * The Puppet type system, as far as templates can see it.
 *
 * Each Puppet type is a {@link PType} subclass that answers three questions the way Puppet 7 does
 * (the reference is Puppet's `pops/types/types.rb`):
 *
 * - `isInstance(value)`: is the value of this type (`$x =~ Integer`, parameter checks, `case` options);
 * - `isAssignable(type)`: is every value of the other type also of this one (`Type[T]`, mismatch reports);
 * - `toString()`: how Puppet prints the type (`Integer[1, 5]`, `Struct[{'a' => String}]`).
 *
 * The class hierarchy mirrors Puppet's (Integer and Float are Numeric, Numeric is ScalarData, ...)
 * because Puppet's rules are written in terms of it. Inference (`type()`), generalization and the
 * mismatch messages (`expects an Integer value, got String`) live in their own modules.
 *
 * This file is the type system's single entry point; the code is in `types/`, one module per concern:
 *
 * - `text.ts`: quote, rubyFloat and literal parameters;
 * - `helpers.ts`: bounds, sizes, variantOf, iterable element types;
 * - `base.ts`: PType, ContainerType, range bounds, the alias recursion guard;
 * - `special.ts`: Any, Unit, Undef, Default, NotUndef, Optional;
 * - `scalars.ts`: Scalar, ScalarData, Numeric, Integer, Float, Boolean, SemVer, and the shared ANY, UNIT,
 *   UNDEF and DEFAULT_SIZE (the collection constructors read them);
 * - `string-types.ts`: String, Enum, Pattern, Regexp;
 * - `time-types.ts`: Timestamp, Timespan;
 * - `collections.ts`: Collection, Array, Hash, Tuple, Struct;
 * - `abstract.ts`: Variant, Type, Sensitive, Iterable, Iterator, Callable, Alias;
 * - `names.ts`: the other shared instances, Data and RichData, type names, isPuppetType/typeEquals/
 *   isAssignable;
 * - `parameterize.ts`: parameterizeType (`Integer[1, 5]`);
 * - `init-type.ts`: Init[T], on the signatures of each kind's `new` (`init-signatures.ts`);
 * - `infer.ts`: inferType and friends, commonType;
 * - `mismatch.ts`: describeMismatch;
 * - `internal.ts`: the hub the modules import each other through, which fixes their load order.
 */
export {
  AliasType,
  ANY,
  AnyType,
  ArrayType,
  accessType,
  aliasExpandedString,
  BinaryType,
  BooleanType,
  CallableType,
  ClassType,
  CollectionType,
  commonType,
  DATA,
  DefaultType,
  describeArgumentMismatches,
  describedTypeName,
  describeMismatch,
  describesMismatch,
  EnumType,
  FloatType,
  HashType,
  InitType,
  InitTypeError,
  IntegerType,
  IterableType,
  IteratorType,
  inferGenericType,
  inferReducedType,
  inferType,
  isAssignable,
  isPuppetType,
  iteratorElementType,
  loneTypeMismatch,
  NamedObjectType,
  NotUndefType,
  NumericType,
  type ObjectAttribute,
  ObjectType,
  OptionalType,
  objectText,
  PatternType,
  PType,
  parameterizeType,
  quote,
  RegexpType,
  ResourceType,
  RICH_DATA,
  RuntimeType,
  resolveTypeName,
  rubyFloat,
  ScalarDataType,
  ScalarType,
  SemVerRangeType,
  SemVerType,
  SensitiveType,
  STRING,
  StringType,
  StructElement,
  StructType,
  TimespanType,
  TimestampType,
  TupleType,
  TYPE_NAME_LIST,
  TypeType,
  typeEquals,
  typeFromText,
  UNDEF,
  UndefType,
  UnitType,
  VariantType,
  variantOf,
} from './types/internal.js';
