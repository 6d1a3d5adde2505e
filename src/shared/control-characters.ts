/**
 * Control characters in an output name (a newline, a tab, an escape...): no file needs one, and printed
 * in a list of paths or passed to a command, such a name can pass for other lines, or drive the terminal.
 * Templates choose their files' names, so output paths never hold one.
 */

/**
 * C0 controls, DEL, C1 controls (Unicode's `Cc`, written as ranges: a `\p{Cc}` pattern is looked up in
 * ICU when made, 0.15-0.5 ms of every command's start), and the line and paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** `U+000A`: the first control character in `text`, or undefined when it holds none. */
export function controlCharacterIn(text: string): string | undefined {
  const found = CONTROL.exec(text)?.[0];
  return found === undefined
    ? undefined
    : `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

const CONTROLS = new RegExp(CONTROL.source, 'g');

/** `text` with each control character written as `\uXXXX`: a name printed as it is could drive the terminal. */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
