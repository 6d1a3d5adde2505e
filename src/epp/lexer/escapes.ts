/**
 * The backslash escapes of double-quoted strings and of heredocs (whose `/flags` choose the escapes that
 * apply). An escape the string does not know stays as written, as in Puppet.
 */
/**
 * What an escape gives: its text and how many characters it takes; `invalid` when it names no Unicode
 * character (a surrogate, past U+10FFFF), which Puppet's lexer packs into bytes that are no UTF-8 and the
 * parse then refuses ("invalid byte sequence in UTF-8").
 */
export type Escaped = { text: string; length: number; invalid?: true };

export type EscapeHandler = (next: string, src: string, at: number) => Escaped | undefined;

function unicodeEscape(src: string, at: number): Escaped | undefined {
  const braced = /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(src.slice(at, at + 10));
  const plain = braced ? undefined : /^\\u([0-9a-fA-F]{4})/.exec(src.slice(at, at + 6));
  const found = braced ?? plain;
  if (!found) return undefined;
  const code = Number.parseInt(found[1]!, 16);
  const length = found[0].length;
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return { text: '', length, invalid: true };
  return { text: String.fromCodePoint(code), length };
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', s: ' ', $: '$', '\\': '\\' };

/** Escapes of a double-quoted string. An unknown escape stays as written. */
export const DQ_ESCAPES: EscapeHandler = (next, src, at) => {
  if (next === '"' || next === "'") return { text: next, length: 2 };
  if (next === 'u') return unicodeEscape(src, at);
  // A backslash before a line break joins the lines, also a Windows one (CRLF).
  if (next === '\n') return { text: '', length: 2 };
  if (next === '\r' && src[at + 2] === '\n') return { text: '', length: 3 };
  const simple = SIMPLE_ESCAPES[next];
  return simple === undefined ? undefined : { text: simple, length: 2 };
};

export function heredocEscapes(flags: string, interpolate: boolean): EscapeHandler {
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
