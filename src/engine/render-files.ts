/**
 * Rendering one template's files (DESIGN 7): which files it outputs, what each file sees, and the bytes.
 *
 * A file that declares parameters receives only the declared names, filled from the settings (an absent
 * or undef setting leaves the parameter's default to apply); a file without a parameter list sees every
 * setting as a variable. Everywhere: `$settings`, `$metadata`, `$project`, `$template` (top scope).
 * `.epp` files are rendered (`epp()` resolves inside the template's own directory); others are copied byte
 * for byte. Whitespace-only output means "no file".
 *
 * Here: the render of one file, the session its template's files share, and a file rendered only when its
 * bytes are read (the render cache's). Which files a template outputs is output-files.ts; what a file
 * receives, file-arguments.ts; what is kept of a template file between plans, template-file-cache.ts; the
 * plan's file and its bytes, planned-files.ts.
 */
import { EppError } from '../epp/errors.js';
import { type CompiledTemplate, type LogSource, logLabel, type RenderOptions } from '../epp/index.js';
import type { PHash } from '../epp/runtime/values.js';
import { eppProblem } from './epp-problem.js';
import { type FileArguments, fileArguments } from './file-arguments.js';
import type { DataMap, LoadedTemplate, TemplateFile } from './model.js';
import { fileProblem } from './output-files.js';
import { encodeUtf8, modeOf, plannedFile } from './planned-files.js';
import type { PlannedFile, Problem } from './render-plan.js';
import { compiledTemplate, type FileEntry, readTemplateFile } from './template-file-cache.js';

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

export interface RenderedFile {
  /** Undefined when the file could not be rendered (see problems). */
  readonly planned: PlannedFile | undefined;
  readonly problems: readonly Problem[];
}

const NO_PROBLEMS: readonly Problem[] = Object.freeze([]);

/**
 * What the files of one render context share: the render options (one warning sink, pointed at the file
 * being rendered: renders are synchronous) and the arguments of files declaring the same parameters.
 */
interface Session {
  readonly options: RenderOptions;
  /** Where the problems of the file being rendered go. */
  problems: Problem[] | undefined;
  file: TemplateFile | undefined;
  /** Arguments without problems, by declared names (they depend on nothing else). */
  readonly shared: Map<string, FileArguments>;
  /** The arguments of files without a parameter list: every setting. */
  all: FileArguments | undefined;
}

const sessions = new WeakMap<RenderContext, Session>();
/** The context of the previous file: usually the next file's too. */
let lastSession: { readonly ctx: RenderContext; readonly session: Session } | undefined;

function sessionOf(ctx: RenderContext): Session {
  if (lastSession?.ctx === ctx) return lastSession.session;
  let session = sessions.get(ctx);
  if (!session) {
    const t = ctx.template;
    const s: Session = {
      options: {
        strict: ctx.strict,
        baseDir: t.dir,
        topScope: ctx.topScope,
        // Partials called with epp() use the template's delimiters too.
        delimiters: t.manifest.delimiters,
        onWarning: (w) => s.problems?.push(warningProblem(w.code, w.message, w.where, s.file!)),
        // notice() and its kin: what Puppet prints at its default level, shown as a warning where it was
        // called (authors print-debug with them; a file rendered from the render cache says nothing).
        onLog: (level, message, where) => {
          if (logLabel(level)) s.problems?.push(logProblem(level, message, where, s.file!));
        },
      },
      problems: undefined,
      file: undefined,
      shared: new Map(),
      all: undefined,
    };
    session = s;
    sessions.set(ctx, session);
  }
  lastSession = { ctx, session };
  return session;
}

/** The arguments of a file, shared with the template's other files declaring the same names. */
function argumentsOf(
  session: Session,
  ctx: RenderContext,
  entry: FileEntry,
  file: TemplateFile,
  compiled: CompiledTemplate,
): FileArguments {
  const parameters = compiled.parameters;
  if (!parameters) {
    // Values are never changed by a render, so every such file can share one hash.
    session.all ??= { values: ctx.settingsValue, problems: NO_PROBLEMS };
    return session.all;
  }
  let args = session.shared.get(entry.argumentsKey);
  if (!args) {
    args = fileArguments(ctx, file, compiled.source, parameters);
    if (args.problems.length === 0) session.shared.set(entry.argumentsKey, args);
  }
  return args;
}

/** Renders (or copies) one file with the context's settings. */
export function renderFile(ctx: RenderContext, file: TemplateFile): RenderedFile {
  const problems: Problem[] = [];
  const planned = renderFileInto(ctx, file, problems);
  return { planned, problems };
}

/**
 * Renders (or copies) one file, adding its problems to `problems`: what {@link renderFile} does, without
 * an object and an array per file.
 */
export function renderFileInto(
  ctx: RenderContext,
  file: TemplateFile,
  problems: Problem[],
): PlannedFile | undefined {
  const t = ctx.template;
  let entry: FileEntry;
  try {
    entry = readTemplateFile(file);
  } catch (e) {
    const message = `cannot read ${t.name}/${file.source}: ${(e as Error).message}`;
    problems.push(fileProblem('error', 'RENDER_READ', message, file));
    return undefined;
  }
  // A copy: the plan's callers may change its bytes.
  if (!file.isTemplate) return plannedFile(t, file, new Uint8Array(entry.bytes), false);

  const session = sessionOf(ctx);
  session.file = file;
  session.problems = problems;
  try {
    const compiled = compiledTemplate(entry, file, t);
    const args = argumentsOf(session, ctx, entry, file, compiled);
    if (args.problems.length > 0) {
      problems.push(...args.problems);
      if (args.problems.some((p) => p.severity === 'error')) return undefined;
    }
    const text = compiled.render(args.values, session.options);
    return plannedFile(t, file, encodeUtf8(text), isBlank(text));
  } catch (e) {
    if (!(e instanceof EppError)) throw e;
    problems.push(eppProblem(e, file, t.name));
    return undefined;
  } finally {
    session.file = undefined;
    session.problems = undefined;
  }
}

/** Whether a text is empty or whitespace only (what `/\S/` does not match), looking no further than needed. */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) return false;
    if (!isWhitespace(c)) return false;
  }
  return true;
}

/** JavaScript's `\s`: the ASCII spaces, the Unicode space separators, line terminators and the BOM. */
function isWhitespace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * A file whose output is the locked one (same inputs): its hash is known and its bytes are rendered only
 * when read, with the same context a render now would use.
 */
export function cachedPlannedFile(
  ctx: RenderContext,
  file: TemplateFile,
  input: string,
  hash: string,
): PlannedFile {
  return new CachedPlannedFile(ctx, file, input, hash);
}

/**
 * A class, not an object literal with a getter: V8 builds such a literal through its slow path, which was
 * ~40 ms of a 10,000-file `status`. `content` is on the prototype, so a copy made by spreading one would
 * lose it: nothing copies a cached file (a rendered one is a plain object).
 */
class CachedPlannedFile implements PlannedFile {
  readonly path: string;
  readonly mode: number;
  readonly template: string;
  readonly source: string;
  readonly kind: 'file' | 'init';
  readonly empty = false;
  readonly fromCache = true;
  // Private fields: not copied, printed or serialized with the file's data.
  readonly #ctx: RenderContext;
  readonly #file: TemplateFile;
  #content: Uint8Array | undefined;

  constructor(
    ctx: RenderContext,
    file: TemplateFile,
    readonly input: string,
    readonly hash: string,
  ) {
    this.#ctx = ctx;
    this.#file = file;
    this.path = file.output;
    this.mode = modeOf(file);
    this.template = ctx.template.name;
    this.source = file.source;
    this.kind = file.kind;
  }

  get content(): Uint8Array {
    if (this.#content === undefined) {
      const problems: Problem[] = [];
      const rendered = renderFileInto(this.#ctx, this.#file, problems);
      // Same inputs, same output: anything else is a bug in what the key covers, and must not pass.
      if (!rendered)
        throw new Error(`${this.#file.absPath}: rendering again failed: ${problems[0]?.message ?? ''}`);
      this.#content = rendered.content;
    }
    return this.#content;
  }
}

/** An EPP warning (`where` is `file:line:col`) as a Problem. */
/** A message of `notice()` (or `warning()`, `err()`...) as a warning: `notice(): the text`. */
function logProblem(level: string, message: string, where: LogSource, file: TemplateFile): Problem {
  const inFile = where.file === '<inline>' ? file.absPath : where.file;
  return {
    severity: 'warning',
    code: 'EPP_LOG',
    message: `${level}(): ${message}`,
    file: inFile,
    line: where.line,
  };
}

function warningProblem(code: string, message: string, where: string, file: TemplateFile): Problem {
  const m = /^(.*):(\d+):(\d+)$/.exec(where);
  const position = m
    ? { file: m[1]!, line: Number(m[2]), column: Number(m[3]) }
    : { file: where || file.absPath };
  return { severity: 'warning', code, message, ...position };
}
