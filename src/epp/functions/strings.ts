/**
 * String functions of Puppet 7 core: case (upcase, downcase, capitalize, camelcase), whitespace (strip,
 * lstrip, rstrip, chomp, chop), regular expressions (split, regsubst, match), formatting (sprintf,
 * shellquote, strftime), versioncmp and digests (md5, sha1, sha256).
 *
 * They follow Ruby's String methods, which Puppet calls: `strip` removes ASCII whitespace and NUL only,
 * `split` drops trailing empty fields and returns capture groups, `regsubst` understands `\0`..`\9`.
 * Where Puppet maps a function over an array (upcase of an array upcases each element), so do these.
 */
import { EppEvalError } from '../errors.js';
import { characterCount, firstCharacters } from '../runtime/characters.js';
import { compareBytes, setEql } from '../runtime/compare.js';
import {
  formatTimespan,
  rubyCapitalize,
  rubyDowncase,
  rubyLstrip,
  rubyRstrip,
  rubyStrip,
  sprintf,
  strftime,
  stringify,
} from '../runtime/format.js';
import { searchingRegExp } from '../runtime/regexp/translate.js';
import {
  MAX_COLLECTION_SIZE,
  MAX_STRING_LENGTH,
  textTooLong,
  tooManyElements,
} from '../runtime/size-limits.js';
import { describeMismatch, PatternType, type PType, RegexpType, VariantType } from '../runtime/types.js';
import {
  isNumeric,
  type PHash,
  PRegexp,
  PTimespan,
  PTimestamp,
  toJsRegExp,
  type Value,
} from '../runtime/values.js';
import { argumentMismatch, noMatchingSignature, puppetType, typeLabel } from './arguments.js';
import { dispatch, refusal, type Signature, typeOf } from './conversion/dispatch.js';
import { flattenDeep } from './flatten.js';
import { defineFunction, type FunctionDef } from './registry.js';
import { runtime3 } from './runtime3.js';
import { noMethod, notAString, rubyClass } from './stdlib/ruby.js';

/**
 * An argument of the wrong type, in Puppet's describer's words: the expected type shortened as it
 * shortens it, the value by its type (`got Tuple` for `[1]`, `got Struct` for `{a => 1}`).
 */
function argError(fn: string, param: string, expected: PType, got: Value): EppEvalError {
  return argumentMismatch(fn, param, expected, got);
}

/** An argument of the wrong type, said as `expected` (where Puppet's text is not the describer's). */
function argTextError(fn: string, param: string, expected: string, got: Value): EppEvalError {
  return new EppEvalError(
    'EPP_ARGUMENTS',
    `'${fn}' parameter '${param}' expects ${expected}, got ${typeLabel(got)}`,
  );
}

const STRING = puppetType('String');
// The types of these messages are made on first use: a one-shot render's import allocates nothing for
// them (what an import allocates decides whether the first scavenge falls inside the first render).
const NUMERIC = typeOf('Numeric');
/** What the case and whitespace functions take (Puppet names the iterable `Iterable[Variant]`). */
const STRING_MAPPER_ARG = typeOf(
  'Variant',
  NUMERIC,
  STRING,
  typeOf('Iterable', typeOf('Variant', STRING, NUMERIC)),
);
const UPCASE_ARG = typeOf('Variant', NUMERIC, STRING, typeOf('Array'), typeOf('Hash'));
const ARRAY_OF_STRING = typeOf('Array', STRING);
const REGSUBST_TARGET = typeOf('Variant', ARRAY_OF_STRING, STRING);
const REGSUBST_REPLACEMENT = typeOf('Variant', STRING, typeOf('Hash', STRING, STRING));
const REGSUBST_PATTERN = typeOf('Variant', typeOf('Regexp'), typeOf('Type', typeOf('Regexp')));
const MATCH_STRING = typeOf('Variant', STRING, ARRAY_OF_STRING);

function stringArg(fn: string, param: string, v: Value): string {
  if (typeof v !== 'string') throw argError(fn, param, STRING, v);
  return v;
}

// ---------------------------------------------------------------------------------------------------------
// Case and whitespace

/**
 * A function of Puppet's shape `Numeric -> itself, String -> f(s), Iterable[Variant[String, Numeric]] ->
 * each mapped`: capitalize, camelcase, strip, lstrip, rstrip, chomp, chop.
 */
function stringMapper(name: string, f: (s: string) => string): FunctionDef {
  const one = (v: Value): Value => {
    if (typeof v === 'string') return f(v);
    if (isNumeric(v)) return v;
    throw argError(name, 'arg', STRING_MAPPER_ARG(), v);
  };
  return defineFunction(name, 1, 1, (_ctx, [arg]) => (Array.isArray(arg) ? arg.map(one) : one(arg)));
}

/** upcase / downcase: also map hashes (keys and values) and nested arrays, as Puppet's StringData does. */
function deepStringMapper(name: string, f: (s: string) => string): FunctionDef {
  const deep = (v: Value): Value => {
    if (typeof v === 'string') return f(v);
    if (isNumeric(v)) return v;
    if (Array.isArray(v)) return v.map(deep);
    if (v instanceof Map) {
      const out: PHash = new Map();
      for (const [k, val] of v) setEql(out, deep(k), deep(val));
      return out;
    }
    throw argTextError(name, 'arg', 'a value of type Numeric, String, Array or Hash of strings', v);
  };
  return defineFunction(name, 1, 1, (_ctx, [arg]) => {
    // What no signature takes at all is Puppet's dispatcher's message (a Binary: "got Binary").
    if (typeof arg !== 'string' && !isNumeric(arg) && !Array.isArray(arg) && !(arg instanceof Map)) {
      throw argError(name, 'arg', UPCASE_ARG(), arg);
    }
    return deep(arg);
  });
}

function camelcase(s: string): string {
  return s
    .split('_')
    .map((part) => rubyCapitalize(part))
    .join('');
}

/** Ruby's `String#chomp`: one trailing `\r\n`, `\n` or `\r`. */
function chomp(s: string): string {
  if (s.endsWith('\r\n')) return s.slice(0, -2);
  if (s.endsWith('\n') || s.endsWith('\r')) return s.slice(0, -1);
  return s;
}

/** Ruby's `String#chop`: the last character, or a trailing `\r\n` together. */
function chop(s: string): string {
  if (s.endsWith('\r\n')) return s.slice(0, -2);
  return firstCharacters(s, characterCount(s) - 1);
}

// ---------------------------------------------------------------------------------------------------------
// Regular expressions

/** A String compiled as a regexp; what it cannot compile fails with Ruby's `RegexpError`: `why: /source/`. */
function compile(source: string, rubyOptions = ''): RegExp {
  try {
    return toJsRegExp(source, rubyOptions);
  } catch (e) {
    throw new EppEvalError('EPP_ARGUMENTS', `${(e as Error).message}: /${source}/`);
  }
}

/** A pattern argument: a Regexp, a String (compiled as a regexp) or a `Regexp[/.../]` type. */
function patternRegExp(fn: string, pattern: Value): RegExp {
  if (pattern instanceof PRegexp) return pattern.regex;
  if (typeof pattern === 'string') return compile(pattern);
  if (pattern instanceof RegexpType) return compile(pattern.pattern ?? '');
  throw argTextError(fn, 'pattern', 'a value of type String, Regexp, or Type[Regexp]', pattern);
}

function charLength(s: string, index: number): number {
  const code = s.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff && index + 1 < s.length ? 2 : 1;
}

/** Ruby's `String#split(regexp)` without limit: captures are included, trailing empty fields dropped. */
export function rubySplit(str: string, re: RegExp): string[] {
  const g = searchingRegExp(re);
  const out: string[] = [];
  const len = str.length;
  let beg = 0;
  let start = 0;
  let lastNull = false;
  while (start <= len) {
    g.lastIndex = start;
    const m = g.exec(str);
    if (!m) break;
    const end = m.index;
    if (start === end && m[0].length === 0) {
      if (len === 0) {
        out.push('');
        break;
      }
      if (lastNull) {
        out.push(str.slice(beg, beg + charLength(str, beg)));
        beg = start;
      } else {
        start += start === len ? 1 : charLength(str, start);
        lastNull = true;
        continue;
      }
    } else {
      out.push(str.slice(beg, end));
      beg = start = end + m[0].length;
    }
    lastNull = false;
    for (let i = 1; i < m.length; i++) if (m[i] !== undefined) out.push(m[i]!);
    // A long string split at every character (or with captures) is more fields than an array may hold.
    if (out.length > MAX_COLLECTION_SIZE) throw tooManyElements('the Array of split()');
  }
  if (len > 0 && len > beg) out.push(str.slice(beg));
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

const split = defineFunction('split', 2, 2, (_ctx, [str, pattern]) => {
  const s = stringArg('split', 'str', str);
  return rubySplit(s, patternRegExp('split', pattern));
});

/** Expands a Ruby replacement string: `\0` `\&` whole match, `\1`..`\9`, `\k<name>`, `` \` `` `\'`, `\\`. */
function expandReplacement(replacement: string, m: RegExpExecArray, input: string): string {
  if (!replacement.includes('\\')) return replacement;
  return replacement.replace(
    /\\(\d|&|`|'|\\|k<([^>]*)>)/g,
    (_all, what: string, name: string | undefined) => {
      if (name !== undefined) return m.groups?.[name] ?? '';
      if (what === '&' || what === '0') return m[0];
      if (what === '`') return input.slice(0, m.index);
      if (what === "'") return input.slice(m.index + m[0].length);
      if (what === '\\') return '\\';
      // Ruby: a regexp with named groups has no numbered ones for the replacement (`\1` gives '').
      if (m.groups !== undefined) return '';
      return m[Number(what)] ?? '';
    },
  );
}

/** Ruby's `sub` / `gsub` with a string or hash replacement. */
function substitute(input: string, re: RegExp, replacement: string | PHash, global: boolean): string {
  const g = searchingRegExp(re);
  let out = '';
  let last = 0;
  let m: RegExpExecArray | null;
  g.lastIndex = 0;
  while ((m = g.exec(input)) !== null) {
    out += input.slice(last, m.index);
    out +=
      typeof replacement === 'string'
        ? expandReplacement(replacement, m, input)
        : hashReplacement(replacement, m[0]);
    last = m.index + m[0].length;
    if (!global) break;
    // Each match may put in a long replacement: the text is bounded as it grows, not once it is built.
    if (out.length > MAX_STRING_LENGTH) throw textTooLong('the text of regsubst()');
    if (m[0].length === 0) {
      if (m.index >= input.length) break;
      const step = charLength(input, m.index);
      out += input.slice(m.index, m.index + step);
      last = m.index + step;
      g.lastIndex = last;
    }
  }
  return out + input.slice(last);
}

function hashReplacement(hash: PHash, matched: string): string {
  const v = hash.get(matched);
  return typeof v === 'string' ? v : v === undefined ? '' : stringify(v);
}

/** regsubst's dispatches: a String pattern (with flags and an encoding), then a Regexp pattern. */
const REGSUBST_STRING =
  "(Variant[Array[String], String] target, String pattern, Variant[String, Hash[String, String]] replacement, Pattern[/^[GEIM]*$/] flags?, Enum['E', 'N', 'S', 'U'] encoding?)";
const REGSUBST_REGEXP =
  '(Variant[Array[String], String] target, Variant[Regexp, Type[Regexp]] pattern, Variant[String, Hash[String, String]] replacement, Pattern[/^G?$/] flags?)';

/**
 * regsubst's arguments refused by both dispatches: each refuses them for its own reason, the other
 * dispatch always at the pattern's type, so Puppet lists both (`regexpFault` for the Regexp dispatch).
 */
function regsubstRefused(pattern: Value, stringFault: string, regexpFault: string): EppEvalError {
  return noMatchingSignature('regsubst', [
    [
      REGSUBST_STRING,
      typeof pattern === 'string' ? stringFault : describeMismatch(STRING, pattern, "parameter 'pattern'"),
    ],
    [REGSUBST_REGEXP, regexpFault],
  ]);
}

/** A string pattern of regsubst, compiled with its flags `E` (extended), `I` (ignore case), `M` (dot-all). */
function stringPattern(pattern: string, flags: string, encoding: Value): RegExp {
  if (!/^[GEIM]*$/.test(flags)) {
    throw regsubstRefused(
      pattern,
      `parameter 'flags' expects an undef value or a match for Pattern[/^[GEIM]*$/], got '${flags}'`,
      "parameter 'pattern' expects a value of type Regexp or Type[Regexp], got String",
    );
  }
  if (encoding !== undefined && !(typeof encoding === 'string' && /^[NESU]$/.test(encoding))) {
    throw argTextError('regsubst', 'encoding', "an Enum['N', 'E', 'S', 'U'] value", encoding);
  }
  // Ruby's options: I ignores case, M lets `.` match a newline, E is extended (spaces and comments).
  const options =
    (flags.includes('I') ? 'i' : '') + (flags.includes('M') ? 'm' : '') + (flags.includes('E') ? 'x' : '');
  return compile(pattern, options);
}

/** A Regexp pattern of regsubst: only the `G` flag applies, and there is no encoding argument. */
function regexpPattern(pattern: Value, flags: string, argCount: number): RegExp {
  if (argCount > 4) {
    throw regsubstRefused(pattern, '', `expects between 3 and 4 arguments, got ${argCount}`);
  }
  if (!/^G?$/.test(flags)) {
    throw regsubstRefused(
      pattern,
      '',
      `parameter 'flags' expects a match for Pattern[/^G?$/], got '${flags}'`,
    );
  }
  return patternRegExp('regsubst', pattern);
}

const regsubst = defineFunction('regsubst', 3, 5, (_ctx, args) => {
  const [target, pattern, replacement, flags, encoding] = args;
  const targets = Array.isArray(target) ? target : [target];
  if (!targets.every((t) => typeof t === 'string')) {
    throw argError('regsubst', 'target', REGSUBST_TARGET(), target);
  }
  if (typeof replacement !== 'string' && !(replacement instanceof Map)) {
    // One dispatch refuses the replacement, the other the pattern's kind: Puppet lists both.
    const fault = describeMismatch(REGSUBST_REPLACEMENT(), replacement, "parameter 'replacement'");
    const patternFault = describeMismatch(REGSUBST_PATTERN(), pattern, "parameter 'pattern'");
    throw regsubstRefused(pattern, fault, typeof pattern === 'string' ? patternFault : fault);
  }
  if (flags !== undefined && typeof flags !== 'string') throw argError('regsubst', 'flags', STRING, flags);
  const flagText = flags ?? '';
  const re =
    typeof pattern === 'string'
      ? stringPattern(pattern, flagText, encoding)
      : regexpPattern(pattern, flagText, args.length);
  const results = targets.map((t) => substitute(t as string, re, replacement, flagText.includes('G')));
  return Array.isArray(target) ? results : results[0];
});

/** The regexps a `match()` pattern stands for, tried in order (a Pattern type or an array holds several). */
function matchPatterns(pattern: Value): RegExp[] {
  if (typeof pattern === 'string') return [compile(pattern)];
  if (pattern instanceof PRegexp) return [pattern.regex];
  if (pattern instanceof RegexpType) {
    if (pattern.pattern === undefined)
      throw new EppEvalError('EPP_ARGUMENTS', 'Given Regexp Type has no regular expression');
    return [compile(pattern.pattern)];
  }
  if (pattern instanceof PatternType) return pattern.patterns.map((p) => p.regex);
  if (pattern instanceof VariantType) return pattern.types.flatMap((t) => matchPatterns(t));
  if (Array.isArray(pattern)) return pattern.flatMap((p) => matchPatterns(p));
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    `match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got ${rubyClass(pattern)}`,
  );
}

function matchOne(s: string, patterns: readonly RegExp[]): Value {
  for (const re of patterns) {
    const m = re.exec(s);
    if (m) return [...m].map((g) => g as Value);
  }
  return undefined;
}

const match = defineFunction('match', 2, 2, (_ctx, [str, pattern]) => {
  // Puppet's dispatches check the string first, the pattern after (in the function's body).
  if (typeof str !== 'string' && !(Array.isArray(str) && str.every((s) => typeof s === 'string'))) {
    throw matchStringRefused(str);
  }
  // Puppet reads the pattern for each string matched: an empty array never reads it.
  if (Array.isArray(str) && str.length === 0) return [];
  const patterns = matchPatterns(pattern);
  if (typeof str === 'string') return matchOne(str, patterns);
  return str.map((s) => matchOne(s as string, patterns));
});

/**
 * A string argument neither of match's dispatches takes: one message when both refuse its type alike
 * (`got Integer`), else each dispatch with why (an Array with an element that is no String).
 */
function matchStringRefused(str: Value): EppEvalError {
  if (!Array.isArray(str)) return argError('match', 'string', MATCH_STRING(), str);
  return noMatchingSignature('match', [
    ['(String string, Variant[Any, Type] pattern)', describeMismatch(STRING, str, "parameter 'string'")],
    [
      '(Array[String] string, Variant[Any, Type] pattern)',
      describeMismatch(ARRAY_OF_STRING(), str, "parameter 'string'"),
    ],
  ]);
}

// ---------------------------------------------------------------------------------------------------------
// Formatting

// A Puppet 3 function: Ruby's `Kernel#sprintf` refuses a format that is no String in its own words.
const sprintfFn = runtime3(
  defineFunction('sprintf', 1, Number.POSITIVE_INFINITY, (_ctx, [format, ...args]) => {
    if (typeof format !== 'string') throw notAString(format);
    return sprintf(format, args);
  }),
);

const SHELL_SAFE = /^[a-zA-Z0-9@%_+=:,./-]+$/;
const SHELL_DANGEROUS = /[!"`$\\]/;

/** Puppet's shellquote: each word quoted for a Bourne shell as needed, joined with spaces. */
export function shellquote(words: readonly string[]): string {
  return words
    .map((word) => {
      if (SHELL_SAFE.test(word)) return word;
      if (!SHELL_DANGEROUS.test(word)) return `"${word}"`;
      if (!word.includes("'")) return `'${word}'`;
      return `"${word.replace(/[!"`$\\]/g, '\\$&')}"`;
    })
    .join(' ');
}

/**
 * A word as shellquote.rb reads it (Ruby's String methods on each word): a String (runtime3 has made an
 * undef argument '' and a regexp its text; an undef nested in an array is nil); any other value fails as
 * Ruby fails on it.
 */
function shellWord(v: Value): string {
  if (typeof v === 'string') return v;
  // A Hash has a length; it fails where the word is joined to a quote.
  if (v instanceof Map) throw notAString(v);
  throw noMethod('length', v);
}

const shellquoteFn = runtime3(
  defineFunction('shellquote', 0, Number.POSITIVE_INFINITY, (_ctx, args) =>
    shellquote(flattenDeep(args).map(shellWord)),
  ),
);

/** strftime's dispatches, which Puppet lists when none takes the arguments. */
const STRFTIME_SIGNATURES: readonly Signature[] = [
  [
    { name: 'time_object', type: typeOf('Timespan') },
    { name: 'format', type: typeOf('String') },
  ],
  [
    { name: 'time_object', type: typeOf('Timestamp') },
    { name: 'format', type: typeOf('String') },
    { name: 'timezone', type: typeOf('String'), optional: true },
  ],
  [
    { name: 'format', type: typeOf('String') },
    { name: 'timezone', type: typeOf('String'), optional: true },
  ],
];

const strftimeFn = defineFunction('strftime', 1, 3, (_ctx, args) => {
  const [time, format, timezone] = args;
  if (time instanceof PTimespan) {
    // Puppet's format_timespan: the Timespan's own format, which takes no timezone.
    if (args.length > 2) {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `'strftime' expects 2 arguments when formatting a Timespan, got ${args.length}`,
      );
    }
    return formatTimespan(time, stringArg('strftime', 'format', format));
  }
  if (typeof time === 'string') {
    // A call no dispatch takes (`strftime('%F', true)`) is refused as Puppet refuses it, before ours.
    dispatch('strftime', STRFTIME_SIGNATURES, args);
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      "'strftime' of the current time (strftime(format)) is not supported: templates render the same output on every run; pass a Timestamp",
    );
  }
  if (!(time instanceof PTimestamp)) throw refusal('strftime', STRFTIME_SIGNATURES, args);
  const fmt = stringArg('strftime', 'format', format);
  if (timezone !== undefined && typeof timezone !== 'string')
    throw argError('strftime', 'timezone', STRING, timezone);
  return strftime(time, fmt, timezone);
});

// ---------------------------------------------------------------------------------------------------------
// versioncmp and digests

function normalizeVersion(version: string): string {
  const parts = version.split('-');
  parts[0] = parts[0]!.replace(/[.0]+$/, '');
  return parts.join('-');
}

/** Puppet's `versioncmp`: -1, 0 or 1, comparing dot/dash separated numeric and text segments. */
export function versioncmp(a: string, b: string, ignoreTrailingZeroes = false): number {
  const va = ignoreTrailingZeroes ? normalizeVersion(a) : a;
  const vb = ignoreTrailingZeroes ? normalizeVersion(b) : b;
  const ax = va.match(/[-.]|\d+|[^-.\d]+/g) ?? [];
  const bx = vb.match(/[-.]|\d+|[^-.\d]+/g) ?? [];
  const n = Math.min(ax.length, bx.length);
  for (let i = 0; i < n; i++) {
    const x = ax[i]!;
    const y = bx[i]!;
    if (x === y) continue;
    if (x === '-') return -1;
    if (y === '-') return 1;
    if (x === '.') return -1;
    if (y === '.') return 1;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) {
      if (x.startsWith('0') || y.startsWith('0')) return compareBytes(x.toUpperCase(), y.toUpperCase());
      const bx1 = BigInt(x);
      const by1 = BigInt(y);
      return bx1 < by1 ? -1 : bx1 > by1 ? 1 : 0;
    }
    return compareBytes(x.toUpperCase(), y.toUpperCase());
  }
  return compareBytes(va, vb);
}

const versioncmpFn = defineFunction('versioncmp', 2, 3, (_ctx, [a, b, ignore]) => {
  const x = stringArg('versioncmp', 'a', a);
  const y = stringArg('versioncmp', 'b', b);
  if (ignore !== undefined && typeof ignore !== 'boolean') {
    throw argError('versioncmp', 'ignore_trailing_zeroes', puppetType('Boolean'), ignore);
  }
  return versioncmp(x, y, ignore === true);
});

/** node:crypto; a browser has no synchronous hash, so there these functions say so. */
export function nodeCrypto(fn: string): typeof import('node:crypto') {
  const get = globalThis.process?.getBuiltinModule;
  if (typeof get !== 'function') {
    throw new EppEvalError('EPP_UNSUPPORTED', `${fn}() needs Node.js: it is not available in a browser`);
  }
  return get('node:crypto') as typeof import('node:crypto');
}

function digest(name: string, algorithm: string): FunctionDef {
  return runtime3(
    defineFunction(name, 1, 1, (_ctx, [arg]) => {
      // A 3.x function: Puppet passes undef to it as the empty string, and Ruby's digest refuses any other
      // value that is no String ("no implicit conversion of Integer into String").
      if (arg !== undefined && typeof arg !== 'string') throw notAString(arg);
      // Loaded on first use: node:crypto costs start-up time that most renders never need.
      return nodeCrypto(name)
        .createHash(algorithm)
        .update(arg ?? '', 'utf8')
        .digest('hex');
    }),
  );
}

export const stringFunctions: FunctionDef[] = [
  deepStringMapper('upcase', (s) => s.toUpperCase()),
  deepStringMapper('downcase', rubyDowncase),
  stringMapper('capitalize', rubyCapitalize),
  stringMapper('camelcase', camelcase),
  stringMapper('strip', rubyStrip),
  stringMapper('lstrip', rubyLstrip),
  stringMapper('rstrip', rubyRstrip),
  stringMapper('chomp', chomp),
  stringMapper('chop', chop),
  split,
  regsubst,
  match,
  sprintfFn,
  shellquoteFn,
  strftimeFn,
  versioncmpFn,
  digest('md5', 'md5'),
  digest('sha1', 'sha1'),
  digest('sha256', 'sha256'),
  // Puppet's `digest` uses the `digest_algorithm` setting, sha256 unless configured (a template has none).
  digest('digest', 'sha256'),
];
