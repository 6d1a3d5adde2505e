/** The tag delimiters a template may be lexed with (`<% %>` by default, `[% %]` and the like). */
export const DELIMITERS_HINT = 'give two different, non-empty delimiters without spaces, e.g. ["[%", "%]"]';

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
