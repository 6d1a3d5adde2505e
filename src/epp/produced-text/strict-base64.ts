/**
 * Whether a text is Base64, answered as Puppet 7 answers a heredoc that declares `:base64`: line breaks,
 * blanks and `?` removed (its pattern `[\r?\n[:blank:]]` takes the `?` as a character), then Ruby's
 * `Base64.strict_decode64` (pack.c's strict `m0`: groups of four, `=` only as the last group's padding,
 * and the padding's unused bits zero). Puppet's message then depends only on the length.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Int8Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;
const EQUALS = 0x3d;

/** Puppet's Base64 checker's message for `text`, or undefined when it decodes. */
export function base64Problem(text: string): string | undefined {
  // Bytes, as Ruby counts and decodes them (TextEncoder: the engine also runs in the browser).
  const cleaned = new TextEncoder().encode(text.replace(/[\r?\n\t\p{Zs}]/gu, ''));
  if (decodesStrictly(cleaned)) return undefined;
  return cleaned.length % 3 !== 0
    ? 'Base64 syntax checker: Cannot parse invalid Base64 string - padding is not correct'
    : 'Base64 syntax checker: Cannot parse invalid Base64 string - contains letters outside strict base 64 range (or whitespace)';
}

/** Ruby's strict decoding (`unpack1('m0')`), as a verdict. */
function decodesStrictly(bytes: Uint8Array): boolean {
  const end = bytes.length;
  let s = 0;
  let b = -1;
  let c = 0;
  let d = 0;
  while (s < end) {
    b = -1;
    c = -1;
    d = -1;
    const a = DIGIT[bytes[s++]!]!;
    if (s >= end || a === -1) return false;
    b = DIGIT[bytes[s++]!]!;
    if (s >= end || b === -1) return false;
    if (bytes[s] === EQUALS) {
      if (s + 2 === end && bytes[s + 1] === EQUALS) break;
      return false;
    }
    c = DIGIT[bytes[s++]!]!;
    if (s >= end || c === -1) return false;
    if (s + 1 === end && bytes[s] === EQUALS) break;
    d = DIGIT[bytes[s++]!]!;
    if (d === -1) return false;
  }
  // A short last group must leave the bits it does not use at zero (`YQ==` decodes, `YR==` does not).
  if (c === -1) return (b & 0xf) === 0;
  if (d === -1) return (c & 0x3) === 0;
  return true;
}
