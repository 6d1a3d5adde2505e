/**
 * The style a string is written in by Psych's `to_yaml`: Psych asks for one (plain, quoted, literal or
 * folded block, from what the text would load as), and libyaml may override it after analysing the text
 * (yaml_emitter_analyze_scalar, yaml_emitter_select_scalar_style).
 */
import { characterCount, characters } from '../../runtime/characters.js';

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

export type Style = 'plain' | 'single' | 'double' | 'literal' | 'folded';

/** Psych's choice of style for a String (visit_String); `lineWidth` is its `line_width` option. */
export function psychStyle(s: string, lineWidth: number | undefined): Style {
  if (innerNewline(s)) return 'literal';
  if (s === 'y' || s === 'n') return 'double';
  if (lineWidth !== undefined && characterCount(s) > lineWidth) return 'folded';
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

export const isBreak = (c: string) =>
  c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';
export const isBlankOrEnd = (c: string | undefined) =>
  c === undefined || c === ' ' || c === '\t' || isBreak(c);

/** libyaml's IS_PRINTABLE, which leaves out NEL and everything beyond the BMP (those get escaped). */
export function isPrintable(c: string): boolean {
  const code = c.codePointAt(0)!;
  return (
    code === 0x0a ||
    (code >= 0x20 && code <= 0x7e) ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd && code !== 0xfeff)
  );
}

export interface Analysis {
  readonly blockPlain: boolean;
  readonly single: boolean;
  readonly block: boolean;
  readonly multiline: boolean;
}

/** libyaml's yaml_emitter_analyze_scalar, block context. */
export function analyze(s: string): Analysis {
  if (s === '') return { blockPlain: true, single: true, block: false, multiline: false };
  const chars = characters(s);
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
export function finalStyle(wanted: Style, a: Analysis, simpleKey: boolean, empty: boolean): Style {
  let style = wanted;
  if (style === 'plain' && (!a.blockPlain || (empty && simpleKey))) style = 'single';
  if (style === 'single' && !a.single) style = 'double';
  if ((style === 'literal' || style === 'folded') && (!a.block || simpleKey)) style = 'double';
  return style;
}
