/**
 * Strict JSON text -> settings `Data` with the position of every value, for template.json and
 * template_schema.json. The result is what the YAML reader makes of a JSON text (integers as `bigint`,
 * other numbers as `number`, objects as plain objects, a key given twice an error), in one pass of a small
 * scanner: the yaml library took ~75 ms to read the default templates' JSON files in a fresh process, a
 * sixth of a `pantograph status`. A syntax error is one problem at its position, and no data: the yaml
 * library accepts more than JSON (comments, trailing commas, bare words), and `JSON.parse` does not always
 * say where it failed.
 */
import { LineCounter } from 'yaml';
import { lineColumn } from '../epp/position.js';
import { type EngineErrorCode, problem } from './errors.js';
import type { Data } from './model.js';
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
  const lineCounter = new LineCounter();
  lineCounter.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineCounter.addNewLine(i + 1);
  const positions = new PositionIndex(file, lineCounter);
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
      problems: [problem('error', errorCode, message, { file, line, column })],
    };
  }
}

class JsonSyntaxError {
  constructor(
    readonly offset: number,
    readonly message: string,
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

  private fail(message: string): never {
    throw new JsonSyntaxError(this.i, message);
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

  private object(pointer: string): Data {
    this.i++;
    const out: { [key: string]: Data } = {};
    this.ws();
    if (this.text.charCodeAt(this.i) === 125) {
      this.i++;
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
      if (this.text.charCodeAt(this.i) !== 44) break; // ,
      this.i++;
    }
    this.expect('}');
    return out;
  }

  private array(pointer: string): Data {
    this.i++;
    const out: Data[] = [];
    this.ws();
    if (this.text.charCodeAt(this.i) === 93) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(`${pointer}/${out.length}`, undefined));
      this.ws();
      if (this.text.charCodeAt(this.i) !== 44) break; // ,
      this.i++;
    }
    this.expect(']');
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
