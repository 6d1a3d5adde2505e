/**
 * Output helpers shared by the engine commands (list, show, validate, render, add): the project directory
 * and engine options from flags, problems as text (file:line:col with a code frame) or JSON, aligned
 * tables, and settings values shown compactly.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { missingSyncHint, projectAbove } from '../engine/missing-sync-hint.js';
import { ReplaceValue, type ResolvedSource, type SourceSpec, type SyncData } from '../engine/model.js';
import type { ProjectOptions } from '../engine/project.js';
import type { Problem } from '../engine/render-plan.js';
import { gitTreeOrigin } from '../engine/sources/git-tree-origin.js';
import { sourceIdentity } from '../engine/sources/index.js';
import { toJson } from '../engine/yaml-data.js';
import { lineColumn, offsetAt } from '../shared/position.js';
import { LOCK_FILE, SYNC_FILE } from '../shared/project-files.js';
import { maskCredentials } from '../shared/url-credentials.js';
import { SyncError } from '../sync/errors.js';
import { UsageError } from './errors.js';
import { type Displayable, fileOrigin, formatProblem } from './format-error.js';
import type { Io } from './io.js';
import type { GlobalOptions } from './main.js';

/** Options every engine command takes (`--offline`, `--trust`, `--no-strict`). */
export interface EngineFlags {
  readonly offline?: boolean;
  readonly trust?: boolean;
  readonly strict?: boolean;
  /** V1 projects: `--template-url`, `--template-ref`. */
  readonly templateUrl?: string;
  readonly templateRef?: string;
}

/** The project root: `-C DIR` (relative to the working directory) or the working directory. */
export function projectDir(io: Io, global: GlobalOptions): string {
  if (global.dir === undefined) return io.cwd;
  const dir = resolve(io.cwd, global.dir);
  // `-C metadata.json` (a file): said so, not "Cannot read .pantograph.lock: ENOTDIR". A directory that
  // does not exist is left to the command (`init` and `new template` create it).
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() === false) {
    throw new UsageError(
      `-C ${global.dir} is not a directory`,
      "give the project's directory (the one holding .sync.yml)",
    );
  }
  return dir;
}

/**
 * The project root of a command that reads only the lock (`remove`, `resolve`): run in `manifests/` of a
 * project, such a command found no lock and said "nothing to remove" or "not a file Pantograph manages";
 * it says where the project is instead (SYNC_NOT_FOUND, as the commands that read `.sync.yml` say it).
 */
export function lockedProjectDir(io: Io, global: GlobalOptions): string {
  const dir = projectDir(io, global);
  const isProject = existsSync(resolve(dir, SYNC_FILE)) || existsSync(resolve(dir, LOCK_FILE));
  if (!isProject && projectAbove(dir) !== undefined) {
    throw new EngineError('SYNC_NOT_FOUND', `no ${SYNC_FILE} in ${dir}`, { hint: missingSyncHint(dir) });
  }
  return dir;
}

/** The engine's options from the command's flags; progress of long work goes to `io` when given. */
export function projectOptions(flags: EngineFlags, io?: Io): ProjectOptions {
  const progress = io?.progress?.bind(io);
  // A project may be loaded twice in one command (a merge renders the previous output): each note once.
  const noted = new Set<string>();
  const note = (text: string) => {
    if (noted.has(text)) return;
    noted.add(text);
    io?.err(`note: ${text}\n`);
  };
  return {
    ...(progress ? { onProgress: (text: string) => progress(text) } : {}),
    ...(io ? { onNote: note } : {}),
    ...(flags.offline === true ? { offline: true } : {}),
    ...(flags.trust === true ? { trust: true } : {}),
    ...(flags.strict === false ? { strict: false } : {}),
    ...(flags.templateUrl !== undefined ? { templateUrl: flags.templateUrl } : {}),
    ...(flags.templateRef !== undefined ? { templateRef: flags.templateRef } : {}),
  };
}

/**
 * Runs an engine command. A terminating EngineError (no `.sync.yml`, a V1 file, an unreachable source)
 * is reported with every problem it stands for, each with its position: as text, or under
 * `--format json` as `{ "problems": [...] }` on standard output. Exit code 1.
 */
export async function engineCommand(
  io: Io,
  global: GlobalOptions,
  body: () => Promise<number>,
  how: { readonly writes?: boolean } = {},
): Promise<number> {
  try {
    return await body();
  } catch (e) {
    // Under --format json a project's damaged lock or journal is a problem on standard output too.
    if (e instanceof SyncError && global.format === 'json') {
      printJson(io, { problems: [jsonProblem(syncProblem(e))] });
      return 1;
    }
    if (!(e instanceof EngineError)) throw e;
    if (global.format === 'json') printJson(io, { problems: e.problems.map(jsonProblem) });
    else {
      printProblems(io, e.problems);
      // A command that writes says it did not, as a plan with errors does (apply.ts's planFailed).
      const errors = e.problems.filter((p) => p.severity === 'error').length;
      if (how.writes === true && errors > 0) io.err(`${plural(errors, 'error')}: nothing was written\n`);
    }
    return 1;
  } finally {
    io.progress?.(undefined);
  }
}

export function syncProblem(e: SyncError): Problem {
  return {
    severity: 'error',
    code: e.code,
    message: e.message,
    ...(e.position ?? (e.path === undefined ? {} : { file: e.path })),
    ...(e.hint === undefined ? {} : { hint: e.hint }),
  };
}

/** Problems to standard error, one block each, with code frames where the file can be read. */
export function printProblems(io: Io, problems: readonly Problem[]): void {
  const texts = new Map<string, string | undefined>();
  for (const p of problems) {
    if (io.quiet === true && p.severity !== 'error') continue; // --quiet: errors only
    io.err(`${formatProblem(displayProblem(p, io.cwd, texts), io.colors, io.widths?.err)}\n`);
  }
}

/** A Problem for `formatProblem`: the file relative to `cwd` when inside it, and a code frame. */
export function displayProblem(
  p: Problem,
  cwd: string,
  texts: Map<string, string | undefined> = new Map(),
): Displayable {
  const display: Displayable = {
    severity: p.severity,
    code: p.code,
    message: p.message,
    file: p.file !== undefined ? shortPath(p.file, cwd) : undefined,
    line: p.line,
    column: p.column,
    hint: p.hint,
    origin: fileOrigin(p.file),
  };
  if (p.file === undefined || p.line === undefined) return display;
  if (!texts.has(p.file)) texts.set(p.file, readText(p.file));
  const source = texts.get(p.file);
  const offset = source === undefined ? undefined : offsetOf(source, p.line, p.column ?? 1);
  if (source === undefined || offset === undefined) return display;
  return { ...display, source, span: { start: offset, end: offset + 1 } };
}

/** Files larger than this get no code frame (a frame shows three lines; reading more is waste). */
const MAX_FRAME_FILE = 1024 * 1024;

/**
 * The text of a file for a code frame: a regular file's own text, never a symlink's. A problem may be
 * about a file Pantograph refused to read (a template's symlink to /proc/self/environ or to a credentials
 * file), and its frame must not show what the refusal protected; so the file is opened with O_NOFOLLOW
 * (a symlink fails to open, also one swapped in after a check) and read only when it is a regular file of
 * at most 1 MiB. Undefined: no frame.
 */
function readText(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_FRAME_FILE) return undefined;
    return readFileSync(fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The offset of a 1-based line and column, or undefined when the text has no such place. */
function offsetOf(source: string, line: number, column: number): number | undefined {
  const offset = offsetAt(source, line, column);
  const at = lineColumn(source, offset);
  return at.line === line && at.column === column ? offset : undefined;
}

/** `file` relative to `cwd` when it is inside it, else as given. */
export function shortPath(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

/**
 * ` -C DIR` naming `dir` from the working directory, for a command a message tells the user to run next;
 * empty when `dir` is the working directory. A shell word as it is when it is one, else single-quoted.
 */
export function dirOption(dir: string, cwd: string): string {
  const rel = relative(cwd, dir);
  if (rel === '') return '';
  // An ancestor is `..` (run inside one of the repository's templates), anything else as paths are shown.
  const shown = rel.split(sep).every((part) => part === '..')
    ? rel.split(sep).join('/')
    : shortPath(dir, cwd);
  return ` -C ${/^[\w./:@%+=,-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, "'\\''")}'`}`;
}

/**
 * The stable JSON shape of a problem (docs/json-output.md); absent fields are left out. As in text, a URL's
 * password is masked (CI keeps JSON reports as artifacts).
 */
export function jsonProblem(p: Problem): Record<string, unknown> {
  const origin = p.file === undefined ? undefined : gitTreeOrigin(p.file);
  return {
    severity: p.severity,
    code: p.code,
    message: maskCredentials(p.message),
    ...(p.file !== undefined ? { file: p.file } : {}),
    ...(p.line !== undefined ? { line: p.line } : {}),
    ...(p.column !== undefined ? { column: p.column } : {}),
    ...(p.hint !== undefined ? { hint: maskCredentials(p.hint) } : {}),
    ...(origin !== undefined ? { origin } : {}),
  };
}

/** `2 errors, 1 warning`. */
export function problemCounts(problems: readonly Problem[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Pretty JSON on standard output; bigints (YAML integers) become numbers. */
export function printJson(io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v), 2)}\n`);
}

/** Settings data for JSON output. */
export function jsonData(value: SyncData | undefined): unknown {
  return toJson(value);
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/**
 * A settings value on one line, as YAML flow (JSON-like, so it can be pasted into `.sync.yml`): floats
 * keep their `.0`, undef is `~`, `!replace` is shown.
 */
export function showData(value: SyncData | undefined): string {
  if (value === undefined) return '-';
  if (value === null) return '~';
  if (value instanceof ReplaceValue) return `!replace ${showData(value.value)}`;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(1) : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(showData).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${showData(v)}`)
    .join(', ')}}`;
}

/**
 * A source as people recognise it: `default`, the directory, or the git URL (without credentials) with
 * `#ref`.
 */
export function sourceLabel(spec: SourceSpec): string {
  if (spec.type === 'default') return 'default';
  if (spec.type === 'git' && spec.ref !== undefined) return `${sourceIdentity(spec)}#${spec.ref}`;
  return sourceIdentity(spec);
}

/** The stable JSON shape of a source. */
export function sourceJson(source: ResolvedSource): Record<string, unknown> {
  return {
    index: source.index,
    type: source.spec.type,
    location: sourceIdentity(source.spec),
    ...(source.spec.ref !== undefined ? { ref: source.spec.ref } : {}),
    ...(source.commit !== undefined ? { commit: source.commit } : {}),
  };
}
