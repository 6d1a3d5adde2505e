/**
 * stdlib's string functions (issue 12's second group): paths (basename, dirname, stdlib::extname, with
 * Ruby's `File` rules), squeeze, swapcase, dos2unix, unix2dos, stdlib::start_with, stdlib::end_with,
 * stdlib::crc32, stdlib::sha256, stdlib::xml_encode; with the conversions (conversions.ts), the
 * escapes (escapes.ts) and the IP address functions (ip.ts), exported as one list.
 */
import { EppEvalError } from '../../errors.js';
import { characters } from '../../runtime/characters.js';
import { describeMismatch } from '../../runtime/types.js';
import { PSensitive, type Value } from '../../runtime/values.js';
import { argumentMismatch, puppetType, signatureMismatch } from '../arguments.js';
import { defineFunction, type FunctionDef } from '../registry.js';
import { rubyInspect, rubyToS } from '../ruby-text.js';
import { runtime3 } from '../runtime3.js';
import { nodeCrypto } from '../strings.js';
import { stdlibConversionFunctions } from './conversions.js';
import { stdlibEscapeFunctions } from './escapes.js';
import { stdlibIpFunctions } from './ip.js';
import { notAString, rubyClass } from './ruby.js';
import { parseError, stringOrArrayMapper } from './support.js';

// ---------------------------------------------------------------------------------------------------------
// Paths, as Ruby's File.basename / File.dirname / File.extname (on Unix)

/** The last component of a path: trailing slashes ignored, `/` for a root, `''` for `''`. */
function lastComponent(path: string): string {
  if (path === '') return '';
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** Where a component's extension starts: its last dot after any leading dots, or its length. */
function extensionStart(base: string): number {
  const leadingDots = /^\.*/.exec(base)![0].length;
  const dot = base.lastIndexOf('.');
  return dot >= leadingDots ? dot : base.length;
}

/**
 * Ruby's `File.basename(path, suffix)`: `.*` removes any extension, `c*` everything from the last `c`,
 * another suffix is removed when the name ends with it and is longer than it.
 */
function rubyBasename(path: string, suffix?: string): string {
  const base = lastComponent(path);
  if (suffix === undefined || suffix === '' || base === '/') return base;
  const chars = characters(suffix);
  if (chars.length === 2 && chars[1] === '*') {
    const cut = chars[0] === '.' ? extensionStart(base) : base.lastIndexOf(chars[0]!);
    return cut > 0 ? base.slice(0, cut) : base;
  }
  return base.length > suffix.length && base.endsWith(suffix) ? base.slice(0, -suffix.length) : base;
}

/** Ruby's `File.dirname`: leading slashes count as one root, `.` when there is no directory. */
function rubyDirname(path: string): string {
  const leading = /^\/*/.exec(path)![0].length;
  const root = leading > 0 ? '/' : '';
  const body = path.slice(leading).replace(/\/+$/, '');
  const sep = body.lastIndexOf('/');
  if (sep < 0) return root === '' ? '.' : root;
  return root + body.slice(0, sep).replace(/\/+$/, '');
}

/** Ruby's `File.extname`: `''` for none or a leading dot only, `.` for a trailing dot. */
function rubyExtname(path: string): string {
  const base = lastComponent(path);
  if (base === '/') return '';
  const start = extensionStart(base);
  return start === base.length ? '' : base.slice(start);
}

const basename = defineFunction('basename', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length === 0) throw parseError('basename', 'No arguments given');
  if (args.length > 2) throw parseError('basename', `Too many arguments given (${args.length})`);
  const [path, suffix] = args;
  if (typeof path !== 'string') throw parseError('basename', 'Requires string as first argument');
  if (args.length === 2 && typeof suffix !== 'string') {
    throw parseError('basename', 'Requires string as second argument');
  }
  return rubyBasename(path, suffix as string | undefined);
});

const dirname = defineFunction('dirname', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length === 0) throw parseError('dirname', 'No arguments given');
  if (args.length > 1) throw parseError('dirname', `Too many arguments given (${args.length})`);
  const [path] = args;
  if (typeof path !== 'string') throw parseError('dirname', 'Requires string as argument');
  if (path === '') throw parseError('dirname', 'Requires a non-empty string as argument');
  return rubyDirname(path);
});

const STRING = puppetType('String');

function stringParam(fn: string, param: string, v: Value): string {
  if (typeof v !== 'string') throw argumentMismatch(fn, param, STRING, v);
  return v;
}

const extname = defineFunction('stdlib::extname', 1, 1, (_ctx, [filename]) =>
  rubyExtname(stringParam('stdlib::extname', 'filename', filename)),
);

// ---------------------------------------------------------------------------------------------------------
// squeeze, swapcase, line endings

/**
 * The characters of a Ruby `tr`-style set (`a-z`, `^abc`, `\-`), as a test: a leading `^` negates, `x-y`
 * is a range, a backslash makes the next character literal, a `-` at the end is itself.
 */
function rubyCharSet(spec: string): (c: string) => boolean {
  let chars = characters(spec);
  const negated = chars.length > 1 && chars[0] === '^';
  if (negated) chars = chars.slice(1);
  const singles = new Set<number>();
  const ranges: [number, number][] = [];
  for (let i = 0; i < chars.length; ) {
    if (chars[i] === '\\' && i + 1 < chars.length) i++;
    const from = chars[i++]!.codePointAt(0)!;
    if (chars[i] === '-' && i + 1 < chars.length) {
      const to = chars[i + 1]!.codePointAt(0)!;
      i += 2;
      if (from > to) {
        const range = from < 0x80 && to < 0x80 ? ` "${String.fromCodePoint(from, 45, to)}"` : '';
        throw new EppEvalError('EPP_ARGUMENTS', `invalid range${range} in string transliteration`);
      }
      ranges.push([from, to]);
    } else {
      singles.add(from);
    }
  }
  return (c) => {
    const cp = c.codePointAt(0)!;
    return singles.has(cp) || ranges.some(([a, b]) => cp >= a && cp <= b) ? !negated : negated;
  };
}

/** Ruby's `String#squeeze(set)`: runs of one character (of the set, when given) become one. */
function rubySqueeze(s: string, inSet: (c: string) => boolean): string {
  let out = '';
  let previous: string | undefined;
  for (const c of s) {
    if (c !== previous || !inSet(c)) out += c;
    previous = c;
  }
  return out;
}

const squeeze = defineFunction('squeeze', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 1 && args.length !== 2) {
    throw parseError('squeeze', `Wrong number of arguments given ${args.length} for 2 or 1`);
  }
  const [item, set] = args;
  const one = (v: Value): string => {
    if (typeof v !== 'string') {
      const receiver = v === undefined ? 'nil' : rubyInspect(v);
      throw new EppEvalError('EPP_ARGUMENTS', `undefined method \`squeeze' for ${receiver}:${rubyClass(v)}`);
    }
    // Ruby's `if squeezeval`: undef arrives as '' (which squeezes nothing); only false means "all". The
    // set is read when a String squeezes, after the item's own method is found.
    if (set !== undefined && set !== false && typeof set !== 'string') throw notAString(set);
    return rubySqueeze(v, typeof set === 'string' ? rubyCharSet(set) : () => true);
  };
  return Array.isArray(item) ? item.map(one) : one(item);
});

/** Ruby's `String#swapcase`: each character's case swapped (`ß` becomes `SS`). */
function rubySwapcase(s: string): string {
  let out = '';
  for (const c of s) {
    const lower = c.toLowerCase();
    out += lower !== c ? lower : c.toUpperCase();
  }
  return out;
}

function lineEndings(name: string, f: (s: string) => string): FunctionDef {
  // Their Ruby declares an arity of 1: Puppet counts, in Ruby's words.
  return defineFunction(name, 1, 1, (_ctx, [text]) => {
    if (typeof text !== 'string') throw parseError(name, 'Requires string as argument');
    return f(text);
  });
}

// ---------------------------------------------------------------------------------------------------------
// start_with, end_with

const AFFIXES = puppetType(
  'Variant',
  puppetType('String', 1),
  puppetType('Array', puppetType('String', 1), 1),
);

function affixTest(name: string, param: string, test: (s: string, affix: string) => boolean): FunctionDef {
  return defineFunction(name, 2, 2, (_ctx, [text, affixes]) => {
    const s = stringParam(name, 'test_string', text);
    if (!AFFIXES.isInstance(affixes)) {
      throw signatureMismatch(name, `(String test_string, ${AFFIXES} ${param})`, param, AFFIXES, affixes);
    }
    const list = Array.isArray(affixes) ? (affixes as string[]) : [affixes as string];
    return list.some((affix) => test(s, affix));
  });
}

// ---------------------------------------------------------------------------------------------------------
// crc32, sha256

/**
 * What stdlib's digests accept: `Variant[ScalarData, Sensitive[ScalarData], Binary, Sensitive[Binary]]`.
 * Pantograph has no Binary value, so the check leaves it out and the message puts it back.
 */
const DIGEST_DATA = puppetType(
  'Variant',
  puppetType('ScalarData'),
  puppetType('Sensitive', puppetType('ScalarData')),
);

/** The text a digest reads: Ruby's `to_s` of the value, unwrapped from Sensitive. */
function digestText(fn: string, v: Value): string {
  if (!DIGEST_DATA.isInstance(v)) {
    const message = describeMismatch(DIGEST_DATA, v, `'${fn}' parameter 'my_data'`);
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      message.replace(
        'ScalarData or Sensitive[ScalarData]',
        'ScalarData, Sensitive[ScalarData], Binary, or Sensitive[Binary]',
      ),
    );
  }
  return rubyToS(v instanceof PSensitive ? v.value : v);
}

let crcTable: Uint32Array | undefined;

/** Zlib's CRC-32 (the IEEE polynomial) of some bytes. */
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const crc32Fn = defineFunction('stdlib::crc32', 1, 1, (_ctx, [data]) =>
  // Ruby's `Zlib.crc32(...).to_s(16)`: lowercase hex without leading zeros.
  crc32(new TextEncoder().encode(digestText('stdlib::crc32', data))).toString(16),
);

const sha256Fn = defineFunction('stdlib::sha256', 1, 1, (_ctx, [data]) =>
  nodeCrypto('stdlib::sha256')
    .createHash('sha256')
    .update(digestText('stdlib::sha256', data), 'utf8')
    .digest('hex'),
);

// ---------------------------------------------------------------------------------------------------------
// xml_encode

const XML_TEXT: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const XML_ATTR: Readonly<Record<string, string>> = { ...XML_TEXT, '"': '&quot;', "'": '&apos;' };
const XML_MODE = puppetType('Enum', 'text', 'attr');

const xmlEncode = defineFunction('stdlib::xml_encode', 1, 2, (_ctx, args) => {
  const text = stringParam('stdlib::xml_encode', 'str', args[0]);
  const mode = args.length > 1 ? args[1] : 'text';
  if (!XML_MODE.isInstance(mode)) throw argumentMismatch('stdlib::xml_encode', 'type', XML_MODE, mode);
  // Ruby's `String#encode(xml: :attr)` also puts the value in double quotes.
  if (mode === 'attr') return `"${text.replace(/[&<>"']/g, (c) => XML_ATTR[c]!)}"`;
  return text.replace(/[&<>]/g, (c) => XML_TEXT[c]!);
});

export const stdlibStringFunctions: FunctionDef[] = [
  ...[
    basename,
    dirname,
    squeeze,
    stringOrArrayMapper('swapcase', rubySwapcase),
    lineEndings('dos2unix', (s) => s.replace(/\r\n/g, '\n')),
    lineEndings('unix2dos', (s) => s.replace(/\r*\n/g, '\r\n')),
  ].map(runtime3),
  extname,
  affixTest('stdlib::start_with', 'prefixes', (s, affix) => s.startsWith(affix)),
  affixTest('stdlib::end_with', 'suffixes', (s, affix) => s.endsWith(affix)),
  crc32Fn,
  sha256Fn,
  xmlEncode,
  ...stdlibConversionFunctions,
  ...stdlibEscapeFunctions,
  ...stdlibIpFunctions,
];
