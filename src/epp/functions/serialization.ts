/**
 * puppetlabs-stdlib's `to_json`, `to_json_pretty` and `to_yaml`, byte for byte as Ruby 3.1 produces them:
 * `to_json` is Ruby's `JSON.generate`, `to_json_pretty` is `JSON.pretty_generate` plus a final newline
 * (including json 2.6's way of printing empty collections, `[\n\n]` and `{\n}`), and `to_yaml` is Psych's
 * `to_yaml` (options `indentation` and `line_width`): Psych picks a style for each string (plain, quoted,
 * literal or folded block), libyaml may override it, and long lines fold at 80 columns. Values that are not
 * data (regexps, types, Sensitive, timestamps) print as Ruby's `to_s` of them.
 */
import { EppEvalError } from '../errors.js';
import { formatFloat, timestampToString } from '../runtime/format.js';
import { inferGenericType } from '../runtime/types.js';
import {
  isInteger,
  PDefault,
  PFloat,
  type PHash,
  PRegexp,
  PSensitive,
  PTimestamp,
  type Value,
} from '../runtime/values.js';
import { defineFunction, type FunctionDef } from './registry.js';

// ---------------------------------------------------------------------------------------------------------
// JSON

/** What Ruby's `to_s` gives for a non-collection value (JSON strings and hash keys use it). */
function rubyText(v: Value): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  // Integers print exactly (bigint beyond 2^53), Floats as Ruby does (`1.0`).
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof PFloat) return formatFloat(v.value);
  if (v instanceof PRegexp) return `(?-mix:${v.source})`;
  if (v instanceof PSensitive) return 'Sensitive [value redacted]';
  if (v instanceof PTimestamp) return timestampToString(v);
  if (v instanceof PDefault) return 'default';
  return String(v);
}

/** A JSON string literal as Ruby's json generator writes it (only `"`, `\` and controls escaped). */
export function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c >= 0x20) out += s[i];
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else out += `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

export interface JsonLayout {
  readonly indent: string;
  readonly space: string;
  readonly spaceBefore: string;
  readonly objectNl: string;
  readonly arrayNl: string;
}

const COMPACT: JsonLayout = { indent: '', space: '', spaceBefore: '', objectNl: '', arrayNl: '' };
const PRETTY: JsonLayout = { indent: '  ', space: ' ', spaceBefore: '', objectNl: '\n', arrayNl: '\n' };

function jsonError(message: string): EppEvalError {
  return new EppEvalError('EPP_CONVERSION', message);
}

function generate(v: Value, layout: JsonLayout, depth: number): string {
  if (v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof PFloat) {
    if (!Number.isFinite(v.value)) throw jsonError(`${formatFloat(v.value)} not allowed in JSON`);
    return formatFloat(v.value);
  }
  if (Array.isArray(v)) {
    const inner = layout.indent.repeat(depth + 1);
    let out = `[${layout.arrayNl}`;
    v.forEach((e, i) => {
      if (i > 0) out += `,${layout.arrayNl}`;
      out += inner + generate(e, layout, depth + 1);
    });
    return `${out}${layout.arrayNl}${layout.indent.repeat(depth)}]`;
  }
  if (v instanceof Map) {
    const inner = layout.indent.repeat(depth + 1);
    let out = '{';
    let first = true;
    for (const [k, val] of v) {
      if (!first) out += ',';
      first = false;
      out += `${layout.objectNl}${inner}${jsonString(rubyText(k))}${layout.spaceBefore}:${layout.space}`;
      out += generate(val, layout, depth + 1);
    }
    return `${out}${layout.objectNl}${layout.indent.repeat(depth)}}`;
  }
  return jsonString(rubyText(v));
}

/** Ruby's `JSON.generate(value)`: compact, keys as strings. */
export function toJson(value: Value): string {
  return generate(value, COMPACT, 0);
}

/** Ruby's `JSON.pretty_generate(value)` (2-space indent), or with the given layout. */
export function toJsonPretty(value: Value, layout: Partial<JsonLayout> = {}): string {
  return generate(value, { ...PRETTY, ...layout }, 0);
}

function typeName(v: Value): string {
  return inferGenericType(v).toString();
}

const toJsonFn = defineFunction('to_json', 1, 1, (_ctx, [data]) => toJson(data));

const LAYOUT_KEYS: Record<string, keyof JsonLayout> = {
  indent: 'indent',
  space: 'space',
  space_before: 'spaceBefore',
  object_nl: 'objectNl',
  array_nl: 'arrayNl',
};

function layoutOption(opts: Value): Partial<JsonLayout> {
  if (opts === undefined) return {};
  if (!(opts instanceof Map))
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `'to_json_pretty' parameter 'opts' expects a Hash, got ${typeName(opts)}`,
    );
  const layout: Record<string, string> = {};
  for (const [k, v] of opts) {
    if (k === 'allow_nan' || k === 'max_nesting') continue;
    const key = typeof k === 'string' ? LAYOUT_KEYS[k] : undefined;
    if (!key)
      throw new EppEvalError('EPP_ARGUMENTS', `'to_json_pretty' parameter 'opts' has no key ${String(k)}`);
    if (v === undefined) continue;
    if (typeof v !== 'string')
      throw new EppEvalError('EPP_ARGUMENTS', `'to_json_pretty' option '${k}' expects a String`);
    layout[key] = v;
  }
  return layout as Partial<JsonLayout>;
}

const toJsonPrettyFn = defineFunction('to_json_pretty', 1, 3, (_ctx, [data, skipUndef, opts]) => {
  if (!Array.isArray(data) && !(data instanceof Map)) {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `'to_json_pretty' parameter 'data' expects a value of type Hash or Array, got ${typeName(data)}`,
    );
  }
  if (skipUndef !== undefined && typeof skipUndef !== 'boolean') {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `'to_json_pretty' parameter 'skip_undef' expects a Boolean value, got ${typeName(skipUndef)}`,
    );
  }
  let value: Value = data;
  // stdlib's `data.compact`: drops undef array elements / hash values at the top level only.
  if (skipUndef === true) {
    value = Array.isArray(data)
      ? data.filter((e) => e !== undefined)
      : new Map([...data].filter(([, v]) => v !== undefined));
  }
  return `${toJsonPretty(value, layoutOption(opts))}\n`;
});

// ---------------------------------------------------------------------------------------------------------
// YAML (Psych + libyaml)

const BEST_WIDTH = 80;

/** Psych's ScalarScanner#tokenize: whether a plain scalar with this text would load as something else. */
function loadsAsNonString(s: string): boolean {
  if (s === '') return true;
  if (/^[^\d.:-]?[\p{Alphabetic}_ \t\n\v\f\r!@#$%^&*(){}<>|/\\~;=]+/mu.test(s) || s.includes('\n')) {
    if (s.length > 5) return false;
    if (/^[^ytonf~]/im.test(s)) return false;
    return s === '~' || /^null$/im.test(s) || /^(yes|true|on)$/im.test(s) || /^(no|false|off)$/im.test(s);
  }
  if (
    /^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$/m.test(
      s,
    )
  ) {
    return true;
  }
  if (/^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$/m.test(s)) return true;
  if (/^\+?\.inf$/im.test(s) || /^-\.inf$/im.test(s) || /^\.nan$/im.test(s)) return true;
  if (/^:./m.test(s)) return true;
  if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$/m.test(s)) return true;
  if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}\.[0-9_]*$/m.test(s)) return true;
  if (/^(?:[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?)$/m.test(s)) return !/^[-+]?\.$/.test(s);
  return /^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$/m.test(
    s,
  );
}

type Style = 'plain' | 'single' | 'double' | 'literal' | 'folded';

/** Psych's choice of style for a String (visit_String); `lineWidth` is its `line_width` option. */
function psychStyle(s: string, lineWidth: number | undefined): Style {
  if (innerNewline(s)) return 'literal';
  if (s === 'y' || s === 'n') return 'double';
  if (lineWidth !== undefined && [...s].length > lineWidth) return 'folded';
  if (/^[^\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\u200c\u200d][^"]*$/mu.test(s)) return 'double';
  if (loadsAsNonString(s) || /^0[0-7]*[89]/.test(s)) return 'single';
  return 'plain';
}

/** Ruby's `s =~ /\n(?!\Z)/`: a line break followed by more than an optional final newline. */
function innerNewline(s: string): boolean {
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) {
    const rest = s.length - i - 1;
    if (rest > 1 || (rest === 1 && s[s.length - 1] !== '\n')) return true;
  }
  return false;
}

const isBreak = (c: string) => c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isBlankOrEnd = (c: string | undefined) => c === undefined || c === ' ' || c === '\t' || isBreak(c);

/** libyaml's IS_PRINTABLE, which leaves out NEL and everything beyond the BMP (those get escaped). */
function isPrintable(c: string): boolean {
  const code = c.codePointAt(0)!;
  return (
    code === 0x0a ||
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd && code !== 0xfeff)
  );
}

interface Analysis {
  readonly blockPlain: boolean;
  readonly single: boolean;
  readonly block: boolean;
  readonly multiline: boolean;
}

/** libyaml's yaml_emitter_analyze_scalar, block context. */
function analyze(s: string): Analysis {
  if (s === '') return { blockPlain: true, single: true, block: false, multiline: false };
  const chars = [...s];
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let specials = false;
  let lineBreaks = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const followedByWhitespace = isBlankOrEnd(chars[i + 1]);
    const first = i === 0;
    const last = i === chars.length - 1;
    if (first) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      if ((c === '?' || c === ':') && followedByWhitespace) blockIndicators = true;
      if (c === '-' && followedByWhitespace) blockIndicators = true;
    } else {
      if (c === ':' && followedByWhitespace) blockIndicators = true;
      if (c === '#' && precededByWhitespace) blockIndicators = true;
    }
    if (!isPrintable(c)) specials = true;
    if (isBreak(c)) lineBreaks = true;
    if (c === ' ') {
      if (first) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      if (first) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousBreak = true;
      previousSpace = false;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankOrEnd(c);
  }
  let blockPlain = true;
  let single = true;
  let block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlain = false;
  if (trailingSpace) block = false;
  if (breakSpace) blockPlain = single = false;
  if (spaceBreak || specials) blockPlain = single = block = false;
  if (lineBreaks) blockPlain = false;
  if (blockIndicators) blockPlain = false;
  return { blockPlain, single, block, multiline: lineBreaks };
}

/** The style libyaml ends up using (yaml_emitter_select_scalar_style). */
function finalStyle(wanted: Style, a: Analysis, simpleKey: boolean, empty: boolean): Style {
  let style = wanted;
  if (style === 'plain' && (!a.blockPlain || (empty && simpleKey))) style = 'single';
  if (style === 'single' && !a.single) style = 'double';
  if ((style === 'literal' || style === 'folded') && (!a.block || simpleKey)) style = 'double';
  return style;
}

/** Where a scalar is written: its first column, the indent of continuation lines, and whether it is a key. */
interface Place {
  readonly column: number;
  readonly indent: number;
  readonly simpleKey: boolean;
}

/** Psych's `to_yaml` options: `indentation` (libyaml's best indent) and `line_width`. */
export interface YamlOptions {
  readonly indentation?: number;
  /** -1 for unlimited. Also makes Psych ask for folded (`>`) style for strings longer than this. */
  readonly lineWidth?: number;
}

class YamlWriter {
  /** Set by a `|+` block and cleared by the next block scalar only (as libyaml): the document then ends with `...`. */
  openEnded = false;
  /** Spaces per nesting level (libyaml's best_indent). */
  readonly indent: number;
  /** Column after which long lines fold (libyaml's best_width). */
  private readonly width: number;
  /** Psych's own line width, which selects the folded style. */
  private readonly lineWidth: number | undefined;

  constructor(options: YamlOptions) {
    const indent = options.indentation ?? 2;
    this.indent = indent < 2 || indent > 9 ? 2 : indent;
    const width = options.lineWidth ?? BEST_WIDTH;
    this.width = width < 0 ? Number.POSITIVE_INFINITY : width <= this.indent * 2 ? BEST_WIDTH : width;
    this.lineWidth =
      options.lineWidth === undefined || options.lineWidth === -1 ? undefined : options.lineWidth;
  }

  scalar(s: string, wanted: Style, place: Place): string {
    const style = finalStyle(wanted, analyze(s), place.simpleKey, s === '');
    switch (style) {
      case 'plain':
        return this.plain(s, place);
      case 'single':
        return this.single(s, place);
      case 'double':
        return this.double(s, place);
      case 'literal':
        return this.block('|', s, place);
      case 'folded':
        return this.block('>', s, place);
    }
  }

  private plain(s: string, place: Place): string {
    let out = '';
    let column = place.column;
    let spaces = false;
    const chars = [...s];
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      if (c === ' ') {
        if (!place.simpleKey && !spaces && column > this.width && chars[i + 1] !== ' ') {
          out += `\n${' '.repeat(place.indent)}`;
          column = place.indent;
        } else {
          out += c;
          column++;
        }
        spaces = true;
      } else {
        out += c;
        column++;
        spaces = false;
      }
    }
    return out;
  }

  private single(s: string, place: Place): string {
    let out = "'";
    let column = place.column + 1;
    let spaces = false;
    let breaks = false;
    const chars = [...s];
    const indent = () => {
      out += ' '.repeat(place.indent);
      column = place.indent;
    };
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      if (c === ' ') {
        const inner = i !== 0 && i !== chars.length - 1;
        if (!place.simpleKey && !spaces && column > this.width && inner && chars[i + 1] !== ' ') {
          out += '\n';
          indent();
        } else {
          out += c;
          column++;
        }
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === '\n') out += '\n';
        out += '\n';
        column = 0;
        breaks = true;
      } else {
        if (breaks) indent();
        out += c === "'" ? "''" : c;
        column += c === "'" ? 2 : 1;
        spaces = false;
        breaks = false;
      }
    }
    if (breaks) indent();
    return `${out}'`;
  }

  private double(s: string, place: Place): string {
    let out = '"';
    let column = place.column + 1;
    let spaces = false;
    const chars = [...s];
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      if (!isPrintable(c) || c === '\ufeff' || isBreak(c) || c === '"' || c === '\\') {
        const esc = doubleEscape(c);
        out += esc;
        column += esc.length;
        spaces = false;
      } else if (c === ' ') {
        const inner = i !== 0 && i !== chars.length - 1;
        if (!place.simpleKey && !spaces && column > this.width && inner) {
          out += `\n${' '.repeat(place.indent)}`;
          column = place.indent;
          if (chars[i + 1] === ' ') {
            out += '\\';
            column++;
          }
        } else {
          out += c;
          column++;
        }
        spaces = true;
      } else {
        out += c;
        column++;
        spaces = false;
      }
    }
    return `${out}"`;
  }

  /** A `|` (literal) or `>` (folded) block scalar, with libyaml's indentation and chomping hints. */
  private block(indicator: '|' | '>', s: string, place: Place): string {
    let hints = '';
    if (s.startsWith(' ') || isBreak(s[0] ?? '')) hints += String(this.indent);
    const last = s[s.length - 1];
    if (last === undefined || !isBreak(last)) hints += '-';
    else if (s.length === 1 || isBreak(s[s.length - 2]!)) hints += '+';
    this.openEnded = hints.endsWith('+');
    const body = indicator === '|' ? this.literalBody(s, place.indent) : this.foldedBody(s, place.indent);
    // The caller adds the final line break; a block ends right after its last content line break.
    const out = `${indicator}${hints}\n${body}`;
    return out.endsWith('\n') ? out.slice(0, -1) : out;
  }

  private literalBody(s: string, indent: number): string {
    let out = '';
    let breaks = true;
    for (const c of s) {
      if (isBreak(c)) {
        out += '\n';
        breaks = true;
      } else {
        if (breaks) out += ' '.repeat(indent);
        out += c;
        breaks = false;
      }
    }
    return out;
  }

  /** libyaml's folded writer: lines fold at single spaces past the width; a break between text lines doubles. */
  private foldedBody(s: string, indent: number): string {
    const chars = [...s];
    let out = '';
    let column = 0;
    let breaks = true;
    let leadingSpaces = true;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      if (isBreak(c)) {
        if (!breaks && !leadingSpaces && c === '\n') {
          let k = i;
          while (k < chars.length && isBreak(chars[k]!)) k++;
          if (!isBlankOrEnd(chars[k])) out += '\n';
        }
        out += '\n';
        column = 0;
        breaks = true;
      } else {
        if (breaks) {
          out += ' '.repeat(indent);
          column = indent;
          leadingSpaces = c === ' ' || c === '\t';
        }
        if (!breaks && c === ' ' && chars[i + 1] !== ' ' && column > this.width) {
          out += `\n${' '.repeat(indent)}`;
          column = indent;
        } else {
          out += c;
          column++;
        }
        breaks = false;
      }
    }
    return out;
  }

  /** A scalar node (not a collection), with the style Psych asks for. */
  node(v: Value, place: Place): string {
    if (typeof v === 'string') return this.scalarNode(v, place);
    if (v === undefined) return place.simpleKey ? "! ''" : '';
    if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
    if (v instanceof PFloat) {
      const f = v.value;
      if (Number.isNaN(f)) return '.nan';
      if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
      return formatFloat(f);
    }
    if (v instanceof PDefault) return ':default';
    if (v instanceof PRegexp) return `!ruby/regexp /${v.source}/`;
    return this.scalarNode(rubyText(v), place);
  }

  private scalarNode(s: string, place: Place): string {
    // Psych writes the merge key `<<` as an explicitly tagged string.
    if (s === '<<') return "!!str '<<'";
    return this.scalar(s, psychStyle(s, this.lineWidth), place);
  }
}

function doubleEscape(c: string): string {
  switch (c) {
    case '\0':
      return '\\0';
    case '\x07':
      return '\\a';
    case '\b':
      return '\\b';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\v':
      return '\\v';
    case '\f':
      return '\\f';
    case '\r':
      return '\\r';
    case '\x1b':
      return '\\e';
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\u0085':
      return '\\N';
    case '\u00a0':
      return '\\_';
    case '\u2028':
      return '\\L';
    case '\u2029':
      return '\\P';
    default: {
      const code = c.codePointAt(0)!;
      if (code <= 0xff) return `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
      if (code <= 0xffff) return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
      return `\\U${code.toString(16).toUpperCase().padStart(8, '0')}`;
    }
  }
}

function isCollection(v: Value): v is Value[] | PHash {
  return Array.isArray(v) || v instanceof Map;
}

function isEmptyCollection(v: Value): boolean {
  return (Array.isArray(v) && v.length === 0) || (v instanceof Map && v.size === 0);
}

/** The text of a value written inline at `column` (a scalar or an empty collection). */
function inline(w: YamlWriter, v: Value, column: number, indent: number, simpleKey = false): string {
  if (Array.isArray(v)) return '[]';
  if (v instanceof Map) return '{}';
  return w.node(v, { column, indent, simpleKey });
}

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    n += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return n;
}

/** A key is "simple" (written `key: `) when it is a short single-line scalar or an empty collection. */
function isSimpleKey(k: Value): boolean {
  if (isEmptyCollection(k)) return true;
  if (isCollection(k)) return false;
  const text = typeof k === 'string' ? k : rubyText(k);
  return utf8Length(text) <= 128 && !/[\n\r\u0085\u2028\u2029]/.test(text);
}

/** Lines of a non-empty mapping whose keys start at `column` (the first line without its indentation). */
function writeMapping(w: YamlWriter, map: PHash, column: number): string {
  const pad = ' '.repeat(column);
  const parts: string[] = [];
  for (const [k, v] of map) {
    if (isSimpleKey(k)) {
      const key = inline(w, k, column, column + w.indent, true);
      parts.push(`${key}:${writeMappingValue(w, v, column, column + [...key].length + 1)}`);
    } else {
      // A complex key (`? key` then `: value`): the value starts on the `:` line, even a collection.
      const key = `? ${writeValue(w, k, column + 2, column + w.indent)}\n${pad}:`;
      parts.push(
        key +
          (isCollection(v) && !isEmptyCollection(v)
            ? writeItem(w, v, column)
            : writeMappingValue(w, v, column, column + 1)),
      );
    }
  }
  return parts.join(`\n${pad}`);
}

/** A mapping's value: a nested mapping indents, a sequence does not (libyaml's indentless sequences). */
function writeMappingValue(w: YamlWriter, v: Value, column: number, valueColumn: number): string {
  const inner = column + w.indent;
  if (v instanceof Map && v.size > 0) return `\n${' '.repeat(inner)}${writeMapping(w, v, inner)}`;
  if (Array.isArray(v) && v.length > 0) return `\n${' '.repeat(column)}${writeSequence(w, v, column)}`;
  const text = inline(w, v, valueColumn + 1, inner);
  return text === '' ? '' : ` ${text}`;
}

/** Lines of a non-empty sequence whose dashes are at `column` (the first line without its indentation). */
function writeSequence(w: YamlWriter, seq: readonly Value[], column: number): string {
  const pad = ' '.repeat(column);
  return seq.map((item) => `-${writeItem(w, item, column)}`).join(`\n${pad}`);
}

/** A sequence item: a nested collection starts on the dash's line, at the next indentation level. */
function writeItem(w: YamlWriter, item: Value, column: number): string {
  const inner = column + w.indent;
  const gap = ' '.repeat(w.indent - 1);
  if (item instanceof Map && item.size > 0) return `${gap}${writeMapping(w, item, inner)}`;
  if (Array.isArray(item) && item.length > 0) return `${gap}${writeSequence(w, item, inner)}`;
  const text = inline(w, item, column + 2, inner);
  return text === '' ? '' : ` ${text}`;
}

/** A node written after an indicator at `column`, continuation lines indented by `indent`. */
function writeValue(w: YamlWriter, v: Value, column: number, indent: number): string {
  if (v instanceof Map && v.size > 0) return writeMapping(w, v, indent);
  if (Array.isArray(v) && v.length > 0) return writeSequence(w, v, indent);
  return inline(w, v, column, indent);
}

/** Psych's `value.to_yaml(options)`: a `---` document. */
export function toYaml(value: Value, options: YamlOptions = {}): string {
  const w = new YamlWriter(options);
  let body: string;
  if (isCollection(value) && !isEmptyCollection(value)) {
    body = `---\n${value instanceof Map ? writeMapping(w, value, 0) : writeSequence(w, value as Value[], 0)}\n`;
  } else {
    const text = inline(w, value, 4, w.indent);
    body = text === '' ? '---\n' : `--- ${text}\n`;
  }
  return w.openEnded ? `${body}...\n` : body;
}

function yamlOptions(options: Value): YamlOptions {
  if (options === undefined) return {};
  if (!(options instanceof Map)) {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `'to_yaml' parameter 'options' expects a Hash value, got ${typeName(options)}`,
    );
  }
  let indentation: number | undefined;
  let lineWidth: number | undefined;
  for (const [k, v] of options) {
    if (v === undefined) continue;
    if ((k === 'indentation' || k === 'line_width') && isInteger(v)) {
      if (k === 'indentation') indentation = Number(v);
      else lineWidth = Number(v);
    } else {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `'to_yaml' supports the options indentation and line_width (Integers), got ${String(k)} => ${typeName(v)}`,
      );
    }
  }
  if (lineWidth !== undefined && lineWidth < -1) {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `Invalid line_width ${lineWidth}, must be non-negative or -1 for unlimited.`,
    );
  }
  return {
    ...(indentation !== undefined ? { indentation } : {}),
    ...(lineWidth !== undefined ? { lineWidth } : {}),
  };
}

const toYamlFn = defineFunction('to_yaml', 1, 2, (_ctx, [data, options]) =>
  toYaml(data, yamlOptions(options)),
);

/** puppetlabs-stdlib 9 names its functions `stdlib::to_yaml` too (the plain name is its deprecated shim). */
const namespaced = (fn: FunctionDef): FunctionDef => ({ ...fn, name: `stdlib::${fn.name}` });

export const serializationFunctions: FunctionDef[] = [
  toJsonFn,
  toJsonPrettyFn,
  toYamlFn,
  namespaced(toJsonFn),
  namespaced(toJsonPrettyFn),
  namespaced(toYamlFn),
];
