/**
 * Puppet's StringConverter: the format of `String(x, format)` and the type-to-format maps, parsed, merged
 * and sorted as Puppet does.
 */
import { EppEvalError } from '../../errors.js';
import { isPuppetType, type PType, resolveTypeName } from '../types.js';
import type { PHash, Value } from '../values.js';
import { checkStringFormats } from './formats-type.js';

export interface StringFormat {
  readonly orig: string;
  readonly conv: string;
  readonly alt: boolean;
  readonly left: boolean;
  readonly zeroPad: boolean;
  readonly plus: 'space' | 'plus' | 'ignore';
  readonly width: number | undefined;
  readonly prec: number | undefined;
  readonly delimiters: string | undefined;
  readonly separator?: string | undefined;
  readonly separator2?: string | undefined;
  readonly containerFormats?: FormatMap | undefined;
}

type Matcher = (v: Value) => boolean;
/** Type-to-format entries, most specific first; `key` is the Puppet type when the entry has one. */
interface FormatEntry {
  readonly key: PType | undefined;
  readonly matches: Matcher;
  readonly format: StringFormat;
}
export type FormatMap = readonly FormatEntry[];

const FMT_PATTERN = /^%([\s[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/;

export function conversionError(message: string): EppEvalError {
  return new EppEvalError('EPP_CONVERSION', message);
}

function parseStringFormat(fmt: string, extra: Partial<StringFormat> = {}): StringFormat {
  const m = FMT_PATTERN.exec(fmt);
  if (!m)
    throw conversionError(
      `The format '${fmt}' is not a valid format on the form '%<flags><width>.<prec><format>'`,
    );
  const flags = [...m[1]!];
  if (new Set(flags).size !== flags.length)
    throw conversionError(`The same flag can only be used once, got '${fmt}'`);
  const delims = flags.filter((f) => '[{(<|'.includes(f));
  if (delims.length > 1) {
    throw conversionError(
      `Only one of the delimiters [ { ( < | can be given in the format flags, got '${fmt}'`,
    );
  }
  return {
    orig: fmt,
    conv: m[4]!,
    alt: flags.includes('#'),
    left: flags.includes('-'),
    zeroPad: flags.includes('0'),
    plus: flags.some((f) => /\s/.test(f)) ? 'space' : flags.includes('+') ? 'plus' : 'ignore',
    width: m[2] ? Number(m[2]) : undefined,
    prec: m[3] ? Number(m[3]) : undefined,
    delimiters: delims[0],
    ...extra,
  };
}

const entry = (typeName: string, format: StringFormat): FormatEntry => {
  const key = resolveTypeName(typeName)!;
  return { key, matches: (v) => key.isInstance(v), format };
};
export const anyEntry = (format: StringFormat): FormatEntry => entry('Any', format);

export const DEFAULT_CONTAINER_FORMATS: FormatMap = [anyEntry(parseStringFormat('%p'))];
export const DEFAULT_STRING_FORMATS: FormatMap = [
  entry('Float', parseStringFormat('%f')),
  entry('Numeric', parseStringFormat('%d')),
  entry(
    'Array',
    parseStringFormat('%a', {
      separator: ', ',
      separator2: ', ',
      containerFormats: DEFAULT_CONTAINER_FORMATS,
    }),
  ),
  entry(
    'Hash',
    parseStringFormat('%h', {
      separator: ', ',
      separator2: ' => ',
      containerFormats: DEFAULT_CONTAINER_FORMATS,
    }),
  ),
  entry('Binary', parseStringFormat('%B')), // strict base64, unquoted
  anyEntry(parseStringFormat('%s')),
];

export function getFormat(v: Value, map: FormatMap): StringFormat {
  for (const e of map) if (e.matches(v)) return e.format;
  return parseStringFormat('%s');
}

/** A `String(x, format)` format argument: a format string or a hash of type to format. */
export function userFormats(value: Value, format: Value): FormatMap {
  if (typeof format === 'string') {
    const f = parseStringFormat(format);
    if (Array.isArray(value)) return mergeFormats(DEFAULT_STRING_FORMATS, [entry('Array', f)]);
    if (value instanceof Map) return mergeFormats(DEFAULT_STRING_FORMATS, [entry('Hash', f)]);
    // The value's own (exact) type: only the value itself matches it.
    return [{ key: undefined, matches: (v) => Object.is(v, value), format: f }, ...DEFAULT_STRING_FORMATS];
  }
  checkStringFormats(format);
  return mergeFormats(DEFAULT_STRING_FORMATS, formatEntries(format as PHash));
}

/**
 * Puppet's `merge_string_formats`: a lower entry goes when a different higher key covers its type, entries
 * of the same type merge (the higher format, the lower separators), and the result is ordered most
 * specific type first.
 */
function mergeFormats(lower: FormatMap, higher: FormatMap): FormatMap {
  const kept = lower.filter(
    (l) => !higher.some((h) => h.key && l.key && !h.key.equals(l.key) && h.key.isAssignable(l.key)),
  );
  const merged: FormatEntry[] = [];
  for (const e of [...kept, ...higher]) {
    const i = merged.findIndex((m) => m.key && e.key && m.key.equals(e.key));
    if (i < 0) {
      merged.push(e);
      continue;
    }
    const low = merged[i]!.format;
    merged[i] = {
      ...e,
      format: {
        ...e.format,
        separator: e.format.separator ?? low.separator,
        separator2: e.format.separator2 ?? low.separator2,
        containerFormats:
          e.format.containerFormats && low.containerFormats
            ? mergeFormats(low.containerFormats, e.format.containerFormats)
            : (e.format.containerFormats ?? low.containerFormats),
      },
    };
  }
  return sortFormats(merged);
}

const TYPE_RANK: Record<string, number> = {
  Struct: 1,
  Hash: 2,
  Tuple: 3,
  Array: 4,
  Pattern: 10,
  Enum: 11,
  String: 12,
};

/** Orders entries so that a type comes before the types that cover it (Puppet's `sort_formats`). */
function sortFormats(entries: FormatEntry[]): FormatEntry[] {
  const out: FormatEntry[] = [];
  for (const e of entries) {
    let i = out.findIndex((o) => compareEntries(e, o) < 0);
    if (i < 0) i = out.length;
    out.splice(i, 0, e);
  }
  return out;
}

function compareEntries(a: FormatEntry, b: FormatEntry): number {
  if (!a.key || !b.key) return 0;
  if (a.key.equals(b.key)) return 0;
  const ab = b.key.isAssignable(a.key);
  const ba = a.key.isAssignable(b.key);
  if (ab && !ba) return -1;
  if (!ab && ba) return 1;
  const ra = TYPE_RANK[a.key.name] ?? 0;
  const rb = TYPE_RANK[b.key.name] ?? 0;
  if (ra === 0 || rb === 0) return compareText(a.key.toString(), b.key.toString());
  return ra - rb;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function formatEntries(hash: PHash): FormatEntry[] {
  const out: FormatEntry[] = [];
  for (const [key, fmt] of hash) {
    if (!isPuppetType(key)) throw conversionError('top level keys in the format hash must be data types');
    const matches: Matcher = (v) => key.isInstance(v);
    if (typeof fmt === 'string') out.push({ key, matches, format: parseStringFormat(fmt) });
    else if (fmt instanceof Map) out.push({ key, matches, format: containerFormat(fmt) });
    else throw conversionError('a format must be a String or a Hash');
  }
  return out;
}

function containerFormat(hash: PHash): StringFormat {
  const allowed = ['separator', 'separator2', 'format', 'string_formats'];
  for (const k of hash.keys()) {
    if (typeof k !== 'string' || !allowed.includes(k)) {
      throw conversionError(
        `only 'separator', 'separator2', 'format', 'string_formats' are allowed in a container format`,
      );
    }
  }
  const fmt = hash.get('format');
  const sep = hash.get('separator');
  const sep2 = hash.get('separator2');
  const nested = hash.get('string_formats');
  return parseStringFormat(typeof fmt === 'string' ? fmt : '%s', {
    separator: typeof sep === 'string' ? sep : undefined,
    separator2: typeof sep2 === 'string' ? sep2 : undefined,
    containerFormats: nested instanceof Map ? sortFormats(formatEntries(nested)) : undefined,
  });
}
