/**
 * Ruby's Kernel#format arguments: Puppet values after Puppet's 3.x function conversion, and Ruby's
 * `Integer(x)` / `Float(x)` as the directives apply them.
 */

import { timeToFloat, timeToInteger } from '../time.js';
import {
  integer,
  PFloat,
  type PHash,
  type PInteger,
  PRegexp,
  PSemVer,
  PSemVerRange,
  PSensitive,
  PTimeData,
  type Value,
} from '../values.js';
import { formatFloat } from './floats.js';
import { regexpWithDelimiters, rubyInspectString } from './inspect.js';
import { formatError, type RubyArg } from './sprintf-spec.js';
import { timeDataToString } from './timestamps.js';

/** Ruby's `Integer(x)` as `%d` applies it. */
export function toRubyInteger(v: RubyArg): PInteger {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  // A Timestamp or Timespan is a Ruby Numeric: its `to_int`, the whole seconds.
  if (v instanceof PTimeData) return integer(timeToInteger(v));
  if (v instanceof PFloat) {
    const x = v.value;
    if (!Number.isFinite(x)) throw formatError(`${formatFloat(x)} cannot be converted to an Integer`);
    return integer(Math.trunc(x));
  }
  if (typeof v === 'string') {
    const parsed = parseRubyInteger(v);
    if (parsed === undefined) throw formatError(`invalid value for Integer(): ${rubyInspectString(v)}`);
    return parsed;
  }
  throw formatError(`can't convert ${rubyClassName(v)} into Integer`);
}

function parseRubyInteger(text: string): PInteger | undefined {
  const m =
    /^\s*([-+]?)(0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*|0[bB][01]+(?:_[01]+)*|0[oO]?[0-7]+(?:_[0-7]+)*|[1-9]\d*(?:_\d+)*|0)\s*$/.exec(
      text,
    );
  if (!m) return undefined;
  let body = m[2]!.replace(/_/g, '');
  if (/^0[0-7]/.test(body)) body = `0o${body.slice(1)}`;
  else if (/^0[oO]/.test(body)) body = `0o${body.slice(2)}`;
  const n = BigInt(body);
  return integer(m[1] === '-' ? -n : n);
}

/** Ruby's `Float(x)` as `%f` applies it. */
export function toRubyFloat(v: RubyArg): number {
  if (v instanceof PFloat) return v.value;
  if (v instanceof PTimeData) return timeToFloat(v);
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    const t = v.trim();
    // Ruby's Float() takes a fraction without an integer part (`.5`), not one without digits after `.`.
    if (/^[-+]?(?:\d+(?:_\d+)*(?:\.\d+(?:_\d+)*)?|\.\d+(?:_\d+)*)(?:[eE][-+]?\d+)?$/.test(t)) {
      return Number(t.replace(/_/g, ''));
    }
    const int = parseRubyInteger(t);
    if (int !== undefined && /^[-+]?0[xX]/.test(t)) return Number(int);
    throw formatError(`invalid value for Float(): ${rubyInspectString(v)}`);
  }
  throw formatError(`can't convert ${rubyClassName(v)} into Float`);
}

function rubyClassName(v: RubyArg): string {
  if (v === undefined) return 'nil';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return 'Array';
  if (v instanceof Map) return 'Hash';
  if (v instanceof PSensitive) return 'Puppet::Pops::Types::PSensitiveType::Sensitive';
  return 'Object';
}

/**
 * Puppet's conversion of the arguments of a 3.x function: a top-level undef becomes '', regexps,
 * Timestamps and Timespans their text, at any depth.
 */
export function toRubyArgs(args: readonly Value[]): RubyArg[] {
  // One set of copies for all the arguments: `f(*$list)` may pass one array many times.
  let copies: Map<object, RubyArg> | undefined;
  return args.map((v) => {
    if (v === undefined) return '';
    if (!Array.isArray(v) && !(v instanceof Map)) return convertScalar(v);
    copies ??= new Map();
    return convertNested(v, copies);
  });
}

function convertScalar(v: Value): RubyArg {
  if (v instanceof PRegexp) return regexpWithDelimiters(v);
  if (v instanceof PTimeData) return timeDataToString(v);
  // Versions and ranges reach Ruby's format as their texts (`sprintf('%p', SemVer('1.0.0'))` is `"1.0.0"`).
  if (v instanceof PSemVer || v instanceof PSemVerRange) return v.toString();
  return v;
}

/**
 * A copy of an array or hash with its elements converted. An array or hash met again (values share them)
 * is converted once and shared again: a copy path by path would be many times the value's size.
 */
function convertNested(v: Value, copies: Map<object, RubyArg>): RubyArg {
  if (!Array.isArray(v) && !(v instanceof Map)) return convertScalar(v);
  const done = copies.get(v);
  if (done !== undefined) return done;
  let copy: RubyArg;
  if (Array.isArray(v)) {
    copy = v.map((e) => convertNested(e, copies));
  } else {
    const out: PHash = new Map();
    for (const [k, val] of v) out.set(convertNested(k, copies) as Value, convertNested(val, copies) as Value);
    copy = out;
  }
  copies.set(v, copy);
  return copy;
}
