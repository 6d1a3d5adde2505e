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
import { EppError, EppSyntaxError } from '../epp/errors.js';
import {
  type CompiledTemplate,
  compileEpp,
  type LogSource,
  logLabel,
  type RenderOptions,
  type TemplateParameter,
} from '../epp/index.js';
import type { PHash } from '../epp/runtime/values.js';
import { controlCharacterIn } from '../shared/control-characters.js';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { lineColumn, offsetAt } from '../shared/position.js';
import { quotedName } from '../shared/quoted-name.js';
import { reservedSegment } from '../shared/reserved-names.js';
import { decodeUtf8 } from '../shared/text-file.js';
import { eppProblem } from './epp-problem.js';
import { type EngineErrorCode, problem } from './errors.js';
import type { DataMap, LoadedTemplate, Position, TemplateFile } from './model.js';
import type { PlannedFile, Problem } from './render-plan.js';

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

const NO_PROBLEMS: readonly Problem[] = Object.freeze([]);

/**
 * What planning a project again (validate renders twice, `show`, tests) reuses of a loaded template file:
 * its bytes, its text and its compiled template. A new `loadProject` makes new TemplateFile objects, so
 * edits are seen then. A class, so that every entry has one shape.
 */
class FileEntry {
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

function readTemplateFile(file: TemplateFile): FileEntry {
  let entry = entries.get(file);
  if (!entry) {
    // Synchronous: a thousand small reads are several times faster than through fs.promises.
    entry = new FileEntry(readFileSync(file.absPath));
    entries.set(file, entry);
  }
  return entry;
}

function compiledTemplate(entry: FileEntry, file: TemplateFile, t: LoadedTemplate): CompiledTemplate {
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

/** A template file's bytes, read once per process (and shared with rendering). */
export function templateFileBytes(file: TemplateFile): Buffer {
  return readTemplateFile(file).bytes;
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

/** The mode an output is written with: executable or not, as its template file. */
function modeOf(file: TemplateFile): number {
  return file.executable ? 0o755 : 0o644;
}

function plannedFile(
  t: LoadedTemplate,
  file: TemplateFile,
  content: Uint8Array,
  empty: boolean,
): PlannedFile {
  return {
    path: file.output,
    mode: modeOf(file),
    template: t.name,
    source: file.source,
    kind: file.kind,
    content,
    empty,
  };
}

/**
 * Rendered text as UTF-8 bytes, carved from a shared slab: like `Buffer.from`'s pool, but a pool of 8 KiB
 * takes only two or three files of a few KiB (it reserves 3 bytes per character), and allocating pools
 * was a good part of the engine's cost per file.
 */
const SLAB_SIZE = 64 * 1024;
let slab = Buffer.allocUnsafeSlow(0);
let slabOffset = 0;

function encodeUtf8(text: string): Uint8Array {
  const max = text.length * 3;
  if (max > SLAB_SIZE / 4) return Buffer.from(text, 'utf8');
  if (slabOffset + max > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
    slabOffset = 0;
  }
  const start = slabOffset;
  const end = start + slab.write(text, start, 'utf8');
  // Aligned to 8 bytes, as Node aligns its pool, so that typed-array views of the content stay possible.
  slabOffset = (end + 7) & ~7;
  return slab.subarray(start, end);
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
