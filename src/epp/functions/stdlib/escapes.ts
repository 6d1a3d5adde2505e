/**
 * stdlib's escaping functions: for a POSIX shell (stdlib::shell_escape, shell_join, shell_split: Ruby's
 * Shellwords), for cmd.exe (stdlib::batch_escape), for PowerShell (stdlib::powershell_escape), for a
 * regexp (regexpescape: Ruby's `Regexp.escape`) and for a URI (uriescape: Ruby's `URI::DEFAULT_PARSER.escape`).
 * The `stdlib::` functions print any value with Ruby's `to_s` first; each also answers to its deprecated
 * name without the namespace.
 */
import { EppEvalError } from '../../errors.js';
import { defineFunction, type FunctionDef } from '../registry.js';
import { rubyInspect, rubyToS } from '../ruby-text.js';
import { runtime3 } from '../runtime3.js';
import { deprecatedAlias, parseError, stringOrArrayMapper } from './support.js';

/** Ruby's `Shellwords.escape`: a backslash before each character but `A-Za-z0-9_-.,:+/@`, a newline quoted. */
function shellEscape(s: string): string {
  if (s === '') return "''";
  return s.replace(/[^A-Za-z0-9_\-.,:+/@\n]/gu, '\\$&').replace(/\n/g, "'\n'");
}

/** A `stdlib::` function of one value of any type, escaping its Ruby `to_s`. */
function escaper(name: string, f: (s: string) => string): FunctionDef {
  return defineFunction(name, 1, 1, (_ctx, [value]) => f(rubyToS(value)));
}

/** stdlib::batch_escape: in double quotes, `"` doubled, `$` and `\` after a backslash. */
function batchEscape(s: string): string {
  return `"${s.replace(/"/g, '""').replace(/[$\\]/g, '\\$&')}"`;
}

/** stdlib::powershell_escape: a backtick before space, `'`, `` ` ``, `|`, newline and `$`; `"` as ``\`"``. */
function powershellEscape(s: string): string {
  return s.replace(/[ '`|\n$"]/g, (c) => (c === '"' ? '\\`"' : `\`${c}`));
}

const shellJoin = defineFunction('shell_join', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 1) {
    throw parseError('shell_join', `Wrong number of arguments given (${args.length} for 1)`);
  }
  const [words] = args;
  if (!Array.isArray(words)) {
    throw new EppEvalError('EPP_ARGUMENTS', `First argument is not an Array: ${rubyInspect(words)}`);
  }
  return words.map((w) => shellEscape(rubyToS(w))).join(' ');
});

/**
 * Ruby's Shellwords.split pattern: a word, a quoted part, an escape or a stray character, then a space or
 * the end (`(\s|\z)?` in Ruby; an optional group never captures an empty match in JavaScript, so the
 * end is an alternative to nothing).
 */
const SHELL_TOKEN =
  /[ \t\n\v\f\r]*(?:([^ \t\n\v\f\r\\'"]+)|'([^']*)'|"((?:[^"\\]|\\[\s\S])*)"|(\\[\s\S]?)|([^ \t\n\v\f\r]))(?:([ \t\n\v\f\r]|$)|)/y;

/** Ruby's `Shellwords.split`: the words of a line as a POSIX shell reads them. */
function shellSplit(line: string): string[] {
  const words: string[] = [];
  let field = '';
  SHELL_TOKEN.lastIndex = 0;
  for (let m = SHELL_TOKEN.exec(line); m; m = SHELL_TOKEN.exec(line)) {
    const [, word, single, double, escaped, garbage, separator] = m;
    if (garbage !== undefined)
      throw new EppEvalError('EPP_ARGUMENTS', `Unmatched quote: ${rubyInspect(line)}`);
    field +=
      word ??
      single ??
      double?.replace(/\\([$`"\\\n])/g, '$1') ??
      // Ruby's `.` leaves a backslash before a newline.
      escaped!.replace(/\\(.)/g, '$1');
    if (separator !== undefined) {
      words.push(field);
      field = '';
    }
  }
  return words;
}

const shellSplitFn = defineFunction('shell_split', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 1) {
    throw parseError('shell_split', `Wrong number of arguments given (${args.length} for 1)`);
  }
  return shellSplit(rubyToS(args[0]));
});

const REGEXP_ESCAPES: Readonly<Record<string, string>> = {
  ' ': '\\ ',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\f': '\\f',
  '\v': '\\v',
};

/** Ruby's `Regexp.escape`. */
function regexpEscape(s: string): string {
  return s.replace(/[ \t\n\r\f\v[\]{}()|\-*.\\?+^$#]/g, (c) => REGEXP_ESCAPES[c] ?? `\\${c}`);
}

/** Ruby's `URI::DEFAULT_PARSER.escape`: each UTF-8 byte of a character outside RFC 2396's set as `%XX`. */
function uriEscape(s: string): string {
  return s.replace(/[^-_.!~*'()a-zA-Z\d;/?:@&=+$,[\]]/gu, (c) =>
    Array.from(new TextEncoder().encode(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(
      '',
    ),
  );
}

const shellEscapeFn = escaper('stdlib::shell_escape', shellEscape);
const batchEscapeFn = escaper('stdlib::batch_escape', batchEscape);
const powershellEscapeFn = escaper('stdlib::powershell_escape', powershellEscape);

export const stdlibEscapeFunctions: FunctionDef[] = [
  shellEscapeFn,
  deprecatedAlias(shellEscapeFn),
  batchEscapeFn,
  deprecatedAlias(batchEscapeFn),
  powershellEscapeFn,
  deprecatedAlias(powershellEscapeFn),
  runtime3(shellJoin),
  runtime3(shellSplitFn),
  runtime3(stringOrArrayMapper('regexpescape', regexpEscape)),
  runtime3(stringOrArrayMapper('uriescape', uriEscape)),
];
