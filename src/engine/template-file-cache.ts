/**
 * What planning again reuses of a loaded template file (see render-files.ts): its bytes, its text and its
 * compiled template.
 */
import { readFileSync } from 'node:fs';
import { EppSyntaxError } from '../epp/errors.js';
import { type CompiledTemplate, compileEpp } from '../epp/index.js';
import { offsetAt } from '../shared/position.js';
import { decodeUtf8 } from '../shared/text-file.js';
import type { LoadedTemplate, TemplateFile } from './model.js';

/**
 * What planning a project again (validate renders twice, `show`, tests) reuses of a loaded template file:
 * its bytes, its text and its compiled template. A new `loadProject` makes new TemplateFile objects, so
 * edits are seen then. A class, so that every entry has one shape.
 */
export class FileEntry {
  /** The same string object each time lets the compile cache find it without hashing the text again. */
  text: string | undefined = undefined;
  compiled: CompiledTemplate | undefined = undefined;
  /** The delimiters it was compiled with. */
  delimiters: readonly [string, string] | undefined = undefined;
  /** The declared parameter names, as a key of the arguments shared by a template's files. */
  argumentsKey = '';

  constructor(readonly bytes: Buffer) {}
}

const entries = new WeakMap<TemplateFile, FileEntry>();

export function readTemplateFile(file: TemplateFile): FileEntry {
  let entry = entries.get(file);
  if (!entry) {
    // Synchronous: a thousand small reads are several times faster than through fs.promises.
    entry = new FileEntry(readFileSync(file.absPath));
    entries.set(file, entry);
  }
  return entry;
}

export function compiledTemplate(entry: FileEntry, file: TemplateFile, t: LoadedTemplate): CompiledTemplate {
  const delimiters = t.manifest.delimiters;
  if (entry.compiled !== undefined && entry.delimiters === delimiters) return entry.compiled;
  entry.text ??= templateText(entry.bytes, file);
  const compiled = compileEpp(entry.text, { file: file.absPath, ...(delimiters ? { delimiters } : {}) });
  entry.compiled = compiled;
  entry.delimiters = delimiters;
  entry.argumentsKey = compiled.parameters?.map((p) => p.name).join('\0') ?? '';
  return compiled;
}

/** An EPP file's text; invalid UTF-8 is an error at its first bad byte, never U+FFFD in the output. */
function templateText(bytes: Buffer, file: TemplateFile): string {
  const decoded = decodeUtf8(bytes);
  if ('text' in decoded) return decoded.text;
  const { message, line, column, hint } = decoded.problem;
  const source = bytes.toString('utf8');
  throw new EppSyntaxError(
    'EPP_ENCODING',
    `${file.source} ${message}`,
    {
      file: file.absPath,
      source,
      span: { start: offsetAt(source, line, column), end: offsetAt(source, line, column) + 1 },
    },
    hint,
  );
}
/** A template file's bytes, read once per process (and shared with rendering). */
export function templateFileBytes(file: TemplateFile): Buffer {
  return readTemplateFile(file).bytes;
}
