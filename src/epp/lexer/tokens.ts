/**
 * What the lexer makes and the parser reads: the kinds of token and the token itself. Every token has the
 * same six properties in the same order, so that the parser's reads of them stay monomorphic.
 */
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

/** A heredoc's declared `:syntax` (`json` in `@(END:json)`), and where its text begins from the token's start. */
export interface HeredocSyntax {
  readonly name: string;
  readonly textOffset: number;
}

/**
 * The syntax of heredoc tokens that declare one, kept beside the tokens rather than on them: a seventh
 * property on every token for the few heredocs that have it would cost the shape every read relies on.
 */
const heredocSyntaxes = new WeakMap<Token, HeredocSyntax>();

export function setHeredocSyntax(token: Token, syntax: HeredocSyntax): void {
  heredocSyntaxes.set(token, syntax);
}

export function heredocSyntaxOf(token: Token): HeredocSyntax | undefined {
  return heredocSyntaxes.get(token);
}

/** `moved`, a copy of `token` at other offsets, keeps its heredoc syntax (the text's offset is relative). */
export function keepHeredocSyntax(token: Token, moved: Token): Token {
  const syntax = heredocSyntaxes.get(token);
  if (syntax) heredocSyntaxes.set(moved, syntax);
  return moved;
}
