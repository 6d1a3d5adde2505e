/**
 * stdlib's 3.x `range`: `range(1, 5)`, `range('a', 'e', 2)`, `range('1..4')`, `range('a...e')`. It builds a
 * Ruby Range and steps through it, so a start made of digits counts as an Integer and anything else as a
 * String, walked with Ruby's `String#upto` and `String#succ` (`'az'..'bc'` is az, ba, bb, bc).
 */
import { checkCollectionSize } from '../../runtime/size-limits.js';
import { bigOf, integer, type PInteger, type Value } from '../../runtime/values.js';
import { defineFunction, type FunctionDef } from '../registry.js';
import { rubyToS } from '../ruby-text.js';
import { noMethod, rubyError, rubyToI } from './ruby.js';

/** stdlib takes the first million values of the range. */
const MAX_VALUES = 1_000_000;

const ALNUM = /[A-Za-z0-9]/;

/** The character after `c` that `succ` gives, and whether it wrapped round (z to a, 9 to 0). */
function nextAlnum(c: string): [string, boolean] {
  if (c === 'z') return ['a', true];
  if (c === 'Z') return ['A', true];
  if (c === '9') return ['0', true];
  return [String.fromCharCode(c.charCodeAt(0) + 1), false];
}

/**
 * Ruby's `String#succ` for the strings ranges use: the rightmost letter or digit is incremented, carrying
 * into the letters and digits on its left, and a carry out of the leftmost adds a character (`'zz'` gives
 * `'aaa'`, `'a9'` gives `'b0'`). Without letters or digits the last character is incremented (a carry
 * out of a non-ASCII character is not followed: ranges of such strings are rare in templates).
 */
export function rubySucc(s: string): string {
  if (s === '') return '';
  checkCollectionSize(s.length, "the Array of a String's characters");
  const chars = s.split('');
  const positions = chars.flatMap((c, i) => (ALNUM.test(c) ? [i] : []));
  if (positions.length === 0) {
    chars[chars.length - 1] = String.fromCharCode(s.charCodeAt(s.length - 1) + 1);
    return chars.join('');
  }
  let carryAt = positions[positions.length - 1]!;
  for (let p = positions.length - 1; p >= 0; p--) {
    const i = positions[p]!;
    // Ruby carries across a separator only into the same kind: 'a.z' gives 'b.a', 'a-9' gives 'a-10'.
    if (i < carryAt - 1 && isDigit(chars[i]!) !== isDigit(chars[carryAt]!)) break;
    const [next, carry] = nextAlnum(chars[i]!);
    chars[i] = next;
    if (!carry) return chars.join('');
    carryAt = i;
  }
  chars.splice(carryAt, 0, chars[carryAt] === '0' ? '1' : chars[carryAt]!);
  return chars.join('');
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Ruby's `String#upto(stop, exclusive)`, limited to `limit` values. */
function stringUpto(start: string, stop: string, exclusive: boolean, limit: number): string[] {
  const out: string[] = [];
  if (start.length === 1 && stop.length === 1 && start < '\x80' && stop < '\x80') {
    // Two ASCII characters: every character between them.
    const from = start.charCodeAt(0);
    const to = stop.charCodeAt(0) - (exclusive ? 1 : 0);
    for (let c = from; c <= to && out.length < limit; c++) out.push(String.fromCharCode(c));
    return out;
  }
  const order = Buffer.compare(Buffer.from(start), Buffer.from(stop));
  if (order > 0 || (exclusive && order === 0)) return out;
  const afterEnd = rubySucc(stop);
  let current = start;
  while (current !== afterEnd && out.length < limit) {
    const next = exclusive || current !== stop ? rubySucc(current) : undefined;
    out.push(current);
    if (next === undefined) break;
    current = next;
    if (exclusive && current === stop) break;
    if (byteLength(current) > byteLength(stop) || current.length === 0) break;
  }
  return out;
}

function integerRange(start: PInteger, stop: PInteger, step: bigint, exclusive: boolean): PInteger[] {
  const out: PInteger[] = [];
  const last = bigOf(stop) - (exclusive ? 1n : 0n);
  for (let i = bigOf(start); i <= last && out.length < MAX_VALUES; i += step) out.push(integer(i));
  return out;
}

/** The one-argument form: `'1..4'`, `'a-e'`, `'1...4'`. */
function parseRangeText(value: Value): [string, string, string] {
  if (typeof value !== 'string') throw noMethod('match', value);
  const m = /^(\w+)(\.\.\.?|-)(\w+)$/m.exec(value);
  if (m) return [m[1]!, m[3]!, m[2]!];
  if (/^.+$/m.test(value)) throw rubyError(`range(): Unable to compute range from the value: ${value}`);
  throw rubyError(`range(): Unknown range format: ${value}`);
}

export const range: FunctionDef = defineFunction('range', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length === 0) throw rubyError('range(): Wrong number of arguments given (0 for 1)');
  let start: Value;
  let stop: Value;
  let kind = '..';
  let step = 1n;
  if (args.length > 1) {
    [start, stop] = args;
    if (args.length > 2) {
      const n = bigOf(rubyToI(args[2]));
      step = n < 0n ? -n : n;
    }
    if (step === 0n) {
      throw rubyError('range(): 3rd arg (step size) must be a non zero integer (e.g. 1 or -1)');
    }
  } else {
    [start, stop, kind] = parseRangeText(args[0]);
  }
  const exclusive = kind === '...';
  if (/^\d+$/m.test(rubyToS(start))) return integerRange(rubyToI(start), rubyToI(stop), step, exclusive);
  // Range#step on strings keeps every step-th value of String#upto.
  const every = Number(step);
  const values = stringUpto(rubyToS(start), rubyToS(stop), exclusive, MAX_VALUES * every);
  return values.filter((_v, i) => i % every === 0).slice(0, MAX_VALUES);
});
