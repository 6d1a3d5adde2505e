/**
 * A reader for the YAML most values files are: block mappings and sequences of plain, single- or
 * double-quoted one-line scalars, and comments. For such a document it gives exactly what Pantograph's
 * YAML 1.1 reading gives (`parseYamlData(text, file, { version: '1.1' })` in engine/yaml-data.ts: plain
 * scalars as Psych reads them, see psych-scalars.ts, as Puppet and PDK read YAML; integers as bigints), and
 * for anything else it gives `undefined`, so that the caller reads the text that way, its errors and their
 * positions included. Outside what it reads: anchors, aliases, tags, flow collections (but `[]` and `{}`),
 * block and multi-line scalars, escapes, explicit or quoted keys, duplicate keys, tabs, carriage returns,
 * more than one document, and the scalars Psych reads as numbers in forms other than plain decimals
 * (`010`, `0x1F`, `0b1`, `1_000`, `1,000`, `1:30`, `1.`, `.inf`).
 *
 * Why: `pantograph epp render --values-file values.yaml` runs once per template in scripts. In so short a
 * process the `yaml` package runs cold (its lexer and parser are generators, interpreted on a first run)
 * and its first parse took ~60 ms of a ~220 ms run; this reader is one pass of a few regular expressions
 * per line. test/shared/simple-yaml.test.ts checks it against the YAML 1.1 reading on generated documents.
 */

import {
  PSYCH_BASE60_FLOAT,
  PSYCH_BASE60_INT,
  PSYCH_DATE,
  PSYCH_FALSE,
  PSYCH_FLOAT,
  PSYCH_INFINITY,
  PSYCH_INTEGER,
  PSYCH_MINUS_INFINITY,
  PSYCH_NAN,
  PSYCH_NULL,
  PSYCH_TIME,
  PSYCH_TRUE,
} from './psych-scalars.js';

/** Thrown (and caught in {@link readSimpleYaml}) where the text leaves the subset. */
const NOT_SIMPLE = Symbol('not simple YAML');

/** Deeper nesting than this is read by the `yaml` package (this reader recurses). */
const MAX_DEPTH = 100;

/** Characters that make a document not simple wherever they are: tabs, CR, other controls, a BOM. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const OUTSIDE_SUBSET = /[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufeff]/;

/**
 * A key line: a plain key of letters, digits, `_ . / -` (and Puppet's `::`), starting with a letter or `_`,
 * then `:` and the end of the line or spaces and the value.
 */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_./-]*(?:::[A-Za-z0-9_./-]+)*):(?: +(.*))?$/;

/** Keys YAML 1.1 could read as other than strings (null, booleans), and the one objects set apart. */
const NON_STRING_KEY = /^(?:null|true|false|yes|no|on|off|y|n|__proto__)$/i;

/** The longest key read here (YAML limits an implicit key to 1024 characters). */
const MAX_KEY_LENGTH = 1000;

/** The numbers read here: plain decimal Integers and Floats, which Psych and YAML 1.2 read alike. */
const DECIMAL_INT = /^[-+]?(?:0|[1-9][0-9]*)$/;
const DECIMAL_FLOAT = /^[-+]?[0-9]+\.[0-9]+$/;
/** Every other form Psych reads as a number (or the merge key): left to the full reading. */
const OTHER_NUMBER = [
  PSYCH_INFINITY,
  PSYCH_MINUS_INFINITY,
  PSYCH_NAN,
  PSYCH_BASE60_INT,
  PSYCH_BASE60_FLOAT,
  PSYCH_FLOAT,
  PSYCH_INTEGER,
  /^<<$/,
];

/** A content line: its indentation and its text from there. */
interface Line {
  readonly indent: number;
  readonly text: string;
}

/**
 * The data of a simple YAML document (see the module comment), or `undefined` when the document is not
 * one: then read it with the `yaml` package.
 */
export function readSimpleYaml(source: string): unknown {
  if (OUTSIDE_SUBSET.test(source)) return undefined;
  const lines = contentLines(source);
  if (lines.length === 0) return undefined;
  try {
    const reader = new Reader(lines);
    const value = reader.block(lines[0]!.indent, 0);
    return reader.at === lines.length ? value : undefined;
  } catch (e) {
    if (e === NOT_SIMPLE) return undefined;
    throw e;
  }
}

/** The lines that hold content: not blank, not only a comment, not a first `---`. */
function contentLines(source: string): Line[] {
  const lines: Line[] = [];
  const raw = source.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!;
    let indent = 0;
    while (line.charCodeAt(indent) === 32) indent++;
    if (indent === line.length || line.charCodeAt(indent) === 35) continue;
    // A document start marker alone on the first content line; any other is a second document.
    if (line === '---' && lines.length === 0) continue;
    lines.push({ indent, text: indent === 0 ? line : line.slice(indent) });
  }
  return lines;
}

/** `- item` or a lone `-`: a block sequence's entry. */
function isEntry(text: string): boolean {
  return text.charCodeAt(0) === 45 && (text.length === 1 || text.charCodeAt(1) === 32);
}

class Reader {
  /** The index of the next line to read. */
  at = 0;

  constructor(private readonly lines: Line[]) {}

  /** The mapping or sequence starting at the current line, whose entries are indented `indent`. */
  block(indent: number, depth: number): unknown {
    if (depth > MAX_DEPTH) throw NOT_SIMPLE;
    return isEntry(this.lines[this.at]!.text) ? this.sequence(indent, depth) : this.mapping(indent, depth);
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    while (this.at < this.lines.length) {
      const line = this.lines[this.at]!;
      if (line.indent < indent) break;
      if (line.indent > indent) throw NOT_SIMPLE;
      const match = KEY_LINE.exec(line.text);
      if (match === null) {
        // The entries of a sequence may line up with the key that holds them (see `valueBelow`).
        if (isEntry(line.text)) break;
        throw NOT_SIMPLE;
      }
      const key = match[1]!;
      if (key.length > MAX_KEY_LENGTH || NON_STRING_KEY.test(key) || Object.hasOwn(out, key))
        throw NOT_SIMPLE;
      this.at++;
      const rest = match[2] ?? '';
      out[key] =
        rest === '' || rest.charCodeAt(0) === 35 ? this.valueBelow(indent, depth, true) : scalar(rest);
    }
    return out;
  }

  private sequence(indent: number, depth: number): unknown[] {
    const out: unknown[] = [];
    while (this.at < this.lines.length) {
      const line = this.lines[this.at]!;
      if (line.indent < indent || (line.indent === indent && !isEntry(line.text))) break;
      if (line.indent > indent) throw NOT_SIMPLE;
      let p = 1;
      while (line.text.charCodeAt(p) === 32) p++;
      const item = line.text.slice(p);
      if (item === '' || item.charCodeAt(0) === 35) {
        this.at++;
        out.push(this.valueBelow(indent, depth, false));
      } else if (isEntry(item)) {
        throw NOT_SIMPLE;
      } else if (KEY_LINE.test(item)) {
        // A mapping begun on the entry's line: its keys line up with the first one.
        this.lines[this.at] = { indent: indent + p, text: item };
        out.push(this.mapping(indent + p, depth + 1));
      } else {
        this.at++;
        out.push(scalar(item));
      }
    }
    return out;
  }

  /**
   * The value of a key (`ofKey`) or entry with nothing after it on its line: the block indented more on the
   * lines below, for a key also a sequence lined up with it, else null.
   */
  private valueBelow(indent: number, depth: number, ofKey: boolean): unknown {
    const next = this.lines[this.at];
    if (next === undefined || next.indent < indent) return null;
    if (next.indent > indent) return this.block(next.indent, depth + 1);
    return ofKey && isEntry(next.text) ? this.sequence(indent, depth + 1) : null;
  }
}

/** A scalar written after `key: ` or `- `, up to the end of its line (a comment allowed). */
function scalar(text: string): unknown {
  const c = text.charCodeAt(0);
  if (c === 39) return quoted(text, "'");
  if (c === 34) return quoted(text, '"');
  const comment = text.indexOf(' #');
  const plain = (comment < 0 ? text : text.slice(0, comment)).trimEnd();
  if (plain === '[]') return [];
  if (plain === '{}') return {};
  if (!isSimplePlain(plain)) throw NOT_SIMPLE;
  return resolvePlain(plain);
}

/**
 * A one-line plain scalar this reader can take: not starting with an indicator (but `-` before a non-space,
 * as in `-5`), no `: ` inside nor `:` at the end (a mapping), no ` #` (a comment, cut before).
 */
function isSimplePlain(text: string): boolean {
  if (text === '') return false;
  const first = text.charCodeAt(0);
  if (first === 45) {
    if (text.length === 1 || text.charCodeAt(1) === 32) return false;
  } else if ('?:,[]{}#&*!|>\'"%@`'.includes(text[0]!)) {
    return false;
  }
  return !text.includes(': ') && !text.endsWith(':');
}

/** A plain scalar's value as Psych reads it: boolean, null, Integer (a bigint), Float, else the string. */
function resolvePlain(text: string): unknown {
  if (PSYCH_TRUE.test(text)) return true;
  if (PSYCH_FALSE.test(text)) return false;
  if (PSYCH_NULL.test(text)) return null;
  if (DECIMAL_INT.test(text)) return BigInt(text);
  if (DECIMAL_FLOAT.test(text)) return Number.parseFloat(text);
  if (OTHER_NUMBER.some((test) => test.test(text))) throw NOT_SIMPLE;
  // A date or time is Puppet's error, said at its place by the full reading.
  if (PSYCH_DATE.test(text) || PSYCH_TIME.test(text)) throw NOT_SIMPLE;
  return text;
}

/**
 * A quoted scalar closed on its line, with nothing after it but a comment. Single quotes escape themselves
 * (`''`); a double-quoted one with a backslash (an escape) is left to the yaml package.
 */
function quoted(text: string, quote: "'" | '"'): string {
  let value = '';
  let p = 1;
  while (true) {
    const close = text.indexOf(quote, p);
    if (close < 0) throw NOT_SIMPLE;
    value += text.slice(p, close);
    if (quote === "'" && text.charCodeAt(close + 1) === 39) {
      value += "'";
      p = close + 2;
      continue;
    }
    p = close + 1;
    break;
  }
  if (quote === '"' && value.includes('\\')) throw NOT_SIMPLE;
  const after = text.slice(p);
  if (after.trim() !== '' && !/^ +#/.test(after)) throw NOT_SIMPLE;
  return value;
}
