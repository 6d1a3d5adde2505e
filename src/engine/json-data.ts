/**
 * Strict JSON text -> settings `Data` with the position of every value, for template.json and
 * template_schema.json. The result is what the YAML reader makes of a JSON text (integers as `bigint`,
 * other numbers as `number`, objects as plain objects, a key given twice an error), in one pass of a small
 * scanner: the yaml library took ~75 ms to read the default templates' JSON files in a fresh process, a
 * sixth of a `pantograph status`. A syntax error is one problem at its position, and no data: the yaml
 * library accepts more than JSON (comments, trailing commas, bare words), and `JSON.parse` does not always
 * say where it failed.
 */
import { isMarkedFloat, MAX_JSON_DEPTH, parseJsonMarkingFloats, TOO_DEEP_HINT } from '../epp/json-values.js';
import { lineColumn } from '../shared/position.js';
import { type EngineErrorCode, problem } from './errors.js';
import type { Data, Position } from './model.js';
import type { Problem } from './render-plan.js';
import { escapePointerSegment, PositionIndex, setKey } from './yaml-data.js';

export interface JsonData {
  /** The data; `undefined` when the text is no valid JSON or gives a key twice. */
  readonly data: Data | undefined;
  readonly positions: PositionIndex;
  readonly problems: Problem[];
}

/** Parses a JSON file strictly. Never throws for bad input: see `problems`. */
export function parseJsonData(text: string, file: string, errorCode: EngineErrorCode): JsonData {
  const fast = parseWithJsonParse(text);
  if (fast !== undefined) {
    return { data: fast, positions: new LazyJsonPositions(file, text, errorCode), problems: [] };
  }
  const positions = new PositionIndex(file, text);
  const reader = new JsonReader(text, positions, errorCode);
  try {
    const data = reader.document();
    return { data: reader.problems.length > 0 ? undefined : data, positions, problems: reader.problems };
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const { line, column } = lineColumn(text, e.offset);
    const message = `invalid JSON: ${e.message}`;
    return {
      data: undefined,
      positions,
      problems: [problem('error', errorCode, message, { file, line, column }, e.hint)],
    };
  }
}

/**
 * The data by `JSON.parse`, where that gives what the reader would: valid JSON, no key given twice, no
 * integer beyond 2^53, no `__proto__` key; else undefined, and the reader does it. Floats are read as
 * `parseJsonMarkingFloats` (epp/json-values.ts) marks them; keys given twice are found by counting the keys
 * of its skeleton against those parsed. The reader runs in V8's interpreter in a fresh
 * process and took ~25 ms of a `pantograph status` for the default templates' 110 KB of JSON;
 * `JSON.parse` and one regular-expression scan (for Floats and keys given twice) take a few. Positions
 * are found only when asked for.
 */
function parseWithJsonParse(text: string): Data | undefined {
  const parsed = parseJsonMarkingFloats(text);
  if (!parsed) return undefined; // the reader says where
  const keysInText = parsed.skeleton.match(KEY)?.length ?? 0;
  const counter = { keys: 0 };
  const data = fromParsed(parsed.data, counter);
  return data !== undefined && counter.keys === keysInText ? data : undefined;
}

/** A key, once strings are emptied. */
const KEY = /""\s*:/g;

/**
 * `value` with integers as bigint and marked Floats as numbers (counting object keys); undefined for an
 * integer beyond 2^53, or nesting deeper than MAX_JSON_DEPTH (the reader then says where).
 */
function fromParsed(value: unknown, counter: { keys: number }, depth = 0): Data | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (typeof value === 'string') return isMarkedFloat(value) ? Number(value.slice(1)) : value;
  if (typeof value !== 'object' || value === null) return value as Data;
  if (depth >= MAX_JSON_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = fromParsed(value[i], counter, depth + 1);
      if (item === undefined) return undefined;
      value[i] = item;
    }
    return value as Data;
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    counter.keys++;
    const item = fromParsed(object[key], counter, depth + 1);
    if (item === undefined) return undefined;
    object[key] = item;
  }
  return object as Data;
}

/**
 * Positions of a text `JSON.parse` read: the reader records offsets on the first question.
 */
class LazyJsonPositions extends PositionIndex {
  private read = false;

  constructor(
    file: string,
    text: string,
    private readonly errorCode: EngineErrorCode,
  ) {
    super(file, text);
  }

  override has(pointer: string): boolean {
    this.readOnce();
    return super.has(pointer);
  }

  override positionOf(pointer: string): Position {
    this.readOnce();
    return super.positionOf(pointer);
  }

  override keyPositionOf(pointer: string): Position {
    this.readOnce();
    return super.keyPositionOf(pointer);
  }

  private readOnce(): void {
    if (this.read) return;
    this.read = true;
    new JsonReader(this.text, this, this.errorCode).document();
  }
}

class JsonSyntaxError {
  constructor(
    readonly offset: number,
    readonly message: string,
    readonly hint?: string,
  ) {}
}

/** JSON's numbers and literals, matched where a value starts. */
const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null/y;

const QUOTE = 34; // "
const BACKSLASH = 92;

/** A recursive scanner that builds the data and records each value's offset (and its key's) by pointer. */
class JsonReader {
  readonly problems: Problem[] = [];
  private i = 0;
  /** Arrays and objects open at `i`. */
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly positions: PositionIndex,
    private readonly errorCode: EngineErrorCode,
  ) {}

  document(): Data {
    if (this.text.charCodeAt(0) === 0xfeff) this.i = 1;
    this.ws();
    const start = this.i;
    const data = this.value('', undefined);
    this.ws();
    if (this.i < this.text.length) this.fail(`unexpected '${this.text[this.i]}' after the JSON value`);
    this.positions.record('', start);
    return data;
  }

  private fail(message: string, hint?: string): never {
    throw new JsonSyntaxError(this.i, message, hint);
  }

  private ws(): void {
    const text = this.text;
    let c = text.charCodeAt(this.i);
    // space, tab, line feed, carriage return
    while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++this.i);
  }

  private expect(ch: string): void {
    if (this.text[this.i] !== ch) {
      this.fail(
        this.i >= this.text.length ? `expected '${ch}', found the end of the file` : `expected '${ch}'`,
      );
    }
    this.i++;
  }

  private value(pointer: string, keyOffset: number | undefined): Data {
    this.ws();
    const start = this.i;
    this.positions.record(pointer, start, keyOffset);
    const c = this.text.charCodeAt(start);
    if (c === 123) return this.object(pointer); // {
    if (c === 91) return this.array(pointer); // [
    if (c === QUOTE) return this.string();
    SCALAR.lastIndex = start;
    const m = SCALAR.exec(this.text);
    if (!m)
      this.fail(
        start >= this.text.length ? 'unexpected end of the file' : `unexpected '${this.text[start]}'`,
      );
    const token = m[0];
    this.i += token.length;
    if (token === 'true') return true;
    if (token === 'false') return false;
    if (token === 'null') return null;
    // Integers are bigint, as the YAML reader gives them (`intAsBigInt`); others are numbers.
    return /[.eE]/.test(token) ? Number(token) : BigInt(token);
  }

  /** Enters an array or object at `i` (its bracket). */
  private enter(): void {
    if (++this.depth > MAX_JSON_DEPTH) {
      this.fail(`arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`, TOO_DEEP_HINT);
    }
    this.i++;
  }

  private object(pointer: string): Data {
    this.enter();
    const out: { [key: string]: Data } = {};
    this.ws();
    if (this.text.charCodeAt(this.i) === 125) {
      this.i++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.text.charCodeAt(this.i) !== QUOTE) this.fail('expected a property name in double quotes');
      const keyOffset = this.i;
      const key = this.string();
      this.ws();
      this.expect(':');
      if (Object.hasOwn(out, key)) {
        this.problems.push(
          problem('error', this.errorCode, 'Map keys must be unique', this.positions.at(keyOffset)),
        );
      }
      setKey(out, key, this.value(`${pointer}/${escapePointerSegment(key)}`, keyOffset));
      this.ws();
      if (this.text.charCodeAt(this.i) !== 44) {
        // Most often a comma left out between two properties: say so, at what follows the value.
        if (this.i < this.text.length && this.text[this.i] !== '}') {
          this.fail(`expected ',' or '}' after the value of ${JSON.stringify(key)}`);
        }
        break;
      }
      this.i++;
    }
    this.expect('}');
    this.depth--;
    return out;
  }

  private array(pointer: string): Data {
    this.enter();
    const out: Data[] = [];
    this.ws();
    if (this.text.charCodeAt(this.i) === 93) {
      this.i++;
      this.depth--;
      return out;
    }
    for (;;) {
      out.push(this.value(`${pointer}/${out.length}`, undefined));
      this.ws();
      if (this.text.charCodeAt(this.i) !== 44) {
        if (this.i < this.text.length && this.text[this.i] !== ']') {
          this.fail(`expected ',' or ']' after element ${out.length - 1} of the array`);
        }
        break;
      }
      this.i++;
    }
    this.expect(']');
    this.depth--;
    return out;
  }

  /** A string from its opening quote; escapes are decoded by `JSON.parse` once the string is checked. */
  private string(): string {
    const text = this.text;
    const start = this.i;
    this.i++;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (Number.isNaN(c)) this.fail('unterminated string');
      if (c === QUOTE) break;
      if (c < 32) this.fail('control character in a string');
      if (c === BACKSLASH) {
        escaped = true;
        this.i++;
        if (text[this.i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 1, this.i + 5))) this.fail('bad \\u escape');
          this.i += 4;
        } else if (!'"\\/bfnrt'.includes(text[this.i] ?? 'x')) this.fail('bad escape');
      }
      this.i++;
    }
    this.i++;
    return escaped ? (JSON.parse(text.slice(start, this.i)) as string) : text.slice(start + 1, this.i - 1);
  }
}
