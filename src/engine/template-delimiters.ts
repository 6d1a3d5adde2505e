/**
 * The delimiters a template repository's EPP file is written with: its template's `delimiters` in
 * template.json, as the engine renders it. `epp render|validate|dump` take them, so a file of a template
 * with `["[%", "%]"]` is checked as it will be rendered, not as `<% %>` (found by QA). Kept apart from
 * file-checks.ts: `epp render` runs once per file in scripts, and this reads one small JSON file at most.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { delimitersProblem } from '../epp/lexer/delimiters.js';

/** What the engine renders with these delimiters (tests' `expected/` is output, not a template). */
const TEMPLATE_PARTS = new Set(['files', 'files_init', 'partials']);

export interface TemplateDelimiters {
  readonly delimiters: readonly [string, string];
  /** The template.json that sets them. */
  readonly manifest: string;
}

/**
 * The delimiters of the template `file` belongs to, when it is an EPP file of a template (under
 * `files/`, `files_init/` or `partials/` of a directory holding template.json) whose template.json sets
 * valid ones; otherwise undefined (a broken template.json is `validate`'s and `docs`'s to report).
 */
export function templateDelimitersOf(file: string): TemplateDelimiters | undefined {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'template.json');
    let text: string;
    try {
      text = readFileSync(manifest, 'utf8');
    } catch {
      continue;
    }
    if (!TEMPLATE_PARTS.has(relative(dir, file).split(sep)[0] ?? '')) return undefined;
    let d: unknown;
    try {
      d = (JSON.parse(text) as { delimiters?: unknown } | null)?.delimiters;
    } catch {
      return undefined;
    }
    if (!Array.isArray(d) || d.length !== 2 || typeof d[0] !== 'string' || typeof d[1] !== 'string') {
      return undefined;
    }
    if (delimitersProblem(d[0], d[1]) !== undefined) return undefined;
    return { delimiters: [d[0], d[1]], manifest };
  }
  return undefined;
}
