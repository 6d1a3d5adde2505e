/**
 * JSON text straight to Puppet values, keeping what `JSON.parse` loses: `1` is an Integer (exact, also
 * beyond 2^53) and `1.0` a Float. Objects become hashes in their written order. Used for `--values-file x.json`,
 * where loading a YAML parser for JSON would dominate the start-up time of `pantograph epp render`.
 *
 * `JSON.parse` reads most texts, with Floats marked (see {@link parseJsonMarkingFloats}); the reader below
 * reads the rest (and says where a text is wrong). Both give the same values: the reader is the definition.
 */
import { EppSyntaxError } from './errors.js';
import { float, integer, type PFloat, type PHash, type PInteger, type Value } from './runtime/values.js';

/**
 * How numbers are taken: `'data'` as a data file's (a values file: an Integer beyond 64 bits is kept, as
 * Puppet's YAML reader keeps it), `'literal'` as Puppet's literals in `--values '{...}'` (an Integer beyond
 * 64 bits, or a Float beyond the largest double, is refused with Puppet's error for the literal).
 */
export type JsonNumbers = 'data' | 'literal';

export function parseJsonValues(text: string, file: string, numbers: JsonNumbers = 'data'): Value {
  const parsed = parseJsonMarkingFloats(text);
  if (parsed) {
    const value = valueOfParsed(parsed.data, 0);
    if (value !== NOT_PARSED) return value;
  }
  return readJsonValues(text, file, numbers);
}

/** @internal the reader alone (what {@link parseJsonValues} must agree with, for the tests). */
export function readJsonValues(text: string, file: string, numbers: JsonNumbers = 'data'): Value {
  return new JsonReader(text, file, numbers).document();
}

/** What the conversion of parsed JSON gives back for a text it leaves to the reader. */
const NOT_PARSED: unique symbol = Symbol('not parsed by JSON.parse');

export interface ParsedJson {
  /** What `JSON.parse` gave, each Float a marked string. */
  readonly data: unknown;
  /** The text with every string emptied (`""`): its structure and numbers, for scans of them. */
  readonly skeleton: string;
}

/**
 * A JSON text by `JSON.parse`, which in a fresh process reads in a fraction of a millisecond what a scanner
 * written in JavaScript reads in several (it runs in V8's interpreter then: ~3-5 ms for a 3 KB values
 * file). `JSON.parse` reads `1.0` as `1`, so each number with a fraction or an exponent is handed to it as
 * a string marked with a leading NUL (`isMarkedFloat`; JSON text can only write a NUL as `\u0000`, and
 * texts that do are left to the reader, as are texts with a `__proto__` key). Undefined when the text is
 * no valid JSON: the reader says where. What the caller must still check: integers beyond 2^53 (no exact
 * number) and nesting (the conversions recurse).
 */
export function parseJsonMarkingFloats(text: string): ParsedJson | undefined {
  if (text.includes('"__proto__"') || text.includes('\\u0000')) return undefined;
  try {
    const data: unknown = JSON.parse(text);
    // In valid JSON a quote outside strings opens one, so the scan keeps in step with the tokens.
    const skeleton = text.replace(STRING, '""');
    if (!FLOAT.test(skeleton)) return { data, skeleton };
    return { data: JSON.parse(text.replace(STRING_OR_FLOAT, markFloat)), skeleton };
  } catch {
    return undefined;
  }
}

/** A JSON string (escapes included). */
const STRING = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"/g;
/** A number with a fraction or an exponent, once strings are emptied. */
const FLOAT = /\d[.eE]/;
/** A string (kept as it is), or a number with a fraction or an exponent (marked as a Float). */
const STRING_OR_FLOAT = new RegExp(
  `(${STRING.source})|-?\\d+(?:\\.\\d+(?:[eE][-+]?\\d+)?|[eE][-+]?\\d+)`,
  'g',
);
const markFloat = (match: string, string: string | undefined) => string ?? `"\\u0000${match}"`;

/** Whether a string from {@link parseJsonMarkingFloats} is a marked Float (its number follows the NUL). */
export function isMarkedFloat(s: string): boolean {
  return s.charCodeAt(0) === 0;
}

/**
 * Parsed JSON as the reader's Puppet values, or NOT_PARSED where the reader must read the text itself: an
 * integer beyond 2^53, nesting deeper than MAX_JSON_DEPTH (the reader says where), or a key that starts
 * with a digit (a JavaScript object lists keys like `"2"` first, a hash keeps the written order).
 */
function valueOfParsed(v: unknown, depth: number): Value | typeof NOT_PARSED {
  switch (typeof v) {
    case 'number':
      return Number.isSafeInteger(v) ? (v === 0 ? 0 : v) : NOT_PARSED;
    case 'string': {
      if (!isMarkedFloat(v)) return v;
      // An infinite Float is the reader's to judge (with the position of its text).
      const n = Number(v.slice(1));
      return Number.isFinite(n) ? float(n) : NOT_PARSED;
    }
    case 'boolean':
      return v;
    case 'object': {
      if (v === null) return undefined;
      if (depth >= MAX_JSON_DEPTH) return NOT_PARSED;
      if (Array.isArray(v)) {
        const items: Value[] = [];
        for (let i = 0; i < v.length; i++) {
          const item = valueOfParsed(v[i], depth + 1);
          if (item === NOT_PARSED) return NOT_PARSED;
          items.push(item);
        }
        return items;
      }
      const object = v as Record<string, unknown>;
      const hash: PHash = new Map();
      for (const key of Object.keys(object)) {
        const first = key.charCodeAt(0);
        if (first >= 48 && first <= 57) return NOT_PARSED;
        const item = valueOfParsed(object[key], depth + 1);
        if (item === NOT_PARSED) return NOT_PARSED;
        hash.set(key, item);
      }
      return hash;
    }
    default:
      return NOT_PARSED;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

/** Puppet's Integer range (64 bits, signed). */
const MAX_INTEGER = 9223372036854775807n;
const MIN_INTEGER = -9223372036854775808n;

/**
 * How deep arrays and objects may nest in JSON data (values files, and the engine's JSON files): as deep
 * as the parser nests a template's expressions. The readers recurse, and so do the walks of the data after
 * them: a hostile file nested 100,000 deep exhausted the stack (an internal error instead of its position).
 */
export const MAX_JSON_DEPTH = 400;

/** What to do about data nested deeper than a reader takes (JSON here and in the engine, YAML). */
export const TOO_DEEP_HINT = 'nest the data less deeply: settings and values need a few levels';

class JsonReader {
  private pos = 0;
  /** Arrays and objects open at `pos`. */
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly numbers: JsonNumbers,
  ) {}

  document(): Value {
    const value = this.value();
    this.space();
    if (this.pos < this.text.length) this.fail('unexpected text after the JSON value');
    return value;
  }

  private fail(message: string, hint?: string): never {
    throw new EppSyntaxError(
      'EPP_SYNTAX',
      `invalid JSON: ${message}`,
      {
        file: this.file,
        source: this.text,
        span: { start: this.pos, end: Math.min(this.pos + 1, this.text.length) },
      },
      hint,
    );
  }

  private space(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      this.pos++;
    }
  }

  private value(): Value {
    this.space();
    const c = this.text[this.pos];
    if (c === '{' || c === '[') {
      if (++this.depth > MAX_JSON_DEPTH) {
        this.fail(`arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`, TOO_DEEP_HINT);
      }
      const nested = c === '{' ? this.object() : this.array();
      this.depth--;
      return nested;
    }
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', undefined],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail(c === undefined ? 'unexpected end of input' : `unexpected '${c}'`);
  }

  private object(): PHash {
    const hash: PHash = new Map();
    this.pos++;
    this.space();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return hash;
    }
    while (true) {
      this.space();
      if (this.text[this.pos] !== '"') this.fail('expected a string key');
      const key = this.string();
      this.space();
      if (this.text[this.pos] !== ':') this.fail("expected ':'");
      this.pos++;
      hash.set(key, this.value());
      this.space();
      const c = this.text[this.pos++];
      if (c === '}') return hash;
      if (c !== ',') {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
    }
  }

  private array(): Value[] {
    const items: Value[] = [];
    this.pos++;
    this.space();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return items;
    }
    while (true) {
      items.push(this.value());
      this.space();
      const c = this.text[this.pos++];
      if (c === ']') return items;
      if (c !== ',') {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  private string(): string {
    const start = this.pos;
    const end = this.findStringEnd(start + 1);
    try {
      return JSON.parse(this.text.slice(start, end + 1)) as string;
    } catch {
      return this.fail('invalid string');
    } finally {
      this.pos = end + 1;
    }
  }

  private findStringEnd(from: number): number {
    const t = this.text;
    for (let i = from; i < t.length; i++) {
      const c = t[i];
      if (c === '\\') i++;
      else if (c === '"') return i;
      else if (c === '\n') break;
    }
    this.pos = from - 1;
    return this.fail('unterminated string');
  }

  private number(): PInteger | PFloat {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) return this.fail('invalid number');
    const start = this.pos;
    this.pos += m[0].length;
    if (m[1] !== undefined || m[2] !== undefined) {
      const n = Number(m[0]);
      if (this.numbers === 'literal' && !Number.isFinite(n)) {
        // Puppet's lexer fails on such a literal with this text (and no position).
        this.refuseNumber(
          `Internal Error, NUMBER token does not contain a valid number, ${m[0]}`,
          'EPP_SYNTAX',
          start,
        );
      }
      return float(n);
    }
    // Short digit strings are exact as numbers; longer ones go through bigint (exact beyond 2^53).
    if (m[0].length < 16) return integer(Number(m[0]));
    const n = BigInt(m[0]);
    if (this.numbers === 'literal' && (n > MAX_INTEGER || n < MIN_INTEGER)) {
      // Puppet's words for the literal, the value printed as Ruby's `'%#+x' % value`.
      const hex = `${n < 0n ? '-' : '+'}0x${(n < 0n ? -n : n).toString(16)}`;
      this.refuseNumber(
        `A Literal Integer resulted in a value outside of Puppet Integer max range, got '${hex}'`,
        'EPP_INTEGER_OVERFLOW',
        start,
      );
    }
    return integer(n);
  }

  /** A number Puppet's literal refuses, from `start` to the reader's position. */
  private refuseNumber(message: string, code: 'EPP_SYNTAX' | 'EPP_INTEGER_OVERFLOW', start: number): never {
    throw new EppSyntaxError(
      code,
      message,
      { file: this.file, source: this.text, span: { start, end: this.pos } },
      'Puppet takes Integers of 64 bits and finite Floats here: give a larger number as a String, or in a YAML values file (Puppet reads it there)',
    );
  }
}
