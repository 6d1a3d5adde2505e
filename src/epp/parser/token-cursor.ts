/**
 * The parser's cursor over the lexer's tokens, and the syntax errors it raises.
 *
 * The base of the parser's layers (see parser.ts): every rule reads tokens through these few methods, and
 * every syntax error is made by `unexpected` or `error`, so that one place decides a message's wording and
 * span. The lexer always ends the token list with an EOF token, which the cursor never passes; where the
 * lexer stopped at an error, that token carries it, and `unexpected` gives it.
 */
import { lineColumn } from '../../shared/position.js';
import type { SyntaxWarning } from '../ast.js';
import { EppSyntaxError, type Span } from '../errors.js';
import { lexErrorOf } from '../lexer/lexer.js';
import type { Token } from '../lexer/tokens.js';
import { endsValue } from '../lexer/vocabulary.js';
import type { ValidationError } from './validation-order.js';

export abstract class TokenCursor {
  protected i = 0;
  /**
   * The errors Puppet's validation reports, which runs after its parser: found while parsing, thrown once
   * the parse is done (a syntax error anywhere comes first, alone). Shared with the parsers of
   * interpolations.
   */
  validation: { errors: ValidationError[] } = { errors: [] };
  /** The warnings of Puppet's validation (a hash literal's key given twice), shared as `validation` is. */
  warnings: SyntaxWarning[] = [];

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
    if (message === undefined && (t.kind === 'TEXT' || t.kind === 'RENDER'))
      return this.unexpectedTemplatePart(t);
    const text =
      message ??
      (t.kind === 'EOF'
        ? t.value === '}'
          ? `Syntax error at '}'`
          : 'Syntax error at end of input'
        : `Syntax error at '${escapeControls(this.tokenText(t))}'`);
    const error = this.error(text, t.start, Math.max(t.end, t.start + 1));
    if (text === 'Syntax error at end of input') {
      const hint = unclosedHint(this.tokens, this.source);
      if (hint !== undefined) error.hint = hint;
    }
    return error;
  }

  /**
   * A token as Puppet's syntax error names it, by the value its lexer keeps: a variable by its name (`$y`
   * is 'y'), a quoted string by its text ('a' for `'a'`), one with interpolations by its text before the
   * first (`"b${y}"` is 'b'); anything else as written.
   */
  private tokenText(t: Token): string {
    if (t.kind === 'VARIABLE') return t.value;
    const quote = this.source[t.start];
    if (t.kind === 'STRING' && (quote === "'" || quote === '"')) return t.value;
    if (t.kind === 'DQ' && quote === '"') {
      const first = t.parts?.[0];
      return typeof first === 'string' ? first : '';
    }
    return this.source.slice(t.start, t.end) || t.value;
  }

  /**
   * Text or a `<%= %>` render where Puppet's grammar wants something else. Puppet's lexer places both where
   * the text begins, after the previous tag's `%>` (before what `-%>` trims), and names the text by its
   * value and a render by nothing: `<% if true %>abc<%= 1 %>` fails at 'abc', `<% if %>abc<%= 1 %>` (the
   * text is the test) at '' where 'abc' begins.
   */
  private unexpectedTemplatePart(t: Token): EppSyntaxError {
    let at = t.start;
    let words = `Syntax error at '${escapeControls(t.value)}'`;
    if (t.kind === 'RENDER') {
      const index = this.tokens[this.i] === t ? this.i : this.tokens.indexOf(t);
      const before = this.tokens[index - 1];
      if (before?.kind === 'TEXT' && before.end === t.start) at = before.start;
      words = `Syntax error at ''`;
    }
    const error = this.error(words, beforeTrimmed(this.source, at), t.end);
    if (t.kind === 'RENDER') error.hint = RENDER_WHERE_CODE_GOES_ON;
    return error;
  }

  /**
   * Whether only blanks stand between the line's start and `t`: Puppet's lexer then makes a `(` its
   * WSLPAREN, which starts a statement, where any other `(` calls what stands before it.
   */
  protected firstOnLine(t: Token): boolean {
    // Most often something stands right before it (`f(`, `.join(`): no search for the line then.
    const before = this.source.charCodeAt(t.start - 1);
    if (t.start > 0 && before !== 32 && before !== 9 && before !== 13 && before !== 10) return false;
    const lineStart = this.source.lastIndexOf('\n', t.start - 1) + 1;
    return /^[ \t\r]*$/.test(this.source.slice(lineStart, t.start));
  }

  /**
   * Keeps a validation error for after the parse (see `validation`). `checked` is the node whose check
   * finds it, which orders it among the others as Puppet's validator visits the tree (validation-order.ts);
   * by default the span refused.
   */
  protected refuseAfterParse(
    message: string,
    start: number,
    end: number,
    hint?: string,
    checked: Span = { start, end },
    code: 'EPP_SYNTAX' | 'EPP_UNSUPPORTED' | 'EPP_NO_EFFECT' | 'EPP_INTEGER_OVERFLOW' = 'EPP_SYNTAX',
  ): void {
    const error = this.error(message, start, Math.max(end, start + 1), code);
    if (hint !== undefined) error.hint = hint;
    this.validation.errors.push({ error, checked });
  }

  /** Puppet's error for a second `default` option of a `case` or a selector: its validation's, after the parse. */
  protected duplicateDefault(what: string, node: Span, container: Span): void {
    this.refuseAfterParse(
      `${what} already has a 'default' entry - this is a duplicate`,
      node.start,
      node.end,
      undefined,
      container,
    );
  }

  protected error(
    message: string,
    start: number,
    end: number,
    code:
      | 'EPP_SYNTAX'
      | 'EPP_UNSUPPORTED'
      | 'EPP_HEREDOC_SYNTAX'
      | 'EPP_NO_EFFECT'
      | 'EPP_INTEGER_OVERFLOW' = 'EPP_SYNTAX',
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

/**
 * Where Puppet's lexer places text starting at `at`: right after the tag before it, before the blanks and
 * line break a `-%>` trimmed. Only trimmed blanks lie between a tag's end and the text (a delimiter never
 * ends in a blank), so walking back over blanks and line breaks finds the tag's end.
 */
function beforeTrimmed(source: string, at: number): number {
  let p = at;
  for (
    let c = source.charCodeAt(p - 1);
    c === 32 || c === 9 || c === 10 || c === 13;
    c = source.charCodeAt(--p - 1)
  );
  return p;
}

/**
 * At the end of input, the bracket left open, which is nearly always why (Puppet names only the end): an
 * `if`'s `{` whose `<% } %>` was forgotten, a list or call not closed. The innermost one is the one to close.
 */
function unclosedHint(tokens: readonly Token[], source: string): string | undefined {
  const open: number[] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'PUNCT') return;
    if (t.value === '{' || t.value === '[' || t.value === '(') open.push(i);
    else if (t.value === '}' || t.value === ']' || t.value === ')') open.pop();
  });
  const index = open.at(-1);
  if (index === undefined) return undefined;
  const opener = tokens[index]!;
  const { line, column } = lineColumn(source, opener.start);
  const closer = CLOSER[opener.value]!;
  // A hash's or a selector's `}` goes in the same expression, often the same tag: only a block's is
  // usually forgotten in a later `<% } %>`.
  const where =
    opener.value === '{' && opensBlock(tokens[index - 1])
      ? ` (in a template, \`<% } %>\` where the block ends)`
      : '';
  return `the '${opener.value}' at ${line}:${column} is never closed: add its '${closer}'${where}`;
}

/**
 * Whether a `{` after `before` opens a block rather than a hash or a selector's cases: after the test of an
 * `if`, `unless`, `elsif` or `case` (an operand ends it), after `else`, a case option's `:` or a lambda's
 * parameters `|...|`. After an operator, `(`, `[`, `,`, `=>`, `?` or a tag's start it is a hash.
 */
function opensBlock(before: Token | undefined): boolean {
  // An operand ends the test (the lexer's own rule for a `/` after it: a value ended there).
  if (endsValue(before)) return true;
  if (before?.kind === 'KEYWORD') return before.value === 'else';
  return before?.kind === 'PUNCT' && BLOCK_AFTER_PUNCTUATION.has(before.value);
}

/** A case option's `:` and a lambda's `|` or `||` (an operand's `)`, `]`, `}` end a value above). */
const BLOCK_AFTER_PUNCTUATION: ReadonlySet<string> = new Set([':', '|', '||']);

const CLOSER: Readonly<Record<string, string>> = { '{': '}', '[': ']', '(': ')' };

/** Puppet's `''` says nothing of a `<%= %>` met where code goes on: what it usually means. */
const RENDER_WHERE_CODE_GOES_ON =
  'the code before this <%= %> tag is unfinished, and Puppet reads any text between them as part of it: an `if`, `unless` or `case` wants its test and `{` in the same tag (`<% if $x { %>`)';
