/**
 * The parts of a Ruby code fragment (an ERB tag's code) that run nothing: `#` comments and the text of
 * string literals. A `@configs['x']` there is no read (erb-reads.ts). A double-quoted string's (or a
 * backtick's) `#{...}` interpolation is code again, strings inside it included.
 *
 * A lexical scan, not Ruby's parser (which only a trusted repository may run): `%q()`, `%w[]`, heredocs,
 * regular expressions and `?'`-style character literals are read as code, so a read in them still counts.
 * Interpolations nest at most MAX_NESTING deep; deeper text is left as code. One pass, no backtracking.
 */

/** A span of the code, `[start, end)`, that runs nothing. */
export type InertSpan = readonly [start: number, end: number];

/** Far beyond any template; keeps a hostile file from nesting the scan into the stack's limit. */
const MAX_NESTING = 64;

/** The inert spans of `code`, in order. */
export function rubyInertSpans(code: string): InertSpan[] {
  const spans: InertSpan[] = [];
  scanCode(code, 0, 0, spans);
  return spans;
}

/**
 * Code from `from`: to the end, or (in an interpolation, `depth` > 0) to the `}` that closes it. Returns
 * the offset after that `}`, or the code's length.
 */
function scanCode(code: string, from: number, depth: number, spans: InertSpan[]): number {
  let braces = 0;
  let i = from;
  while (i < code.length) {
    const c = code[i];
    if (c === '#') {
      const newline = code.indexOf('\n', i);
      const end = newline < 0 ? code.length : newline;
      spans.push([i, end]);
      i = end;
    } else if (c === "'") {
      const end = singleQuotedEnd(code, i + 1);
      spans.push([i, end]);
      i = end;
    } else if ((c === '"' || c === '`') && depth < MAX_NESTING) {
      i = scanDoubleQuoted(code, i, depth, spans);
    } else if (c === '{') {
      braces++;
      i++;
    } else if (c === '}') {
      i++;
      if (depth > 0 && braces-- === 0) return i;
    } else {
      i++;
    }
  }
  return i;
}

/** The offset after a single-quoted string's closing quote (its text starts at `from`), or the length. */
function singleQuotedEnd(code: string, from: number): number {
  for (let i = from; i < code.length; i++) {
    if (code[i] === '\\') i++;
    else if (code[i] === "'") return i + 1;
  }
  return code.length;
}

/**
 * A double-quoted (or backtick) string at `open`: its text is inert, its interpolations are code. Returns
 * the offset after its closing quote, or the length.
 */
function scanDoubleQuoted(code: string, open: number, depth: number, spans: InertSpan[]): number {
  const quote = code[open];
  let textStart = open;
  let i = open + 1;
  while (i < code.length) {
    const c = code[i];
    if (c === '\\') {
      i += 2;
    } else if (c === quote) {
      spans.push([textStart, i + 1]);
      return i + 1;
    } else if (c === '#' && code[i + 1] === '{') {
      spans.push([textStart, i + 2]);
      i = scanCode(code, i + 2, depth + 1, spans);
      textStart = i;
    } else {
      i++;
    }
  }
  spans.push([textStart, code.length]);
  return code.length;
}
