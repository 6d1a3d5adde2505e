/**
 * The template an EPP file belongs to, made in the check worker from the texts of its `template.json` and
 * `template_schema.json` (the server's thread reads them, from the editor's buffers or the disk, and
 * parses neither): parsing a 1 MB schema with its positions held the server's thread ~50 ms, ~0.2 s on a
 * busy machine, at every pause in typing in it. The worker keeps what it made of the last texts, so a
 * keystroke in a template's file parses no schema; the server keeps the small summary hover and
 * completion need (each setting's type label, description and default), sent once per texts.
 */
import { join, relative, sep } from 'node:path';
import { type TemplateContext, templateContextOf, typeLabel } from '../engine/editor.js';
import type { Data } from '../engine/model.js';

/** The texts a template's context is made from, as the server read them. */
export interface TemplateTexts {
  /** The template's directory (the one holding `template.json`). */
  readonly dir: string;
  readonly manifest: string;
  readonly schema: string | undefined;
  /** One of them is over the server's size limit: it is not parsed, its template's settings unknown. */
  readonly tooLarge: boolean;
}

export interface SettingSummary {
  /** As `show` prints types: `string`, `array of string`, `any`. */
  readonly type: string;
  readonly description?: string;
  readonly default?: Data;
}

/** What the server knows of a file's template (its `part` is the file's). */
export interface TemplateSummary {
  readonly name: string;
  readonly dir: string;
  readonly part: TemplateContext['part'];
  readonly settings: ReadonlyMap<string, SettingSummary>;
  readonly delimiters: readonly [string, string] | undefined;
}

/** Where `file` is in the template of `dir`. */
export function partOf(dir: string, file: string): TemplateContext['part'] {
  const first = relative(dir, file).split(sep)[0];
  return first === 'files' || first === 'files_init' || first === 'partials' ? first : 'other';
}

export function sameTexts(a: TemplateTexts | undefined, b: TemplateTexts | undefined): boolean {
  return (
    a === b ||
    (a !== undefined &&
      b !== undefined &&
      a.dir === b.dir &&
      a.tooLarge === b.tooLarge &&
      a.manifest === b.manifest &&
      a.schema === b.schema)
  );
}

/** A template's context made from its texts, and whether they are broken (do not parse, or too large). */
export interface MadeContext {
  readonly context: TemplateContext | undefined;
  readonly broken: boolean;
}

/** The contexts made last (a template's files are checked in turn): at most a few, by texts. */
const made: { texts: TemplateTexts; made: MadeContext }[] = [];
const KEPT = 4;

/** The context of a template from its texts (in the worker; made once per texts). */
export function contextFromTexts(texts: TemplateTexts): MadeContext {
  const kept = made.find((m) => sameTexts(m.texts, texts));
  if (kept) return kept.made;
  // Any file of the template's `files/` gives the same context, but its `part`, which the caller sets.
  const file = join(texts.dir, 'files', '_');
  const context = templateContextOf(file, (path) => {
    if (path === join(texts.dir, 'template.json')) return texts.tooLarge ? '{}' : texts.manifest;
    if (path === join(texts.dir, 'template_schema.json')) return texts.tooLarge ? '{}' : texts.schema;
    return undefined;
  });
  const parses = (text: string | undefined) => {
    if (text === undefined) return true;
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };
  const result = { context, broken: texts.tooLarge || !parses(texts.manifest) || !parses(texts.schema) };
  made.unshift({ texts, made: result });
  made.length = Math.min(made.length, KEPT);
  return result;
}

export function summaryOf(context: TemplateContext): TemplateSummary {
  const settings = new Map<string, SettingSummary>();
  for (const [name, info] of context.settings) {
    const description = info.schema?.description;
    settings.set(name, {
      type: info.schema ? typeLabel(info.schema) : 'any',
      ...(typeof description === 'string' ? { description } : {}),
      ...(info.default !== undefined ? { default: info.default } : {}),
    });
  }
  return {
    name: context.name,
    dir: context.dir,
    part: context.part,
    settings,
    delimiters: context.delimiters,
  };
}
