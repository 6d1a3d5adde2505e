/** `new` of Integer, Float, Numeric and Boolean: Puppet's convertible texts, radixes and words. */
import { EppEvalError } from '../../errors.js';
import { formatFloat, rubyInspectString } from '../../runtime/format.js';
import { timeToFloat, timeToInteger } from '../../runtime/time.js';
import { describeMismatch, inferType } from '../../runtime/types.js';
import {
  float,
  integer,
  isInteger,
  PDefault,
  PFloat,
  type PInteger,
  PTimeData,
  type Value,
} from '../../runtime/values.js';
import { noMatchingSignature, puppetType } from '../arguments.js';
import { applyAbs, arity, cannotConvert, conversionError, namedArgs } from './arguments.js';

/** Puppet's Convertible string for Integer: decimal or octal digits, hex or binary, optional sign. */
const INTEGER_TEXT = /^[+-]?\s*(?:\d+|0[xX][0-9A-Fa-f]+|0[bB][01]+)$/;
const FLOAT_TEXT =
  /^[+-]?\s*(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?|0[xX][0-9A-Fa-f]+|0[0-7]+|0[bB][01]+)$/;
const SIGN_THEN_BLANKS = /^([+-])[ \t]+(.*)$/s;

export function toInteger(args: Value[]): PInteger {
  const named = namedArgs(args, ['from', 'radix', 'abs'], 'Integer');
  if (!named) arity('Integer', args, 1, 3);
  if (!named) checkIntegerArguments(args);
  // Puppet's `on_error_hash`: a hash form's `from` that is no Convertible is said before its radix.
  if (named && !isIntegerConvertible(named[0])) throw cannotConvert(named[0], 'Integer');
  const [from, radixArg = DEFAULT_RADIX, abs] = named ?? args;
  const radix = radixOf(radixArg);
  // Then its assertion of the whole hash, which only `abs` can fail now.
  if (named && abs !== undefined && typeof abs !== 'boolean') {
    const subject = "Integer.new has wrong type, entry 'abs'";
    throw new EppEvalError('EPP_ARGUMENTS', describeMismatch(puppetType('Boolean'), abs, subject));
  }
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

/** Puppet's `Convertible` of Integer's `new`: a number, a Boolean, an Integer's text, a time. */
function isIntegerConvertible(v: Value): boolean {
  return fitsNamedArgs([v], INTEGER_TEXT);
}

const DEFAULT_RADIX = new PDefault();

const CONVERTIBLE =
  'Convertible = Variant[Numeric, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:\\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\\z/], Timespan, Timestamp]';
const RADIX = 'Radix = Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]]';
/** Integer's `new` dispatches, as Puppet lists them. */
const POSITIONAL = `(${CONVERTIBLE} from, ${RADIX} radix?, Boolean abs?)`;
const NAMED = `(NamedArgs = Struct[{'from' => ${CONVERTIBLE}, Optional['radix'] => ${RADIX}, Optional['abs'] => Boolean}] hash_args)`;

/**
 * A radix that is no Integer nor `default` (undef too), or an `abs` that is no Boolean: no dispatch of
 * Puppet's Integer `new` takes the arguments, and it lists both (an Integer radix it does not know is
 * `radixOf`'s "Illegal radix", raised once a dispatch took it).
 */
function checkIntegerArguments(args: readonly Value[]): void {
  let why: string | undefined;
  const radix = args[1];
  if (args.length >= 2 && !(radix instanceof PDefault) && !isInteger(radix)) {
    why = `parameter 'radix' expects a ${RADIX} value, got ${inferType(radix).name}`;
  } else if (args.length === 3 && typeof args[2] !== 'boolean') {
    why = describeMismatch(puppetType('Boolean'), args[2], "parameter 'abs'");
  }
  if (why === undefined) return;
  throw noMatchingSignature('new', [
    [POSITIONAL, why],
    [NAMED, `expects 1 argument, got ${args.length}`],
  ]);
}

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

/** The text pattern of Float's and Numeric's `Convertible`, as Puppet prints it. */
const FLOAT_PATTERN =
  'Pattern[/\\A[+-]?\\s*(?:(?:(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE]-?\\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\\z/]';
const CONVERTIBLE_TO: Readonly<Record<'new_float' | 'new_numeric', string>> = {
  new_float: `Convertible = Variant[Numeric, Boolean, ${FLOAT_PATTERN}, Timespan, Timestamp]`,
  new_numeric: `Convertible = Variant[Integer, Float, Boolean, ${FLOAT_PATTERN}, Timespan, Timestamp]`,
};

/**
 * An `abs` that is no Boolean given to Float's or Numeric's `new`: no dispatch takes the arguments, and
 * Puppet lists both (as Integer's, above).
 */
function checkAbsArgument(fn: 'new_float' | 'new_numeric', args: readonly Value[]): void {
  if (args.length !== 2 || typeof args[1] === 'boolean') return;
  const convertible = CONVERTIBLE_TO[fn];
  throw noMatchingSignature(fn, [
    [
      `(${convertible} from, Boolean abs?)`,
      describeMismatch(puppetType('Boolean'), args[1], "parameter 'abs'"),
    ],
    [
      `(NamedArgs = Struct[{'from' => ${convertible}, Optional['abs'] => Boolean}] hash_args)`,
      'expects 1 argument, got 2',
    ],
  ]);
}

/**
 * Whether a hash form's `from` and `abs` fit Float's and Numeric's `NamedArgs`; Puppet's `on_error` names
 * the whole hash by its type when they do not (`Value of type Hash[String, String] cannot be converted`).
 */
function fitsNamedArgs([from, abs]: readonly Value[], text: RegExp): boolean {
  const convertible =
    typeof from === 'string'
      ? text.test(from)
      : isInteger(from) || from instanceof PFloat || typeof from === 'boolean' || from instanceof PTimeData;
  return convertible && (abs === undefined || typeof abs === 'boolean');
}

export function toFloat(args: Value[]): PFloat {
  const named = namedArgs(args, ['from', 'abs'], 'Float');
  if (!named) arity('Float', args, 1, 2);
  if (!named) checkAbsArgument('new_float', args);
  if (named && !fitsNamedArgs(named, FLOAT_TEXT)) throw cannotConvert(args[0], 'Float');
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

export function toNumeric(args: Value[]): PInteger | PFloat {
  const named = namedArgs(args, ['from', 'abs'], 'Numeric');
  if (!named) arity('Numeric', args, 1, 2);
  if (!named) checkAbsArgument('new_numeric', args);
  if (named && !fitsNamedArgs(named, FLOAT_TEXT)) throw cannotConvert(args[0], 'Numeric');
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

export function toBoolean(args: Value[]): boolean {
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
