/**
 * The file a template's `epp('x.epp')` renders: from the in-memory `files` (a browser), else from disk
 * inside `baseDir`, else a module's template on the module path. Nothing outside them is read.
 */
import { decodeUtf8 } from '../shared/text-file.js';
import type { RenderOptions } from './epp.js';
import { EppEvalError } from './errors.js';
import { ModulePath } from './module-path.js';
import { nodeFs, resolveInside } from './node-files.js';

export interface TemplateFile {
  readonly file: string;
  readonly source: string;
}

export function readTemplateFile(path: string, options: RenderOptions): TemplateFile {
  return options.files ? memoryFile(path, options.files) : diskFile(path, options);
}

const notFound = (path: string, why = '') =>
  new EppEvalError('EPP_TEMPLATE_NOT_FOUND', `Could not find template '${path}'${why}`);

/** From the in-memory files: a plain relative POSIX path, no `..`. */
function memoryFile(path: string, files: Readonly<Record<string, string>>): TemplateFile {
  const clean = path.replace(/^(\.\/)+/, '');
  const parts = clean.split('/');
  if (clean.startsWith('/') || parts.some((p) => p === '..' || p === '') || !Object.hasOwn(files, clean)) {
    throw notFound(path);
  }
  return { file: clean, source: files[clean]! };
}

function diskFile(path: string, options: RenderOptions): TemplateFile {
  const file = fileOnDisk(path, options);
  let bytes: Uint8Array;
  try {
    bytes = nodeFs().readFileSync(file);
  } catch {
    throw notFound(path);
  }
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded) {
    const { message, hint } = decoded.problem;
    throw new EppEvalError('EPP_ENCODING', `template '${path}' ${message}`, undefined, hint);
  }
  return { file, source: decoded.text };
}

/** Inside `baseDir`, else a module's template on the module path. */
function fileOnDisk(path: string, options: RenderOptions): string {
  const modules = options.modulePath;
  if (!modules) return insideBaseDir(path, options.baseDir);
  try {
    if (options.baseDir) return insideBaseDir(path, options.baseDir);
  } catch (e) {
    if (!(e instanceof EppEvalError)) throw e;
  }
  const found = ModulePath.of(modules).templateFile(path);
  if (!found) throw notFound(path);
  return found;
}

/** Inside `base` only; symlinks leading outside are refused too. */
function insideBaseDir(path: string, base: string | undefined): string {
  if (!base) throw notFound(path);
  const found = resolveInside(base, path);
  if ('real' in found) return found.real;
  if (found.problem === 'absolute') throw notFound(path, ': absolute paths are not allowed');
  if (found.problem === 'outside') throw notFound(path, `: it is outside ${base}`);
  throw notFound(path);
}
