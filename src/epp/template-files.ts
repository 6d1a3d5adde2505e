/**
 * The file a template's `epp('x.epp')` renders: from the in-memory `files` (a browser), else from disk
 * inside `baseDir`, else a module's template on the module path. Nothing outside them is read.
 */
import { didYouMean } from '../shared/did-you-mean.js';
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
  const error = notFound(path);
  error.hint = missingFileHint(path, base);
  throw error;
}

/** How many entries the search for a near miss reads at most: a base directory may be a large tree. */
const NEAR_MISS_ENTRIES = 2000;

/**
 * What to do about a missing `epp()` file: the near miss among the `.epp` files under `base` (a typo in
 * a partial's name), else where paths are taken from and the files there are.
 */
function missingFileHint(path: string, base: string): string {
  const candidates = eppFilesUnder(base);
  const near = didYouMean(path.replace(/^(\.\/)+/, ''), candidates);
  if (near !== undefined) return `did you mean '${near}'?`;
  const shown = candidates.slice(0, 5).map((c) => `'${c}'`);
  const more = candidates.length > shown.length ? ` and ${candidates.length - shown.length} more` : '';
  return shown.length > 0
    ? `epp() paths are relative to ${base}, whose .epp files are ${shown.join(', ')}${more}`
    : `epp() paths are relative to ${base}, which holds no .epp file`;
}

/** The `.epp` files under `base`, as relative POSIX paths (hidden directories and tests/ left out). */
function eppFilesUnder(base: string): string[] {
  const fs = nodeFs();
  const out: string[] = [];
  const pending = [''];
  let read = 0;
  while (pending.length > 0 && read < NEAR_MISS_ENTRIES) {
    const dir = pending.shift()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = fs.readdirSync(dir === '' ? base : `${base}/${dir}`, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (++read > NEAR_MISS_ENTRIES) break;
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && rel !== 'tests' && entry.name !== 'node_modules')
          pending.push(rel);
      } else if (entry.name.endsWith('.epp')) out.push(rel);
    }
  }
  return out;
}
