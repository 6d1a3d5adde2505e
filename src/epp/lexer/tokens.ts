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
