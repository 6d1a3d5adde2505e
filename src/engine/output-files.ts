/**
 * The files a template outputs (`files/`, and `files_init/` for a new project; see render-files.ts), and the
 * last check of their output paths before the writer.
 */
import { controlCharacterIn } from '../shared/control-characters.js';
import { quotedName } from '../shared/quoted-name.js';
import { reservedSegment } from '../shared/reserved-names.js';
import { type EngineErrorCode, problem } from './errors.js';
import type { LoadedTemplate, Position, TemplateFile } from './model.js';
import type { Problem } from './render-plan.js';

/**
 * Why a project-relative output path is refused, or undefined when it is fine. The loader already
 * refuses reserved paths (`.sync.yml`, the lock file, `.git/**`, in any spelling a file system reads as
 * one of them) and two files on one path; this is the last line of defence before a path reaches the
 * writer.
 */
export function refusedPath(path: string): string | undefined {
  if (path === '' || path[0] === '/' || path.includes('\\') || /^[a-zA-Z]:/.test(path)) {
    return 'is not a relative POSIX path';
  }
  // Cheap test first: most paths have no `.` segment and no empty segment.
  if (path[0] === '.' || path.includes('/.') || path.includes('//') || path.endsWith('/')) {
    const parts = path.split('/');
    if (parts.some((p) => p === '..' || p === '.' || p === ''))
      return 'leaves the project or is not normalised';
  }
  if (isReserved(path)) return 'is reserved for Pantograph';
  const control = controlCharacterIn(path);
  if (control !== undefined) return `contains a control character (${control}): rename the file`;
  return undefined;
}

function isReserved(path: string): boolean {
  return reservedSegment(path) !== undefined;
}

export interface FileResolution {
  /** The files to render, in the template's order. */
  readonly files: readonly TemplateFile[];
  readonly problems: readonly Problem[];
}

/** Resolutions by template, one per `isNew`: a loaded template's files never change. */
const resolutions = new WeakMap<LoadedTemplate, { readonly [isNew: string]: FileResolution }>();

/**
 * The files a template outputs: `files/`, and `files_init/` for a new project. A refused path is an error;
 * of two files on one path (reported by the loader) neither is rendered.
 */
export function resolveFiles(t: LoadedTemplate, isNew: boolean): FileResolution {
  const key = isNew ? 'new' : 'old';
  const known = resolutions.get(t);
  const cached = known?.[key];
  if (cached) return cached;
  const resolution = resolveFilesOnce(t, isNew);
  resolutions.set(t, { ...known, [key]: resolution });
  return resolution;
}

function resolveFilesOnce(t: LoadedTemplate, isNew: boolean): FileResolution {
  const problems: Problem[] = [];
  const candidates = t.files.filter((f) => f.kind === 'file' || isNew);
  const count = new Map<string, number>();
  for (const f of t.files) count.set(f.output, (count.get(f.output) ?? 0) + 1);
  const files: TemplateFile[] = [];
  for (const f of candidates) {
    const reason = refusedPath(f.output);
    if (reason && isReserved(f.output)) continue; // reported by the loader
    if (reason) {
      const message = `output path ${quotedName(f.output)} of template '${t.name}' ${reason}`;
      problems.push(fileProblem('error', 'RENDER_PATH_REFUSED', message, f));
    } else if (count.get(f.output) === 1) {
      files.push(f);
    }
  }
  return { files, problems };
}

export function fileProblem(
  severity: Problem['severity'],
  code: EngineErrorCode,
  message: string,
  file: TemplateFile,
  hint?: string,
  position?: Position,
): Problem {
  return problem(severity, code, message, position ?? { file: file.absPath, line: 1, column: 1 }, hint);
}
