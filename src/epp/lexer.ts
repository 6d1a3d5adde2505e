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
import { EppError, EppSyntaxError } from './errors.js';

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
  end: number;
  /** Whitespace (or a tag boundary) precedes the token: `$a [1]` is a new array, `$a[1]` an access. */
  readonly spaceBefore: boolean;
  /** For DQ tokens (double-quoted strings, interpolating heredocs): text and interpolated token lists. */
  parts: (string | Token[])[] | undefined;
}

/**
 * Makes a token. Every token has these six properties in this order (made here, or as an object literal
 * on the lexer's hot paths), so all share one shape and the parser's property reads stay monomorphic.
 */
export function makeToken(
  kind: TokenKind,
  value: string,
  start: number,
  end: number,
  spaceBefore: boolean,
  parts: (string | Token[])[] | undefined = undefined,
): Token {
  return { kind, value, start, end, spaceBefore, parts };
}

export interface LexOptions {
  readonly file: string;
  readonly delimiters?: readonly [string, string] | undefined;
}

/**
 * The keyword spelled `word`, as a string constant, or undefined. A switch on the length, then plain
 * comparisons: no hashing of every name, and keyword tokens carry internalized strings that the parser
 * compares by pointer.
 */
function keyword(word: string): string | undefined {
  switch (word.length) {
    case 2:
      return word === 'if' ? 'if' : word === 'in' ? 'in' : word === 'or' ? 'or' : undefined;
    case 3:
      return word === 'and' ? 'and' : undefined;
    case 4:
      if (word === 'true') return 'true';
      if (word === 'else') return 'else';
      if (word === 'case') return 'case';
      return word === 'node' ? 'node' : undefined;
    case 5:
      if (word === 'false') return 'false';
      if (word === 'undef') return 'undef';
      if (word === 'elsif') return 'elsif';
      return word === 'class' ? 'class' : undefined;
    case 6:
      return word === 'unless' ? 'unless' : word === 'define' ? 'define' : undefined;
    case 7:
      return word === 'default' ? 'default' : undefined;
    case 8:
      return word === 'inherits' ? 'inherits' : undefined;
    default:
      return undefined;
  }
}

/**
 * The punctuation at `p` (its first char code is `c`), longest match first so that `==` wins over `=` and
 * `<<|` over `<<`; undefined when none. A switch on char codes: no substring or candidate list per token.
 */
function punctuationAt(src: string, p: number, c: number): string | undefined {
  const c2 = src.charCodeAt(p + 1);
  switch (c) {
    case 60: // <
      if (c2 === 60) return src.charCodeAt(p + 2) === 124 ? '<<|' : '<<';
      if (c2 === 61) return '<=';
      if (c2 === 45) return '<-';
      if (c2 === 126) return '<~';
      if (c2 === 124) return '<|';
      return '<';
    case 124: // |
      if (c2 === 62) return src.charCodeAt(p + 2) === 62 ? '|>>' : '|>';
      return '|';
    case 61: // =
      if (c2 === 62) return '=>';
      if (c2 === 61) return '==';
      if (c2 === 126) return '=~';
      return '=';
    case 33: // !
      if (c2 === 61) return '!=';
      if (c2 === 126) return '!~';
      return '!';
    case 62: // >
      if (c2 === 61) return '>=';
      if (c2 === 62) return '>>';
      return '>';
    case 45: // -
      if (c2 === 62) return '->';
      if (c2 === 61) return '-=';
      return '-';
    case 126: // ~
      return c2 === 62 ? '~>' : undefined;
    case 43: // +
      return c2 === 61 ? '+=' : '+';
    case 58: // :
      return c2 === 58 ? '::' : ':';
    case 40:
      return '(';
    case 41:
      return ')';
    case 91:
      return '[';
    case 93:
      return ']';
    case 123:
      return '{';
    case 125:
      return '}';
    case 44:
      return ',';
    case 59:
      return ';';
    case 42:
      return '*';
    case 47:
      return '/';
    case 37:
      return '%';
    case 46:
      return '.';
    case 63:
      return '?';
    case 64:
      return '@';
    default:
      return undefined;
  }
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

// Character classes on char codes (charCodeAt past the end gives NaN, which is in no class).
const isNameStart = (c: number) => (c >= 97 && c <= 122) || c === 95;
const isTypeStart = (c: number) => c >= 65 && c <= 90;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * A variable name that starts with a digit names a match capture and must be a decimal number (`$0`,
 * `$12`); else Puppet's syntax error, made by `fail`.
 */
export function checkNumericName(name: string, fail: (message: string) => Error): void {
  if (!/^(?:0|[1-9][0-9]*)$/.test(name)) {
    throw fail(
      `Illegal numeric variable name, The given name '${name}' must be a decimal value if it starts with a digit 0-9`,
    );
  }
}
const isWordChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
const isHexDigit = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const isBlank = (c: number) => c === 32 || c === 9;

export function lex(source: string, options: LexOptions): Token[] {
  return new Lexer(source, options).run();
}

class Lexer {
  private pos = 0;
  private readonly tokens: Token[] = [];
  readonly open: string;
  readonly close: string;
  /** The RENDER token's text, made once rather than per tag. */
  private readonly renderOpen: string;
  /** `-%>`: the closing delimiter that trims what follows. */
  private readonly trimClose: string;
  /** First char code of the closing delimiter: most tokens are told from a tag end by it alone. */
  private readonly closeFirst: number;
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
    const problem = delimitersProblem(open, close);
    if (problem !== undefined) {
      throw new EppError(
        'EPP_DELIMITERS',
        `invalid delimiters ${JSON.stringify([open, close])}: ${problem}`,
        undefined,
        DELIMITERS_HINT,
      );
    }
    this.open = open;
    this.close = close;
    this.renderOpen = `${open}=`;
    this.trimClose = `-${close}`;
    this.closeFirst = close.charCodeAt(0);
  }

  run(): Token[] {
    this.lexText();
    this.tokens.push(makeToken('EOF', '', this.src.length, this.src.length, true));
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
    // `<%%` is `<%` followed by its own last character: one char code to compare where `<%` was found.
    const openLast = open.length > 0 ? open.charCodeAt(open.length - 1) : -1;
    // The first `%%>` at or after `pos` (-1: none left), found once rather than searched for in every chunk.
    let nextLiteralClose = -2;
    let text = '';
    let textStart = this.pos;
    while (this.pos < src.length) {
      const progressFrom = this.pos;
      const at = src.indexOf(open, this.pos);
      const chunkEnd = at < 0 ? src.length : at;
      if (chunkEnd > this.pos) {
        const chunk = src.slice(this.pos, chunkEnd);
        if (nextLiteralClose !== -1 && nextLiteralClose < this.pos)
          nextLiteralClose = src.indexOf(literalClose, this.pos);
        const hasLiteralClose = nextLiteralClose >= 0 && nextLiteralClose + literalClose.length <= chunkEnd;
        text += hasLiteralClose ? chunk.split(literalClose).join(close) : chunk;
        if (!this.sawTag) this.noteText(chunk);
      }
      this.pos = chunkEnd;
      if (at < 0) break;
      if (openLast < 0 ? src.startsWith(literalOpen, at) : src.charCodeAt(at + open.length) === openLast) {
        text += open;
        this.sawNonBlankText = true;
        this.pos = at + literalOpen.length;
        continue;
      }
      const tagStart = at;
      let p = at + open.length;
      let c = src.charCodeAt(p);
      if (c === 35) {
        // Comment tag (`#`). `<%#-` trims left like `<%-`.
        if (src.charCodeAt(p + 1) === 45) text = trimTrailingBlanks(text);
        const endAt = src.indexOf(close, p);
        if (endAt < 0)
          throw this.error(
            'Unbalanced epp tag, reached <eof> without closing tag.',
            tagStart,
            src.length,
            'EPP_UNCLOSED_TAG',
          );
        const trimRight = src.charCodeAt(endAt - 1) === 45 && endAt - 1 > p;
        this.pos = endAt + close.length;
        if (trimRight) this.skipRightTrim();
        continue;
      }
      let trimLeft = false;
      if (c === 45) {
        trimLeft = true;
        c = src.charCodeAt(++p);
      }
      let render = false;
      if (c === 61) {
        if (trimLeft) throw this.error(`Syntax error at '='`, p, p + 1);
        render = true;
        p++;
      }
      if (trimLeft) text = trimTrailingBlanks(text);
      if (text.length > 0) this.tokens.push(makeToken('TEXT', text, textStart, this.pos, true));
      text = '';
      const firstTag = !this.sawTag && !this.sawNewlineInText && !this.sawNonBlankText;
      this.sawTag = true;
      if (render) this.tokens.push(makeToken('RENDER', this.renderOpen, tagStart, p, true));
      this.pos = p;
      if (this.lexCode(render, firstTag, tagStart)) this.skipRightTrim();
      textStart = this.pos;
      // Every round consumes input; a round that did not (a delimiter bug) must fail, never loop forever.
      if (this.pos <= progressFrom) {
        throw new EppError('EPP_INTERNAL', `the lexer made no progress at offset ${progressFrom}`, {
          file: this.options.file,
          source: src,
          span: { start: progressFrom, end: progressFrom },
        });
      }
    }
    if (text.length > 0) this.tokens.push(makeToken('TEXT', text, textStart, this.pos, true));
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
    let p = this.pos;
    while (isBlank(src.charCodeAt(p))) p++;
    const c = src.charCodeAt(p);
    if (c === 13 && src.charCodeAt(p + 1) === 10) p += 2;
    else if (c === 10 || c === 13) p++;
    this.pos = p;
  }

  // ---------------------------------------------------------------- code mode

  /** Lexes code until the closing delimiter. Returns whether it was `-%>`. */
  private lexCode(render: boolean, firstTag: boolean, tagStart: number): boolean {
    const { src, close } = this;
    const closeFirst = this.closeFirst;
    const trimClose = this.trimClose;
    let first = true;
    let space = true;
    const renderTokenIndex = this.tokens.length;
    while (true) {
      let pos = this.pos;
      let c = src.charCodeAt(pos);
      // Most tokens follow another directly: call the skipper only at a blank, line break or comment start.
      if (
        (c === 32 || c === 10 || c === 9 || c === 13 || c === 35 || c === 47) &&
        this.skipSpaceAndComments()
      ) {
        space = true;
        pos = this.pos;
        c = src.charCodeAt(pos);
      }
      if (pos >= src.length) {
        throw this.error(
          'Unbalanced epp tag, reached <eof> without closing tag.',
          tagStart,
          src.length,
          'EPP_UNCLOSED_TAG',
        );
      }
      // The tag ends at `-%>` (a `-` then the closing delimiter) or at `%>`; an empty delimiter ends it at once.
      if (
        (c === 45 && startsAt(src, pos + 1, close)) ||
        (c === closeFirst && startsAt(src, pos, close)) ||
        close.length === 0
      ) {
        const trimRight = c === 45;
        this.pos += trimRight ? trimClose.length : close.length;
        if (render) {
          if (this.tokens.length === renderTokenIndex) {
            throw this.error(
              `Syntax error at '${trimRight ? trimClose : close}'`,
              pos,
              this.pos,
              'EPP_EMPTY_RENDER_TAG',
            );
          }
          this.tokens.push(makeToken('RENDER_END', close, pos, this.pos, space));
        }
        return trimRight;
      }
      if (first && c === 124 && !render) {
        if (!firstTag) throw this.error(`Syntax error at '|'`, pos, pos + 1, 'EPP_PARAMS_NOT_FIRST');
        this.tokens.push(makeToken('PARAMS', '|', pos, pos + 1, space));
        this.pos++;
        first = false;
        space = false;
        continue;
      }
      first = false;
      this.lexToken(space, c);
      space = false;
    }
  }

  /** Skips blanks, line breaks (and pending heredoc bodies) and comments. Returns whether any was skipped. */
  private skipSpaceAndComments(): boolean {
    const { src } = this;
    const begin = this.pos;
    const length = src.length;
    let p = begin;
    while (p < length) {
      const c = src.charCodeAt(p);
      if (c === 10) {
        p = this.heredocResume >= 0 ? this.heredocResume : p + 1;
        this.heredocResume = -1;
      } else if (c === 32 || c === 9 || c === 13) {
        p++;
      } else if (c === 35) {
        // A line comment runs to the end of the line, tag end included (as in Puppet).
        const nl = src.indexOf('\n', p);
        p = nl < 0 ? length : nl;
      } else if (c === 47 && src.charCodeAt(p + 1) === 42) {
        const endAt = src.indexOf('*/', p + 2);
        if (endAt < 0) throw this.error('Unclosed comment', p, length);
        p = endAt + 2;
      } else {
        break;
      }
    }
    this.pos = p;
    return p > begin;
  }

  private push(kind: TokenKind, value: string, start: number, end: number, spaceBefore: boolean): Token {
    const token = makeToken(kind, value, start, end, spaceBefore);
    this.tokens.push(token);
    return token;
  }

  /** Lexes one token at `this.pos`, whose char code `c` the caller has read already. */
  private lexToken(space: boolean, c: number): void {
    const { src } = this;
    const start = this.pos;
    if (c === 36) {
      this.lexVariable(space);
      return;
    }
    if (c === 39) {
      this.tokens.push({
        kind: 'STRING',
        value: this.readSingleQuoted(),
        start: start,
        end: this.pos,
        spaceBefore: space,
        parts: undefined,
      });
      return;
    }
    if (c === 34) {
      this.pos++;
      // Pushed before its parts are read: a `/` at the start of `${...}` follows a value, as in Puppet.
      const token = this.push('DQ', '', start, start, space);
      token.parts = this.readDoubleQuoted('"', start);
      token.end = this.pos;
      return;
    }
    if (isDigit(c)) {
      this.lexNumber(space);
      return;
    }
    if (isNameStart(c) || isTypeStart(c)) {
      this.lexWord(space, start, isTypeStart(c));
      return;
    }
    if (c === 58 && src.charCodeAt(start + 1) === 58) {
      const c3 = src.charCodeAt(start + 2);
      if (isNameStart(c3) || isTypeStart(c3)) {
        this.lexWord(space, start + 2, isTypeStart(c3));
        return;
      }
    }
    if (c === 47 && !endsValue(this.tokens.at(-1))) {
      this.lexRegex(space);
      return;
    }
    if (c === 64 && src.charCodeAt(start + 1) === 40) {
      this.lexHeredoc(space);
      return;
    }
    const punctuation = punctuationAt(src, start, c);
    if (punctuation !== undefined) {
      this.pos += punctuation.length;
      this.tokens.push({
        kind: 'PUNCT',
        value: punctuation,
        start: start,
        end: this.pos,
        spaceBefore: space,
        parts: undefined,
      });
      return;
    }
    throw this.error(`Syntax error at '${src[start]}'`, start);
  }

  private lexVariable(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    let p = start + 1;
    if (isDigit(src.charCodeAt(p))) {
      p = this.scanNumericName(start, p);
    } else {
      if (src.charCodeAt(p) === 58 && src.charCodeAt(p + 1) === 58) p += 2;
      const c = src.charCodeAt(p);
      if (!isNameStart(c) && !isTypeStart(c)) throw this.error(`Syntax error at '$'`, start);
      p = this.scanQualified(p + 1);
    }
    this.pos = p;
    this.tokens.push({
      kind: 'VARIABLE',
      value: src.slice(start + 1, p),
      start: start,
      end: p,
      spaceBefore: space,
      parts: undefined,
    });
  }

  /**
   * Scans the name of `$1` (a match capture) from p, after the `$` at `start`, and returns its end. As in
   * Puppet, the name runs over all word characters and must then be a decimal number (`$01`, `$1a` are
   * errors, not `$0` followed by text).
   */
  private scanNumericName(start: number, p: number): number {
    const { src } = this;
    const from = p;
    while (isWordChar(src.charCodeAt(p))) p++;
    checkNumericName(src.slice(from, p), (message) => this.error(message, start));
    return p;
  }

  /** Scans `word(::word)*` from p and returns the end. */
  private scanQualified(p: number): number {
    const { src } = this;
    let c = src.charCodeAt(p);
    while (true) {
      // The word-character test is written out: this loop runs for every character of every name.
      while ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95) {
        c = src.charCodeAt(++p);
      }
      if (c !== 58 || src.charCodeAt(p + 1) !== 58 || !isWordChar(src.charCodeAt(p + 2))) return p;
      p += 2;
      c = src.charCodeAt(p);
    }
  }

  /** A name, keyword or type; `first` is where its first word character is (after a leading `::`). */
  private lexWord(space: boolean, first: number, typeRef: boolean): void {
    const { src } = this;
    const start = this.pos;
    // The first character is a word character already: scanning starts after it.
    const p = this.scanQualified(first + 1);
    // Names may contain dashes only in resource titles; templates never need them.
    this.pos = p;
    const word = src.slice(start, p);
    const kw = typeRef ? undefined : keyword(word);
    this.tokens.push({
      kind: typeRef ? 'TYPE' : kw !== undefined ? 'KEYWORD' : 'NAME',
      value: kw ?? word,
      start,
      end: p,
      spaceBefore: space,
      parts: undefined,
    });
  }

  private lexNumber(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    let p = start;
    const c2 = src.charCodeAt(p + 1);
    if (src.charCodeAt(p) === 48 && (c2 === 120 || c2 === 88)) {
      p += 2;
      const digits = p;
      while (isHexDigit(src.charCodeAt(p))) p++;
      if (p === digits) throw this.error(`Illegal number '${src.slice(start, p)}'`, start, p);
    } else {
      while (isDigit(src.charCodeAt(p))) p++;
      if (src.charCodeAt(p) === 46 && isDigit(src.charCodeAt(p + 1))) {
        p++;
        while (isDigit(src.charCodeAt(p))) p++;
      }
      const e = src.charCodeAt(p);
      if (e === 101 || e === 69) {
        const s = src.charCodeAt(p + 1);
        if (isDigit(s) || ((s === 45 || s === 43) && isDigit(src.charCodeAt(p + 2)))) {
          p += 2;
          while (isDigit(src.charCodeAt(p))) p++;
        }
      }
    }
    if (isWordChar(src.charCodeAt(p))) {
      while (isWordChar(src.charCodeAt(p))) p++;
      throw this.error(`Illegal number '${src.slice(start, p)}'`, start, p);
    }
    this.pos = p;
    const text = src.slice(start, p);
    if (isBadOctal(src, start, p)) throw this.error(`Illegal number '${text}'`, start, p);
    this.tokens.push({
      kind: 'NUMBER',
      value: text,
      start: start,
      end: p,
      spaceBefore: space,
      parts: undefined,
    });
  }

  private lexRegex(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    const length = src.length;
    let p = start + 1;
    // The body is copied in runs; only `\/` changes (to `/`), other escapes stay as written.
    let body = '';
    let run = p;
    while (p < length) {
      const c = src.charCodeAt(p);
      if (c === 47) break;
      if (c === 10) throw this.error('Unterminated regular expression', start, p);
      if (c === 92) {
        if (src.charCodeAt(p + 1) === 47) {
          body += `${src.slice(run, p)}/`;
          p += 2;
          run = p;
          continue;
        }
        if (p + 1 < length) {
          p += 2;
          continue;
        }
      }
      p++;
    }
    if (p >= length) throw this.error('Unterminated regular expression', start, p);
    body += src.slice(run, p);
    this.pos = p + 1;
    this.tokens.push({
      kind: 'REGEX',
      value: body,
      start: start,
      end: this.pos,
      spaceBefore: space,
      parts: undefined,
    });
  }

  private readSingleQuoted(): string {
    const { src } = this;
    const start = this.pos;
    const length = src.length;
    let p = start + 1;
    // Copied in runs; `\'` and `\\` lose their backslash, any other backslash stays.
    let out = '';
    let run = p;
    while (p < length) {
      const c = src.charCodeAt(p);
      if (c === 39) break;
      if (c === 92) {
        const n = src.charCodeAt(p + 1);
        if (n === 39 || n === 92) {
          out += src.slice(run, p);
          run = p + 1;
          p += 2;
          continue;
        }
      }
      p++;
    }
    if (p >= length)
      throw this.error(
        "Unclosed quote after \"'\" followed by '...'",
        start,
        src.length,
        'EPP_UNCLOSED_STRING',
      );
    this.pos = p + 1;
    return out + src.slice(run, p);
  }

  /**
   * Reads a double-quoted string body (after the opening quote) up to `terminator`, returning text parts
   * and token lists for interpolations. For heredocs, `terminator` is '' and the whole remaining source
   * of the sub-lexer is read.
   */
  private readDoubleQuoted(terminator: string, start: number, escapes = DQ_ESCAPES): (string | Token[])[] {
    const { src } = this;
    const length = src.length;
    const end = terminator === '' ? -1 : terminator.charCodeAt(0);
    const interpolates = !(escapes as { noInterpolation?: boolean }).noInterpolation;
    const parts: (string | Token[])[] = [];
    // Plain characters are copied in runs from `run` to the current position.
    let text = '';
    let run = this.pos;
    while (true) {
      const pos = this.pos;
      if (pos >= length) {
        if (terminator === '') {
          text += src.slice(run, pos);
          break;
        }
        throw this.error(
          "Unclosed quote after '\"' followed by '...'",
          start,
          src.length,
          'EPP_UNCLOSED_STRING',
        );
      }
      const c = src.charCodeAt(pos);
      if (c === end) {
        text += src.slice(run, pos);
        this.pos++;
        break;
      }
      if (c === 92 && pos + 1 < length) {
        const handled = escapes(src[pos + 1]!, src, pos);
        if (handled) {
          text += src.slice(run, pos) + handled.text;
          this.pos += handled.length;
          run = this.pos;
          continue;
        }
        this.pos++;
        continue;
      }
      if (c === 36 && interpolates) {
        const n = src.charCodeAt(pos + 1);
        if (n === 123) {
          text += src.slice(run, pos);
          if (text) parts.push(text);
          text = '';
          parts.push(this.lexInterpolationBlock());
          run = this.pos;
          continue;
        }
        if (
          isNameStart(n) ||
          isDigit(n) ||
          (n === 58 && src.charCodeAt(pos + 2) === 58 && isNameStart(src.charCodeAt(pos + 3)))
        ) {
          text += src.slice(run, pos);
          if (text) parts.push(text);
          text = '';
          let p = pos + 1;
          if (isDigit(src.charCodeAt(p))) {
            p = this.scanNumericName(pos, p);
          } else {
            if (src.charCodeAt(p) === 58) p += 2;
            p = this.scanQualified(p);
          }
          this.pos = p;
          run = p;
          parts.push([
            makeToken('VARIABLE', src.slice(pos + 1, p), pos, p, false),
            makeToken('EOF', '', p, p, false),
          ]);
          continue;
        }
      }
      this.pos++;
    }
    if (text || parts.length === 0) parts.push(text);
    return parts;
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
      let c = src.charCodeAt(this.pos);
      // Most tokens follow another directly: call the skipper only at a blank, line break or comment start.
      if (
        (c === 32 || c === 10 || c === 9 || c === 13 || c === 35 || c === 47) &&
        this.skipSpaceAndComments()
      ) {
        space = true;
        c = src.charCodeAt(this.pos);
      }
      if (this.pos >= src.length)
        throw this.error('Unclosed interpolation: missing }', open, src.length, 'EPP_UNCLOSED_STRING');
      if (c === 125 && depth === 0) {
        this.pos++;
        break;
      }
      this.lexToken(space, c);
      space = false;
      const last = this.tokens.at(-1)!;
      if (last.kind === 'PUNCT') {
        if (last.value === '{') depth++;
        else if (last.value === '}') depth--;
      }
    }
    this.interpolationDepth--;
    const inner = this.tokens.splice(saved);
    inner.push(makeToken('EOF', '}', this.pos - 1, this.pos, false));
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
  const parts = t.parts?.map((p) => (typeof p === 'string' ? p : p.map((x) => shiftToken(x, offset))));
  return makeToken(t.kind, t.value, t.start + offset, t.end + offset, t.spaceBefore, parts);
}

/** `src.startsWith(s, pos)` for the short delimiters, without a builtin call. */
function startsAt(src: string, pos: number, s: string): boolean {
  for (let i = 0; i < s.length; i++) if (src.charCodeAt(pos + i) !== s.charCodeAt(i)) return false;
  return true;
}

function trimTrailingBlanks(text: string): string {
  let end = text.length;
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

/** A leading-zero (octal) number with an 8 or 9 in it: `/^0[0-9]+$/` and `/[89]/` on `src[start, end)`. */
function isBadOctal(src: string, start: number, end: number): boolean {
  if (src.charCodeAt(start) !== 48 || end - start < 2) return false;
  let bad = false;
  for (let p = start + 1; p < end; p++) {
    const c = src.charCodeAt(p);
    if (!isDigit(c)) return false;
    if (c >= 56) bad = true;
  }
  return bad;
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

const DELIMITERS_HINT = 'give two different, non-empty delimiters without spaces, e.g. ["[%", "%]"]';

/**
 * Why a pair of tag delimiters cannot be lexed, or undefined when it can: each must be non-empty and
 * without whitespace, and the two must differ. An empty opening delimiter would match everywhere and
 * consume nothing (the lexer would loop forever: issue 11, item 7).
 */
export function delimitersProblem(open: string, close: string): string | undefined {
  // The default pair is valid: a fresh process's first template then compiles no regular expression here.
  if (open === '<%' && close === '%>') return undefined;
  if (open.length === 0 || close.length === 0) return 'a delimiter is empty';
  if (/\s/.test(open) || /\s/.test(close)) return 'a delimiter contains whitespace';
  if (open === close) return 'the opening and closing delimiters are the same';
  return undefined;
}
