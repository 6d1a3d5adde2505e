/**
 * The parser's cursor over the lexer's tokens, and the syntax errors it raises.
 *
 * The base of the parser's layers (see parser.ts): every rule reads tokens through these few methods, and
 * every syntax error is made by `unexpected` or `error`, so that one place decides a message's wording and
 * span. The lexer always ends the token list with an EOF token, which the cursor never passes; where the
 * lexer stopped at an error, that token carries it, and `unexpected` gives it.
 */
import { EppSyntaxError } from '../errors.js';
import { lexErrorOf } from '../lexer/lexer.js';
import type { Token } from '../lexer/tokens.js';

export abstract class TokenCursor {
  protected i = 0;

  constructor(
    protected readonly tokens: Token[],
    protected readonly source: string,
    protected readonly file: string,
    protected depth = 0,
  ) {}

  /** The token `offset` ahead of the current one (the current token itself is `this.tokens[this.i]`). */
  protected peek(offset: number): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }

  /** Consumes the current token; `i` never passes the final EOF token, so reads need no bounds check. */
  protected next(): Token {
    const t = this.tokens[this.i]!;
    if (this.i < this.tokens.length - 1) this.i++;
    return t;
  }

  protected isPunct(value: string): boolean {
    const t = this.tokens[this.i]!;
    return t.kind === 'PUNCT' && t.value === value;
  }

  protected isKeyword(value: string): boolean {
    const t = this.tokens[this.i]!;
    return t.kind === 'KEYWORD' && t.value === value;
  }

  protected expectPunct(value: string): Token {
    if (!this.isPunct(value)) throw this.unexpected(this.tokens[this.i]!);
    return this.next();
  }

  protected lastEnd(): number {
    return this.tokens[this.i - 1]?.end ?? 0;
  }

  protected unexpected(t: Token, message?: string): EppSyntaxError {
    // Where the lexer stopped at an error, that error is the first in the text (see `lex`).
    const lexError = lexErrorOf(t);
    if (lexError) return lexError;
    const text =
      message ??
      (t.kind === 'EOF'
        ? t.value === '}'
          ? `Syntax error at '}'`
          : 'Syntax error at end of input'
        : `Syntax error at '${escapeControls(this.source.slice(t.start, t.end) || t.value)}'`);
    return this.error(text, t.start, Math.max(t.end, t.start + 1));
  }

  /** Puppet's error for a second `default` option of a `case` or a selector. */
  protected duplicateDefault(what: string, node: { start: number; end: number }) {
    return this.error(`${what} already has a 'default' entry - this is a duplicate`, node.start, node.end);
  }

  protected error(
    message: string,
    start: number,
    end: number,
    code: 'EPP_SYNTAX' | 'EPP_UNSUPPORTED' | 'EPP_HEREDOC_SYNTAX' = 'EPP_SYNTAX',
  ) {
    return new EppSyntaxError(code, message, { file: this.file, source: this.source, span: { start, end } });
  }
}

/**
 * A token as a message shows it: a line break or tab written as an escape, so that the message stays on
 * one line (an editor shows a diagnostic's second line as its hint).
 */
function escapeControls(text: string): string {
  return text.replace(/[\n\r\t]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}
