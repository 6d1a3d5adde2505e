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
import { EppError, EppSyntaxError } from '../errors.js';
import { isBlank } from './chars.js';
import { CodeLexer } from './code.js';
import { DELIMITERS_HINT, delimitersProblem } from './delimiters.js';
import type { LexOptions } from './scanner.js';
import { makeToken, type Token } from './tokens.js';

/**
 * The template's tokens. A lexer error does not throw here: the tokens end with an EOF token that carries it
 * (see `lexErrorOf`), which the parser throws when it gets there. Puppet lexes as its parser asks for
 * tokens, so a syntax error before a lexer error is the one reported (`<%= ) %>` then `<%= 1_0 %>`: the
 * `)`), and so here: the first error in the text wins.
 */
export function lex(source: string, options: LexOptions): Token[] {
  const lexer = new Lexer(source, options);
  try {
    return lexer.run();
  } catch (e) {
    if (!(e instanceof EppSyntaxError)) throw e;
    return lexer.endWithError(e);
  }
}

const lexErrors = new WeakMap<Token, EppSyntaxError>();

/** The lexer error an EOF token stands for, when the lexer stopped there (see `lex`). */
export function lexErrorOf(token: Token): EppSyntaxError | undefined {
  return token.kind === 'EOF' ? lexErrors.get(token) : undefined;
}

/** `moved`, a copy of `token` at other offsets, carries its lexer error too. */
export function keepLexError(token: Token, moved: Token): Token {
  const error = lexErrors.get(token);
  if (error) lexErrors.set(moved, error);
  return moved;
}

/** Lexes a template: its text, its tags and, through the classes it extends, the code in them. */
class Lexer extends CodeLexer {
  readonly open: string;
  readonly close: string;
  /** The RENDER token's text, made once rather than per tag. */
  private readonly renderOpen: string;
  /** `-%>`: the closing delimiter that trims what follows. */
  private readonly trimClose: string;
  /** First char code of the closing delimiter: most tokens are told from a tag end by it alone. */
  private readonly closeFirst: number;
  private sawTag = false;
  private sawNewlineInText = false;
  private sawNonBlankText = false;
  /** Whether the last code tag ends the input, or only text Puppet drops follows it. */
  private endsInCode = false;

  constructor(src: string, options: LexOptions) {
    super(src, options);
    // Puppet refuses a byte order mark rather than render it as text.
    if (src.charCodeAt(0) === 0xfeff) {
      throw this.error(
        'Illegal UTF-8 Byte Order mark at beginning of input: [EF BB BF] - remove these from the puppet source',
        0,
        1,
      );
    }
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
    if (this.options.report) this.options.report.endsInCode = this.endsInCode;
    this.tokens.push(makeToken('EOF', '', this.src.length, this.src.length, true));
    return this.tokens;
  }

  /** The tokens made before the error, then an EOF token at it that carries it. */
  endWithError(error: EppSyntaxError): Token[] {
    const at = Math.min(error.location?.span.start ?? this.src.length, this.src.length);
    // A string whose text was being read when the error came is no token.
    while (
      this.tokens.length > 0 &&
      this.tokens.at(-1)!.kind === 'DQ' &&
      this.tokens.at(-1)!.parts === undefined
    )
      this.tokens.pop();
    const eof = makeToken('EOF', '', at, at, true);
    lexErrors.set(eof, error);
    this.tokens.push(eof);
    return this.tokens;
  }

  protected heredocLexer(body: string): Lexer {
    // Its offsets are the body's: what it would warn of could not be placed (heredocs themselves never warn).
    return new Lexer(body, { ...this.options, report: undefined });
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
        if (this.pos === src.length) text = this.droppedAtEnd(text, textStart);
        continue;
      }
      const tagStart = at;
      let p = at + open.length;
      let c = src.charCodeAt(p);
      if (c === 35) {
        // Comment tag (`#`). `<%#-` trims left like `<%-`.
        if (src.charCodeAt(p + 1) === 45) text = trimTrailingBlanks(text);
        const endAt = commentEnd(src, close, p);
        if (endAt < 0)
          throw this.error(
            `Reaching end after opening ${open}# without seeing ${close}`,
            p,
            src.length,
            'EPP_UNCLOSED_TAG',
          );
        const trimRight = src.charCodeAt(endAt - 1) === 45 && endAt - 1 > p;
        this.pos = endAt + close.length;
        if (this.pos === src.length) text = this.droppedAtEnd(text, textStart);
        else if (trimRight) this.skipRightTrim();
        continue;
      }
      let trimLeft = false;
      if (c === 45) {
        trimLeft = true;
        c = src.charCodeAt(++p);
      }
      let render = false;
      // `<%-=` is no render tag: Puppet reads `<%-` then `=`, an assignment to the text before it.
      if (c === 61 && !trimLeft) {
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
      const trimsRight = this.lexCode(render, firstTag, tagStart);
      // Nothing after the tag, not even what `-%>` trims: the template ends with code (see LexReport).
      this.endsInCode = this.pos === src.length;
      if (trimsRight) this.skipRightTrim();
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

  /**
   * Puppet's template scanner loses the text it has gathered since the last code tag when a comment tag
   * or a literal `<%%` is the very end of the template (it leaves its loop without returning it):
   * `abc<%# c %>` renders nothing. Pantograph renders what Puppet renders, and warns.
   */
  private droppedAtEnd(text: string, textStart: number): string {
    // Puppet then has no text after the last code tag: the template ends with code (a template with no
    // code tag at all has no statement for this to matter).
    this.endsInCode = true;
    if (text.length > 0) {
      this.options.report?.warnings.push({
        code: 'EPP_TEXT_DROPPED',
        message:
          'Puppet drops the text before a comment tag or a <%% that ends the template; end the template with a line break to keep it',
        start: textStart,
        end: this.src.length,
      });
    }
    return '';
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

  // ---------------------------------------------------------------- tags

  /** Lexes code until the closing delimiter. Returns whether it was `-%>`. */
  private lexCode(render: boolean, firstTag: boolean, tagStart: number): boolean {
    const { src, close } = this;
    const closeFirst = this.closeFirst;
    const trimClose = this.trimClose;
    let first = true;
    let space = true;
    const codeStart = this.pos;
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
      // A `[` right after `<%` (or `<%-`) is an access to what precedes, as Puppet's lexer decides by the
      // character before it: `abc<%[1] %>` indexes the text, `<% $a = [1, 2] %><%[0] %>` the array.
      this.lexToken(space && !(first && c === 91 && pos === codeStart), c);
      first = false;
      space = false;
    }
  }
}

/**
 * Where a comment tag whose text starts at `from` (its `#`) ends: the first closing delimiter not preceded
 * by the delimiter's own first character, as Puppet finds it (`%%>` in a comment does not end it); -1: none.
 */
function commentEnd(src: string, close: string, from: number): number {
  const doubled = close.charAt(0);
  for (let at = src.indexOf(close, from + 1); at >= 0; at = src.indexOf(close, at + 1)) {
    if (src.charAt(at - 1) !== doubled) return at;
  }
  return -1;
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
