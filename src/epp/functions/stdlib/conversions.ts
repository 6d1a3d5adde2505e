/**
 * stdlib's conversions between booleans, numbers and strings (bool2str, str2bool, bool2num, num2bool,
 * any2bool, to_bytes, convert_base), base64, and type_of. All but type_of are 3.x functions: they get
 * their arguments as `runtime3` converts them (undef as ''), check them themselves and fail with
 * `name(): ...` messages, and follow the Ruby methods they call (`Float()`, `String#to_f`, `Integer#to_s`).
 */
import { EppEvalError } from '../../errors.js';
import { inferType } from '../../runtime/types.js';
import { integer, isInteger, isNumeric, numberOf, type Value } from '../../runtime/values.js';
import { defineFunction, type FunctionDef } from '../registry.js';
import { rubyInspect } from '../ruby-text.js';
import { runtime3 } from '../runtime3.js';
import { notAString } from './ruby.js';
import { deprecatedAlias, parseError, someLineMatches } from './support.js';

// ---------------------------------------------------------------------------------------------------------
// Booleans

const bool2str = defineFunction('bool2str', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 1 && args.length !== 3) {
    throw parseError('bool2str', `Wrong number of arguments given (${args.length} for 3)`);
  }
  const [value, whenTrue, whenFalse] = args;
  // Ruby's `arguments[1] || 'true'`: only nil and false fall back.
  const trueText = whenTrue === undefined || whenTrue === false ? 'true' : whenTrue;
  const falseText = whenFalse === undefined || whenFalse === false ? 'false' : whenFalse;
  if (typeof value !== 'boolean') throw parseError('bool2str', 'Requires a boolean to work with');
  if (typeof trueText !== 'string' || typeof falseText !== 'string') {
    throw parseError('bool2str', 'Requires strings to convert to');
  }
  return value ? trueText : falseText;
});

/** stdlib's `str2bool`: Ruby's case over line-anchored patterns, in its order. */
function str2boolOf(v: Value): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') throw parseError('str2bool', 'Requires string to work with');
  if (someLineMatches(v, /^$/)) return false;
  if (someLineMatches(v, /^(1|t|y|true|yes)$/i)) return true;
  if (someLineMatches(v, /^(0|f|n|false|no)$/i)) return false;
  if (someLineMatches(v, /^(undef|undefined)$/)) return false;
  throw parseError('str2bool', 'Unknown type of boolean given');
}

const str2bool = defineFunction('str2bool', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length === 0) throw parseError('str2bool', 'Wrong number of arguments given (0 for 1)');
  return str2boolOf(args[0]);
});

const bool2num = defineFunction('bool2num', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length === 0) throw parseError('bool2num', 'Wrong number of arguments given (0 for 1)');
  return str2boolOf(args[0]) ? 1 : 0;
});

const RUBY_SPACE = '[ \\t\\n\\v\\f\\r]*';
const DECIMAL_FLOAT = new RegExp(
  `^${RUBY_SPACE}[+-]?(?:\\d+(?:_\\d+)*)?(?:\\.\\d+(?:_\\d+)*)?(?:[eE][+-]?\\d+(?:_\\d+)*)?${RUBY_SPACE}$`,
);
const HEX_FLOAT = new RegExp(
  `^${RUBY_SPACE}([+-]?)0[xX]([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)(?:[pP]([+-]?\\d+))?${RUBY_SPACE}$`,
);

/** Ruby's `Float(string)`: a decimal (digits before a `.` required after it), or hex; else undefined. */
export function rubyFloat(s: string): number | undefined {
  const hex = HEX_FLOAT.exec(s);
  if (hex) {
    const mantissa = Number.parseInt(hex[2]!.replaceAll('_', ''), 16);
    const value = mantissa * 2 ** Number(hex[3] ?? 0);
    return hex[1] === '-' ? -value : value;
  }
  if (!DECIMAL_FLOAT.test(s) || !/\d/.test(s.replace(/[eE].*/, ''))) return undefined;
  return Number(s.trim().replaceAll('_', ''));
}

/** Ruby's `Float#to_i`; Infinity has no Integer (Ruby's FloatDomainError). */
function truncate(fn: string, x: number): number | bigint {
  if (!Number.isFinite(x)) throw parseError(fn, x > 0 ? 'Infinity' : '-Infinity');
  return integer(BigInt(Math.trunc(x)));
}

function num2boolOf(v: Value): boolean {
  // Ruby's `to_i.positive?`: a Float counts from 1.
  if (isNumeric(v)) return isInteger(v) ? v > 0 : numberOf(v) >= 1;
  if (typeof v === 'string') {
    const f = rubyFloat(v);
    if (f === undefined) {
      throw parseError(
        'num2bool',
        `'${v}' does not look like a number: invalid value for Float(): ${rubyInspect(v)}`,
      );
    }
    return truncate('num2bool', f) > 0;
  }
  // Anything else goes through Ruby's `to_s.to_i`: booleans, collections, types and `default` print as
  // text that starts with no digit, so they count as 0.
  return false;
}

const num2bool = defineFunction('num2bool', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 1) {
    throw parseError('num2bool', `Wrong number of arguments given (${args.length} for 1)`);
  }
  return num2boolOf(args[0]);
});

const any2bool = defineFunction('any2bool', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length === 0) throw parseError('any2bool', 'Wrong number of arguments given (0 for 1)');
  const [arg] = args;
  // (stdlib's `return false if arg.nil?` never holds: undef arrives as '', which str2bool makes false.)
  if (typeof arg === 'boolean') return arg;
  if (isNumeric(arg)) return num2boolOf(arg);
  if (typeof arg === 'string') return rubyFloat(arg) === undefined ? str2boolOf(arg) : num2boolOf(arg);
  return true;
});

// ---------------------------------------------------------------------------------------------------------
// Numbers

/** Ruby's `String#to_f`: the longest leading decimal number, else 0. */
function rubyToF(s: string): number {
  const m = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(s);
  return m ? Number(m[0]) : 0;
}

const BYTE_PREFIXES: Readonly<Record<string, number>> = { '': 0, k: 10, M: 20, G: 30, T: 40, P: 50, E: 60 };

const toBytes = defineFunction('to_bytes', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 1) {
    throw parseError('to_bytes', `Wrong number of arguments given (${args.length} for 1)`);
  }
  const [arg] = args;
  if (isNumeric(arg)) return arg;
  if (typeof arg !== 'string') {
    throw notAString(arg);
  }
  // stdlib's unanchored /([0-9.e+-]*)\s*([^bB]?)/ always matches at the start.
  const [, number = '', prefix = ''] = /^([0-9.e+-]*)[ \t\n\v\f\r]*([^bB]?)/u.exec(arg) ?? [];
  const shift = BYTE_PREFIXES[prefix];
  if (shift === undefined) throw parseError('to_bytes', `Unknown prefix ${prefix}`);
  return truncate('to_bytes', rubyToF(number) * 2 ** shift);
});

const BASE10_DIGITS = /^[0-9]+$/;

/** Ruby's `String#to_i`: the leading integer (after whitespace, `_` between digits), else 0. */
function rubyToI(s: string): bigint {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+(?:_\d+)*)/.exec(s);
  return m ? BigInt(m[1]!.replaceAll('_', '')) : 0n;
}

/** A base-10 argument of convert_base, an Integer or a String, as an integer. */
function base10Arg(v: Value): bigint {
  return isInteger(v) ? BigInt(v) : rubyToI(v as string);
}

// Declared with `arity: 2`: Puppet words a wrong count as the function's own error.
// Its Ruby declares an arity of 2: Puppet counts, in Ruby's words.
const convertBase = defineFunction('convert_base', 2, 2, (_ctx, args) => {
  const [number, base] = args;
  if (!isInteger(number) && typeof number !== 'string') {
    throw parseError('convert_base', 'First argument must be either a string or an integer');
  }
  if (!isInteger(base) && typeof base !== 'string') {
    throw parseError('convert_base', 'Second argument must be either a string or an integer');
  }
  // stdlib words both checks as the first argument's.
  for (const arg of [number, base]) {
    if (typeof arg === 'string' && !someLineMatches(arg, BASE10_DIGITS)) {
      throw parseError(
        'convert_base',
        'First argument must be an integer or a string corresponding to an integer in base 10',
      );
    }
  }
  const radix = base10Arg(base);
  if (radix < 2n || radix > 36n) {
    throw parseError('convert_base', 'base must be at least 2 and must not be greater than 36');
  }
  return base10Arg(number).toString(Number(radix));
});

// ---------------------------------------------------------------------------------------------------------
// base64

/** Ruby's base64 alphabet: the value of each character, -1 for others. */
const BASE64_VALUE = new Map<string, number>(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]),
);

/** Ruby's `unpack('m')` (Base64.decode64): skips characters outside the alphabet, stops at a `=`. */
function lenientDecode(text: string): Uint8Array {
  const out: number[] = [];
  const quantum: number[] = [];
  for (const c of text) {
    const v = BASE64_VALUE.get(c);
    if (v === undefined) {
      if (c === '=' && quantum.length >= 2) break;
      continue;
    }
    quantum.push(v);
    if (quantum.length === 4) {
      const [a, b, d, e] = quantum as [number, number, number, number];
      out.push(((a << 2) | (b >> 4)) & 255, ((b << 4) | (d >> 2)) & 255, ((d << 6) | e) & 255);
      quantum.length = 0;
    }
  }
  const [a, b, d] = quantum;
  if (a !== undefined && b !== undefined) {
    out.push(((a << 2) | (b >> 4)) & 255);
    if (d !== undefined) out.push(((b << 4) | (d >> 2)) & 255);
  }
  return Uint8Array.from(out);
}

/** Ruby's `unpack('m0')` (Base64.strict_decode64): padded, nothing else, unused bits zero. */
function strictDecode(text: string): Uint8Array {
  const valid = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;
  // Ruby's ArgumentError, without the function's name.
  if (!valid.test(text)) throw new EppEvalError('EPP_ARGUMENTS', 'invalid base64');
  return lenientDecode(text);
}

/** Ruby's `Base64.urlsafe_decode64`: padding added when missing, then `-_` read as `+/`, strictly. */
function urlsafeDecode(text: string): Uint8Array {
  const padded =
    !text.endsWith('=') && text.length % 4 !== 0 ? text.padEnd((text.length + 3) & ~3, '=') : text;
  return strictDecode(padded.replaceAll('-', '+').replaceAll('_', '/'));
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Ruby's `Base64.encode64`: a newline after every 60 characters and at the end. */
function mimeEncode(bytes: Uint8Array): string {
  const text = bytesToBase64(bytes);
  return text === '' ? '' : `${text.replace(/.{60}/g, '$&\n').replace(/\n$/, '')}\n`;
}

const BASE64_METHODS = ['default', 'strict', 'urlsafe'];

const base64 = defineFunction('base64', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length < 2) throw parseError('base64', `Wrong number of arguments (${args.length}; must be >= 2)`);
  const [action, text, method = 'default'] = args;
  if (action !== 'encode' && action !== 'decode') {
    throw parseError('base64', "the first argument must be one of 'encode' or 'decode'");
  }
  if (typeof text !== 'string') throw parseError('base64', 'the second argument must be a string to base64');
  if (typeof method !== 'string' || !BASE64_METHODS.includes(method)) {
    throw parseError('base64', "the third argument must be one of 'default', 'strict', or 'urlsafe'");
  }
  if (action === 'encode') {
    const bytes = new TextEncoder().encode(text);
    if (method === 'default') return mimeEncode(bytes);
    const strict = bytesToBase64(bytes);
    return method === 'strict' ? strict : strict.replaceAll('+', '-').replaceAll('/', '_');
  }
  const decode = method === 'default' ? lenientDecode : method === 'strict' ? strictDecode : urlsafeDecode;
  // Ruby returns the bytes; a Pantograph string holds text, so bytes that are not UTF-8 become U+FFFD.
  return new TextDecoder().decode(decode(text));
});

// ---------------------------------------------------------------------------------------------------------
// type_of

const stdlibTypeOf = defineFunction('stdlib::type_of', 1, 1, (_ctx, [value]) => inferType(value));

export const stdlibConversionFunctions: FunctionDef[] = [
  ...[bool2str, str2bool, bool2num, num2bool, any2bool, toBytes, convertBase, base64].map(runtime3),
  stdlibTypeOf,
  deprecatedAlias(stdlibTypeOf),
];
