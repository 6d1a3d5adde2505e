/**
 * The Ruby that stdlib's 3.x functions are written in, as far as their results and errors show it: Ruby's
 * `==` and the `eql?` of Array's set operations, `to_i`, `Array(x)`, class names, and the wording of the
 * errors Ruby raises when a method is missing or an argument is of the wrong class.
 */
import { EppEvalError } from '../../errors.js';
import { hashLookup, rubyClassName, rubyEql, setEql } from '../../runtime/compare.js';
import { integer, PFloat, type PInteger, type Value } from '../../runtime/values.js';
import { rubyInspect } from '../ruby-text.js';

/** Ruby's class name of a value as stdlib's messages print it (`Integer`, `String`, `TrueClass`). */
export const rubyClass = rubyClassName;

/** How Ruby names a value in "no implicit conversion of X into String": immediates by value, others by class. */
export function conversionName(v: Value): string {
  if (v === undefined) return 'nil';
  if (typeof v === 'boolean') return String(v);
  return rubyClass(v);
}

/** A 3.x function's own error (Puppet::ParseError, ArgumentError, TypeError): the message alone. */
export function rubyError(message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', message);
}

/** Ruby's NoMethodError: "undefined method `grep_v' for 1:Integer". */
export function noMethod(method: string, v: Value): EppEvalError {
  return rubyError(`undefined method \`${method}' for ${rubyInspect(v)}:${rubyClass(v)}`);
}

/** Ruby's TypeError where a String is required: "no implicit conversion of Integer into String". */
export function notAString(v: Value): EppEvalError {
  return rubyError(`no implicit conversion of ${conversionName(v)} into String`);
}

/** Ruby's `String#to_i`: the leading integer of the text (after blanks), 0 when there is none. */
export function stringToI(s: string): PInteger {
  const m = /^[\s]*([-+]?\d+(?:_\d+)*)/.exec(s);
  return m ? integer(BigInt(m[1]!.replace(/_/g, ''))) : 0;
}

/** Ruby's `to_i` of a value: Integers as they are, Floats truncated, Strings read; others have no `to_i`. */
export function rubyToI(v: Value): PInteger {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (v instanceof PFloat) {
    if (!Number.isFinite(v.value)) throw rubyError(`${v.value > 0 ? '' : '-'}Infinity`);
    return integer(Math.trunc(v.value));
  }
  if (typeof v === 'string') return stringToI(v);
  throw noMethod('to_i', v);
}

/** Whether Ruby takes the value as true in a condition: all but nil and false. */
export function rubyTruthy(v: Value): boolean {
  return v !== undefined && v !== false;
}

/** Ruby's `Kernel#Array`: an array as it is, a hash as its pairs, nil as nothing, anything else wrapped. */
export function rubyArray(v: Value): Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof Map) return [...v].map(([k, val]) => [k, val]);
  return v === undefined ? [] : [v];
}

function isNum(v: Value): v is number | bigint | PFloat {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PFloat;
}

/**
 * Ruby's `==`, which `Array#delete`, `Array#count` and `Hash#delete_if { val == x }` use: numbers by value
 * (`1 == 1.0`), strings case-sensitive, arrays and hashes deep, the rest as {@link rubyEql}.
 */
export function rubyEquals(a: Value, b: Value): boolean {
  if (isNum(a) && isNum(b)) {
    const x = a instanceof PFloat ? a.value : a;
    const y = b instanceof PFloat ? b.value : b;
    // JavaScript orders a number and a bigint exactly (a NaN is equal to nothing).
    return !(x < y || x > y || Number.isNaN(x) || Number.isNaN(y));
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => rubyEquals(x, b[i]));
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      const other = hashLookup(b, k);
      if (!other.found || !rubyEquals(v, other.value)) return false;
    }
    return true;
  }
  return rubyEql(a, b);
}

/** A set of values by Ruby's `eql?` (Array's `|`, `&`, `-` and `uniq` compare so: `1` is not `1.0`). */
export class EqlSet {
  private readonly primitives = new Set<Value>();
  private readonly objects: Value[] = [];

  constructor(items: Iterable<Value> = []) {
    for (const item of items) this.add(item);
  }

  has(v: Value): boolean {
    // Floats are interned, so they are found like numbers (0.0 and -0.0 aside, which eql? holds equal).
    if (typeof v !== 'object' || (v instanceof PFloat && v.value !== 0)) return this.primitives.has(v);
    return this.objects.some((o) => rubyEql(o, v));
  }

  /** Adds the value; false when it was there already. */
  add(v: Value): boolean {
    if (this.has(v)) return false;
    if (typeof v !== 'object' || (v instanceof PFloat && v.value !== 0)) this.primitives.add(v);
    else this.objects.push(v);
    return true;
  }
}

/** Ruby's `Array#uniq`: the first of each value by `eql?`. */
export function uniqEql(items: readonly Value[]): Value[] {
  const seen = new EqlSet();
  return items.filter((v) => seen.add(v));
}

/** Ruby's `Hash#[]=` while a hash is built (see runtime/compare.ts). */
export { setEql };

/** stdlib's `str2bool`, which `zip` calls on its third argument. */
export function str2bool(v: Value): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') throw rubyError('str2bool(): Requires string to work with');
  // Ruby's ^ and $ match at every line: any empty line makes the string false.
  if (/^$/m.test(v)) return false;
  if (/^(1|t|y|true|yes)$/im.test(v)) return true;
  if (/^(0|f|n|false|no)$/im.test(v) || /^(undef|undefined)$/m.test(v)) return false;
  throw rubyError('str2bool(): Unknown type of boolean given');
}
