/**
 * JSON text straight to Puppet values, keeping what `JSON.parse` loses: `1` is an Integer (exact, also
 * beyond 2^53) and `1.0` a Float. Objects become hashes in their written order. Used for `--values-file x.json`,
 * where loading a YAML parser for JSON would dominate the start-up time of `pantograph epp render`.
 */
import { EppSyntaxError } from './errors.js';
import { float, integer, type PFloat, type PHash, type PInteger, type Value } from './runtime/values.js';

export function parseJsonValues(text: string, file: string): Value {
  return new JsonReader(text, file).document();
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

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
    this.pos += m[0].length;
    if (m[1] !== undefined || m[2] !== undefined) return float(Number(m[0]));
    // Short digit strings are exact as numbers; longer ones go through bigint (exact beyond 2^53).
    return m[0].length < 16 ? integer(Number(m[0])) : integer(BigInt(m[0]));
  }
}
