/**
 * Rendering one template's files (DESIGN 7): which files it outputs, what each file sees, and the bytes.
 *
 * A file that declares parameters receives only the declared names, filled from the settings (an absent
 * or undef setting leaves the parameter's default to apply); a file without a parameter list sees every
 * setting as a variable. Everywhere: `$settings`, `$metadata`, `$project`, `$template` (top scope).
 * `.epp` files are rendered (`epp()` resolves inside the template's own directory); others are copied byte
 * for byte. Whitespace-only output means "no file".
 */
import { readFileSync } from 'node:fs';
import { EppError } from '../epp/errors.js';
import { type CompiledTemplate, compileEpp, type TemplateParameter } from '../epp/index.js';
import { lineColumn } from '../epp/position.js';
import type { PHash } from '../epp/runtime/values.js';
import { didYouMeanHint } from './did-you-mean.js';
import { type EngineErrorCode, problem } from './errors.js';
import type { DataMap, LoadedTemplate, Position, TemplateFile } from './model.js';
import type { PlannedFile, Problem } from './render-plan.js';

/**
 * Why a project-relative output path is refused, or undefined when it is fine. The loader already
 * refuses reserved paths (`.sync.yml`, the lock file, `.git/**`) and two files on one path; this is the
 * last line of defence before a path reaches the writer.
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
  return undefined;
}

function isReserved(path: string): boolean {
  return path === '.sync.yml' || path === '.pantograph.lock' || path === '.git' || path.startsWith('.git/');
}

export interface FileResolution {
  /** The files to render, in the template's order. */
  readonly files: readonly TemplateFile[];
  readonly problems: readonly Problem[];
}

/**
 * The files a template outputs: `files/`, and `files_init/` for a new project. A refused path is an error;
 * of two files on one path (reported by the loader) neither is rendered.
 */
export function resolveFiles(t: LoadedTemplate, isNew: boolean): FileResolution {
  const problems: Problem[] = [];
  const candidates = t.files.filter((f) => f.kind === 'file' || isNew);
  const count = new Map<string, number>();
  for (const f of t.files) count.set(f.output, (count.get(f.output) ?? 0) + 1);
  const files: TemplateFile[] = [];
  for (const f of candidates) {
    const reason = refusedPath(f.output);
    if (reason && isReserved(f.output)) continue; // reported by the loader
    if (reason) {
      const message = `output path '${f.output}' of template '${t.name}' ${reason}`;
      problems.push(fileProblem('error', 'RENDER_PATH_REFUSED', message, f));
    } else if (count.get(f.output) === 1) {
      files.push(f);
    }
  }
  return { files, problems };
}

function fileProblem(
  severity: Problem['severity'],
  code: EngineErrorCode,
  message: string,
  file: TemplateFile,
  hint?: string,
  position?: Position,
): Problem {
  return problem(severity, code, message, position ?? { file: file.absPath, line: 1, column: 1 }, hint);
}

export interface RenderContext {
  readonly template: LoadedTemplate;
  /** The settings the file renders with. */
  readonly settings: DataMap;
  /** The same settings as a Puppet hash (converted once per template, not per file). */
  readonly settingsValue: PHash;
  /** Top-scope names (`settings`, `metadata`, `project`, `template`) as a Puppet hash. */
  readonly topScope: PHash;
  /** Unknown variables are errors (default true). */
  readonly strict: boolean;
}

/** The arguments of one file, or the problems that keep it from rendering. */
export interface FileArguments {
  readonly values: PHash;
  readonly problems: readonly Problem[];
}

/**
 * What a file receives: every setting when it declares no parameters, else the declared names that have a
 * (non-undef) setting. A declared name matching no setting is a warning; a required one without value an
 * error naming template, file and parameter.
 */
export function fileArguments(
  ctx: RenderContext,
  file: TemplateFile,
  source: string,
  parameters: readonly TemplateParameter[] | undefined,
): FileArguments {
  const { template: t, settings } = ctx;
  const problems: Problem[] = [];
  if (!parameters) return { values: new Map(ctx.settingsValue), problems };
  const values: PHash = new Map();
  for (const p of parameters) {
    const has = Object.hasOwn(settings, p.name);
    if (has && settings[p.name] !== null) {
      values.set(p.name, ctx.settingsValue.get(p.name));
      continue;
    }
    const { line, column } = lineColumn(source, p.span.start);
    const position = { file: file.absPath, line, column };
    if (!has) {
      problems.push(
        problem(
          'warning',
          'RENDER_UNKNOWN_PARAMETER',
          `parameter '${p.name}' of ${t.name}/${file.source} matches no setting of template '${t.name}'`,
          position,
          didYouMeanHint(p.name, Object.keys(settings)),
        ),
      );
    }
    if (!p.hasDefault) {
      problems.push(
        problem(
          'error',
          'RENDER_MISSING_PARAMETER',
          `template '${t.name}', file ${file.source}: required parameter '${p.name}' has no value`,
          position,
          `set '${p.name}' in the '${t.name}' section of .sync.yml, or give the parameter a default`,
        ),
      );
    }
  }
  return { values, problems };
}

export interface RenderedFile {
  /** Undefined when the file could not be rendered (see problems). */
  readonly planned: PlannedFile | undefined;
  readonly problems: readonly Problem[];
}

/**
 * File contents per loaded template file: planning a project again (validate renders twice, `show`, tests)
 * reads each file once. A new `loadProject` makes new TemplateFile objects, so edits are seen then.
 */
const contents = new WeakMap<TemplateFile, { bytes: Buffer; text?: string }>();

function readTemplateFile(file: TemplateFile): { bytes: Buffer; text?: string } {
  let entry = contents.get(file);
  if (!entry) {
    // Synchronous: a thousand small reads are several times faster than through fs.promises.
    entry = { bytes: readFileSync(file.absPath) };
    contents.set(file, entry);
  }
  return entry;
}

/** Renders (or copies) one file with the context's settings. */
export function renderFile(ctx: RenderContext, file: TemplateFile): RenderedFile {
  const t = ctx.template;
  const base = {
    path: file.output,
    mode: file.executable ? 0o755 : 0o644,
    template: t.name,
    source: file.source,
    kind: file.kind,
  } as const;
  let entry: { bytes: Buffer; text?: string };
  try {
    entry = readTemplateFile(file);
  } catch (e) {
    const message = `cannot read ${t.name}/${file.source}: ${(e as Error).message}`;
    return { planned: undefined, problems: [fileProblem('error', 'RENDER_READ', message, file)] };
  }
  if (!file.isTemplate)
    return { planned: { ...base, content: new Uint8Array(entry.bytes), empty: false }, problems: [] };

  // The same string object each time lets the compile cache find it without hashing the text again.
  entry.text ??= entry.bytes.toString('utf8');
  const source = entry.text;
  const problems: Problem[] = [];
  try {
    const compiled: CompiledTemplate = compileEpp(source, {
      file: file.absPath,
      ...(t.manifest.delimiters ? { delimiters: t.manifest.delimiters } : {}),
    });
    const args = fileArguments(ctx, file, source, compiled.parameters);
    problems.push(...args.problems);
    if (args.problems.some((p) => p.severity === 'error')) return { planned: undefined, problems };
    const text = compiled.render(args.values, {
      strict: ctx.strict,
      baseDir: t.dir,
      topScope: ctx.topScope,
      // Partials called with epp() use the template's delimiters too.
      delimiters: t.manifest.delimiters,
      onWarning: (w) => problems.push(warningProblem(w.code, w.message, w.where, file)),
    });
    const content = Buffer.from(text, 'utf8');
    return { planned: { ...base, content, empty: !/\S/.test(text) }, problems };
  } catch (e) {
    if (!(e instanceof EppError)) throw e;
    problems.push(eppProblem(e, file));
    return { planned: undefined, problems };
  }
}

/** An EPP error as a Problem, keeping its code and position. */
export function eppProblem(e: EppError, file: TemplateFile): Problem {
  const where = e.location
    ? { file: e.location.file, line: e.line!, column: e.column! }
    : { file: file.absPath, line: 1, column: 1 };
  return {
    severity: 'error',
    code: e.code,
    message: e.message,
    file: where.file,
    line: where.line,
    column: where.column,
    ...(e.hint !== undefined ? { hint: e.hint } : {}),
  };
}

/** An EPP warning (`where` is `file:line:col`) as a Problem. */
function warningProblem(code: string, message: string, where: string, file: TemplateFile): Problem {
  const m = /^(.*):(\d+):(\d+)$/.exec(where);
  const position = m
    ? { file: m[1]!, line: Number(m[2]), column: Number(m[3]) }
    : { file: where || file.absPath };
  return { severity: 'warning', code, message, ...position };
}
