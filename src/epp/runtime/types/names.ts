/**
 * The other shared type instances (ANY, UNIT, UNDEF and DEFAULT_SIZE are in scalars.ts), the Data and
 * RichData aliases, and type names (`resolveTypeName`, `isPuppetType`, `typeEquals`, `isAssignable`).
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { everyKey, everyValue, RecordHash } from '../record-hash.js';
import { PFloat, type Value } from '../values.js';
import {
  AliasType,
  ANY,
  ArrayType,
  BinaryType,
  BooleanType,
  BUILT_IN_RESOURCE_TYPES,
  CallableType,
  ClassType,
  CollectionType,
  DefaultType,
  EnumType,
  FloatType,
  HashType,
  INIT,
  IntegerType,
  IterableType,
  IteratorType,
  NotUndefType,
  NumericType,
  ObjectType,
  OptionalType,
  PatternType,
  PType,
  RegexpType,
  ResourceType,
  RuntimeType,
  ScalarDataType,
  ScalarType,
  SemVerRangeType,
  SemVerType,
  SensitiveType,
  StringType,
  StructType,
  TimespanType,
  TimestampType,
  TupleType,
  TypeType,
  UNDEF,
  VariantType,
} from './internal.js';
import { STDLIB_TYPE_ALIASES } from './stdlib-aliases.js';

export const SCALAR = new ScalarType();
export const SCALAR_DATA = new ScalarDataType();
export const NUMERIC = new NumericType();
export const INTEGER = new IntegerType();
export const FLOAT = new FloatType();
export const BOOLEAN = new BooleanType();
export const STRING = new StringType();
export const ENUM = new EnumType([]);
export const PATTERN = new PatternType([]);
export const REGEXP = new RegexpType();
export const TIMESTAMP = new TimestampType();
export const TIMESPAN = new TimespanType();
export const SEMVER = new SemVerType();
export const SEMVER_RANGE = new SemVerRangeType();
export const COLLECTION = new CollectionType();
export const ARRAY = new ArrayType();
export const HASH = new HashType();
export const TUPLE = new TupleType([]);
export const STRUCT = new StructType([]);
export const VARIANT = new VariantType([]);
export const CALLABLE = new CallableType();
export const BINARY = new BinaryType();

/** `Data`: `Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]`. */
class DataAlias extends AliasType {
  /** What the variant answers, without its dispatch: settings are checked against Data on first render. */
  override isInstance(v: Value): boolean {
    return isData(v);
  }
}

export const DATA: AliasType = new DataAlias(
  'Data',
  (self) => new VariantType([SCALAR_DATA, UNDEF, new HashType(STRING, self), new ArrayType(self)]),
  false,
);

const isString = (v: Value): boolean => typeof v === 'string';

function isData(v: Value): boolean {
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'undefined':
      return true;
  }
  if (v instanceof PFloat) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!isData(v[i])) return false;
    return true;
  }
  if (!(v instanceof Map)) return false;
  // A hash made from JavaScript data knows whether its values are Data (string keys it has anyway).
  if (v instanceof RecordHash) return v.allData || everyValue(v, isData);
  return everyKey(v, isString) && everyValue(v, isData);
}

/** `RichData`: Data plus regexps, types, Object values, default, SemVer, SemVerRange, Binary, Sensitive, timestamps, and non-string hash keys. */
export const RICH_DATA: AliasType = new AliasType(
  'RichData',
  (self) =>
    new VariantType([
      SCALAR,
      SEMVER_RANGE,
      BINARY,
      new SensitiveType(),
      new TypeType(undefined),
      new ObjectType(),
      UNDEF,
      new DefaultType(),
      new HashType(new VariantType([STRING, NUMERIC]), self),
      new ArrayType(self),
    ]),
  false,
);

const TYPE_NAMES: ReadonlyMap<string, () => PType> = new Map<string, () => PType>([
  ['any', () => ANY],
  ['undef', () => UNDEF],
  ['notundef', () => new NotUndefType()],
  ['default', () => new DefaultType()],
  ['scalar', () => SCALAR],
  ['scalardata', () => SCALAR_DATA],
  ['data', () => DATA],
  ['richdata', () => RICH_DATA],
  ['numeric', () => NUMERIC],
  ['integer', () => INTEGER],
  ['float', () => FLOAT],
  ['boolean', () => BOOLEAN],
  ['string', () => STRING],
  ['enum', () => ENUM],
  ['pattern', () => PATTERN],
  ['regexp', () => REGEXP],
  ['collection', () => COLLECTION],
  ['array', () => ARRAY],
  ['hash', () => HASH],
  ['tuple', () => TUPLE],
  ['struct', () => STRUCT],
  ['optional', () => new OptionalType(undefined)],
  ['variant', () => VARIANT],
  ['type', () => new TypeType(undefined)],
  ['sensitive', () => new SensitiveType()],
  ['iterable', () => new IterableType(undefined)],
  ['iterator', () => new IteratorType(undefined)],
  ['callable', () => CALLABLE],
  ['timestamp', () => TIMESTAMP],
  ['timespan', () => TIMESPAN],
  ['semver', () => SEMVER],
  ['semverrange', () => SEMVER_RANGE],
  ['binary', () => BINARY],
  ['runtime', () => new RuntimeType()],
  ['object', () => new ObjectType()],
  ['init', () => INIT],
  ['class', () => new ClassType()],
  ['resource', () => new ResourceType()],
  ...[...BUILT_IN_RESOURCE_TYPES].map((name): [string, () => PType] => [name, () => new ResourceType(name)]),
]);

/**
 * The type a capitalized name such as `Integer` or `ScalarData` refers to, or a type alias of
 * puppetlabs-stdlib (`Stdlib::Port`: real templates declare parameters with them), or undefined.
 */
export function resolveTypeName(name: string): PType | undefined {
  // `::Integer` is `Integer`: a leading `::` names the top scope, as in Puppet.
  const bare = name.startsWith('::') ? name.slice(2) : name;
  return TYPE_NAMES.get(bare.toLowerCase())?.() ?? resolveAlias(bare);
}

/** Evaluates the Puppet source of a type (set by epp.ts: the evaluator sits above the runtime). */
let evaluateTypeText: ((text: string) => PType) | undefined;

export function setTypeTextEvaluator(evaluate: (text: string) => PType): void {
  evaluateTypeText = evaluate;
}

/** The type Puppet source such as `Tuple[String, Boolean, 1, 2]` evaluates to (built-in names only). */
export function typeFromText(text: string): PType {
  if (evaluateTypeText === undefined) throw new Error('the type evaluator is not set');
  return evaluateTypeText(text);
}

/** stdlib's aliases by lowercased name: their name as stdlib spells it, and their definition. */
const aliasesByLowerName = new Map(
  [...STDLIB_TYPE_ALIASES].map(([name, text]) => [name.toLowerCase(), { name, text }]),
);
const stdlibAliases = new Map<string, AliasType>();

/**
 * A stdlib type alias, one object per name, its definition evaluated on first use (aliases refer to other
 * aliases; stdlib has no cycle). An alias, not its definition: Puppet prints it with its name.
 */
function resolveAlias(name: string): PType | undefined {
  const key = name.toLowerCase();
  const known = stdlibAliases.get(key);
  if (known) return known;
  const alias = aliasesByLowerName.get(key);
  const evaluate = evaluateTypeText;
  if (alias === undefined || evaluate === undefined) return undefined;
  const type = new AliasType(alias.name, () => evaluate(alias.text));
  stdlibAliases.set(key, type);
  return type;
}

/** The names {@link resolveTypeName} knows, as Puppet spells them. */
export const TYPE_NAME_LIST: readonly string[] = [
  'Any',
  'Array',
  'Binary',
  'Boolean',
  'Callable',
  'Class',
  'Collection',
  'Data',
  'Default',
  'Enum',
  'Float',
  'Hash',
  'Init',
  'Integer',
  'Iterable',
  'Iterator',
  'NotUndef',
  'Numeric',
  'Optional',
  'Pattern',
  'Regexp',
  'Resource',
  'RichData',
  'Runtime',
  'Scalar',
  'ScalarData',
  'SemVer',
  'SemVerRange',
  'Sensitive',
  'String',
  'Struct',
  'Timespan',
  'Timestamp',
  'Tuple',
  'Type',
  'Undef',
  'Variant',
];

export function isPuppetType(v: unknown): v is PType {
  return v instanceof PType;
}

export function typeEquals(a: PType, b: PType): boolean {
  return a.equals(b);
}

/** Whether every value of `b` is a value of `a`. */
export function isAssignable(a: PType, b: PType): boolean {
  return a.isAssignable(b);
}
