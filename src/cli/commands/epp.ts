/**
 * `pantograph epp render|validate|dump`: standalone EPP, compatible with `puppet epp`. A file of a
 * template repository is read with its template's delimiters unless `--delimiters` is given
 * (engine/template-delimiters.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { moduleContextOf } from '../../engine/module-context.js';
import { templateDelimitersOf } from '../../engine/template-delimiters.js';
import { simpleYamlValues, ValuesError } from '../../engine/yaml-values.js';
import {
  compileEpp,
  type EppWarning,
  evaluatePuppet,
  type LogSource,
  logLabel,
  parseEpp,
  reportSyntaxWarnings,
} from '../../epp/index.js';
import { type JsonNumbers, parseJsonValues } from '../../epp/json-values.js';
import { delimitersProblem } from '../../epp/lexer/delimiters.js';
import { isHash, type PHash } from '../../epp/runtime/values.js';
import { findSyntaxErrors } from '../../epp/validate.js';
import { isDirectory } from '../../shared/path-exists.js';
import { lineColumn, offsetAt } from '../../shared/position.js';
import { decodeUtf8 } from '../../shared/text-file.js';
import { InputFileError, reportError, toDisplayable, UsageError } from '../errors.js';
import { formatProblem } from '../format-error.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';

interface RenderFlags {
  readonly values?: string;
  readonly valuesFile?: string;
  readonly inline?: string;
  readonly strict: boolean;
  /** False with `--no-header`: several templates' outputs run together, as `puppet epp render --no-header`. */
  readonly header?: boolean;
  readonly delimiters?: string;
  readonly baseDir?: string;
  /** Directories holding modules, separated by `:` (`;` on Windows), as `puppet epp render --modulepath`. */
  readonly modulepath?: string;
  /** A .json or YAML file of facts: `$facts`, and each fact a top-scope variable, as `puppet epp render --facts`. */
  readonly facts?: string;
}

export async function eppRender(
  io: Io,
  _global: GlobalOptions,
  files: string[],
  flags: RenderFlags,
): Promise<number> {
  if (files.length === 0 && flags.inline === undefined) {
    throw new UsageError('nothing to render', 'give template files, or a template text with -e');
  }
  const given = parseDelimiters(flags.delimiters);
  const values = await loadValues(io, flags);
  const topScope = flags.facts === undefined ? undefined : await loadFacts(io, flags.facts);
  const onWarning = (w: EppWarning) => io.err(`${w.where ? `${w.where}: ` : ''}warning: ${w.message}\n`);
  // As `puppet epp render` logs at its default level: a notice on standard output, warning and worse on
  // standard error, info and debug nowhere; each names the template (its absolute path) and the line.
  const onLog = (level: string, message: string, where: LogSource) => {
    const file = where.file === '<inline>' ? 'inlined-epp-text' : resolve(io.cwd, where.file);
    const line = `Scope(${file}, ${where.line}): ${message}\n`;
    const label = logLabel(level);
    if (level === 'notice') io.out(`${label}: ${line}`);
    else if (label) io.err(`${label}: ${line}`);
  };
  const modulePath = flags.modulepath
    ?.split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => resolve(io.cwd, dir));
  const render = (file: string, source: string, baseDir: string, path?: string): string => {
    const delimiters = delimitersFor(path, given);
    let template: ReturnType<typeof compileEpp>;
    try {
      template = compileEpp(source, { file, delimiters });
    } catch (e) {
      // The lexer's warnings before a syntax error, printed before it as Puppet prints them.
      reportSyntaxWarnings(e, onWarning);
      throw e;
    }
    return template.render(values, {
      strict: flags.strict,
      baseDir: flags.baseDir ? resolve(io.cwd, flags.baseDir) : baseDir,
      // Without --modulepath, a template of a module sees its module (as the editor checks it).
      modulePath: modulePath ?? (path === undefined ? undefined : moduleContextOf(path)?.modulePath),
      topScope,
      delimiters,
      onWarning,
      onLog,
    });
  };
  // As `puppet epp render`: -e renders its text alone, the files given beside it are not read.
  if (flags.inline !== undefined) {
    if (files.length > 0) {
      const ignored = files.join(', ');
      onWarning({
        code: 'EPP_FILES_IGNORED',
        message: `-e renders its text alone: ${ignored} not rendered`,
        where: '',
      });
    }
    printAsPuts(io, render('<inline>', flags.inline, io.cwd));
    return 0;
  }
  if (files.length === 1) {
    const path = resolve(io.cwd, files[0] as string);
    printAsPuts(io, render(files[0] as string, readTemplate(path, files[0] as string), dirname(path), path));
    return 0;
  }
  return renderSeveral(io, files, flags.header !== false, (file) => {
    const path = resolve(io.cwd, file);
    return render(file, readTemplate(path, file), dirname(path), path);
  });
}

/**
 * Several templates, as `puppet epp render` renders them: each after a `--- file` header (a blank line
 * before every header but the first; none with `--no-header`), every file rendered even after one fails.
 * A failure is reported at once; then nothing is printed, as Puppet prints no output of a failed run.
 */
function renderSeveral(
  io: Io,
  files: readonly string[],
  headers: boolean,
  render: (file: string) => string,
): number {
  let output = '';
  let status = 0;
  files.forEach((file, i) => {
    try {
      const text = render(file);
      if (headers) output += `${i === 0 ? '' : '\n'}--- ${file}\n`;
      output += text;
    } catch (e) {
      status = Math.max(status, reportError(e, io));
    }
  });
  if (status !== 0) return status;
  printAsPuts(io, output);
  return 0;
}

/** As `puppet epp render` prints (Ruby's puts): a line break is added unless the text ends with one. */
function printAsPuts(io: Io, text: string): void {
  io.out(text.endsWith('\n') ? text : `${text}\n`);
}

export async function eppValidate(
  io: Io,
  global: GlobalOptions,
  files: string[],
  flags: { delimiters?: string },
): Promise<number> {
  const given = parseDelimiters(flags.delimiters);
  const problems: ReturnType<typeof toDisplayable>[] = [];
  for (const file of files.flatMap((f) => templatesOf(io.cwd, f))) {
    const path = resolve(io.cwd, file);
    const source = readTemplate(path, file);
    const delimiters = delimitersFor(path, given);
    for (const e of findSyntaxErrors(source, { file, delimiters })) problems.push(toDisplayable(e));
  }
  if (global.format === 'json') {
    io.out(
      `${JSON.stringify({ valid: problems.length === 0, problems: problems.map(jsonProblem) }, null, 2)}\n`,
    );
  } else {
    for (const p of problems) io.err(`${formatProblem(p, io.colors, io.widths?.err)}\n`);
  }
  return problems.length === 0 ? 0 : 1;
}

function jsonProblem(p: ReturnType<typeof toDisplayable>) {
  const where = p.source !== undefined && p.span ? lineColumn(p.source, p.span.start) : undefined;
  return { code: p.code, message: p.message, file: p.file, line: where?.line, column: where?.column };
}

export async function eppDump(
  io: Io,
  _global: GlobalOptions,
  file: string,
  flags: { delimiters?: string; js?: boolean },
): Promise<number> {
  const path = resolve(io.cwd, file);
  const delimiters = delimitersFor(path, parseDelimiters(flags.delimiters));
  const source = readTemplate(path, file);
  if (flags.js) {
    io.out(`${compileEpp(source, { file, delimiters }).javascript}\n`);
    return 0;
  }
  const ast = parseEpp(source, { file, delimiters });
  io.out(`${JSON.stringify(ast, dumpReplacer, 2)}\n`);
  return 0;
}

/**
 * Number literals name their Puppet type (`"valueType": "Integer"` or `"Float"`), since JSON cannot tell
 * `1` from `1.0`; an Integer beyond 2^53, which a JSON number would round, is written as its digits.
 */
function dumpReplacer(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'Literal')
    return value;
  const literal = value as { value: unknown };
  if (typeof literal.value === 'bigint') {
    const n = literal.value;
    const exact = n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER);
    return { ...literal, value: exact ? Number(n) : n.toString(), valueType: 'Integer' };
  }
  if (typeof literal.value === 'number') return { ...literal, valueType: 'Float' };
  return value;
}

/**
 * The files `epp validate` checks for one argument: the file itself, or every `*.epp` under a directory
 * (sorted; hidden directories and node_modules skipped), so that `epp validate templates` works in any
 * shell (a `**` glob needs bash's globstar). Puppet's own validate refuses a directory.
 */
function templatesOf(cwd: string, given: string): string[] {
  if (!isDirectory(resolve(cwd, given))) return [given];
  const found = eppFilesUnder(resolve(cwd, given), given).sort();
  if (found.length === 0) {
    throw new UsageError(
      `no .epp file under ${given}`,
      'give the template files, or a directory holding them',
    );
  }
  return found;
}

/** The `*.epp` files under `dir` (named from `label`), not descending into hidden directories or node_modules. */
function eppFilesUnder(dir: string, label: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      const skipped = entry.name.startsWith('.') || entry.name === 'node_modules';
      return skipped ? [] : eppFilesUnder(join(dir, entry.name), join(label, entry.name));
    }
    return entry.name.endsWith('.epp') ? [join(label, entry.name)] : [];
  });
}

function readTemplate(path: string, label: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new UsageError(
      `cannot read template ${label}: ${readFailure(e)}`,
      isDirectoryError(e) ? `give template files, e.g. ${label.replace(/\/+$/, '')}/*.epp` : undefined,
    );
  }
  const decoded = decodeUtf8(bytes);
  if ('text' in decoded) return decoded.text;
  const { message, line, column, hint } = decoded.problem;
  // As a project's template file is reported (EPP_ENCODING); without a code frame: the line may be binary.
  throw new InputFileError('EPP_ENCODING', `the template ${message}`, label, { line, column }, hint);
}

/** Why a file could not be read, in words (Node's own message names the system call). */
function readFailure(e: unknown): string {
  switch ((e as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return (e as Error).message;
  }
}

function isDirectoryError(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === 'EISDIR';
}

/** `--delimiters` when given, else those of the template `path` belongs to, else EPP's own. */
function delimitersFor(
  path: string | undefined,
  given: readonly [string, string] | undefined,
): readonly [string, string] | undefined {
  if (given !== undefined || path === undefined) return given;
  return templateDelimitersOf(path)?.delimiters;
}

function parseDelimiters(text: string | undefined): readonly [string, string] | undefined {
  if (text === undefined) return undefined;
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2 || delimitersProblem(parts[0]!, parts[1]!) !== undefined) {
    throw new UsageError(
      `invalid --delimiters '${text}'`,
      "give the opening and closing delimiter separated by a space, e.g. '[% %]'",
    );
  }
  return [parts[0]!, parts[1]!];
}

/**
 * `--values` (Puppet hash literal or JSON) merged over `--values-file`: a `.pp` file is Puppet code whose
 * value is the hash, a `.json` file JSON, anything else YAML as Puppet reads it (see {@link parseDataText}).
 */
async function loadValues(io: Io, flags: RenderFlags): Promise<PHash> {
  const values: PHash = new Map();
  if (flags.valuesFile !== undefined) {
    const data = await readHashFile(io, flags.valuesFile, 'values', true);
    for (const [k, v] of data) values.set(k, v);
  }
  if (flags.values !== undefined) {
    const text = flags.values.trim();
    const parsed =
      text.startsWith('{') && looksLikeJson(text)
        ? jsonHash(text, '--values', 'values', 'literal')
        : evaluatePuppet(text, { file: '--values' });
    if (!isHash(parsed)) throw new UsageError('--values must be a hash', "e.g. --values '{x => 1}'");
    for (const [k, v] of parsed) values.set(k, v);
  }
  return values;
}

/** A file of a hash: `.json`, `.pp` (Puppet code, where `puppet` allows it) or YAML. */
async function readHashFile(io: Io, file: string, what: string, allowPuppet: boolean): Promise<PHash> {
  const path = resolve(io.cwd, file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new UsageError(
      `cannot read ${what} file ${file}: ${readFailure(e)}`,
      `give a file of a hash: ${allowPuppet ? '.json, .pp (Puppet code) or YAML' : '.json or YAML'}`,
    );
  }
  // Strictly, as a template is: a lenient read would hand the template U+FFFD in place of each bad byte.
  // Puppet reports the file and renders without its values; stopping at the byte is clearer.
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded) {
    const { message, line, column } = decoded.problem;
    const hint = 'save it as UTF-8 (most editors offer the encoding when saving)';
    throw new InputFileError('VALUES_ENCODING', `the ${what} file ${message}`, file, { line, column }, hint);
  }
  const text = decoded.text;
  if (/\.json$/i.test(path)) return jsonHash(text, file, what);
  if (allowPuppet && /\.pp$/i.test(path)) return puppetHash(text, file);
  return await parseDataText(text, file, what);
}

/**
 * `--facts FILE`, as `puppet epp render --facts`: the hash is `$facts`, and each fact is also a top-scope
 * variable (`$::osfamily`, `$osfamily`). Puppet adds the machine's own facts; Pantograph has no Facter, so
 * a template sees exactly the facts given.
 */
async function loadFacts(io: Io, file: string): Promise<PHash> {
  const facts = await readHashFile(io, file, 'facts', false);
  const top: PHash = new Map(facts);
  top.set('facts', facts);
  return top;
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function jsonHash(text: string, label: string, what = 'values', numbers: JsonNumbers = 'data'): PHash {
  const data = parseJsonValues(text, label, numbers);
  if (!isHash(data)) throw new UsageError(`${label}: ${what} must be a hash (a JSON object)`);
  return data;
}

/**
 * A `.pp` values file, as `puppet epp render --values_file x.pp` reads it: Puppet code whose value is a hash
 * (or undef: no values).
 */
function puppetHash(text: string, label: string): PHash {
  const value = evaluatePuppet(text, { file: label });
  if (value === undefined) return new Map();
  if (!isHash(value)) {
    throw new UsageError(`${label}: the Puppet code must evaluate to a hash or undef`, 'e.g. {x => 1}');
  }
  return value;
}

/**
 * A YAML values file, read as Puppet reads it (Psych, YAML 1.1: `yes`/`no`/`on`/`off` are booleans, `010`
 * is octal, `1_000` a number), keeping the Integer/Float distinction (`1` vs `1.0`). A simple document
 * (block YAML, the usual values file) is read without loading the yaml package, which reads the same data
 * but costs a short process most of its time (see shared/simple-yaml.ts); any other goes to the full
 * reading (engine/yaml-data.ts, as `.sync.yml` is read), whose first error is the one reported.
 */
async function parseDataText(text: string, label: string, what = 'values'): Promise<PHash> {
  try {
    return (
      simpleYamlValues(text, what) ??
      (await import('../../engine/yaml-values-full.js')).fullYamlValues(text, label, what)
    );
  } catch (e) {
    if (!(e instanceof ValuesError)) throw e;
    if (e.position === undefined) throw new UsageError(`${label}: ${e.message}`, e.hint);
    // Shown as a JSON or .pp values file's mistake is: at its place, with a code frame.
    const start = offsetAt(text, e.position.line, e.position.column);
    throw new InputFileError(
      e.code,
      e.message,
      label,
      { source: text, span: { start, end: Math.min(start + 1, text.length) } },
      e.hint,
    );
  }
}
