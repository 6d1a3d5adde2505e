/**
 * Syntax checking that reports every error of a template, not only the first: after an error inside a
 * tag, that tag is blanked out (same length, line breaks kept, so later positions stay right) and parsing
 * starts again. An error that is not inside one tag (an unclosed tag, an unbalanced block) ends the search,
 * and so do the errors of Puppet's validation, found all at once after a whole parse.
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
      // Several errors of the validation, which runs after a whole parse: all of them, and no more to find.
      if (e.errors) return [...errors, ...e.errors.map((each) => againstSource(each, source))];
      errors.push(againstSource(e, source));
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

/** The error reported against the original source, so that code frames show what the user wrote. */
function againstSource(e: EppSyntaxError, source: string): EppSyntaxError {
  if (e.location) e.location = { ...e.location, source };
  return e;
}
