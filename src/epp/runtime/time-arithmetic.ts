/**
 * Arithmetic with a Timestamp or a Timespan (Puppet's TimeData), as Puppet's evaluator and its
 * timestamp.rb / timespan.rb do it. Split from operators.ts.
 */
import { EppEvalError } from '../errors.js';
import {
  article,
  checkedInteger,
  divisionByZero,
  finiteFloat,
  notNumeric,
  numericFromString,
  OperandError,
  typeLabel,
} from './numbers.js';
import { floorDiv, floorMod, nanosOfSeconds, rubyFdiv, timeToInteger } from './time.js';
import {
  bigOf,
  isNumeric,
  PFloat,
  type PInteger,
  PTimeData,
  PTimespan,
  PTimestamp,
  type Value,
} from './values.js';

/** Puppet's `coerce_numeric` of an operand of TimeData arithmetic: a number, a numeric string, or TimeData. */
function timeOperand(v: Value, operand: 'left' | 'right'): PInteger | PFloat | PTimeData {
  if (isNumeric(v) || v instanceof PTimeData) return v;
  const n = typeof v === 'string' ? numericFromString(v) : undefined;
  if (n === undefined) {
    throw notNumeric(v, operand);
  }
  return n;
}

function notApplicableWhen(op: string, a: Value, b: Value): OperandError {
  const left = typeLabel(a);
  const right = typeLabel(b);
  return new OperandError(
    'EPP_OPERATOR',
    `Operator '${op}' is not applicable to ${article(left)} ${left} when right side is ${article(right)} ${right}.`,
    'left',
  );
}

/** An ArgumentError of Puppet's TimeData arithmetic: its evaluator words it as the whole expression's. */
function rubyError(message: string): OperandError {
  return new OperandError('EPP_OPERATOR', message, 'expression');
}

/** `a` or `an` and the kind of a TimeData (Ruby's `a_an`), capitalised for the start of a message. */
function aKind(t: PTimeData, capital = false): string {
  return `${capital ? 'A' : 'a'} ${t.kind}`;
}

/**
 * Arithmetic with a Timestamp or Timespan on either side, as Puppet's evaluator (`calculate`) and
 * timestamp.rb / timespan.rb do it: a Timestamp plus or minus seconds or a Timespan is a Timestamp, one
 * Timestamp minus another a Timespan; a Timespan adds, subtracts, multiplies and divides with numbers and
 * Timespans. Seconds become nanoseconds as `(seconds * NSECS_PER_SEC).to_i`.
 */
export function timeArithmetic(op: string, a0: Value, b0: Value): Value {
  let a = timeOperand(a0, 'left');
  let b = timeOperand(b0, 'right');
  if (op === '%' && (a instanceof PFloat || b instanceof PFloat)) {
    if (a instanceof PFloat)
      throw new OperandError('EPP_OPERATOR', `Operator '%' is not applicable to a Float.`, 'left');
    throw notApplicableWhen(op, a, b);
  }
  if (b instanceof PTimeData && !(a instanceof PTimeData)) {
    if (op === '+' || (op === '*' && b.kind === 'Timespan')) [a, b] = [b, a];
    else if (op === '-' && b.kind === 'Timespan') a = new PTimespan(nanosOfSeconds(a));
    else throw notApplicableWhen(op, a, b);
  }
  const t = a as PTimeData;
  const notApplicable = () =>
    new OperandError('EPP_OPERATOR', `Operator '${op}' is not applicable to ${aKind(t)}.`, 'left');
  const nanos = (o: PInteger | PFloat) => nanosOfSeconds(o);
  if (t instanceof PTimestamp) {
    if (op === '+') {
      if (b instanceof PTimespan) return new PTimestamp(t.nanos + b.nanos);
      if (b instanceof PTimeData) throw rubyError(`${aKind(b, true)} cannot be added to a Timestamp`);
      return new PTimestamp(t.nanos + nanos(b));
    }
    if (op === '-') {
      if (b instanceof PTimestamp) return new PTimespan(t.nanos - b.nanos);
      if (b instanceof PTimespan) return new PTimestamp(t.nanos - b.nanos);
      return new PTimestamp(t.nanos - nanos(b as PInteger | PFloat));
    }
    throw notApplicable();
  }
  switch (op) {
    case '+':
      if (b instanceof PTimestamp) return new PTimestamp(t.nanos + b.nanos);
      return new PTimespan(t.nanos + (b instanceof PTimeData ? b.nanos : nanos(b)));
    case '-':
      if (b instanceof PTimespan) return new PTimespan(t.nanos - b.nanos);
      if (b instanceof PTimeData) {
        throw rubyError(`${aKind(b, true)} cannot be subtracted from a Timespan`);
      }
      return new PTimespan(t.nanos - nanos(b));
    case '*':
      // Puppet's own words name a Timestamp here, whatever is multiplied.
      if (b instanceof PTimeData) throw rubyError(`A Timestamp cannot be multiplied by ${aKind(b)}`);
      if (b instanceof PFloat) {
        const product = Number(t.nanos) * b.value;
        if (!Number.isFinite(product))
          throw new EppEvalError('EPP_FLOAT_OVERFLOW', 'The result of the * expression is Infinity');
        return new PTimespan(BigInt(Math.trunc(product)));
      }
      return new PTimespan(t.nanos * bigOf(b));
    case '/':
      if (b instanceof PTimespan) return finiteFloat('/', rubyFdiv(t.nanos, b.nanos));
      if (b instanceof PTimeData) throw rubyError(`A Timespan cannot be divided by ${aKind(b)}`);
      if (b instanceof PFloat) {
        // Ruby's `Integer#div(Float)`: the quotient as a Float, rounded down.
        if (b.value === 0) throw divisionByZero();
        const q = Math.floor(Number(t.nanos) / b.value);
        if (!Number.isFinite(q))
          throw new EppEvalError('EPP_FLOAT_OVERFLOW', 'The result of the / expression is Infinity');
        return new PTimespan(BigInt(q));
      }
      if (bigOf(b) === 0n) throw divisionByZero();
      return new PTimespan(floorDiv(t.nanos, bigOf(b)));
    case '%':
      if (b instanceof PTimeData) {
        // Puppet's words, their article doubled (`a_an` already gives one).
        throw rubyError(`Can not do modulus on a Timespan using a ${aKind(b)}`);
      }
      if (bigOf(b as PInteger) === 0n) throw divisionByZero();
      return checkedInteger(floorMod(timeToInteger(t), bigOf(b as PInteger)));
    default:
      throw notApplicable();
  }
}
