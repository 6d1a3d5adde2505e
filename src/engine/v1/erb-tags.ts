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

/** The offset of the first tag never closed, or undefined. */
export function unclosedErbTag(source: string): number | undefined {
  let open: number | undefined;
  let i = 0;
  for (;;) {
    if (open === undefined) {
      const at = source.indexOf('<%', i);
      if (at < 0) return undefined;
      if (source.startsWith('<%%', at)) {
        i = at + 3;
        continue;
      }
      open = at;
      i = at + 2;
    } else {
      const at = source.indexOf('%>', i);
      if (at < 0) return open;
      i = at + 2;
      if (at > open + 2 && source[at - 1] === '%') continue; // `%%>`: a literal `%>` in the code
      open = undefined;
    }
  }
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
