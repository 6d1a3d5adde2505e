/**
 * The EPP lexer.
 *
 * A template alternates between text and code. The lexer turns the whole template into one flat token
 * stream in which text runs are `TEXT` tokens and `<%= ... %>` is bracketed by `RENDER` / `RENDER_END`;
 * plain code tags (`<% ... %>`) leave no token of their own, so one Puppet statement may span several tags
 * (`<% if $x { %>text<% } %>`) exactly as in Puppet, where the template is one program.
 *
 * Trimming and literals are applied here, so the parser never sees them: `<%-` removes the spaces and tabs
 * before the tag, `-%>` the spaces and tabs after it plus one line break, `<%%` and `%%>` in text stand for
 * `<%` and `%>`. Other delimiters (`[% %]`) follow the same forms.
 *
 * Double-quoted strings and heredocs are lexed into parts: text, and token lists for each `${...}` or
 * `$name`, which the parser turns into expressions.
 */
import { EppSyntaxError } from './errors.js';

export type TokenKind =
  | 'TEXT'
  | 'RENDER'
  | 'RENDER_END'
  | 'PARAMS'
  | 'VARIABLE'
  | 'NAME'
  | 'TYPE'
  | 'STRING'
  | 'DQ'
  | 'NUMBER'
  | 'REGEX'
  | 'PUNCT'
  | 'KEYWORD'
  | 'EOF';

export interface Token {
  readonly kind: TokenKind;
  /** Text value: the string's content, the name, the punctuation, the number's spelling. */
  readonly value: string;
  readonly start: number;
  readonly end: number;
  /** Whitespace (or a tag boundary) precedes the token: `$a [1]` is a new array, `$a[1]` an access. */
  readonly spaceBefore: boolean;
  /** For DQ tokens (double-quoted strings, interpolating heredocs): text and interpolated token lists. */
  parts?: (string | Token[])[];
}

export interface LexOptions {
  readonly file: string;
  readonly delimiters?: readonly [string, string] | undefined;
}

const KEYWORDS = new Set([
  'and',
  'or',
  'in',
  'if',
  'elsif',
  'else',
  'unless',
  'case',
  'default',
  'true',
  'false',
  'undef',
  'class',
  'define',
  'node',
  'inherits',
]);

/** Punctuation, longest first so that `==` wins over `=`. */
const PUNCTUATION = [
  '<<|',
  '|>>',
  '=>',
  '==',
  '!=',
  '=~',
  '!~',
  '<=',
  '>=',
  '<<',
  '>>',
  '->',
  '~>',
  '<-',
  '<~',
  '<|',
  '|>',
  '+=',
  '-=',
  '::',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ';',
  ':',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '!',
  '.',
  '|',
  '?',
  '@',
];

/** The punctuation by first character, longest first: a token tries a few candidates, not all of them. */
const PUNCTUATION_BY_FIRST = new Map<string, string[]>();
for (const p of PUNCTUATION) {
  const candidates = PUNCTUATION_BY_FIRST.get(p[0]!);
  if (candidates) candidates.push(p);
  else PUNCTUATION_BY_FIRST.set(p[0]!, [p]);
}

/** Tokens after which `/` is division rather than the start of a regexp. */
function endsValue(token: Token | undefined): boolean {
  if (!token) return false;
  switch (token.kind) {
    case 'VARIABLE':
    case 'NAME':
    case 'TYPE':
    case 'STRING':
    case 'DQ':
    case 'NUMBER':
    case 'REGEX':
      return true;
    case 'KEYWORD':
      return (
        token.value === 'true' ||
        token.value === 'false' ||
        token.value === 'undef' ||
        token.value === 'default'
      );
    case 'PUNCT':
      return token.value === ')' || token.value === ']' || token.value === '}';
    default:
      return false;
  }
}

const isNameStart = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || c === '_');
const isTypeStart = (c: string | undefined) => c !== undefined && c >= 'A' && c <= 'Z';
const isWordChar = (c: string | undefined) =>
  c !== undefined &&
  ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_');
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

export function lex(source: string, options: LexOptions): Token[] {
  return new Lexer(source, options).run();
}

class Lexer {
  private pos = 0;
  private readonly tokens: Token[] = [];
  readonly open: string;
  readonly close: string;
  /** Where lexing continues after the line break that ends a line holding heredoc openers. */
  private heredocResume = -1;
  private sawTag = false;
  private sawNewlineInText = false;
  private sawNonBlankText = false;
  private interpolationDepth = 0;

  constructor(
    private readonly src: string,
    private readonly options: LexOptions,
  ) {
    const [open, close] = options.delimiters ?? ['<%', '%>'];
    this.open = open;
    this.close = close;
  }

  run(): Token[] {
    this.lexText();
    this.tokens.push({
      kind: 'EOF',
      value: '',
      start: this.src.length,
      end: this.src.length,
      spaceBefore: true,
    });
    return this.tokens;
  }

  private error(
    message: string,
    start: number,
    end = start + 1,
    code:
      | 'EPP_SYNTAX'
      | 'EPP_UNCLOSED_TAG'
      | 'EPP_UNBALANCED_TAG'
      | 'EPP_UNCLOSED_STRING'
      | 'EPP_EMPTY_RENDER_TAG'
      | 'EPP_PARAMS_NOT_FIRST' = 'EPP_SYNTAX',
  ): EppSyntaxError {
    return new EppSyntaxError(code, message, {
      file: this.options.file,
      source: this.src,
      span: { start, end: Math.min(Math.max(end, start), this.src.length) },
    });
  }

  // ---------------------------------------------------------------- text mode

  private lexText(): void {
    const { src, open, close } = this;
    const literalOpen = open + open.charAt(open.length - 1);
    const literalClose = close.charAt(0) + close;
    let text = '';
    let textStart = this.pos;
    const flush = () => {
      if (text.length > 0) {
        this.tokens.push({ kind: 'TEXT', value: text, start: textStart, end: this.pos, spaceBefore: true });
      }
      text = '';
    };
    while (this.pos < src.length) {
      const at = src.indexOf(open, this.pos);
      const chunkEnd = at < 0 ? src.length : at;
      const chunk = src.slice(this.pos, chunkEnd);
      text += chunk.includes(literalClose) ? chunk.split(literalClose).join(close) : chunk;
      this.noteText(chunk);
      this.pos = chunkEnd;
      if (at < 0) break;
      if (src.startsWith(literalOpen, at)) {
        text += open;
        this.sawNonBlankText = true;
        this.pos = at + literalOpen.length;
        continue;
      }
      const tagStart = at;
      let p = at + open.length;
      if (src[p] === '#') {
        // Comment tag. `<%#-` trims left like `<%-`.
        if (src[p + 1] === '-') text = trimTrailingBlanks(text);
        const endAt = src.indexOf(close, p);
        if (endAt < 0)
          throw this.error(
            'Unbalanced epp tag, reached <eof> without closing tag.',
            tagStart,
            src.length,
            'EPP_UNCLOSED_TAG',
          );
        const trimRight = src[endAt - 1] === '-' && endAt - 1 > p;
        this.pos = endAt + close.length;
        if (trimRight) this.skipRightTrim();
        continue;
      }
      let trimLeft = false;
      if (src[p] === '-') {
        trimLeft = true;
        p++;
      }
      let render = false;
      if (src[p] === '=') {
        if (trimLeft) throw this.error(`Syntax error at '='`, p, p + 1);
        render = true;
        p++;
      }
      if (trimLeft) text = trimTrailingBlanks(text);
      flush();
      const firstTag = !this.sawTag && !this.sawNewlineInText && !this.sawNonBlankText;
      this.sawTag = true;
      if (render) this.push('RENDER', open + '=', tagStart, p, true);
      this.pos = p;
      const closed = this.lexCode(render, firstTag, tagStart);
      textStart = this.pos;
      if (closed.trimRight) this.skipRightTrim();
      textStart = this.pos;
    }
    flush();
  }

  /** Tracks what text came before the first tag, to know whether a parameter list may still come. */
  private noteText(chunk: string): void {
    if (this.sawTag || chunk.length === 0) return;
    if (chunk.includes('\n')) this.sawNewlineInText = true;
    if (/[^ \t\r\n]/.test(chunk)) this.sawNonBlankText = true;
  }

  /** After `-%>`: spaces and tabs, then one line break (`\r\n`, `\n` or a lone `\r`). */
  private skipRightTrim(): void {
    const { src } = this;
    while (isBlank(src[this.pos])) this.pos++;
    if (src[this.pos] === '\r' && src[this.pos + 1] === '\n') this.pos += 2;
    else if (src[this.pos] === '\n' || src[this.pos] === '\r') this.pos++;
  }

  // ---------------------------------------------------------------- code mode

  /** Lexes code until the closing delimiter. Returns whether it was `-%>`. */
  private lexCode(render: boolean, firstTag: boolean, tagStart: number): { trimRight: boolean } {
    const { src, close } = this;
    const trimClose = '-' + close;
    let first = true;
    let space = true;
    const renderTokenIndex = this.tokens.length;
    while (true) {
      space = this.skipSpaceAndComments() || space;
      if (this.pos >= src.length) {
        throw this.error(
          'Unbalanced epp tag, reached <eof> without closing tag.',
          tagStart,
          src.length,
          'EPP_UNCLOSED_TAG',
        );
      }
      if (src.startsWith(trimClose, this.pos) || src.startsWith(close, this.pos)) {
        const trimRight = src[this.pos] === '-';
        const start = this.pos;
        this.pos += trimRight ? trimClose.length : close.length;
        if (render) {
          if (this.tokens.length === renderTokenIndex) {
            throw this.error(
              `Syntax error at '${trimRight ? trimClose : close}'`,
              start,
              this.pos,
              'EPP_EMPTY_RENDER_TAG',
            );
          }
          this.push('RENDER_END', close, start, this.pos, space);
        }
        return { trimRight };
      }
      if (first && src[this.pos] === '|' && !render) {
        if (!firstTag)
          throw this.error(`Syntax error at '|'`, this.pos, this.pos + 1, 'EPP_PARAMS_NOT_FIRST');
        this.push('PARAMS', '|', this.pos, this.pos + 1, space);
        this.pos++;
        first = false;
        space = false;
        continue;
      }
      first = false;
      this.lexToken(space);
      space = false;
    }
  }

  /** Skips blanks, line breaks (and pending heredoc bodies) and comments. Returns whether any was skipped. */
  private skipSpaceAndComments(): boolean {
    const { src } = this;
    const begin = this.pos;
    while (this.pos < src.length) {
      const c = src[this.pos];
      if (c === '\n') {
        this.pos = this.heredocResume >= 0 ? this.heredocResume : this.pos + 1;
        this.heredocResume = -1;
      } else if (c === ' ' || c === '\t' || c === '\r') {
        this.pos++;
      } else if (c === '#') {
        // A line comment runs to the end of the line, tag end included (as in Puppet).
        const nl = src.indexOf('\n', this.pos);
        this.pos = nl < 0 ? src.length : nl;
      } else if (c === '/' && src[this.pos + 1] === '*') {
        const endAt = src.indexOf('*/', this.pos + 2);
        if (endAt < 0) throw this.error('Unclosed comment', this.pos, src.length);
        this.pos = endAt + 2;
      } else {
        break;
      }
    }
    return this.pos > begin;
  }

  private push(kind: TokenKind, value: string, start: number, end: number, spaceBefore: boolean): Token {
    const token: Token = { kind, value, start, end, spaceBefore };
    this.tokens.push(token);
    return token;
  }

  private lexToken(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    const c = src[start]!;
    if (c === '$') {
      this.lexVariable(space);
      return;
    }
    if (c === "'") {
      this.push('STRING', this.readSingleQuoted(), start, this.pos, space);
      return;
    }
    if (c === '"') {
      this.pos++;
      const token = this.push('DQ', '', start, start, space);
      token.parts = this.readDoubleQuoted('"', start);
      (token as { end: number }).end = this.pos;
      return;
    }
    if (isDigit(c)) {
      this.lexNumber(space);
      return;
    }
    if (
      isNameStart(c) ||
      (c === ':' && src[start + 1] === ':' && (isNameStart(src[start + 2]) || isTypeStart(src[start + 2])))
    ) {
      this.lexWord(space);
      return;
    }
    if (isTypeStart(c)) {
      this.lexWord(space);
      return;
    }
    if (c === '/' && !endsValue(this.tokens.at(-1))) {
      this.lexRegex(space);
      return;
    }
    if (c === '@' && src[start + 1] === '(') {
      this.lexHeredoc(space);
      return;
    }
    for (const p of PUNCTUATION_BY_FIRST.get(c) ?? []) {
      if (src.startsWith(p, start)) {
        this.pos += p.length;
        this.push('PUNCT', p, start, this.pos, space);
        return;
      }
    }
    throw this.error(`Syntax error at '${c}'`, start);
  }

  private lexVariable(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    let p = start + 1;
    if (isDigit(src[p])) {
      while (isDigit(src[p])) p++;
    } else {
      if (src[p] === ':' && src[p + 1] === ':') p += 2;
      if (!isNameStart(src[p]) && !isTypeStart(src[p])) throw this.error(`Syntax error at '$'`, start);
      p = this.scanQualified(p);
    }
    this.pos = p;
    this.push('VARIABLE', src.slice(start + 1, p), start, p, space);
  }

  /** Scans `word(::word)*` from p and returns the end. */
  private scanQualified(p: number): number {
    const { src } = this;
    while (isWordChar(src[p])) p++;
    while (src[p] === ':' && src[p + 1] === ':' && isWordChar(src[p + 2])) {
      p += 2;
      while (isWordChar(src[p])) p++;
    }
    return p;
  }

  private lexWord(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    let p = start;
    if (src[p] === ':') p += 2;
    const typeRef = isTypeStart(src[p]);
    p = this.scanQualified(p);
    // Names may contain dashes only in resource titles; templates never need them.
    this.pos = p;
    const word = src.slice(start, p);
    if (typeRef) this.push('TYPE', word, start, p, space);
    else if (KEYWORDS.has(word)) this.push('KEYWORD', word, start, p, space);
    else this.push('NAME', word, start, p, space);
  }

  private lexNumber(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    let p = start;
    if (src[p] === '0' && (src[p + 1] === 'x' || src[p + 1] === 'X')) {
      p += 2;
      const digits = p;
      while (/[0-9a-fA-F]/.test(src[p] ?? '')) p++;
      if (p === digits) throw this.error(`Illegal number '${src.slice(start, p)}'`, start, p);
    } else {
      while (isDigit(src[p])) p++;
      if (src[p] === '.' && isDigit(src[p + 1])) {
        p++;
        while (isDigit(src[p])) p++;
      }
      if (
        (src[p] === 'e' || src[p] === 'E') &&
        (isDigit(src[p + 1]) || ((src[p + 1] === '-' || src[p + 1] === '+') && isDigit(src[p + 2])))
      ) {
        p += 2;
        while (isDigit(src[p])) p++;
      }
    }
    if (isWordChar(src[p])) {
      while (isWordChar(src[p])) p++;
      throw this.error(`Illegal number '${src.slice(start, p)}'`, start, p);
    }
    this.pos = p;
    const text = src.slice(start, p);
    if (/^0[0-9]+$/.test(text) && /[89]/.test(text)) throw this.error(`Illegal number '${text}'`, start, p);
    this.push('NUMBER', text, start, p, space);
  }

  private lexRegex(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    let p = start + 1;
    let body = '';
    while (p < src.length && src[p] !== '/') {
      if (src[p] === '\n') throw this.error('Unterminated regular expression', start, p);
      if (src[p] === '\\' && src[p + 1] === '/') {
        body += '/';
        p += 2;
        continue;
      }
      if (src[p] === '\\' && p + 1 < src.length) {
        body += src[p]! + src[p + 1]!;
        p += 2;
        continue;
      }
      body += src[p];
      p++;
    }
    if (p >= src.length) throw this.error('Unterminated regular expression', start, p);
    this.pos = p + 1;
    this.push('REGEX', body, start, this.pos, space);
  }

  private readSingleQuoted(): string {
    const { src } = this;
    const start = this.pos;
    let p = start + 1;
    let out = '';
    while (p < src.length && src[p] !== "'") {
      if (src[p] === '\\' && (src[p + 1] === "'" || src[p + 1] === '\\')) {
        out += src[p + 1];
        p += 2;
      } else {
        out += src[p];
        p++;
      }
    }
    if (p >= src.length)
      throw this.error(
        "Unclosed quote after \"'\" followed by '...'",
        start,
        src.length,
        'EPP_UNCLOSED_STRING',
      );
    this.pos = p + 1;
    return out;
  }

  /**
   * Reads a double-quoted string body (after the opening quote) up to `terminator`, returning text parts
   * and token lists for interpolations. For heredocs, `terminator` is '' and the whole remaining source
   * of the sub-lexer is read.
   */
  private readDoubleQuoted(terminator: string, start: number, escapes = DQ_ESCAPES): (string | Token[])[] {
    const { src } = this;
    const parts: (string | Token[])[] = [];
    let text = '';
    while (true) {
      if (this.pos >= src.length) {
        if (terminator === '') break;
        throw this.error(
          "Unclosed quote after '\"' followed by '...'",
          start,
          src.length,
          'EPP_UNCLOSED_STRING',
        );
      }
      const c = src[this.pos]!;
      if (c === terminator) {
        this.pos++;
        break;
      }
      if (c === '\\' && this.pos + 1 < src.length) {
        const n = src[this.pos + 1]!;
        const handled = escapes(n, src, this.pos);
        if (handled) {
          text += handled.text;
          this.pos += handled.length;
          continue;
        }
        text += c;
        this.pos++;
        continue;
      }
      if (c === '$' && !(escapes as { noInterpolation?: boolean }).noInterpolation) {
        const n = src[this.pos + 1];
        if (n === '{') {
          if (text) parts.push(text);
          text = '';
          parts.push(this.lexInterpolationBlock());
          continue;
        }
        if (
          isNameStart(n) ||
          isDigit(n) ||
          (n === ':' && src[this.pos + 2] === ':' && isNameStart(src[this.pos + 3]))
        ) {
          if (text) parts.push(text);
          text = '';
          const varStart = this.pos;
          let p = this.pos + 1;
          if (isDigit(src[p])) {
            while (isDigit(src[p])) p++;
          } else {
            if (src[p] === ':') p += 2;
            p = this.scanQualifiedNoTrailing(p);
          }
          this.pos = p;
          parts.push([
            {
              kind: 'VARIABLE',
              value: src.slice(varStart + 1, p),
              start: varStart,
              end: p,
              spaceBefore: false,
            },
            { kind: 'EOF', value: '', start: p, end: p, spaceBefore: false },
          ]);
          continue;
        }
      }
      text += c;
      this.pos++;
    }
    if (text || parts.length === 0) parts.push(text);
    return parts;
  }

  /** Like scanQualified, for `"$a::b"` in strings. */
  private scanQualifiedNoTrailing(p: number): number {
    return this.scanQualified(p);
  }

  /** Lexes `${ ... }` (from the `$`) into a token list ending with EOF. */
  private lexInterpolationBlock(): Token[] {
    const { src } = this;
    const open = this.pos;
    if (++this.interpolationDepth > 100) throw this.error('Interpolation nested too deeply', open, open + 2);
    this.pos += 2;
    const saved = this.tokens.length;
    let depth = 0;
    let space = false;
    while (true) {
      space = this.skipSpaceAndComments() || space;
      if (this.pos >= src.length)
        throw this.error('Unclosed interpolation: missing }', open, src.length, 'EPP_UNCLOSED_STRING');
      const c = src[this.pos];
      if (c === '}' && depth === 0) {
        this.pos++;
        break;
      }
      this.lexToken(space);
      space = false;
      const last = this.tokens.at(-1)!;
      if (last.kind === 'PUNCT') {
        if (last.value === '{') depth++;
        else if (last.value === '}') depth--;
      }
    }
    this.interpolationDepth--;
    const inner = this.tokens.splice(saved);
    inner.push({ kind: 'EOF', value: '}', start: this.pos - 1, end: this.pos, spaceBefore: false });
    return inner;
  }

  /**
   * `@(TAG)`, `@("TAG")` (interpolating), with optional `:syntax` and `/flags` (escapes to enable). The body
   * starts on the next line; the end line is `[|] [-] TAG` where `|` marks the margin to strip and `-`
   * removes the last line break.
   */
  private lexHeredoc(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    const closeParen = src.indexOf(')', start);
    const lineEnd = src.indexOf('\n', start);
    if (closeParen < 0 || (lineEnd >= 0 && closeParen > lineEnd))
      throw this.error('Unclosed heredoc tag', start, start + 2);
    const spec = src.slice(start + 2, closeParen);
    const m = /^\s*("?)([^":/\r\n]+)\1\s*(?::\s*[A-Za-z0-9_+.-]*)?\s*(?:\/\s*([trnsuL$]*))?\s*$/.exec(spec);
    if (!m) throw this.error(`Invalid heredoc specification '@(${spec})'`, start, closeParen + 1);
    const interpolate = m[1] === '"';
    const tag = m[2]!.trim();
    const flags = m[3] ?? '';
    this.pos = closeParen + 1;
    // The body begins after the line break ending this line (or after a previous heredoc's body).
    const bodyStart = this.heredocResume >= 0 ? this.heredocResume : lineEnd < 0 ? src.length : lineEnd + 1;
    const endRe = new RegExp(`^([ \\t]*)(\\|)?[ \\t]*(-)?[ \\t]*${escapeRegExp(tag)}[ \\t]*(\\r?\\n|$)`);
    let lineStart = bodyStart;
    let found: RegExpExecArray | null = null;
    while (lineStart <= src.length) {
      const nl = src.indexOf('\n', lineStart);
      const line = src.slice(lineStart, nl < 0 ? src.length : nl + 1);
      found = endRe.exec(line);
      if (found) break;
      if (nl < 0) break;
      lineStart = nl + 1;
    }
    if (!found) throw this.error(`Heredoc without end-tagged line: '${tag}'`, start, closeParen + 1);
    let body = src.slice(bodyStart, lineStart);
    if (found[2]) {
      const margin = found[1]!.length;
      body = body.replace(/^[ \t]*/gm, (ws) => ws.slice(Math.min(ws.length, margin)));
    }
    if (found[3]) body = body.replace(/\r?\n$/, '');
    this.heredocResume = lineStart + found[0].length;
    const token = this.push('DQ', tag, start, this.pos, space);
    const escapes = heredocEscapes(flags, interpolate);
    if (!interpolate && flags === '') {
      token.parts = [body];
      return;
    }
    const sub = new Lexer(body, this.options);
    token.parts = sub
      .readDoubleQuoted('', 0, escapes)
      .map((part) => (typeof part === 'string' ? part : part.map((t) => shiftToken(t, bodyStart))));
  }
}

function shiftToken(t: Token, offset: number): Token {
  const shifted: Token = { ...t, start: t.start + offset, end: t.end + offset };
  if (t.parts)
    shifted.parts = t.parts.map((p) => (typeof p === 'string' ? p : p.map((x) => shiftToken(x, offset))));
  return shifted;
}

function trimTrailingBlanks(text: string): string {
  let end = text.length;
  while (end > 0 && isBlank(text[end - 1])) end--;
  return text.slice(0, end);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type EscapeHandler = (next: string, src: string, at: number) => { text: string; length: number } | undefined;

function unicodeEscape(src: string, at: number): { text: string; length: number } | undefined {
  const braced = /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(src.slice(at, at + 10));
  if (braced) {
    const code = Number.parseInt(braced[1]!, 16);
    // Beyond Unicode's range the escape stays as written, like any unknown escape.
    return code <= 0x10ffff ? { text: String.fromCodePoint(code), length: braced[0].length } : undefined;
  }
  const plain = /^\\u([0-9a-fA-F]{4})/.exec(src.slice(at, at + 6));
  if (plain) return { text: String.fromCharCode(Number.parseInt(plain[1]!, 16)), length: 6 };
  return undefined;
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', s: ' ', $: '$', '\\': '\\' };

/** Escapes of a double-quoted string. An unknown escape stays as written. */
const DQ_ESCAPES: EscapeHandler = (next, src, at) => {
  if (next === '"' || next === "'") return { text: next, length: 2 };
  if (next === 'u') return unicodeEscape(src, at);
  if (next === '\n') return { text: '', length: 2 };
  const simple = SIMPLE_ESCAPES[next];
  return simple === undefined ? undefined : { text: simple, length: 2 };
};

function heredocEscapes(flags: string, interpolate: boolean): EscapeHandler {
  const enabled = new Set(flags.split(''));
  const handler: EscapeHandler = (next, src, at) => {
    if (enabled.size === 0) return undefined;
    if (next === '\\') return { text: '\\', length: 2 };
    if (next === 'u' && enabled.has('u')) return unicodeEscape(src, at);
    if (next === '\n' && enabled.has('L')) return { text: '', length: 2 };
    if (next === '\r' && src[at + 2] === '\n' && enabled.has('L')) return { text: '', length: 3 };
    if (next === '$' && enabled.has('$')) return { text: '$', length: 2 };
    if ('trns'.includes(next) && enabled.has(next)) return { text: SIMPLE_ESCAPES[next]!, length: 2 };
    return undefined;
  };
  if (!interpolate) {
    // Escapes may apply, but `$` never interpolates.
    const wrapped: EscapeHandler = (n, s, a) => handler(n, s, a);
    return Object.assign(wrapped, { noInterpolation: true });
  }
  return handler;
}
