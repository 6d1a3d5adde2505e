/**
 * puppetlabs-stdlib's parsers of data in strings, as stdlib 9.7.0 runs them on Puppet 7: `parsejson` (3.x
 * API: Ruby's `JSON.parse` of json 2.6, through Puppet::Util::Json) and `parsepson` (Puppet 7's vendored
 * pure-Ruby PSON parser). Each returns its optional default where parsing fails, as stdlib does.
 */
import { EppEvalError } from '../../errors.js';
import { rubyClassName } from '../../runtime/compare.js';
import { regexpWithDelimiters } from '../../runtime/format.js';
import { float, integer, type PHash, PRegexp, type Value } from '../../runtime/values.js';
import { argumentMismatch, puppetType } from '../arguments.js';
import { defineFunction, type FunctionDef } from '../registry.js';
import { runtime3 } from '../runtime3.js';

/** A parser's refusal of its input: the default replaces it, or it is the function's error. */
class ParseFailure extends Error {}

/** What a parser's value rule answers when no value starts here (its caller words the error). */
const NO_VALUE: unique symbol = Symbol('no value');
type Parsed = Value | typeof NO_VALUE;

/** The scalar forms of JSON: integers (`-0` is 0), floats (with a fraction or an exponent), literals. */
const JSON_FLOAT = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)(?![0-9Ee.-])/y;
const JSON_INTEGER = /-?(?:0|[1-9][0-9]*)(?![0-9])/y;
/** A string: no raw control character; a backslash before anything but a control (`\x` is `x`). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the grammar refuses
const JSON_STRING = /"((?:[^"\\\x00-\x1f]|\\u[0-9a-fA-F]{4}|\\[^u\x00-\x1f])*)"/y;

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** An Integer from its decimal text (a bigint beyond the safe range, as Ruby's Integer grows). */
function integerOf(text: string): Value {
  const n = Number(text);
  return Number.isSafeInteger(n) ? integer(n) : integer(BigInt(text));
}

/**
 * Ruby's `JSON.parse` of json 2.6.1 (the C extension's grammar): any value at the top, `/* *\/` and
 * `//` comments (ended by a newline) where whitespace may be, no NaN or Infinity, any escaped character
 * accepted, and its errors' texts (`859: unexpected token at '{bad'`: the numbers are the lines of the
 * extension's source that raise them).
 */
class RubyJsonParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  document(): Value {
    this.skipIgnored(859);
    const start = this.pos;
    const value = this.value();
    if (value === NO_VALUE) throw this.error(859, start);
    this.skipIgnored(859);
    if (this.pos < this.text.length) throw this.error(859, this.pos);
    return value;
  }

  private error(line: number, at: number, what = 'unexpected token'): ParseFailure {
    return new ParseFailure(`${line}: ${what} at '${this.text.slice(at)}'`);
  }

  /** Whitespace and comments; an unfinished comment is an error at the end of the text. */
  private skipIgnored(line: number): void {
    const t = this.text;
    for (;;) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') this.pos++;
      else if (c === '/' && t[this.pos + 1] === '*') {
        const end = t.indexOf('*/', this.pos + 2);
        if (end < 0) throw this.error(line, t.length);
        this.pos = end + 2;
      } else if (c === '/' && t[this.pos + 1] === '/') {
        const end = t.slice(this.pos).search(/[\n\r]/);
        if (end < 0) throw this.error(line, t.length);
        this.pos += end + 1;
      } else if (c === '/') throw this.error(line, this.pos + 1);
      else return;
    }
  }

  private value(): Parsed {
    const t = this.text;
    const c = t[this.pos];
    if (c === '"') return this.string();
    if (c === '[') return this.array();
    if (c === '{') return this.object();
    for (const [word, value] of [
      ['null', undefined],
      ['true', true],
      ['false', false],
    ] as const) {
      if (t.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    if (t.startsWith('NaN', this.pos)) throw this.error(225, this.pos);
    if (t.startsWith('Infinity', this.pos)) throw this.error(232, this.pos);
    if (t.startsWith('-Infinity', this.pos)) throw this.error(249, this.pos);
    return this.number();
  }

  private number(): Parsed {
    for (const [re, make] of [
      [JSON_FLOAT, (s: string) => float(Number(s))],
      [JSON_INTEGER, integerOf],
    ] as const) {
      re.lastIndex = this.pos;
      const m = re.exec(this.text);
      if (m) {
        this.pos = re.lastIndex;
        return make(m[0]);
      }
    }
    return NO_VALUE;
  }

  private string(): Parsed {
    JSON_STRING.lastIndex = this.pos;
    const m = JSON_STRING.exec(this.text);
    if (!m) return NO_VALUE;
    const bodyStart = this.pos + 1;
    this.pos = JSON_STRING.lastIndex;
    return this.unescape(m[1]!, bodyStart);
  }

  /** A string's body with its escapes read; a `\\u` of a high surrogate needs its low one next. */
  private unescape(body: string, offset: number): string {
    if (!body.includes('\\')) return body;
    let out = '';
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const escaped = body[++i]!;
      if (escaped !== 'u') {
        out += SIMPLE_ESCAPES[escaped] ?? escaped;
        continue;
      }
      const at = offset + i - 1;
      const unit = Number.parseInt(body.slice(i + 1, i + 5), 16);
      i += 4;
      if (unit < 0xd800 || unit > 0xdbff) {
        out += String.fromCharCode(unit);
        continue;
      }
      const low = body.startsWith('\\u', i + 1) ? Number.parseInt(body.slice(i + 3, i + 7), 16) : -1;
      if (low < 0xdc00 || low > 0xdfff) throw this.error(521, at, 'incomplete surrogate pair');
      out += String.fromCharCode(unit, low);
      i += 6;
    }
    return out;
  }

  /** An array reports its own errors, at the token it did not expect (451). */
  private array(): Value[] {
    this.pos++;
    const out: Value[] = [];
    this.skipIgnored(451);
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      const start = this.pos;
      const value = this.value();
      if (value === NO_VALUE) throw this.error(451, start);
      out.push(value);
      this.skipIgnored(451);
      const c = this.text[this.pos];
      this.pos++;
      if (c === ']') return out;
      if (c !== ',') throw this.error(451, this.pos - 1);
      this.skipIgnored(451);
    }
  }

  /** An object that does not parse is no value: its caller reports it from its `{`. */
  private object(): Parsed {
    const start = this.pos;
    this.pos++;
    const out: PHash = new Map();
    this.skipIgnored(859);
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      const key = this.text[this.pos] === '"' ? this.string() : NO_VALUE;
      if (key === NO_VALUE) return this.rewind(start);
      this.skipIgnored(859);
      if (this.text[this.pos] !== ':') return this.rewind(start);
      this.pos++;
      this.skipIgnored(859);
      const value = this.value();
      if (value === NO_VALUE) return this.rewind(start);
      out.set(key, value);
      this.skipIgnored(859);
      const c = this.text[this.pos];
      this.pos++;
      if (c === '}') return out;
      if (c !== ',') return this.rewind(start);
      this.skipIgnored(859);
    }
  }

  private rewind(start: number): typeof NO_VALUE {
    this.pos = start;
    return NO_VALUE;
  }
}

/** Ruby's truthiness: all but nil and false. */
const rubyTruthy = (v: Value): boolean => v !== undefined && v !== false;

/**
 * An argument of a 3.x function as Puppet hands it over: undef becomes the empty string (a truthy value in
 * Ruby: `parsejson('{x', undef)` returns ''), and a regexp the string of its Puppet form.
 */
function runtime3Argument(v: Value): Value {
  if (v === undefined) return '';
  return v instanceof PRegexp ? regexpWithDelimiters(v) : v;
}

/** Ruby's TypeError for a value that is no String where Ruby needs one. */
function notAString(v: Value): ParseFailure {
  const name = v === undefined ? 'nil' : v === true ? 'true' : v === false ? 'false' : rubyClassName(v);
  return new ParseFailure(`no implicit conversion of ${name} into String`);
}

const parsejson = defineFunction('parsejson', 0, Number.POSITIVE_INFINITY, (_ctx, rawArgs) => {
  const args = rawArgs.map(runtime3Argument);
  if (args.length < 1) {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      'Wrong number of arguments. 1 or 2 arguments should be provided.',
    );
  }
  const [text, fallback] = args;
  try {
    if (typeof text !== 'string') throw notAString(text);
    // `JSON.parse(...) || default`: JSON's null and false give the default too (undef without one).
    const value = new RubyJsonParser(text).document();
    return rubyTruthy(value) ? value : fallback;
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    if (fallback !== undefined && rubyTruthy(fallback)) return fallback;
    throw new EppEvalError('EPP_ARGUMENTS', e.message);
  }
});

// ---------------------------------------------------------------------------------------------------------
// parsepson

const PSON_IGNORE = /(?:\/\/[^\n\r]*[\n\r]|\/\*(?:[^*/]|\/[^*]|\*[^/]|\/(?=\*\/))*\*\/|[ \t\r\n]+)+/y;
const PSON_FLOAT = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+[eE][+-]?[0-9]+|\.[0-9]+|[eE][+-]?[0-9]+)/y;
const PSON_INTEGER = /-?0|-?[1-9][0-9]*/y;
/**
 * A string: a backslash before any printable character (`\u` with 4 hex digits or without). The parser's
 * alternatives overlap; these accept the same strings without overlapping (overlapping ones backtrack
 * exponentially on an unterminated string of escapes).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the grammar refuses
const PSON_STRING = /"((?:[^\x00-\x1f"\\]|\\u[0-9a-fA-F]{4}|\\u(?![0-9a-fA-F]{4})|\\[^\x00-\x1fu])*)"/y;

/**
 * Puppet 7's PSON parser (puppet/external/pson/pure/parser.rb, a StringScanner), as `PSON.load` runs it:
 * an object or an array at the top, NaN and Infinity allowed, comments, no nesting limit; an array or
 * object still open at the end of the text ends there without an error, as that parser's loops do.
 */
class PsonParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  document(): Value {
    let result: Value[] | PHash | undefined;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '{' || c === '[') {
        this.pos++;
        if (result !== undefined) throw this.error(`source '${this.peek()}' not in PSON!`);
        result = c === '{' ? this.object() : this.array();
      } else if (!this.skip(PSON_IGNORE)) {
        throw this.error(`source '${this.peek()}' not in PSON!`);
      }
    }
    if (result === undefined) throw this.error('source did not contain any PSON!');
    return result;
  }

  private error(message: string): ParseFailure {
    return new ParseFailure(message);
  }

  /** StringScanner's `peek(20)`: what follows, 20 characters at most. */
  private peek(): string {
    return this.text.slice(this.pos, this.pos + 20);
  }

  private scan(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (m) this.pos = re.lastIndex;
    return m;
  }

  private skip(re: RegExp): boolean {
    return this.scan(re) !== null;
  }

  private scanText(word: string): boolean {
    if (!this.text.startsWith(word, this.pos)) return false;
    this.pos += word.length;
    return true;
  }

  private value(): Parsed {
    const f = this.scan(PSON_FLOAT);
    if (f) return float(Number(f[0]));
    const i = this.scan(PSON_INTEGER);
    if (i) return integerOf(i[0]);
    if (this.scanText('true')) return true;
    if (this.scanText('false')) return false;
    if (this.scanText('null')) return undefined;
    const s = this.string();
    if (s !== NO_VALUE) return s;
    if (this.scanText('[')) return this.array();
    if (this.scanText('{')) return this.object();
    if (this.scanText('NaN')) {
      // PSON's NaN is `(-1.0) ** 0.5`, which Ruby 1.9+ makes the Complex 0.0+1.0i: no Puppet value.
      throw new EppEvalError(
        'EPP_UNSUPPORTED',
        'parsepson(): NaN reads as a Ruby Complex in Puppet 7 (0.0+1.0i)',
      );
    }
    if (this.scanText('Infinity')) return float(Number.POSITIVE_INFINITY);
    if (this.scanText('-Infinity')) return float(Number.NEGATIVE_INFINITY);
    return NO_VALUE;
  }

  private string(): string | typeof NO_VALUE {
    const m = this.scan(PSON_STRING);
    if (!m) return NO_VALUE;
    return m[1]!.replace(/(?:\\u[0-9a-fA-F]{4})+|\\u|\\(.)/g, (all, escaped: string | undefined) => {
      if (escaped !== undefined) return PSON_ESCAPES[escaped] ?? escaped;
      // A `\u` without its 4 digits reads as U+0000, as the parser's byte arithmetic makes it.
      if (all === '\\u') return '\0';
      return utf16Text(all);
    });
  }

  private array(): Value[] {
    const out: Value[] = [];
    let delimiter = false;
    while (this.pos < this.text.length) {
      const value = this.value();
      if (value !== NO_VALUE) {
        delimiter = false;
        out.push(value);
        this.skip(PSON_IGNORE);
        if (this.scanText(',')) delimiter = true;
        else if (this.text[this.pos] !== ']')
          throw this.error(`expected ',' or ']' in array at '${this.peek()}'!`);
      } else if (this.scanText(']')) {
        if (delimiter) throw this.error(`expected next element in array at '${this.peek()}'!`);
        break;
      } else if (!this.skip(PSON_IGNORE)) {
        throw this.error(`unexpected token in array at '${this.peek()}'!`);
      }
    }
    return out;
  }

  private object(): PHash {
    const out: PHash = new Map();
    let delimiter = false;
    while (this.pos < this.text.length) {
      const key = this.string();
      if (key !== NO_VALUE) {
        this.skip(PSON_IGNORE);
        if (!this.scanText(':')) throw this.error(`expected ':' in object at '${this.peek()}'!`);
        this.skip(PSON_IGNORE);
        const value = this.value();
        if (value === NO_VALUE) throw this.error(`expected value in object at '${this.peek()}'!`);
        out.set(key, value);
        delimiter = false;
        this.skip(PSON_IGNORE);
        if (this.scanText(',')) delimiter = true;
        else if (this.text[this.pos] !== '}')
          throw this.error(`expected ',' or '}' in object at '${this.peek()}'!`);
      } else if (this.scanText('}')) {
        if (delimiter) throw this.error(`expected next name, value pair in object at '${this.peek()}'!`);
        break;
      } else if (!this.skip(PSON_IGNORE)) {
        throw this.error(`unexpected token in object at '${this.peek()}'!`);
      }
    }
    return out;
  }
}

const PSON_ESCAPES: Readonly<Record<string, string>> = { ...SIMPLE_ESCAPES };

/**
 * A run of `\uXXXX` escapes as the PSON parser reads it: each escape's two bytes appended to a UTF-8 string
 * as characters (so a byte from 0x80 takes two), the result read as UTF-16BE. ASCII comes out right; other
 * text comes out garbled, or as the transcoder's error, as in Puppet 7.
 */
function utf16Text(run: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < run.length; i += 6) {
    const unit = Number.parseInt(run.slice(i + 2, i + 6), 16);
    for (const b of [unit >> 8, unit & 0xff]) {
      if (b < 0x80) bytes.push(b);
      else bytes.push(0xc0 | (b >> 6), 0x80 | (b & 0x3f));
    }
  }
  const units: number[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) units.push((bytes[i]! << 8) | bytes[i + 1]!);
  if (bytes.length % 2 === 1) {
    const last = bytes[bytes.length - 1]!.toString(16).toUpperCase().padStart(2, '0');
    throw new ParseFailure(`Caught Encoding::InvalidByteSequenceError: incomplete "\\x${last}" on UTF-16BE`);
  }
  const text = String.fromCharCode(...units);
  if (LONE_SURROGATE.test(text)) {
    throw new ParseFailure('Caught Encoding::InvalidByteSequenceError: invalid surrogate on UTF-16BE');
  }
  return text;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const parsepson = defineFunction('parsepson', 1, 2, (_ctx, args) => {
  const [text] = args;
  if (typeof text !== 'string' || text === '') {
    throw argumentMismatch('parsepson', 'pson_string', puppetType('String', 1), text);
  }
  try {
    return new PsonParser(text).document();
  } catch (e) {
    // An explicit undef is a default too (only a missing one re-raises).
    if (e instanceof ParseFailure && args.length > 1) return args[1];
    if (e instanceof ParseFailure) throw new EppEvalError('EPP_ARGUMENTS', e.message);
    throw e;
  }
});

// parsejson is a 3.x function (lib/puppet/parser/functions): Puppet calls it without a block it is given.
export const stdlibParsingFunctions: FunctionDef[] = [runtime3(parsejson), parsepson];
