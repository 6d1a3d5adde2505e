/**
 * A text file's line ends, kept when a command writes the file back: a Windows checkout's CRLF file must not
 * come back LF (git shows every line changed).
 */

/** `\r\n` when most of the text's line breaks are CRLF, else `\n`. */
export function lineEndingOf(text: string): '\r\n' | '\n' {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const all = text.match(/\n/g)?.length ?? 0;
  return crlf > 0 && crlf * 2 >= all ? '\r\n' : '\n';
}

/** The text with LF line ends (a lone `\r` kept: it is no line break to YAML's printer either). */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** LF text written with `eol`. */
export function withLineEnding(text: string, eol: '\r\n' | '\n'): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, '\r\n');
}
