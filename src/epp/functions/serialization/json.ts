/**
 * puppetlabs-stdlib's `to_json` and `to_json_pretty`, byte for byte as Ruby 3.1 produces them: `to_json` is
 * Ruby's `JSON.generate`, `to_json_pretty` is `JSON.pretty_generate` plus a final newline (including json
 * 2.6's way of printing empty collections, `[\n\n]` and `{\n}`).
 */
import { EppEvalError } from '../../errors.js';
import { formatFloat } from '../../runtime/format.js';
import { checkTextLength } from '../../runtime/text-size.js';
import { PFloat, type Value } from '../../runtime/values.js';
import { typeLabel } from '../arguments.js';
import { defineFunction } from '../registry.js';
import { rubyToS } from '../ruby-text.js';

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
      out += `${layout.objectNl}${inner}${jsonString(rubyToS(k))}${layout.spaceBefore}:${layout.space}`;
      out += generate(val, layout, depth + 1);
    }
    return `${out}${layout.objectNl}${layout.indent.repeat(depth)}}`;
  }
  return jsonString(rubyToS(v));
}

/** Ruby's `JSON.generate(value)`: compact, keys as strings. */
export function toJson(value: Value): string {
  checkTextLength(value, 'the JSON text of the value');
  return generate(value, COMPACT, 0);
}

/** Ruby's `JSON.pretty_generate(value)` (2-space indent), or with the given layout. */
export function toJsonPretty(value: Value, layout: Partial<JsonLayout> = {}): string {
  checkTextLength(value, 'the JSON text of the value');
  return generate(value, { ...PRETTY, ...layout }, 0);
}

export const toJsonFn = defineFunction('stdlib::to_json', 1, 1, (_ctx, [data]) => toJson(data));

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
      `'stdlib::to_json_pretty' parameter 'opts' expects a Hash, got ${typeLabel(opts)}`,
    );
  const layout: Record<string, string> = {};
  for (const [k, v] of opts) {
    if (k === 'allow_nan' || k === 'max_nesting') continue;
    const key = typeof k === 'string' ? LAYOUT_KEYS[k] : undefined;
    if (!key)
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `'stdlib::to_json_pretty' parameter 'opts' has no key ${String(k)}`,
      );
    if (v === undefined) continue;
    if (typeof v !== 'string')
      throw new EppEvalError('EPP_ARGUMENTS', `'stdlib::to_json_pretty' option '${k}' expects a String`);
    layout[key] = v;
  }
  return layout as Partial<JsonLayout>;
}

export const toJsonPrettyFn = defineFunction(
  'stdlib::to_json_pretty',
  1,
  3,
  (_ctx, [data, skipUndef, opts]) => {
    if (!Array.isArray(data) && !(data instanceof Map)) {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `'stdlib::to_json_pretty' parameter 'data' expects a value of type Hash or Array, got ${typeLabel(data)}`,
      );
    }
    if (skipUndef !== undefined && typeof skipUndef !== 'boolean') {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `'stdlib::to_json_pretty' parameter 'skip_undef' expects a value of type Undef or Boolean, got ${typeLabel(skipUndef)}`,
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
  },
);
