/**
 * Numbers for Puppet's operators: the strings its arithmetic takes as numbers, the 64-bit Integer range,
 * and the errors of arithmetic, each placed where Puppet places it (`OperandError`).
 */
import { type EppErrorCode, EppEvalError } from '../errors.js';
import { rubyToS } from '../functions/ruby-text.js';
import { PType } from './types.js';
import {
  float,
  integer,
  MAX_INTEGER,
  MIN_INTEGER,
  PFloat,
  type PInteger,
  PIterator,
  PObject,
  PRegexp,
  PSemVer,
  PSemVerRange,
  PSensitive,
  PTimeData,
  type Value,
} from './values.js';

/**
 * An operator's error that Puppet places at one of its operands (`left`, `right`: where Puppet's parser
 * places that operand, see `puppetStart`), or that Puppet words as a Ruby error of the whole expression
 * (`expression`: `Error while evaluating a '+' expression, ...`, at the operator). The runtime places it
 * (see `OperatorRuntime.operatorError`); an operator's other errors are at its operator.
 */
export class OperandError extends EppEvalError {
  constructor(
    code: EppErrorCode,
    message: string,
    readonly operand: 'left' | 'right' | 'expression',
  ) {
    super(code, message);
  }
}

/** Puppet's error for an operand its arithmetic cannot take as a number (`coerce_numeric`), at the operand. */
export function notNumeric(v: Value, operand: 'left' | 'right'): OperandError {
  return new OperandError(
    'EPP_OPERATOR',
    `The value '${rubyToS(v)}' cannot be converted to Numeric.`,
    operand,
  );
}

/**
 * The Integer of an exact result, or Puppet's overflow error outside the 64-bit range: in Puppet's words
 * for an operator (`A '+' expression resulted in a value outside of Puppet Integer max range, got
 * '+0x8000000000000000'`), else in Pantograph's.
 */
export function checkedInteger(n: bigint, op?: string): PInteger {
  if (n > MAX_INTEGER || n < MIN_INTEGER) {
    const message =
      op === undefined
        ? `integer overflow: ${n} is outside the 64-bit Integer range`
        : `A '${op}' expression resulted in a value outside of Puppet Integer ${n > 0n ? 'max' : 'min'} range, got '${n > 0n ? '+' : '-'}0x${(n > 0n ? n : -n).toString(16)}'`;
    throw new EppEvalError('EPP_INTEGER_OVERFLOW', message);
  }
  return integer(n);
}

/**
 * Puppet's `Patterns::NUMERIC`, what its arithmetic (`Utils.to_n`) accepts as a number: blanks (a tab or
 * a Unicode space separator, Ruby's `[[:blank:]]`) around the sign and the number, a hexadecimal,
 * decimal or leading-zero (octal) integer, or a float with `.digits` and/or an exponent (`e` with an
 * optional `-` only). Groups: 1 sign, 2 the number, 3 hexadecimal, 4 the integer part, 5 the float part.
 */
const NUMBER_PATTERN =
  /^[\t\p{Zs}]*([-+]?)[\t\p{Zs}]*((0[xX][0-9A-Fa-f]+)|(0?[0-9]+)((?:\.[0-9]+)?(?:[eE]-?[0-9]+)?))[\t\p{Zs}]*$/u;

/**
 * Converts a numeric string the way Puppet's arithmetic does (`Utils.to_n`): `'0x10'` is 16, `'017'` 15,
 * `' 1.5'` a Float, a leading `::` is ignored. Undefined when it is no number: no match, an integer part
 * that Ruby's `Integer()` refuses (`'09'`, `'08.5'`), zero to a power (`'0e5'`, `'0.0e1'`), or a float
 * beyond the Float range.
 */
export function numericFromString(text: string): PInteger | PFloat | undefined {
  const m = NUMBER_PATTERN.exec(text.startsWith('::') ? text.slice(2) : text);
  if (!m) return undefined;
  const negative = m[1] === '-';
  if (m[3]) return integer(negative ? -BigInt(m[3]) : BigInt(m[3]));
  const digits = m[4]!;
  const octal = digits.length > 1 && digits.charCodeAt(0) === 48;
  if (octal && !/^[0-7]+$/.test(digits)) return undefined;
  if (m[5]) {
    if (/^0+$/.test(digits) && /^\.?0*[eE]/.test(m[5])) return undefined;
    const value = Number(m[2]);
    if (value === Number.POSITIVE_INFINITY) return undefined;
    return float(negative ? -value : value);
  }
  if (octal) return integer(negative ? -BigInt(`0o${digits}`) : BigInt(`0o${digits}`));
  // Up to 15 digits is always a safe integer: no bigint needed.
  if (digits.length <= 15) return integer(negative ? -Number(digits) : Number(digits));
  return integer(negative ? -BigInt(digits) : BigInt(digits));
}

/** A short Puppet-style description of a value's type, for operator errors. */
export function typeLabel(v: Value): string {
  if (v === undefined) return 'Undef';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number' || typeof v === 'bigint') return 'Integer';
  if (v instanceof PFloat) return 'Float';
  if (typeof v === 'boolean') return 'Boolean';
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Map) return 'Hash';
  if (v instanceof PRegexp) return 'Regexp';
  if (v instanceof PSensitive) return 'Sensitive';
  if (v instanceof PType) return 'Type';
  if (v instanceof PTimeData) return v.kind;
  // Puppet names an Iterator by its Ruby class's Puppet type: `Operator '[]' is not applicable to an Object.`
  if (v instanceof PIterator) return 'Object';
  // A value of a gem's class, by the class name capitalized as a type name.
  if (v instanceof PSemVer) return 'Semver';
  if (v instanceof PSemVerRange) return 'SemverRange';
  if (v instanceof PObject) return 'Object';
  return 'Default';
}

export function article(word: string): string {
  return /^[AEIOU]/.test(word) ? 'an' : 'a';
}

/** An Integer divided by 0 (`/` or `%`), in Puppet's words, at the divisor as Puppet places it. */
export function divisionByZero(): EppEvalError {
  return new OperandError('EPP_DIVISION_BY_ZERO', 'Division by 0', 'right');
}

/** A Float result, or Puppet's error when it overflowed to Infinity (Puppet has no infinite Float). */
export function finiteFloat(op: string, result: number): PFloat {
  if (result === Number.POSITIVE_INFINITY || result === Number.NEGATIVE_INFINITY) {
    throw new OperandError('EPP_FLOAT_OVERFLOW', `The result of the ${op} expression is Infinity`, 'left');
  }
  return float(result);
}
