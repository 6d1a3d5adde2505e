/**
 * Puppet's StringConverter: `String(x)` and `String(x, format)`, value by value.
 */
import type { EppEvalError } from '../../errors.js';
import { checkTextLength } from '../text-size.js';
import { timeToFloat, timeToInteger } from '../time.js';
import { objectText } from '../types/text.js';
import {
  float,
  integer,
  PBinary,
  PDefault,
  PFloat,
  type PHash,
  type PInteger,
  PIterator,
  PObject,
  PRegexp,
  PSemVer,
  PSemVerRange,
  PSensitive,
  PSymbol,
  PTimeData,
  type Value,
} from '../values.js';
import { formatFloat } from './floats.js';
import { regexpWithDelimiters } from './inspect.js';
import { puppetQuote } from './quote.js';
import { toRubyInteger } from './ruby-args.js';
import { rubyCapitalize, rubyDowncase, rubyStrip } from './ruby-strings.js';
import { sprintf } from './sprintf.js';
import {
  anyEntry,
  conversionError,
  DEFAULT_CONTAINER_FORMATS,
  DEFAULT_STRING_FORMATS,
  type FormatMap,
  getFormat,
  type StringFormat,
  userFormats,
} from './string-formats.js';

/** Kernel.format with a single argument (the converter's workhorse). */
function kformat(fmt: string, arg: Value): string {
  return sprintf(fmt, [arg]);
}

function applyStringFlags(f: StringFormat, s: string): string {
  if (!f.left && f.width === undefined && f.prec === undefined) return s;
  const fmt = `%${f.left ? '-' : ''}${f.width ?? ''}${f.prec !== undefined ? `.${f.prec}` : ''}s`;
  return kformat(fmt, s);
}

interface Indentation {
  readonly level: number;
  readonly first: boolean;
  readonly indenting: boolean;
}

const DEFAULT_INDENTATION: Indentation = { level: 0, first: true, indenting: false };
const subsequent = (i: Indentation): Indentation => (i.first ? { ...i, first: false } : i);
const increase = (i: Indentation, indenting = false): Indentation => ({
  level: i.level + 1,
  first: true,
  indenting,
});
const breaks = (i: Indentation): boolean => i.indenting && i.level > 0 && !i.first;
const padding = (i: Indentation): string => ' '.repeat(2 * i.level);

function illegal(typeName: string, f: StringFormat, expected: string): EppEvalError {
  return conversionError(
    `Illegal format '${f.conv}' specified for value of ${typeName} type - expected one of the characters '${expected}'`,
  );
}

function isContainer(v: Value): boolean {
  return Array.isArray(v) || v instanceof Map;
}

function convert(v: Value, map: FormatMap, ind: Indentation): string {
  // An Iterator converts as the Array of its elements (Puppet's `string_PIteratorType`: `to_a`).
  if (v instanceof PIterator) return convert([...v.elements()], map, ind);
  const f = getFormat(v, map);
  if (v === undefined) return convertUndef(f);
  if (typeof v === 'string') return convertString(f, v);
  if (typeof v === 'number' || typeof v === 'bigint') return convertInteger(f, v);
  if (v instanceof PFloat) return convertFloat(f, v);
  if (typeof v === 'boolean') return convertBoolean(f, v, ind);
  if (Array.isArray(v)) return convertArray(f, v, map, ind);
  if (v instanceof Map) return convertHash(f, v, map, ind);
  if (v instanceof PDefault) {
    if ('dsp'.includes(f.conv)) return applyStringFlags(f, f.alt ? '"default"' : 'default');
    if (f.conv === 'D') return applyStringFlags(f, f.alt ? '"Default"' : 'Default');
    throw illegal('Default', f, 'dDsp');
  }
  if (v instanceof PRegexp) {
    if (f.conv === 'p') {
      const text = regexpWithDelimiters(v);
      return f.orig === '%p' ? text : kformat(f.orig.replace('p', 's'), text);
    }
    if (f.conv === 's') {
      const text = f.alt ? puppetQuote(v.source) : v.source;
      return f.orig === '%s' ? text : kformat(f.orig, text);
    }
    throw illegal('Regexp', f, 'sp');
  }
  if (v instanceof PTimeData) {
    // Ruby's Kernel#format of a Numeric: its `to_int` for the integer directives, its `to_f` for the
    // float ones (`String(Timespan(5), '%d')` is `5`); its `to_s` for the others.
    if ('dxXobBiu'.includes(f.conv)) return kformat(f.orig, integer(timeToInteger(v)));
    if ('eEfgGaA'.includes(f.conv)) return kformat(f.orig, float(timeToFloat(v)));
    return kformat(f.orig, v);
  }
  if (v instanceof PSensitive) return kformat(f.orig, v);
  if (v instanceof PBinary) return convertBinary(f, v);
  if (v instanceof PSemVer || v instanceof PSemVerRange) return convertVersion(f, v);
  if (v instanceof PObject) {
    // Puppet's string_PObjectType (with no `_pcore_init_hash` override): the value's `to_s`.
    if ('spq'.includes(f.conv)) return kformat(f.orig.replace(/[pq]/, 's'), objectText(v));
    throw illegal('Object', f, 'spq');
  }
  if (v instanceof PSymbol) {
    // Puppet's string_PRuntimeType: the Symbol's `to_s`, quoted by `%p`, Ruby's `inspect` by `%q`.
    if (f.conv === 's') return v.name;
    if (f.conv === 'p') return puppetQuote(v.name);
    if (f.conv === 'q') return `:${v.name}`;
    throw illegal('Runtime', f, 'spq');
  }
  // A type.
  if (f.conv === 's') return kformat(f.orig, f.alt ? `"${v.display()}"` : v.display());
  if (f.conv === 'p') return kformat(f.orig.replace('p', 's'), v.display());
  throw illegal('Type', f, 'sp');
}

/**
 * A version or range: Puppet's string_PAnyType, Ruby's `Kernel#format` of the value: `%s` its `to_s`, `%p`
 * its `inspect` (a range's simple ranges: `>=1.0.0 <2.0.0` for `1.x`); a number directive cannot take it.
 */
function convertVersion(f: StringFormat, v: PSemVer | PSemVerRange): string {
  if (f.conv === 's') return kformat(f.orig, v.toString());
  if (f.conv === 'p')
    return kformat(f.orig.replace('p', 's'), v instanceof PSemVerRange ? v.inspect() : v.toString());
  const kind = v instanceof PSemVer ? 'SemanticPuppet::Version' : 'SemanticPuppet::VersionRange';
  const target = 'eEfgGaA'.includes(f.conv) ? 'Float' : 'Integer';
  throw conversionError(`can't convert ${kind} into ${target}`);
}

/** Puppet's string_PBinaryType: `#` quotes the text, width and precision apply to it. */
function convertBinary(f: StringFormat, v: PBinary): string {
  const letter = f.alt ? 'p' : 's';
  const text = (conv: string, t: string) => kformat(f.orig.replaceAll(conv, letter), t);
  switch (f.conv) {
    case 's':
      // `#` quotes the bytes as Ruby inspects a binary string (`"\x01"`), not as text.
      return f.alt ? kformat(f.orig.replace('#', ''), rubyInspectBytes(v.bytes)) : text('s', binaryText(v));
    case 'p':
      return `Binary("${kformat(f.orig.replace('p', 's'), v.display())}")`;
    case 'b':
      return text('b', relaxedBase64(v.display()));
    case 'B':
      return text('B', v.display());
    case 'u':
      return text('u', v.display().replaceAll('+', '-').replaceAll('/', '_'));
    case 't':
      return text('t', 'Binary');
    case 'T':
      return text('T', 'BINARY');
    default:
      throw illegal('Binary', f, 'bButTsp');
  }
}

const BYTE_ESCAPES: Record<number, string> = {
  7: 'a',
  8: 'b',
  9: 't',
  10: 'n',
  11: 'v',
  12: 'f',
  13: 'r',
  27: 'e',
};

/** Ruby's `inspect` of an ASCII-8BIT string: printable ASCII as it is, other bytes as `\xFF`. */
function rubyInspectBytes(bytes: Uint8Array): string {
  let out = '"';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const next = bytes[i + 1];
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b === 0x23) out += next === 0x7b || next === 0x24 || next === 0x40 ? '\\#' : '#';
    else if (BYTE_ESCAPES[b] !== undefined) out += `\\${BYTE_ESCAPES[b]}`;
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `${out}"`;
}

/** Ruby's `Base64.encode64`: a line break after every 60 characters and at the end. */
function relaxedBase64(strict: string): string {
  let out = '';
  for (let i = 0; i < strict.length; i += 60) out += `${strict.slice(i, i + 60)}\n`;
  return out;
}

/** `%s` of a Binary: its bytes as UTF-8 text, an error if they are not (Ruby's `encode` fails alike). */
function binaryText(v: PBinary): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(v.bytes);
  } catch {
    throw conversionError(binaryNotUtf8(v.bytes));
  }
}

/**
 * Ruby's message when the bytes are no UTF-8: Puppet then transcodes them from ASCII-8BIT, which fails at
 * the first byte above 0x7F, valid UTF-8 before it or not.
 */
function binaryNotUtf8(bytes: Uint8Array): string {
  const first = bytes.find((b) => b >= 0x80) ?? 0;
  return `"\\x${first.toString(16).toUpperCase().padStart(2, '0')}" from ASCII-8BIT to UTF-8`;
}

function convertUndef(f: StringFormat): string {
  let s: string;
  if (f.conv === 'n') s = f.alt ? 'null' : 'nil';
  else if (f.conv === 'u') s = f.alt ? 'undefined' : 'undef';
  else if ('dxXobBeEfgGaA'.includes(f.conv)) s = 'NaN';
  else if (f.conv === 'v') s = 'n/a';
  else if (f.conv === 'V') s = 'N/A';
  else if (f.conv === 's') s = f.alt ? '""' : '';
  else if (f.conv === 'p') s = f.alt ? '"undef"' : 'undef';
  else throw illegal('Undef', f, 'nudxXobBeEfgGaAvVsp');
  return applyStringFlags(f, s);
}

function convertString(f: StringFormat, v: string): string {
  const variant = (text: string, letter: string) =>
    f.alt ? applyStringFlags(f, puppetQuote(text)) : kformat(f.orig.replace(letter, 's'), text);
  switch (f.conv) {
    case 's':
      return kformat(f.orig, v);
    case 'p':
      return applyStringFlags(f, puppetQuote(v, f.alt));
    case 'c':
      return variant(rubyCapitalize(v), 'c');
    case 'C':
      return variant(v.split('::').map(rubyCapitalize).join('::'), 'C');
    case 'u':
      return variant(v.toUpperCase(), 'u');
    case 'd':
      return variant(rubyDowncase(v), 'd');
    case 't':
      return variant(rubyStrip(v), 't');
    default:
      throw illegal('String', f, 'cCudspt');
  }
}

function convertInteger(f: StringFormat, v: PInteger): string {
  if ('dxXobBp'.includes(f.conv)) return kformat(f.orig, v);
  if ('eEfgGaA'.includes(f.conv)) return kformat(f.orig, float(Number(v)));
  if (f.conv === 'c') {
    if (v < 0 || v > 0x10ffff) throw conversionError(`${v} out of char range`);
    const ch = String.fromCodePoint(Number(v));
    return kformat(f.orig.replace('c', 's'), f.alt ? `"${ch}"` : ch);
  }
  if (f.conv === 's') return kformat(f.orig.replace(/s/g, f.alt ? 'p' : 's'), v.toString());
  throw illegal('Integer', f, 'dxXobBeEfgGaAspc');
}

function convertFloat(f: StringFormat, v: PFloat): string {
  if ('dxXobB'.includes(f.conv)) return kformat(f.orig, toRubyInteger(v));
  if ('eEfgGaAp'.includes(f.conv)) return kformat(f.orig, v);
  if (f.conv === 's') {
    const text = formatFloat(v.value);
    return kformat(f.orig, f.alt ? `"${text}"` : text);
  }
  throw illegal('Float', f, 'dxXobBeEfgGaAsp');
}

function convertBoolean(f: StringFormat, v: boolean, ind: Indentation): string {
  const short = (s: string) => applyStringFlags(f, f.alt ? s[0]! : s);
  switch (f.conv) {
    case 't':
      return short(String(v));
    case 'T':
      return short(v ? 'True' : 'False');
    case 'y':
      return short(v ? 'yes' : 'no');
    case 'Y':
      return short(v ? 'Yes' : 'No');
    case 's':
    case 'p':
      return applyStringFlags(f, String(v));
    default:
      if ('dxXobB'.includes(f.conv)) return convert(v ? 1 : 0, [anyEntry(f)], ind);
      if ('eEfgGaA'.includes(f.conv)) return convert(float(v ? 1 : 0), [anyEntry(f)], ind);
      throw illegal('Boolean', f, 'tTyYdxXobBeEfgGaAsp');
  }
}

const DELIMITER_MAP: Record<string, readonly [string, string]> = {
  '[': ['[', ']'],
  '{': ['{', '}'],
  '(': ['(', ')'],
  '<': ['<', '>'],
  '|': ['|', '|'],
  space: ['', ''],
};

function delimiterPair(f: StringFormat, fallback: readonly [string, string]): readonly [string, string] {
  const key = f.delimiters ?? f.plus;
  return DELIMITER_MAP[key] ?? fallback;
}

function convertArray(f: StringFormat, v: readonly Value[], map: FormatMap, ind0: Indentation): string {
  if (!'asp'.includes(f.conv)) throw illegal('Array', f, 'asp');
  const sep = f.separator ?? ', ';
  const elementFormats = f.containerFormats ?? DEFAULT_CONTAINER_FORMATS;
  const [open, close] = delimiterPair(f, ['[', ']']);
  const ind: Indentation = { ...ind0, indenting: f.alt || ind0.indenting };
  let buf = breaks(ind) ? `\n${padding(ind)}` : '';
  buf += open;
  let children = increase(ind, f.alt);
  const mapped = v.map((e) => {
    if (children.first) children = subsequent(children);
    return convert(e, isContainer(e) ? map : elementFormats, children);
  });
  let szBreak = false;
  if (f.alt && f.width !== undefined) {
    const widths = [0];
    v.forEach((e, i) => {
      if (isContainer(e)) widths.push(0);
      else widths[widths.length - 1]! += mapped[i]!.length;
    });
    szBreak = Math.max(...widths) > f.width;
  }
  children = increase(ind, f.alt);
  v.forEach((e, i) => {
    const str = mapped[i]!;
    if (children.first) {
      children = subsequent(children);
      if (szBreak && !isContainer(e)) buf += ' ';
    } else {
      buf += sep;
      if ((szBreak && !isContainer(e)) || (f.alt && i > 0 && isContainer(v[i - 1]) && !isContainer(e))) {
        if (!buf.endsWith('\n')) buf = buf.trimEnd();
        buf += `\n${padding(children)}`;
      }
    }
    if (buf.endsWith(' ') && str.startsWith('\n')) buf = buf.trimEnd();
    buf += str;
  });
  return buf + close;
}

function convertHash(f: StringFormat, v: PHash, map: FormatMap, ind0: Indentation): string {
  if (f.conv === 'a')
    return convert(
      [...v].map(([k, val]) => [k, val]),
      map,
      ind0,
    );
  if (!'hsp'.includes(f.conv)) throw illegal('Hash', f, 'hasp');
  let sep = f.separator ?? ', ';
  const assoc = f.separator2 ?? ' => ';
  const elementFormats = f.containerFormats ?? DEFAULT_CONTAINER_FORMATS;
  const [open, close] = delimiterPair(f, ['{', '}']);
  if (f.alt) sep = `${sep.endsWith('\n') ? sep : sep.trimEnd()}\n`;
  const ind: Indentation = { ...ind0, indenting: f.alt || ind0.indenting };
  let buf = breaks(ind) ? `\n${padding(ind)}` : '';
  const children = increase(ind);
  const condBreak = f.alt ? '\n' : '';
  const pad = f.alt ? padding(children) : '';
  buf += open + condBreak;
  const parts: string[] = [];
  for (const [k, val] of v) {
    const key = convert(k, isContainer(k) ? map : elementFormats, children);
    const value = convert(val, isContainer(val) ? map : elementFormats, children);
    parts.push(`${pad}${key}${assoc}${value}`);
  }
  buf += parts.join(sep);
  if (f.alt) buf += condBreak + padding(ind);
  return buf + close;
}

/**
 * `String(value)` / `String(value, format)`: strings inside collections are quoted (`['x']`), undef is
 * spelled `undef` there, a Float prints as `%f` (`1.000000`). `format` is a format string for the value
 * (`'%x'`, `'%.2f'`, `'%#p'`, `'%(a'`) or a hash of type to format, as in Puppet.
 */
export function stringify(value: Value, format?: Value): string {
  const map =
    format === undefined || format instanceof PDefault ? DEFAULT_STRING_FORMATS : userFormats(value, format);
  checkTextLength(value, 'the text of the value');
  return convert(value, map, DEFAULT_INDENTATION);
}
