/**
 * The backslash escapes of double-quoted strings and of heredocs (whose `/flags` choose the escapes that
 * apply). An escape the string does not know stays as written, as in Puppet.
 */
export type EscapeHandler = (
  next: string,
  src: string,
  at: number,
) => { text: string; length: number } | undefined;

function unicodeEscape(src: string, at: number): { text: string; length: number } | undefined {
  const braced = /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(src.slice(at, at + 10));
  if (braced) {
    const code = Number.parseInt(braced[1]!, 16);
    // Beyond Unicode's range the escape stays as written, like any unknown escape.
    return code <= 0x10ffff ? { text: String.fromCodePoint(code), length: braced[0].length } : undefined;
  }
  const plain = /^\\u([0-9a-fA-F]{4})/.exec(src.slice(at, at + 6));
  if (plain) return { text: String.fromCharCode(Number.parseInt(plain[1]!, 16)), length: 6 };
  return undefined;
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
