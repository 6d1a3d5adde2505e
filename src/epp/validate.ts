/**
 * Syntax checking that reports every error of a template, not only the first: after an error inside a
 * tag, that tag is blanked out (same length, line breaks kept, so later positions stay right) and parsing
 * starts again. An error that is not inside one tag (an unclosed tag, an unbalanced block) ends the search.
 */
import { EppSyntaxError } from './errors.js';
import { parseTemplate } from './parser/parser.js';

const MAX_ERRORS = 50;

export function findSyntaxErrors(
  source: string,
  options: { readonly file?: string; readonly delimiters?: readonly [string, string] | undefined } = {},
): EppSyntaxError[] {
  const [open, close] = options.delimiters ?? ['<%', '%>'];
  const errors: EppSyntaxError[] = [];
  let text = source;
  while (errors.length < MAX_ERRORS) {
    try {
      parseTemplate(text, options);
      return errors;
    } catch (e) {
      if (!(e instanceof EppSyntaxError) || !e.location) throw e;
      // Report against the original source so code frames show what the user wrote.
      e.location = { ...e.location, source };
      errors.push(e);
      const offset = e.location.span.start;
      const tagStart = text.lastIndexOf(open, offset);
      const tagEnd = text.indexOf(close, offset);
      if (tagStart < 0 || tagEnd < 0 || text.lastIndexOf(close, offset - 1) > tagStart) return errors;
      const end = tagEnd + close.length;
      text = text.slice(0, tagStart) + text.slice(tagStart, end).replace(/[^\r\n]/g, ' ') + text.slice(end);
    }
  }
  return errors;
}
