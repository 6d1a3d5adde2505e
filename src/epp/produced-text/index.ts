/**
 * The text of a heredoc that declares a syntax (`@(END:json)`) must be valid in it, as Puppet 7 checks it:
 * a heredoc without interpolation when the template is parsed (so `epp validate` and the editor report it,
 * even in a branch never taken), one with interpolation each time it is evaluated. Puppet's checkers are
 * `json`, `base64`, `epp` and `pp`, found by the syntax's last `+` parts (`data+json` is checked as
 * `json`); a syntax with no checker is not checked. `pp` is not checked here: the parser reads the language
 * of templates, not whole manifests (classes, resources, relationships), and would refuse valid ones.
 */

import { lineColumn } from '../../shared/position.js';
import { EppError } from '../errors.js';
import { parseTemplate } from '../parser/parser.js';
import { rubyJsonParseError } from './ruby-json.js';
import { base64Problem } from './strict-base64.js';

type Checker = (text: string) => string | undefined;

const CHECKERS: Readonly<Record<string, Checker>> = {
  json: (text) => {
    const message = rubyJsonParseError(text);
    if (message === undefined) return undefined;
    return `JSON syntax checker: Cannot parse invalid JSON string. "${rubyQuoted(message, 100)}"`;
  },
  base64: base64Problem,
  epp: eppProblem,
};

/** Whether Puppet checks text of this syntax. */
export function hasSyntaxChecker(syntax: string): boolean {
  return checkerFor(syntax) !== undefined;
}

/** Puppet's message when `text` is not valid `syntax`, else undefined. */
export function producedTextProblem(text: string, syntax: string): string | undefined {
  const problem = checkerFor(syntax)?.(text);
  return problem === undefined ? undefined : `Invalid produced text having syntax: '${syntax}'. ${problem}`;
}

/** What to do about a heredoc's text that is not valid in its syntax. */
export function producedTextHint(syntax: string): string {
  return `the heredoc declares ':${syntax}': make its text valid in that syntax, or remove ':${syntax}' from its @(...) tag to leave it unchecked`;
}

/** The checker of the most significant part: `a+b+json` tries `a+b+json`, `b+json`, then `json`. */
function checkerFor(syntax: string): Checker | undefined {
  const segments = syntax.split('+');
  for (let i = 0; i < segments.length; i++) {
    const name = segments.slice(i).join('+');
    if (Object.hasOwn(CHECKERS, name)) return CHECKERS[name];
  }
  return undefined;
}

/** The text parsed as a template with Puppet's delimiters; Puppet quotes the parser's message and position. */
function eppProblem(text: string): string | undefined {
  try {
    parseTemplate(text);
    return undefined;
  } catch (e) {
    // What the parser refuses only because Pantograph does not run it (a resource) is valid EPP to Puppet.
    if (!(e instanceof EppError) || e.code === 'EPP_UNSUPPORTED') return undefined;
    const at = e.location;
    const endOfInput = e.message === 'Syntax error at end of input';
    // An unclosed tag is reported at its start (where the user must look); Puppet's message names the end.
    const offset = e.code === 'EPP_UNCLOSED_TAG' ? at?.source.length : at?.span.start;
    const position =
      at === undefined || offset === undefined || endOfInput
        ? ''
        : positionText(lineColumn(at.source, offset));
    return `EPP syntax checker: "${rubyQuoted(`${e.message}${position}`, 500)}"`;
  }
}

function positionText({ line, column }: { line: number; column: number }): string {
  return ` (line: ${line}, column: ${column})`;
}

/** Puppet's `message.slice(0, n).gsub(/\r?\n/, "\\n")`: `n` characters, line breaks written as `\n`. */
function rubyQuoted(message: string, n: number): string {
  return Array.from(message).slice(0, n).join('').replace(/\r?\n/g, '\\n');
}
