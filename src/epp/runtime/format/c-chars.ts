/** C's `isspace` and `isdigit` on one character, as the date gem's C code reads a text. */

export const isSpace = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
export const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
