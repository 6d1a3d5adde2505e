/**
 * Character classes on char codes, the lexer's tests of single characters (`charCodeAt` past the end gives
 * NaN, which is in no class), and the rule for variable names that start with a digit.
 */
export const isNameStart = (c: number) => (c >= 97 && c <= 122) || c === 95;
export const isTypeStart = (c: number) => c >= 65 && c <= 90;
export const isDigit = (c: number) => c >= 48 && c <= 57;
export const isWordChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
export const isHexDigit = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
export const isBlank = (c: number) => c === 32 || c === 9;

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

/**
 * Whether `name` is all digits (a match capture such as `$1`), by char codes: no regular expression to
 * compile in a fresh process's first render. Shared by the parser, the compiler and the interpreter.
 */
export function isDigits(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
