/**
 * The settings a V1 repository's templates read, found by reading their ERB as text, never running it:
 * `@configs['key']` (and `@configs["key"]`, `@configs[:key]`), subscripts chained below it
 * (`@configs['networking']['ip']`), and `@configs.dig('a', 'b')`, `.fetch('key'`, `.key?('key')`,
 * `.has_key?('key')`, `.include?('key')`, inside the ERB's code tags. A key computed at run time
 * (`@configs['required'][key]`) ends the chain there. Hover uses it for a `.sync.yml` key config_defaults.yml does not name (v1-sync.ts).
 *
 * The repository is someone else's, so what is read is bounded: the files listed (project-outline.ts caps
 * them), each file's size, their total, and the reads kept per file. The scan is one pass with no
 * backtracking, so a hostile file costs its length.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { erbTags } from '../engine/v1/erb-tags.js';
import { rubyInertSpans } from './ruby-inert-spans.js';

export interface ErbRead {
  /** The keys below `@configs`, outermost first. */
  readonly path: readonly string[];
  /** 1-based. */
  readonly line: number;
}

export interface ErbReads {
  /** By template, its path in the repository (`moduleroot/Gemfile.erb`). */
  readonly byTemplate: Readonly<Record<string, readonly ErbRead[]>>;
  /** Templates not read: each over MAX_TEMPLATE_BYTES, or past MAX_TOTAL_BYTES. */
  readonly skipped: number;
}

/** A template larger than this is not read (pdk-templates' largest is ~10 KB). */
export const MAX_TEMPLATE_BYTES = 256_000;
/** All templates together: past this, the rest are not read. */
export const MAX_TOTAL_BYTES = 8_000_000;
/** Reads kept per template (the first ones). */
const MAX_READS = 1000;

/** Reads the templates (paths relative to `dir`) within the limits, and scans each. */
export function erbReadsOf(dir: string, templates: readonly string[]): ErbReads {
  const byTemplate: Record<string, ErbRead[]> = {};
  let skipped = 0;
  let total = 0;
  for (const template of templates) {
    const file = join(dir, template);
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      continue;
    }
    if (size > MAX_TEMPLATE_BYTES || total + size > MAX_TOTAL_BYTES) {
      skipped++;
      continue;
    }
    total += size;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const reads = configReads(text);
    if (reads.length > 0) byTemplate[template] = reads;
  }
  return { byTemplate, skipped };
}

const CONFIGS = '@configs';
/** Methods taking the key first: their first argument is read, and the chain ends. */
const ONE_KEY_METHODS = ['.fetch(', '.key?(', '.has_key?(', '.include?(', '.member?('];

/**
 * The `@configs` reads of an ERB text, in order: in its code tags only (`<% %>`, `<%= %>`, `<%- -%>`), as
 * text outside them, a `<%# %>` comment, a `<%%` literal or a tag never closed (ERB writes the rest as
 * text) runs nothing; and in a tag, not in a Ruby `#` comment or a string's text (ruby-inert-spans.ts).
 */
export function configReads(text: string): ErbRead[] {
  const reads: ErbRead[] = [];
  let line = 1;
  let counted = 0;
  for (const tag of erbTags(text)) {
    if (tag.comment || !tag.closed) continue;
    // The code alone, so that a key's quote is never looked for past the tag's `%>`.
    const code = text.slice(tag.contentStart, tag.contentEnd);
    if (!code.includes(CONFIGS)) continue;
    const inert = rubyInertSpans(code);
    let span = 0;
    for (let at = code.indexOf(CONFIGS); at >= 0; at = code.indexOf(CONFIGS, at + 1)) {
      if (reads.length >= MAX_READS) return reads;
      // `@configs_x` is another variable.
      if (/\w/.test(code[at + CONFIGS.length] ?? '')) continue;
      // The spans are in order, as the reads are: one walk over both.
      while (span < inert.length && inert[span]![1] <= at) span++;
      if (span < inert.length && inert[span]![0] <= at) continue;
      const path = chainAt(code, at + CONFIGS.length);
      if (path.length === 0) continue;
      for (; counted < tag.contentStart + at; counted++) if (text.charCodeAt(counted) === 10) line++;
      reads.push({ path, line });
    }
  }
  return reads;
}

/** The literal keys of the subscripts and key methods following `@configs` at `pos`. */
function chainAt(text: string, start: number): string[] {
  const path: string[] = [];
  let pos = start;
  for (;;) {
    if (text[pos] === '[') {
      const key = literalAt(text, skipBlanks(text, pos + 1));
      if (!key) return path;
      const close = skipBlanks(text, key.end);
      if (text[close] !== ']') return path;
      path.push(key.value);
      pos = close + 1;
      continue;
    }
    if (text.startsWith('.dig(', pos)) {
      let p = pos + '.dig('.length;
      for (;;) {
        const key = literalAt(text, skipBlanks(text, p));
        if (!key) return path;
        path.push(key.value);
        p = skipBlanks(text, key.end);
        if (text[p] !== ',') break;
        p++;
      }
      if (text[p] !== ')') return path;
      pos = p + 1;
      continue;
    }
    const method = ONE_KEY_METHODS.find((m) => text.startsWith(m, pos));
    if (method) {
      const key = literalAt(text, skipBlanks(text, pos + method.length));
      if (key) path.push(key.value);
    }
    return path;
  }
}

function skipBlanks(text: string, pos: number): number {
  let p = pos;
  while (text[p] === ' ' || text[p] === '\t') p++;
  return p;
}

/** A string or symbol literal at `pos`: `'k'`, `"k"` (not interpolated), `:k`. */
function literalAt(text: string, pos: number): { value: string; end: number } | undefined {
  const quote = text[pos];
  if (quote === "'" || quote === '"') {
    let value = '';
    for (let p = pos + 1; p < text.length; p++) {
      const ch = text[p]!;
      if (ch === quote) return { value, end: p + 1 };
      if (ch === '\n') return undefined;
      if (quote === '"' && ch === '#' && text[p + 1] === '{') return undefined;
      // Ruby's single quotes escape only `\\` and the quote; double quotes escape any character.
      if (ch === '\\' && (quote === '"' || text[p + 1] === '\\' || text[p + 1] === "'")) {
        p++;
        value += text[p] ?? '';
        continue;
      }
      value += ch;
    }
    return undefined;
  }
  if (quote === ':') {
    const m = /^:[A-Za-z_]\w*[?!]?/.exec(text.slice(pos, pos + 200));
    if (m) return { value: m[0], end: pos + m[0].length };
  }
  return undefined;
}
