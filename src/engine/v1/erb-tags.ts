/**
 * The one ERB mistake Ruby says nothing about: a tag opened (`<%`, `<%=`, `<%#`, `<%-`) and never closed.
 * Ruby's ERB writes the rest of the file as text, without the opening delimiter, and raises nothing, so a
 * V1 run keeps that output (it is what PDK writes) and warns at the tag, as EPP_UNCLOSED_TAG does for EPP.
 *
 * The scan follows ERB's own: outside a tag `<%%` is a literal `<%`; inside one, `%%>` is a literal `%>`
 * and `%>` (or `-%>`) closes it.
 */
import { problem } from '../errors.js';
import type { Problem } from '../render-plan.js';

/** An ERB tag: `<%`, `<%=`, `<%-` (code) or `<%#` (a comment), and its text between the delimiters. */
export interface ErbTag {
  /** The offset of its `<%`. */
  readonly start: number;
  readonly comment: boolean;
  /** Its text: after the opening delimiter, up to its `%>` (or the end of the source when never closed). */
  readonly contentStart: number;
  readonly contentEnd: number;
  readonly closed: boolean;
}

/**
 * The tags of an ERB source, in order, as ERB's scanner finds them. A tag never closed is the last: ERB
 * writes the rest of the source as text.
 */
export function* erbTags(source: string): Generator<ErbTag> {
  let i = 0;
  for (;;) {
    const start = source.indexOf('<%', i);
    if (start < 0) return;
    if (source.startsWith('<%%', start)) {
      i = start + 3;
      continue;
    }
    const marker = source[start + 2];
    const contentStart = start + (marker === '=' || marker === '#' || marker === '-' ? 3 : 2);
    let at = source.indexOf('%>', start + 2);
    // `%%>`: a literal `%>` in the code
    while (at > start + 2 && source[at - 1] === '%') at = source.indexOf('%>', at + 2);
    if (at < 0) {
      yield { start, comment: marker === '#', contentStart, contentEnd: source.length, closed: false };
      return;
    }
    yield { start, comment: marker === '#', contentStart, contentEnd: at, closed: true };
    i = at + 2;
  }
}

/** The offset of the first tag never closed, or undefined. */
export function unclosedErbTag(source: string): number | undefined {
  for (const tag of erbTags(source)) if (!tag.closed) return tag.start;
  return undefined;
}

/** A warning for a V1 template file with a tag never closed, at the tag; undefined when every tag closes. */
export function unclosedErbTagProblem(source: string, file: string, output: string): Problem | undefined {
  const at = unclosedErbTag(source);
  if (at === undefined) return undefined;
  const before = source.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  const tag = /^<%[=#-]?/.exec(source.slice(at))![0];
  return problem(
    'warning',
    'V1_UNCLOSED_TAG',
    `${output}: the ERB tag \`${tag}\` is never closed: Ruby's ERB writes the rest of the template as text (as PDK does)`,
    { file, line, column },
    "close it with '%>'; or, if the text is meant, write '<%%' for a literal '<%'",
  );
}
