/**
 * Displays errors for people: `file:line:col`, the message with its code, a code frame with a caret under
 * the offending text, and a hint. Detection lives with the errors; this only formats them. A URL's
 * password is masked in everything shown: a message may quote git, and a frame of `.sync.yml` may show
 * the line that holds one.
 */

import { gitTreeOrigin } from '../engine/sources/git-tree-origin.js';
import { escapeControlCharacters } from '../shared/control-characters.js';
import { lineColumn, offsetAt } from '../shared/position.js';
import { maskCredentials } from '../shared/url-credentials.js';
import { fold } from './wrap.js';

/** `t1/files/x.epp of git source https://git.example.com/tpl.git at 61a1b4d`, for a file of a git source's cached tree. */
export function fileOrigin(file: string | undefined): string | undefined {
  const origin = file === undefined ? undefined : gitTreeOrigin(file);
  return origin && `${origin.path} of git source ${origin.location} at ${origin.commit.slice(0, 7)}`;
}

export interface Colors {
  red(s: string): string;
  yellow(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
  cyan(s: string): string;
}

export const noColors: Colors = {
  red: (s) => s,
  yellow: (s) => s,
  bold: (s) => s,
  dim: (s) => s,
  cyan: (s) => s,
};

/** What any positioned problem (EPP, engine, sync) offers for display. */
export interface Displayable {
  readonly severity?: 'error' | 'warning' | undefined;
  readonly code?: string | undefined;
  readonly message: string;
  readonly file?: string | undefined;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** Source text and span, for a code frame. */
  readonly source?: string | undefined;
  readonly span?: { readonly start: number; readonly end: number } | undefined;
  readonly hint?: string | undefined;
  /** Where `file` comes from when its path alone does not say (a git source's cached tree). */
  readonly origin?: string | undefined;
}

/** `width`: fold the message and hint at it (wrap.ts); the code frame is never folded. */
export function formatProblem(problem: Displayable, colors: Colors = noColors, width?: number): string {
  const severity = problem.severity ?? 'error';
  const label =
    severity === 'error' ? colors.red(colors.bold('error')) : colors.yellow(colors.bold('warning'));
  const code = problem.code ? colors.dim(` [${problem.code}]`) : '';
  // A template file's path is the template author's choice: shown, never sent to the terminal as it is.
  let where = escapeControlCharacters(problem.file ?? '');
  let line = problem.line;
  let column = problem.column;
  if (problem.source !== undefined && problem.span && line === undefined) {
    ({ line, column } = lineColumn(problem.source, problem.span.start));
  }
  if (where && line !== undefined) where += `:${line}:${column ?? 1}`;
  const lines = [
    fold(
      `${where ? `${colors.bold(where)}: ` : ''}${label}: ${maskCredentials(problem.message)}${code}`,
      width,
    ),
  ];
  if (problem.source !== undefined && problem.span && line !== undefined) {
    lines.push(...codeFrame(problem.source, problem.span, line, column ?? 1, colors));
  }
  if (problem.origin)
    lines.push(
      fold(`  ${colors.cyan('in')}: ${maskCredentials(escapeControlCharacters(problem.origin))}`, width),
    );
  if (problem.hint) lines.push(fold(`  ${colors.cyan('hint')}: ${maskCredentials(problem.hint)}`, width));
  return lines.join('\n');
}

/** Up to two lines of context before the error line, the line itself and a caret line. */
function codeFrame(
  source: string,
  span: { readonly start: number; readonly end: number },
  line: number,
  column: number,
  colors: Colors,
): string[] {
  const all = source.split('\n');
  const first = Math.max(1, line - 2);
  const width = String(line).length;
  const out: string[] = [];
  for (let n = first; n <= line; n++) {
    const text = maskCredentials((all[n - 1] ?? '').replace(/\r$/, ''));
    const marker = n === line ? colors.red('>') : ' ';
    out.push(`${marker} ${colors.dim(String(n).padStart(width))} | ${text}`);
  }
  const lineText = all[line - 1] ?? '';
  // The column counts characters; the caret is placed by UTF-16 units of the line (an emoji before it
  // pads two spaces, as wide as a terminal shows it).
  const at = offsetAt(source, line, column) - offsetAt(source, line, 1);
  // The caret stands under the masked line: columns before it and the span are measured masked too.
  const spanText = lineText.slice(at, at + Math.max(0, span.end - span.start));
  const spanLength = Math.max(1, Math.min(maskCredentials(spanText).length, lineText.length - at));
  const pad = maskCredentials(lineText.slice(0, at)).replace(/[^\t]/g, ' ');
  out.push(`  ${' '.repeat(width)} | ${pad}${colors.red('^'.repeat(spanLength))}`);
  return out;
}
