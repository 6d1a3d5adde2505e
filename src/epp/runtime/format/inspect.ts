/**
 * Ruby's `inspect` and `to_s` texts of values: `String#inspect`, `%p` / `%s` of arguments, regexps with
 * delimiters, the redacted Sensitive text.
 */

import { checkTextLength } from '../text-size.js';
import { objectText } from '../types/text.js';
import {
  PBinary,
  PDefault,
  PFloat,
  type PHash,
  PObject,
  PRegexp,
  PSensitive,
  PSymbol,
  PTimeData,
  type Value,
} from '../values.js';
import { formatFloat } from './floats.js';
import type { RubyArg } from './sprintf-spec.js';
import { timeDataToString } from './timestamps.js';

export const REDACTED = 'Sensitive [value redacted]';

/** Ruby's `String#inspect` for UTF-8 strings. */
export function rubyInspectString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const code = c.charCodeAt(0);
    switch (c) {
      case '"':
        out += '\\"';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\v':
        out += '\\v';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\x07':
        out += '\\a';
        break;
      case '\x1b':
        out += '\\e';
        break;
      case '#': {
        const next = s[i + 1];
        out += next === '{' || next === '$' || next === '@' ? '\\#' : '#';
        break;
      }
      default: {
        // C0 and C1 controls and DEL, but U+0085 (next line), which Ruby's inspect counts as printable.
        if (code < 0x20 || (code >= 0x7f && code <= 0x9f && code !== 0x85)) {
          out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
          break;
        }
        if (code < 0x0378) {
          out += c;
          break;
        }
        const point = s.codePointAt(i)!;
        const char = String.fromCodePoint(point);
        if (point > 0xffff) i++;
        out += UNPRINTABLE.test(char) ? unicodeEscape(point) : char;
      }
    }
  }
  return `${out}"`;
}

/**
 * What Ruby's inspect escapes beyond the controls: line and paragraph separators and unassigned code points
 * (Ruby 3.1 knows Unicode 13; Node's tables may know a few more assigned ones).
 */
const UNPRINTABLE = /^[\u2028\u2029\p{Cn}]$/u;

function unicodeEscape(point: number): string {
  const hex = point.toString(16).toUpperCase();
  return point > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/** Ruby's `to_s` of a converted argument (`%s`). */
export function rubyToS(v: RubyArg): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  if (Array.isArray(v) || v instanceof Map) return rubyInspect(v);
  return rubyScalarText(v);
}

/** Ruby's `inspect` of a converted argument (`%p`, and inside arrays and hashes). */
export function rubyInspect(v: RubyArg): string {
  checkTextLength(v as Value, 'the inspected text of the value');
  return inspect(v);
}

function inspect(v: RubyArg): string {
  if (typeof v === 'string') return rubyInspectString(v);
  if (v === undefined) return 'nil';
  if (Array.isArray(v)) return `[${v.map(inspect).join(', ')}]`;
  if (v instanceof Map) {
    const parts: string[] = [];
    for (const [k, val] of v) parts.push(`${inspect(k)}=>${inspect(val)}`);
    return `{${parts.join(', ')}}`;
  }
  if (v instanceof PDefault) return ':default';
  if (v instanceof PSensitive) return `#<${REDACTED}>`;
  if (v instanceof PRegexp || v instanceof PTimeData || v instanceof PBinary) {
    return rubyInspectString(rubyScalarText(v));
  }
  if (v instanceof PSymbol)
    return /^[A-Za-z_][A-Za-z0-9_]*[?!=]?$/.test(v.name) ? `:${v.name}` : `:${rubyInspectString(v.name)}`;
  return rubyScalarText(v);
}

export function rubyScalarText(v: Exclude<Value, string | undefined | Value[] | PHash>): string {
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PFloat) return formatFloat(v.value);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof PRegexp) return regexpWithDelimiters(v);
  if (v instanceof PSensitive) return REDACTED;
  if (v instanceof PTimeData) return timeDataToString(v);
  if (v instanceof PDefault) return 'default';
  if (v instanceof PObject) return objectText(v);
  return v.display();
}

/** Ruby's `Regexp#inspect`: the source between slashes. */
export function regexpWithDelimiters(r: PRegexp): string {
  return sourceWithDelimiters(r.source);
}

/** A regexp source between slashes, as Ruby prints a regexp of it (also in `Pattern[...]`, `Regexp[...]`). */
export function sourceWithDelimiters(source: string): string {
  return `/${rubyRegexpSource(source)}/`;
}

/** Ruby's `Regexp#to_s`: `(?-mix:source)`, what `join`, `to_json` and `fail` print for a regexp. */
export function rubyRegexpToS(r: PRegexp): string {
  return `(?-mix:${rubyRegexpBody(r)})`;
}

/**
 * A regexp's source as Ruby prints it (inspect and to_s alike): a `/` that the source leaves bare is
 * escaped. Puppet's lexer unescapes `\/` in a literal before Ruby makes the Regexp, so `/a\/b/` prints
 * `/a\/b/` again.
 */
function rubyRegexpBody(r: PRegexp): string {
  return rubyRegexpSource(r.source);
}

function rubyRegexpSource(source: string): string {
  return source.replace(/(\\.)|\//g, (_m, esc: string | undefined) => esc ?? '\\/');
}
