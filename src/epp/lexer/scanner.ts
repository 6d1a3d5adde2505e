/**
 * The lexer's cursor over the source: where it is, the tokens made so far, its errors (with the span they
 * point at), and the scans that code, strings and heredocs share: blanks and comments, qualified names,
 * and the digit names of match captures.
 *
 * The lexer is a chain of classes, each adding one part of the language: Scanner (here), StringLexer
 * (quoted strings, interpolation, heredocs), CodeLexer (the tokens of code) and Lexer (template text and
 * tags, the entry). One object lexes a template; the chain only divides its code by concern.
 */
import type { SyntaxWarning } from '../ast.js';
import { EppSyntaxError } from '../errors.js';
import { checkNumericName, isWordChar } from './chars.js';
import { makeToken, type Token, type TokenKind } from './tokens.js';

export interface LexOptions {
  readonly file: string;
  readonly delimiters?: readonly [string, string] | undefined;
  /** Receives what the lexer found beyond the tokens, when given. */
  readonly report?: LexReport | undefined;
  /**
   * Where the user's text ends, when the source has more after it (the tag parsePuppet wraps a program
   * in): an error quoting what follows a position (`followed by 'x}...'`) quotes no further.
   */
  readonly textEnd?: number | undefined;
}

/** What lexing a template found beside its tokens. */
export interface LexReport {
  /** Puppet's lexer warnings (an escape a string does not know, text Puppet drops). */
  readonly warnings: SyntaxWarning[];
  /**
   * Whether the template ends with code: no text after its last tag, not even an empty one (Puppet's
   * scanner makes an empty text of what a `-%>` trims), so that its last statement is the template's value.
   */
  endsInCode: boolean;
}

/** The codes of the syntax errors the lexer reports. */
export type LexErrorCode =
  | 'EPP_SYNTAX'
  | 'EPP_UNCLOSED_TAG'
  | 'EPP_UNBALANCED_TAG'
  | 'EPP_UNCLOSED_STRING'
  | 'EPP_EMPTY_RENDER_TAG'
  | 'EPP_PARAMS_NOT_FIRST';

export class Scanner {
  protected pos = 0;
  protected readonly tokens: Token[] = [];
  /** Where lexing continues after the line break that ends a line holding heredoc openers. */
  protected heredocResume = -1;
  protected interpolationDepth = 0;
  /** Where the tokens of the `${...}` being lexed start: those before it are not its own (see lexRegex). */
  protected interpolationStart = 0;

  constructor(
    protected readonly src: string,
    protected readonly options: LexOptions,
  ) {}

  protected error(
    message: string,
    start: number,
    end = start + 1,
    code: LexErrorCode = 'EPP_SYNTAX',
  ): EppSyntaxError {
    return new EppSyntaxError(code, message, {
      file: this.options.file,
      source: this.src,
      span: { start, end: Math.min(Math.max(end, start), this.src.length) },
    });
  }

  /** Skips blanks, line breaks (and pending heredoc bodies) and comments. Returns whether any was skipped. */
  protected skipSpaceAndComments(): boolean {
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

  protected push(kind: TokenKind, value: string, start: number, end: number, spaceBefore: boolean): Token {
    const token = makeToken(kind, value, start, end, spaceBefore);
    this.tokens.push(token);
    return token;
  }

  /**
   * Scans the name of `$1` (a match capture) from p, after the `$` at `start`, and returns its end. As in
   * Puppet, the name runs over all word characters and must then be a decimal number (`$01`, `$1a` are
   * errors, not `$0` followed by text).
   */
  protected scanNumericName(start: number, p: number): number {
    const { src } = this;
    const from = p;
    while (isWordChar(src.charCodeAt(p))) p++;
    checkNumericName(src.slice(from, p), (message) => this.error(message, start));
    return p;
  }

  /**
   * The end of a name or type from `p` (after its first character): word characters, and `::` segments
   * that start with a character `segmentStart` takes.
   */
  protected scanSegments(p: number, segmentStart: (c: number) => boolean): number {
    const { src } = this;
    while (true) {
      while (isWordChar(src.charCodeAt(p))) p++;
      if (src.charCodeAt(p) !== 58 || src.charCodeAt(p + 1) !== 58 || !segmentStart(src.charCodeAt(p + 2))) {
        return p;
      }
      p += 3;
    }
  }

  /** Scans `word(::word)*` from p and returns the end. */
  protected scanQualified(p: number): number {
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
}
