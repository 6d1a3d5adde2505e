/**
 * puppetlabs-stdlib's `to_yaml`, byte for byte as Psych's `to_yaml` (options `indentation` and
 * `line_width`) writes it: the document, its mappings and sequences laid out around the scalars that
 * {@link YamlWriter} writes. Values that are not data (regexps, types, Sensitive, timestamps) print as
 * Ruby's `to_s` of them.
 */
import { EppEvalError } from '../../errors.js';
import { checkTextLength } from '../../runtime/text-size.js';
import { isInteger, type PHash, type Value } from '../../runtime/values.js';
import { typeLabel } from '../arguments.js';
import { defineFunction } from '../registry.js';
import { rubyToS } from '../ruby-text.js';
import { type YamlOptions, YamlWriter } from './yaml-writer.js';

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
  const text = typeof k === 'string' ? k : rubyToS(k);
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
  checkTextLength(value, 'the YAML text of the value');
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
      `'stdlib::to_yaml' parameter 'options' expects a Hash value, got ${typeLabel(options)}`,
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
        `'stdlib::to_yaml' supports the options indentation and line_width (Integers), got ${String(k)} => ${typeLabel(v)}`,
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

export const toYamlFn = defineFunction('stdlib::to_yaml', 1, 2, (_ctx, [data, options]) =>
  toYaml(data, yamlOptions(options)),
);
