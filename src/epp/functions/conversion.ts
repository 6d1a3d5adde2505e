/**
 * Puppet's `new`: `Integer('0x10')`, `Type.new(...)`, `new(Type, ...)` and `convert_to(value, Type)`.
 *
 * As in Puppet, a single argument that already is an instance of the type is returned unchanged; otherwise
 * the conversion of the type's kind runs (the rules of Puppet 7's `new_function`s in `pops/types`), and its
 * result must be an instance of the (possibly constrained) type: `Integer[1, 5]('10')` fails.
 * Conversion problems are EppEvalError `EPP_CONVERSION` with Puppet's wording
 * (`The string 'abc' cannot be converted to Integer`).
 */
import { EppEvalError } from '../errors.js';
import {
  formatFloat,
  parseTimespan,
  parseTimestampText,
  rubyInspectString,
  stringify,
} from '../runtime/format.js';
import { nanosOfSeconds, TIMESPAN_FIELD_NANOS, timeToFloat, timeToInteger } from '../runtime/time.js';
import {
  AliasType,
  ArrayType,
  BooleanType,
  describeMismatch,
  EnumType,
  FloatType,
  HashType,
  IntegerType,
  inferGenericType,
  isPuppetType,
  NotUndefType,
  NumericType,
  OptionalType,
  type PType,
  RegexpType,
  resolveTypeName,
  SensitiveType,
  StringType,
  StructType,
  TimespanType,
  TimestampType,
  TupleType,
  TypeType,
  VariantType,
} from '../runtime/types.js';
import {
  bigOf,
  float,
  integer,
  isInteger,
  PDefault,
  PFloat,
  type PHash,
  type PInteger,
  PIterator,
  PRegexp,
  PSensitive,
  PTimeData,
  PTimespan,
  PTimestamp,
  type Value,
} from '../runtime/values.js';
import { defineFunction, type FunctionDef } from './registry.js';

function conversionError(message: string): EppEvalError {
  return new EppEvalError('EPP_CONVERSION', message);
}

/**
 * The name of the function Puppet's `new` dispatches to for a type, which starts its conversion errors
 * (`'new_float' The string 'x' cannot be converted to Float`); Hash's and the others' have none.
 */
const NEW_FUNCTION_NAMES: Readonly<Record<string, string>> = {
  Integer: 'new',
  Float: 'new_float',
  Numeric: 'new_numeric',
  Boolean: 'new_boolean',
  Array: 'new_array',
};

/** `The string 'x' cannot be converted to T` or `Value of type T2 cannot be converted to T`. */
function cannotConvert(from: Value, target: string): EppEvalError {
  const name = NEW_FUNCTION_NAMES[target];
  const prefix = name === undefined ? '' : `'${name}' `;
  if (typeof from === 'string')
    return conversionError(`${prefix}The string '${from}' cannot be converted to ${target}`);
  return conversionError(`${prefix}Value of type ${inferGenericType(from)} cannot be converted to ${target}`);
}

function arity(target: string, args: readonly Value[], min: number, max: number): void {
  if (args.length >= min && args.length <= max) return;
  const expects =
    min === max ? `${min} argument${min === 1 ? '' : 's'}` : `between ${min} and ${max} arguments`;
  throw new EppEvalError('EPP_ARGUMENTS', `${target}.new() expects ${expects}, got ${args.length}`);
}

/**
 * Puppet's `new(type, *args)`: converts the arguments to a value of `type`.
 * Throws EppEvalError `EPP_CONVERSION`, `EPP_ARGUMENTS`, or `EPP_TYPE_MISMATCH` when the converted value is
 * outside a constrained type.
 */
export function newInstance(type: PType, args: Value[]): Value {
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

/** The arguments of the hash form `T({from => x, ...})`, or undefined when the call is positional. */
function namedArgs(args: readonly Value[], keys: readonly string[], target: string): Value[] | undefined {
  const h = args[0];
  if (args.length !== 1 || !(h instanceof Map) || !h.has('from')) return undefined;
  for (const k of h.keys()) {
    if (typeof k !== 'string' || !keys.includes(k)) throw cannotConvert(h, target);
  }
  return keys.map((k) => h.get(k));
}

/** The `abs` option of Integer/Float/Numeric: the absolute value when true. */
function applyAbs(n: PInteger, abs: Value): PInteger;
function applyAbs(n: PFloat, abs: Value): PFloat;
function applyAbs(n: PInteger | PFloat, abs: Value): PInteger | PFloat;
function applyAbs(n: PInteger | PFloat, abs: Value): PInteger | PFloat {
  if (abs !== undefined && typeof abs !== 'boolean') {
    throw new EppEvalError('EPP_ARGUMENTS', `'abs' expects a Boolean value, got ${inferGenericType(abs)}`);
  }
  if (abs !== true) return n;
  if (n instanceof PFloat) return float(Math.abs(n.value));
  if (typeof n === 'number') return Math.abs(n);
  return integer(n < 0n ? -n : n);
}

// ---------------------------------------------------------------------------------------------------
// Integer, Float, Numeric, Boolean

/** Puppet's Convertible string for Integer: decimal or octal digits, hex or binary, optional sign. */
const INTEGER_TEXT = /^[+-]?\s*(?:\d+|0[xX][0-9A-Fa-f]+|0[bB][01]+)$/;
const FLOAT_TEXT =
  /^[+-]?\s*(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?|0[xX][0-9A-Fa-f]+|0[0-7]+|0[bB][01]+)$/;
const SIGN_THEN_BLANKS = /^([+-])[ \t]+(.*)$/s;

function toInteger(args: Value[]): PInteger {
  const named = namedArgs(args, ['from', 'radix', 'abs'], 'Integer');
  if (!named) arity('Integer', args, 1, 3);
  const [from, radixArg = DEFAULT_RADIX, abs] = named ?? args;
  const radix = radixOf(radixArg);
  let n: PInteger;
  if (isInteger(from)) n = from;
  else if (from instanceof PFloat) {
    if (!Number.isFinite(from.value)) throw cannotConvert(from, 'Integer');
    n = integer(Math.trunc(from.value));
  } else if (typeof from === 'boolean') n = from ? 1 : 0;
  // TimeData#to_i: the whole seconds at or before the time (a time before 1970 rounds down).
  else if (from instanceof PTimeData) n = integer(timeToInteger(from));
  else if (typeof from === 'string' && INTEGER_TEXT.test(from)) {
    const parsed = rubyInteger(from, radix) ?? retryWithoutBlanks(from, (s) => rubyInteger(s, radix));
    // Puppet's pattern let it through and Ruby's `Integer()` refused it ('08', '12' in radix 2).
    if (parsed === undefined)
      throw conversionError(`invalid value for Integer(): ${rubyInspectString(from)}`);
    n = integer(parsed);
  } else throw cannotConvert(from, 'Integer');
  return applyAbs(n, abs);
}

const DEFAULT_RADIX = new PDefault();

function radixOf(v: Value): number | undefined {
  if (v instanceof PDefault || v === undefined) return undefined;
  if (v === 2 || v === 8 || v === 10 || v === 16) return v;
  const shown = typeof v === 'string' ? v : v instanceof PFloat ? formatFloat(v.value) : String(v);
  throw new EppEvalError('EPP_ARGUMENTS', `Illegal radix: ${shown}, expected 2, 8, 10, 16, or default`);
}

/** `- 12` is accepted as `-12` (Puppet retries without the blanks after the sign). */
function retryWithoutBlanks<T>(s: string, parse: (s: string) => T | undefined): T | undefined {
  const m = SIGN_THEN_BLANKS.exec(s);
  return m ? parse(m[1]! + m[2]!) : undefined;
}

const PREFIXES: Record<number, RegExp> = { 2: /^0[bB]/, 8: /^0[oO]?/, 10: /^0[dD]/, 16: /^0[xX]/ };
const DIGITS: Record<number, RegExp> = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^\d+$/, 16: /^[0-9a-fA-F]+$/ };
const RADIX_PREFIX: Record<number, string> = { 2: '0b', 8: '0o', 10: '', 16: '0x' };

/** Ruby's `Integer(s)` / `Integer(s, radix)` for the texts Puppet lets through; undefined when Ruby raises. */
function rubyInteger(s: string, radix: number | undefined): bigint | undefined {
  const m = /^\s*([+-]?)(.*)$/s.exec(s)!;
  const negative = m[1] === '-';
  let body = m[2]!;
  let base = radix;
  if (base === undefined) {
    if (/^0[xX]/.test(body)) base = 16;
    else if (/^0[bB]/.test(body)) base = 2;
    else if (/^0./.test(body)) base = 8;
    else base = 10;
  }
  body = body.replace(PREFIXES[base]!, '');
  if (body === '' && base === 8) body = '0';
  if (!DIGITS[base]!.test(body)) return undefined;
  const n = BigInt(RADIX_PREFIX[base] + body);
  return negative ? -n : n;
}

function toFloat(args: Value[]): PFloat {
  const named = namedArgs(args, ['from', 'abs'], 'Float');
  if (!named) arity('Float', args, 1, 2);
  const [from, abs] = named ?? args;
  let n: number;
  if (from instanceof PFloat) n = from.value;
  else if (isInteger(from)) n = Number(from);
  else if (typeof from === 'boolean') n = from ? 1 : 0;
  else if (from instanceof PTimeData) n = timeToFloat(from);
  else if (typeof from === 'string' && FLOAT_TEXT.test(from)) {
    const parsed = rubyFloatOf(from) ?? retryWithoutBlanks(from, rubyFloatOf);
    if (parsed === undefined) throw cannotConvert(from, 'Float');
    n = parsed;
  } else throw cannotConvert(from, 'Float');
  return applyAbs(float(n), abs);
}

/** Ruby's `Float(s)` for texts matching Puppet's pattern (`0b` binary goes through Integer first). */
function rubyFloatOf(s: string): number | undefined {
  if (/^0[bB]/.test(s)) {
    const i = rubyInteger(s, undefined);
    return i === undefined ? undefined : Number(i);
  }
  const m = /^\s*([+-]?)(.*)$/s.exec(s)!;
  const body = m[2]!;
  let n: number;
  if (/^0[xX][0-9A-Fa-f]+$/.test(body)) n = Number.parseInt(body.slice(2), 16);
  else if (/^\d+(\.\d+)?([eE][+-]?\d+)?$/.test(body)) n = Number(body);
  else return undefined;
  return m[1] === '-' ? -n : n;
}

function toNumeric(args: Value[]): PInteger | PFloat {
  const named = namedArgs(args, ['from', 'abs'], 'Numeric');
  if (!named) arity('Numeric', args, 1, 2);
  const [from, abs] = named ?? args;
  let n: PInteger | PFloat;
  if (isInteger(from) || from instanceof PFloat) n = from;
  else if (typeof from === 'boolean') n = from ? 1 : 0;
  else if (from instanceof PTimeData) n = float(timeToFloat(from));
  else if (typeof from === 'string' && FLOAT_TEXT.test(from)) {
    const binaryOrHex = /^0[bBxX]/.test(from) ? rubyInteger(from, undefined) : undefined;
    const parsed = binaryOrHex !== undefined ? integer(binaryOrHex) : toNumber(from);
    if (parsed === undefined) throw cannotConvert(from, 'Numeric');
    n = parsed;
  } else throw cannotConvert(from, 'Numeric');
  return applyAbs(n, abs);
}

/** Puppet's `Utils.to_n`: a decimal, octal or hex Integer, or a Float when there is a fraction/exponent. */
function toNumber(s: string): PInteger | PFloat | undefined {
  const m = /^[ \t]*([-+]?)[ \t]*((0[xX][0-9A-Fa-f]+)|(0?\d+)((?:\.\d+)?(?:[eE]-?\d+)?))[ \t]*$/.exec(s);
  if (!m) return undefined;
  const negative = m[1] === '-';
  if (m[5]) {
    const f = Number(m[2]);
    if (!Number.isFinite(f)) return undefined;
    return float(negative ? -f : f);
  }
  const i = rubyInteger(m[2]!, undefined);
  if (i === undefined) return undefined;
  return integer(negative ? -i : i);
}

const FALSE_WORDS = ['false', 'no', 'n'];
const TRUE_WORDS = ['true', 'yes', 'y'];

function toBoolean(args: Value[]): boolean {
  arity('Boolean', args, 1, 1);
  const from = args[0];
  if (typeof from === 'boolean') return from;
  if (typeof from === 'number') return from !== 0;
  // A bigint Integer is beyond 2^53, never 0.
  if (typeof from === 'bigint') return true;
  if (from instanceof PFloat) return from.value !== 0;
  if (typeof from === 'string') {
    const word = from.toLowerCase();
    if (FALSE_WORDS.includes(word)) return false;
    if (TRUE_WORDS.includes(word)) return true;
  }
  throw cannotConvert(from, 'Boolean');
}

// ---------------------------------------------------------------------------------------------------
// Array, Hash, Regexp, Type, Timestamp

/** The elements of an Iterable value, or undefined when it is not iterable. */
function iterate(v: Value): Value[] | undefined {
  if (Array.isArray(v)) return v;
  if (v instanceof Map) return [...v].map(([k, x]) => [k, x]);
  if (typeof v === 'string') return Array.from(v);
  if (typeof v === 'number') return v >= 0 ? rangeOf(0, v - 1) : undefined;
  if (typeof v === 'bigint') return v > 0n ? rangeOf(0, integer(v - 1n)) : undefined;
  if (v instanceof IntegerType && v.min !== undefined && v.max !== undefined) return rangeOf(v.min, v.max);
  if (v instanceof EnumType) return [...v.values];
  if (v instanceof PIterator) return [...v.elements()];
  return undefined;
}

function rangeOf(from: PInteger, to: PInteger): PInteger[] {
  const out: PInteger[] = [];
  if (typeof from === 'number' && typeof to === 'number') {
    for (let i = from; i <= to; i++) out.push(i);
    return out;
  }
  for (let i = bigOf(from); i <= bigOf(to); i++) out.push(integer(i));
  return out;
}

function toArray(args: Value[]): Value[] {
  arity('Array', args, 1, 2);
  const [from, wrap = false] = args;
  if (typeof wrap !== 'boolean') {
    throw new EppEvalError('EPP_ARGUMENTS', `'wrap' expects a Boolean value, got ${inferGenericType(wrap)}`);
  }
  if (wrap) return Array.isArray(from) ? from : [from];
  const elements = iterate(from);
  if (elements === undefined) throw cannotConvert(from, 'Array');
  return elements;
}

function toHash(args: Value[]): PHash {
  arity('Hash', args, 1, 2);
  const [from, option] = args;
  if (option !== undefined) {
    if (option !== 'tree' && option !== 'hash_tree') {
      throw new EppEvalError('EPP_ARGUMENTS', `'build_option' expects a match for Enum['hash_tree', 'tree']`);
    }
    if (!isPairs(from, true)) throw cannotConvert(from, 'Hash');
    return fromTree(from as Value[][], option === 'hash_tree');
  }
  if (from instanceof Map) return from;
  if (isPairs(from, false)) return new Map((from as Value[][]).map(([k, v]) => [k, v]));
  const flat = iterate(from);
  if (flat === undefined) throw cannotConvert(from, 'Hash');
  if (flat.length % 2 !== 0) throw conversionError('odd number of arguments for Hash');
  const out: PHash = new Map();
  for (let i = 0; i < flat.length; i += 2) out.set(flat[i], flat[i + 1]);
  return out;
}

/** A non-empty array of `[key, value]` pairs (`[path array, value]` pairs for a tree). */
function isPairs(v: Value, tree: boolean): boolean {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((e) => Array.isArray(e) && e.length === 2 && (!tree || Array.isArray(e[0])))
  );
}

/** `Hash([[['a', 'b'], 1]], 'tree')` gives `{a => {b => 1}}`. Paths walk through hashes only. */
function fromTree(entries: Value[][], allHashes: boolean): PHash {
  const result: PHash = new Map();
  for (const [path, value] of entries as [Value[], Value][]) {
    if (path.length === 0) {
      const entries: Iterable<[Value, Value]> = Array.isArray(value)
        ? value.map((v, i): [Value, Value] => [i, v])
        : value instanceof Map
          ? value
          : [];
      for (const [k, v] of entries) result.set(k, v);
      continue;
    }
    let node = result;
    for (const key of path.slice(0, -1)) {
      const existing = node.get(key);
      if (existing instanceof Map) {
        node = existing;
        continue;
      }
      if (node.has(key)) throw conversionError('a tree path can only walk through hashes');
      const next: PHash = new Map();
      node.set(key, next);
      node = next;
    }
    node.set(path.at(-1), allHashes ? arrayAsHash(value) : value);
  }
  return result;
}

function arrayAsHash(v: Value): Value {
  if (!Array.isArray(v)) return v;
  return new Map(v.map((e, i) => [i, arrayAsHash(e)]));
}

function toRegexp(args: Value[]): PRegexp {
  arity('Regexp', args, 1, 2);
  const [pattern, escaped = false] = args;
  if (typeof pattern !== 'string') throw cannotConvert(pattern, 'Regexp');
  return new PRegexp(escaped === true ? rubyEscape(pattern) : pattern);
}

/** Ruby's `Regexp.escape`. */
function rubyEscape(s: string): string {
  return s
    .replace(/[.*+?^${}()|[\]-]/g, '\\$&')
    .replace(/ /g, '\\ ')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t');
}

function toType(args: Value[]): PType {
  arity('Type', args, 1, 1);
  const text = args[0];
  const t = typeof text === 'string' ? resolveTypeName(text.trim()) : undefined;
  if (!t) throw cannotConvert(text, 'Type');
  return t;
}

/** Puppet's `Formats` of a Timestamp's or Timespan's `new`: a format, or a non-empty list of them. */
function formatsArg(target: string, v: Value): string | string[] {
  if (typeof v === 'string' && [...v].length >= 2) return v;
  if (Array.isArray(v) && v.length > 0 && v.every((f) => typeof f === 'string' && [...f].length >= 2)) {
    return v as string[];
  }
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    `${target}.new() parameter 'format' expects a value of type String[2] or Array[String[2], 1], got ${inferGenericType(v)}`,
  );
}

/** A hash form's keys, each of `keys` (Puppet's Struct of the dispatch); anything else is not converted. */
function hashForm(h: PHash, keys: readonly string[], target: string): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [k, v] of h) {
    if (typeof k !== 'string' || !keys.includes(k)) throw cannotConvert(h, target);
    out.set(k, v);
  }
  return out;
}

function nonEmptyString(target: string, name: string, v: Value): string {
  if (typeof v === 'string' && v !== '') return v;
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    `${target}.new() parameter '${name}' expects a String[1] value, got ${inferGenericType(v)}`,
  );
}

/**
 * `Timestamp.new`: now (no argument), seconds since the epoch, or a text read with Puppet's formats (or
 * those given) and a timezone, positionally or as `{string => ..., format => ..., timezone => ...}`.
 */
function toTimestamp(args: Value[]): PTimestamp {
  arity('Timestamp', args, 0, 3);
  if (args.length === 0) return new PTimestamp(BigInt(Date.now()) * 1_000_000n);
  let [from, format, timezone] = args;
  if (args.length === 1 && from instanceof Map) {
    const h = hashForm(from, ['string', 'format', 'timezone'], 'Timestamp');
    if (!h.has('string')) throw cannotConvert(from, 'Timestamp');
    [from, format, timezone] = [h.get('string'), h.get('format'), h.get('timezone')];
  }
  if (args.length === 1 && (isInteger(from) || from instanceof PFloat)) {
    return new PTimestamp(nanosOfSeconds(from));
  }
  if (typeof from !== 'string') throw cannotConvert(from, 'Timestamp');
  const text = nonEmptyString('Timestamp', 'string', from);
  const formats =
    format === undefined || format instanceof PDefault ? undefined : formatsArg('Timestamp', format);
  const zone = timezone === undefined ? undefined : nonEmptyString('Timestamp', 'timezone', timezone);
  return new PTimestamp(wrapTimeError(() => parseTimestampText(text, formats, zone)));
}

/** The errors Puppet's time parsing raises (Ruby's ArgumentError) are conversion errors here. */
function wrapTimeError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof EppEvalError && e.code === 'EPP_ARGUMENTS') throw conversionError(e.message);
    throw e;
  }
}

const TIMESPAN_FIELDS = [
  'days',
  'hours',
  'minutes',
  'seconds',
  'milliseconds',
  'microseconds',
  'nanoseconds',
];

/** `Timespan.from_fields`: days, hours, minutes, seconds, and the fractions, each an Integer. */
function timespanOfFields(values: readonly Value[], negative = false): PTimespan {
  let ns = 0n;
  values.forEach((v, i) => {
    if (v === undefined) return;
    if (!isInteger(v)) {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `Timespan.new() parameter '${TIMESPAN_FIELDS[i]}' expects an Integer value, got ${inferGenericType(v)}`,
      );
    }
    ns += bigOf(v) * TIMESPAN_FIELD_NANOS[i]!;
  });
  return new PTimespan(negative ? -ns : ns);
}

/**
 * `Timespan.new`: seconds, a text read with Puppet's formats (or those given), days, hours, minutes and
 * seconds (and their fractions), or a hash of either form.
 */
function toTimespan(args: Value[]): PTimespan {
  arity('Timespan', args, 1, 7);
  const [from, format] = args;
  if (args.length === 1 && (isInteger(from) || from instanceof PFloat))
    return new PTimespan(nanosOfSeconds(from));
  if (args.length === 1 && from instanceof Map) {
    if (from.has('string')) {
      const h = hashForm(from, ['string', 'format'], 'Timespan');
      const text = nonEmptyString('Timespan', 'string', h.get('string'));
      const f = h.get('format');
      const formats = f === undefined ? undefined : formatsArg('Timespan', f);
      return new PTimespan(wrapTimeError(() => parseTimespan(text, formats)));
    }
    const h = hashForm(from, ['negative', ...TIMESPAN_FIELDS], 'Timespan');
    const negative = h.get('negative');
    if (negative !== undefined && typeof negative !== 'boolean') throw cannotConvert(from, 'Timespan');
    return timespanOfFields(
      TIMESPAN_FIELDS.map((k) => h.get(k)),
      negative === true,
    );
  }
  if (typeof from === 'string' && args.length <= 2) {
    const text = nonEmptyString('Timespan', 'string', from);
    const formats = format === undefined ? undefined : formatsArg('Timespan', format);
    return new PTimespan(wrapTimeError(() => parseTimespan(text, formats)));
  }
  if (isInteger(from) && args.length >= 4) return timespanOfFields(args);
  if (args.length > 1 && isInteger(from)) arity('Timespan', args, 4, 7);
  throw cannotConvert(from, 'Timespan');
}

// ---------------------------------------------------------------------------------------------------
// The functions

function typeParam(fn: string, v: Value): PType {
  if (isPuppetType(v)) return v;
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    `'${fn}' parameter 'type' expects a Type value, got ${inferGenericType(v)}`,
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
