/**
 * A file name as a message shows it: in double quotes, with every character a reader cannot see escaped
 * (`".g\u200cit"`), so that a name a template chose to look like another is told apart in the message.
 */

/** Control, format (zero-width, direction marks, BOM) and line or paragraph separator characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const INVISIBLE_ANY = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** `name` JSON-quoted, with every invisible character as `\uXXXX` (`\u{XXXXX}` beyond the BMP). */
export function quotedName(name: string): string {
  return JSON.stringify(name).replace(INVISIBLE, (c) => {
    const code = c.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `name` as it is when every character shows, else quoted as {@link quotedName} quotes it. */
export function shownName(name: string): string {
  return INVISIBLE_ANY.test(name) ? quotedName(name) : name;
}
