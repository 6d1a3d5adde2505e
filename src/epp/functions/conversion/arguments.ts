/**
 * What the conversions of `new` share: their errors in Puppet's wording (`'new_float' The string 'x' cannot be
 * converted to Float`), the check of the number of arguments, the hash form's arguments and the `abs` option.
 */
import { EppEvalError } from '../../errors.js';
import { inferGenericType } from '../../runtime/types.js';
import { float, integer, PFloat, type PInteger, type Value } from '../../runtime/values.js';

export function conversionError(message: string): EppEvalError {
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
export function cannotConvert(from: Value, target: string): EppEvalError {
  const name = NEW_FUNCTION_NAMES[target];
  const prefix = name === undefined ? '' : `'${name}' `;
  if (typeof from === 'string')
    return conversionError(`${prefix}The string '${from}' cannot be converted to ${target}`);
  return conversionError(`${prefix}Value of type ${inferGenericType(from)} cannot be converted to ${target}`);
}

/**
 * The function Puppet's `new` calls for a type, as its argument-count errors name it (checked against
 * Puppet 7.23: Regexp's is `new_float` and NotUndef's `new_unit`, as Puppet names them).
 */
const COUNTED_FUNCTION_NAMES: Readonly<Record<string, string>> = {
  ...NEW_FUNCTION_NAMES,
  Hash: 'new_hash',
  String: 'new_string',
  Sensitive: 'new_Sensitive',
  Regexp: 'new_float',
  Type: 'new_type',
  NotUndef: 'new_unit',
  Timestamp: 'new_timestamp',
  Timespan: 'new_timespan',
};

/** Puppet's error for an argument count no dispatch takes: `'new_array' expects between 1 and 2 arguments, got 3`. */
export function arity(target: string, args: readonly Value[], min: number, max: number): void {
  if (args.length >= min && args.length <= max) return;
  const noun = min === 1 && max === 1 ? 'argument' : 'arguments';
  const expects =
    min === max
      ? `${min} ${noun}`
      : min === 0
        ? `at most ${max} ${noun}`
        : `between ${min} and ${max} ${noun}`;
  const got = args.length === 0 ? 'none' : String(args.length);
  const name = COUNTED_FUNCTION_NAMES[target];
  const fn = name === undefined ? `${target}.new()` : `'${name}'`;
  throw new EppEvalError('EPP_ARGUMENTS', `${fn} expects ${expects}, got ${got}`);
}
/** The arguments of the hash form `T({from => x, ...})`, or undefined when the call is positional. */
export function namedArgs(
  args: readonly Value[],
  keys: readonly string[],
  target: string,
): Value[] | undefined {
  const h = args[0];
  if (args.length !== 1 || !(h instanceof Map) || !h.has('from')) return undefined;
  for (const k of h.keys()) {
    if (typeof k !== 'string' || !keys.includes(k)) throw cannotConvert(h, target);
  }
  return keys.map((k) => h.get(k));
}

/** The `abs` option of Integer/Float/Numeric: the absolute value when true. */
export function applyAbs(n: PInteger, abs: Value): PInteger;
export function applyAbs(n: PFloat, abs: Value): PFloat;
export function applyAbs(n: PInteger | PFloat, abs: Value): PInteger | PFloat;
export function applyAbs(n: PInteger | PFloat, abs: Value): PInteger | PFloat {
  if (abs !== undefined && typeof abs !== 'boolean') {
    throw new EppEvalError('EPP_ARGUMENTS', `'abs' expects a Boolean value, got ${inferGenericType(abs)}`);
  }
  if (abs !== true) return n;
  if (n instanceof PFloat) return float(Math.abs(n.value));
  if (typeof n === 'number') return Math.abs(n);
  return integer(n < 0n ? -n : n);
}
