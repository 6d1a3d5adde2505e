/**
 * The EPP facade: parse, compile (cached by content) and render templates, and evaluate Puppet code.
 */

import { lineColumn } from '../shared/position.js';
import type { SyntaxWarning, TemplateNode } from './ast.js';
import { type CompiledCode, compileTemplate } from './compiler/compiler.js';
import { EppError, EppEvalError, EppSyntaxError, type SourceLocation } from './errors.js';
import { coreFunctions } from './functions/index.js';
import {
  BreakSignal,
  type FunctionDef,
  type FunctionRegistry,
  NextSignal,
  ReturnSignal,
} from './functions/registry.js';
import { canInterpret, TemplateInterpreter } from './interpreter/interpreter.js';
import { puppetFunction } from './module-functions.js';
import { ModulePath, type ModulePathEntry } from './module-path.js';
import { parsePuppet, parseTemplate } from './parser/parser.js';
import { reportedWarnings } from './reported-warnings.js';
import type { LogSource } from './runtime/contracts.js';
import { fromJs, valuesFromJs } from './runtime/convert.js';
import { withTimeLimit } from './runtime/deadline.js';
import { plainValues } from './runtime/plain-values.js';
import { Runtime, type RuntimeHost, type RuntimeTemplate } from './runtime/runtime.js';
import { asMemoryLimit } from './runtime/size-limits.js';
import { setTypeTextEvaluator } from './runtime/types/names.js';
import { inferGenericType, PType } from './runtime/types.js';
import { isHash, type PHash, PSensitive, type Value } from './runtime/values.js';
import { readTemplateFile } from './template-files.js';

export type { LogSource } from './runtime/contracts.js';

export interface EppWarning {
  readonly code: string;
  readonly message: string;
  /** `file:line:col` when known, else ''. */
  readonly where: string;
}

export interface CompileOptions {
  /** File name used in errors (`<inline>` when absent). */
  readonly file?: string;
  /** Tag delimiters, default `['<%', '%>']`. Trim (`<%-`, `-%>`) and literal (`<%%`, `%%>`) forms follow. */
  readonly delimiters?: readonly [string, string] | undefined;
}

export interface RenderOptions {
  /** Unknown variables are errors (default true). With false: a warning, and they render empty. */
  readonly strict?: boolean;
  /** Directory `epp('x.epp')` resolves against; files outside it are refused. Default: no file access. */
  readonly baseDir?: string | undefined;
  /**
   * The files `epp('x.epp')` reads, by POSIX path (`partials/x.epp`), instead of a directory: what a
   * browser has. Wins over `baseDir`.
   */
  readonly files?: Readonly<Record<string, string>> | undefined;
  /** Extra functions, added to (or replacing) the built-ins. */
  readonly functions?: readonly FunctionDef[] | undefined;
  /** Variables visible everywhere, also in templates that declare parameters (like `$facts`). */
  readonly topScope?: PHash | Readonly<Record<string, unknown>> | undefined;
  /** Receives warnings. */
  readonly onWarning?: ((warning: EppWarning) => void) | undefined;
  /** Receives `notice()` and friends, with the template and line of the call. */
  readonly onLog?: ((level: string, message: string, where: LogSource) => void) | undefined;
  /** Stop with `EPP_TIME_LIMIT` when the evaluation runs longer (default: no limit, as Puppet). */
  readonly timeLimitMs?: number | undefined;
  /** Delimiters for templates rendered with `epp()` / `inline_epp()` from this one. */
  readonly delimiters?: readonly [string, string] | undefined;
  /**
   * Directories holding Puppet modules, as Puppet's `--modulepath`: a module's type aliases
   * (`Redis::LogLevel`), functions written in Puppet (`redis::format()`) and templates
   * (`epp('redis/x.epp')`, after `baseDir`) are read from them. An entry may also be one module whose
   * directory is not named after it (`{ name: 'redis', dir: '/src/puppet-redis' }`). Entries are searched
   * in order. Pass the same array to every render: what is read is kept with it.
   */
  readonly modulePath?: readonly ModulePathEntry[] | undefined;
}

/** A declared template parameter (`<%- | Type $name = default | -%>`). */
export interface TemplateParameter {
  readonly name: string;
  /** The type as written, e.g. `Optional[String]`; `Any` when omitted. */
  readonly typeText: string;
  readonly hasDefault: boolean;
  /** The default's source text, when there is one. */
  readonly defaultText: string | undefined;
  readonly span: { readonly start: number; readonly end: number };
}

/**
 * Template values: a Puppet hash, used as it is (its values must be Puppet values: Integers as numbers,
 * bigint only beyond 2^53, Floats made by `float()`), or a plain object converted as `fromJs` does (whole
 * numbers become Integers, others Floats; pass `float(n)` for a whole Float).
 */
export type Values = PHash | Readonly<Record<string, unknown>>;

// ---------------------------------------------------------------- compile cache

/**
 * A parsed template and the tiers that render it: its first {@link INTERPRETED_RENDERS} renders are
 * interpreted from the AST, a later one compiles it to JavaScript (see `interpreter/interpreter.ts`;
 * `PANTOGRAPH_EPP_TIER` can fix one tier, for tests).
 */
interface CacheEntry {
  readonly ast: TemplateNode;
  /** A program whose value is its last expression, not a template. */
  readonly program: boolean;
  code: CompiledCode | undefined;
  interpreter: TemplateInterpreter | undefined;
  renders: number;
  /** Declared parameters, computed once per source. */
  parameters?: readonly TemplateParameter[] | undefined;
}

/** Which tier renders: both in turn (the default), or only one (`interpreted`, `compiled`). */
const TIER = renderTier(globalThis.process?.env?.PANTOGRAPH_EPP_TIER);

function renderTier(setting: string | undefined): 'tiered' | 'interpreted' | 'compiled' {
  if (setting === undefined || setting === '' || setting === 'tiered') return 'tiered';
  if (setting === 'interpreted' || setting === 'compiled') return setting;
  throw new Error(`PANTOGRAPH_EPP_TIER must be tiered, interpreted or compiled, not '${setting}'`);
}

/**
 * How many renders of a template are interpreted before it is compiled. Two, not one: a template rendered
 * exactly twice (`validate` plans a project twice, to see that its output is stable) did not earn back its
 * compile (a `validate` of 10,000 files: 4.8-5.8 s compiling each on its second render, 3.4-3.5 s with
 * two interpreted renders); one rendered often pays for one more interpreted render, once.
 */
const INTERPRETED_RENDERS = 2;

/** Whether this render of the entry is interpreted: one of the first ones, unless a tier is fixed. */
function interprets(entry: CacheEntry, source: string): boolean {
  if (entry.code || !canInterpret(source)) return false;
  if (TIER === 'tiered') return entry.renders++ < INTERPRETED_RENDERS;
  return TIER === 'interpreted';
}

function compiledCode(entry: CacheEntry): CompiledCode {
  entry.code ??= compileTemplate(entry.ast, { value: entry.program });
  return entry.code;
}

const MAX_CACHE = 2000;
/** Compiled code by kind and delimiters, then by source text. */
const caches = new Map<string, Map<string, CacheEntry>>();
let cacheSize = 0;

/** Forgets every compiled template (for benchmarks that measure cold compiles). */
export function clearCompileCache(): void {
  caches.clear();
  cacheSize = 0;
}

function compileCached(source: string, options: CompileOptions, program: boolean): CacheEntry {
  // Map keys hash the string's content (once per string object): equal sources share one compiled
  // function whatever their file.
  const d = options.delimiters;
  const kind = `${program ? 'p' : 't'}${d ? `${d[0]}\u0000${d[1]}` : ''}`;
  let cache = caches.get(kind);
  if (!cache) {
    cache = new Map();
    caches.set(kind, cache);
  }
  let entry = cache.get(source);
  if (entry) return entry;
  const parseOptions = { file: options.file ?? '<inline>', delimiters: options.delimiters };
  const ast = program ? parsePuppet(source, parseOptions) : parseTemplate(source, parseOptions);
  entry = { ast, program, code: undefined, interpreter: undefined, renders: 0 };
  if (cacheSize >= MAX_CACHE) clearCompileCache();
  caches.get(kind)?.set(source, entry) ?? caches.set(kind, new Map([[source, entry]]));
  cacheSize++;
  return entry;
}

// ---------------------------------------------------------------- public API

/** Parses a template into its AST. Throws `EppSyntaxError` with a position. */
export function parseEpp(source: string, options: CompileOptions = {}): TemplateNode {
  return parseTemplate(source, { file: options.file ?? '<inline>', delimiters: options.delimiters });
}

export class CompiledTemplate {
  readonly parameters: readonly TemplateParameter[] | undefined;
  /** What a Runtime of an interpreted render knows of the template (the interpreter's span table). */
  private interpreted: RuntimeTemplate | undefined;

  /** @internal use {@link compileEpp}. */
  constructor(
    readonly file: string,
    readonly source: string,
    readonly ast: TemplateNode,
    private readonly entry: CacheEntry,
    readonly delimiters: readonly [string, string] | undefined,
    parameters: readonly TemplateParameter[] | undefined,
  ) {
    this.parameters = parameters;
  }

  /** The span of a position index of the compiled code (a compiled render's Runtime reads it for errors). */
  span(p: number) {
    return compiledCode(this.entry).spans[p];
  }

  /** The generated JavaScript (for `epp dump --js` and debugging). */
  get javascript(): string {
    return compiledCode(this.entry).code;
  }

  /** Renders with the given values. Throws `EppError` (with a position) for any problem. */
  render(values: Values = {}, options: RenderOptions = NO_OPTIONS): string {
    const host = options === NO_OPTIONS ? defaultHost() : new Host(options);
    const top = topScopeOf(options.topScope);
    // Declared parameters bind from the caller's object itself (see PlainValues); others need the hash.
    const given = this.parameters && isPlainObject(values) ? plainValues(values) : toHash(values);
    return host.run(this, given, this.dynamicScope(top), top, 0) as string;
  }

  /**
   * The scope of the template's own names beyond its locals: a template without declared parameters gets
   * its values written into a fresh one; with parameters nothing is written, so the top scope serves.
   */
  dynamicScope(top: object): object {
    return this.parameters ? top : Object.create(top);
  }

  /** What the lexer warned of, reported with each render as Puppet reports it with each parse. */
  private warnOfText(host: RuntimeHost, warnings: readonly SyntaxWarning[]): void {
    for (const w of reportedWarnings(warnings))
      host.warn(w.code, w.message, { file: this.file, source: this.source, span: w });
  }

  /** @internal runs with an explicit scope (nested templates, hooks). */
  runIn(host: RuntimeHost, values: PHash, scope: object, top: object, depth: number): unknown {
    const entry = this.entry;
    if (entry.ast.warnings) this.warnOfText(host, entry.ast.warnings);
    if (interprets(entry, this.source)) {
      const interpreter = (entry.interpreter ??= new TemplateInterpreter(
        entry.ast,
        entry.program,
        this.source,
      ));
      this.interpreted ??= {
        file: this.file,
        source: this.source,
        ast: entry.ast,
        span: (p) => interpreter.span(p),
      };
      return interpreter.run(new Runtime(this.interpreted, host, values, top, depth), scope);
    }
    const code = compiledCode(entry);
    return code.render(new Runtime(this, host, values, top, depth), scope);
  }
}

/** Compiles a template (cached by content). Throws `EppSyntaxError` with a position. */
export function compileEpp(source: string, options: CompileOptions = {}): CompiledTemplate {
  const file = options.file ?? '<inline>';
  const entry = compileCached(source, options, false);
  if (!('parameters' in entry)) entry.parameters = declaredParameters(entry.ast, source);
  return new CompiledTemplate(file, source, entry.ast, entry, options.delimiters, entry.parameters);
}

function declaredParameters(ast: TemplateNode, source: string): readonly TemplateParameter[] | undefined {
  return ast.params?.map((p) => ({
    name: p.name,
    typeText: p.valueType ? source.slice(p.valueType.start, p.valueType.end) : 'Any',
    hasDefault: p.defaultValue !== undefined,
    defaultText: p.defaultValue ? source.slice(p.defaultValue.start, p.defaultValue.end) : undefined,
    span: { start: p.start, end: p.end },
  }));
}

/** Parses, compiles (cached) and renders in one call. */
export function renderEpp(
  source: string,
  values: Values = {},
  options: RenderOptions & CompileOptions = {},
): string {
  let template: CompiledTemplate;
  try {
    template = compileEpp(source, options);
  } catch (e) {
    reportSyntaxWarnings(e, options.onWarning);
    throw e;
  }
  return template.render(values, options);
}

/**
 * Reports the lexer's warnings that came before a syntax error (`EppSyntaxError.warnings`) to
 * `onWarning`, as `puppet epp render` prints them before the error; nothing for any other error. For a
 * caller that compiles and renders in two steps (`compileEpp`, then `render` with `onWarning`).
 */
export function reportSyntaxWarnings(error: unknown, onWarning: RenderOptions['onWarning']): void {
  if (!(error instanceof EppSyntaxError) || !error.warnings || !onWarning) return;
  const location = error.location;
  for (const w of reportedWarnings(error.warnings)) {
    const where = location
      ? `${location.file}:${lineColumn(location.source, w.start).line}:${lineColumn(location.source, w.start).column}`
      : '';
    onWarning({ code: w.code, message: w.message, where });
  }
}

/**
 * Evaluates Puppet code (no EPP tags) and returns the value of its last expression: used for `.pp` hooks
 * and for `--values` hash literals. `variables` are its local variables.
 */
export function evaluatePuppet(
  source: string,
  options: CompileOptions & RenderOptions & { readonly variables?: Values } = {},
): Value {
  const file = options.file ?? '<inline>';
  const entry = compileCached(source, options, true);
  const template = new CompiledTemplate(file, source, entry.ast, entry, options.delimiters, undefined);
  const host = new Host(options, true);
  const top = topScopeOf(options.topScope);
  // The value returned may hold the variables' values: converted to a snapshot.
  return host.run(template, toHash(options.variables ?? {}, fromJs), Object.create(top), top, 0) as Value;
}

// The stdlib type aliases (`Stdlib::Port`) are Puppet source, evaluated by this module on first use.
setTypeTextEvaluator((text) => evaluatePuppet(text, { file: '<stdlib type alias>' }) as PType);

// ---------------------------------------------------------------- host

const extendedRegistries = new WeakMap<readonly FunctionDef[], FunctionRegistry>();

function registryFor(extra: readonly FunctionDef[] | undefined): FunctionRegistry {
  if (!extra || extra.length === 0) return coreFunctions;
  let registry = extendedRegistries.get(extra);
  if (!registry) {
    registry = coreFunctions.extend(...extra);
    extendedRegistries.set(extra, registry);
  }
  return registry;
}

/** An object made by `{}` or JSON.parse: neither a Puppet hash nor another class's instance. */
function isPlainObject(values: Values): values is Readonly<Record<string, unknown>> {
  return typeof values === 'object' && values !== null && Object.getPrototypeOf(values) === Object.prototype;
}

/**
 * The values as a Puppet hash. Plain values are converted for the render (`valuesFromJs`: the caller's data
 * used where it can be); `fromJs` makes a snapshot, for values that may outlive the render.
 */
function toHash(values: Values, convert: (data: unknown) => Value = valuesFromJs): PHash {
  if (isHash(values as Value)) return values as PHash;
  const converted = convert(values);
  if (!isHash(converted)) throw new EppEvalError('EPP_ARGUMENTS', 'template values must be a hash');
  return converted;
}

/**
 * What epp() or inline_epp() gives, as Puppet has it: the template's text; or the value of a `return(v)`
 * that ended it, whatever it is; or the value of a `next(v)` outside any lambda, which must be text.
 */
function nested(fn: string, render: () => unknown): Value {
  try {
    return render() as string;
  } catch (e) {
    if (e instanceof ReturnSignal) return e.value;
    if (!(e instanceof NextSignal)) throw e;
    const value = e.value;
    if (typeof value === 'string' || (value instanceof PSensitive && typeof value.value === 'string')) {
      return value;
    }
    throw new EppEvalError(
      'EPP_EVAL',
      `value returned from function '${fn}' has wrong type, expects a value of type String or Sensitive[String], got ${inferGenericType(value)}`,
    );
  }
}

/** Top scopes by the hash they were made from: the engine renders every file of a template with one. */
const topScopes = new WeakMap<object, object>();

/** The top scope of renders without top-scope values (never written to: scopes are made on top of it). */
const EMPTY_TOP: object = Object.freeze(Object.create(null));

/** The default render options, shared (a Host is made per render; an options object need not be). */
const NO_OPTIONS: RenderOptions = Object.freeze({});

/**
 * The Host of renders with the default options, made once: a Host keeps no state between renders (`run`
 * restores the top scope it sets, also when renders nest).
 */
let sharedHost: Host | undefined;
function defaultHost(): Host {
  sharedHost ??= new Host(NO_OPTIONS);
  return sharedHost;
}

function topScopeOf(values: Values | undefined): object {
  if (values === undefined) return EMPTY_TOP;
  if (topScopes.has(values)) return topScopes.get(values)!;
  const top: Record<string, Value> = Object.create(null);
  for (const [k, v] of toHash(values, fromJs)) if (typeof k === 'string') top[k] = v;
  // Only Puppet hashes are immutable; a plain object may change between renders.
  if (isHash(values as Value)) topScopes.set(values, top);
  return top;
}

/** The environment of one render: options, nested templates, file access within `baseDir`. */
class Host implements RuntimeHost {
  readonly strict: boolean;
  readonly functions: FunctionRegistry;

  constructor(
    private readonly options: RenderOptions,
    readonly evaluatesCode = false,
  ) {
    this.strict = options.strict ?? true;
    this.functions = registryFor(options.functions);
  }

  warn(code: string, message: string, location: SourceLocation | undefined): void {
    if (!this.options.onWarning) return;
    let where = '';
    if (location) {
      const { line, column } = lineColumn(location.source, location.span.start);
      where = `${location.file}:${line}:${column}`;
    }
    this.options.onWarning({ code, message, where });
  }

  log(level: string, message: string, where: LogSource): void {
    this.options.onLog?.(level, message, where);
  }

  /** The module functions this host has called, made from their source once per host. */
  private readonly moduleFunctions = new Map<string, FunctionDef>();

  moduleFunction(name: string): FunctionDef | undefined {
    const modules = this.options.modulePath;
    if (!modules) return undefined;
    let def = this.moduleFunctions.get(name);
    if (!def) {
      const path = ModulePath.of(modules);
      const source = path.puppetFunction(name);
      if (!source) {
        // Unknown either way; one written in Ruby is said so.
        const ruby = path.rubyFunctionError(name);
        if (ruby) throw ruby;
        return undefined;
      }
      def = puppetFunction(source, modules, this.options);
      this.moduleFunctions.set(name, def);
    }
    return def;
  }

  moduleType(name: string): PType | undefined {
    const modules = this.options.modulePath;
    if (!modules) return undefined;
    return ModulePath.of(modules).typeAlias(name, (text, file) => {
      const type = evaluatePuppet(text, { file, modulePath: modules });
      if (!(type instanceof PType)) {
        throw new EppEvalError('EPP_UNKNOWN_TYPE', `the type alias in ${file} is not a type`);
      }
      return type;
    });
  }

  private currentTop: object = EMPTY_TOP;

  run(template: CompiledTemplate, values: PHash, scope: object, top: object, depth: number): unknown {
    const previousTop = this.currentTop;
    this.currentTop = top;
    try {
      // The limit covers the whole evaluation, nested templates included.
      if (depth > 0 || this.options.timeLimitMs === undefined)
        return template.runIn(this, values, scope, top, depth);
      return withTimeLimit(this.options.timeLimitMs, () => template.runIn(this, values, scope, top, depth));
    } catch (e) {
      throw normaliseError(e, template);
    } finally {
      this.currentTop = previousTop;
    }
  }

  renderFile(path: string, args: Value | undefined, depth: number): Value {
    const { file, source } = readTemplateFile(path, this.options);
    const template = compileEpp(source, { file, delimiters: this.options.delimiters });
    const values = args === undefined ? new Map() : asArgumentHash(args, 'epp');
    // A file template sees the global scope only, plus its arguments.
    const scope = template.dynamicScope(this.currentTop);
    return nested('epp', () => this.run(template, values, scope, this.currentTop, depth));
  }

  renderInline(source: string, args: Value | undefined, callerScope: object, depth: number): Value {
    const template = compileEpp(source, { file: '<inline_epp>', delimiters: this.options.delimiters });
    const values = args === undefined ? new Map() : asArgumentHash(args, 'inline_epp');
    // As in Puppet, an inline template sees the variables of the scope that calls it (its parameters,
    // when it declares any, are bound on top of them); a template of epp() sees the top scope only.
    const scope = Object.create(callerScope);
    return nested('inline_epp', () => this.run(template, values, scope, this.currentTop, depth));
  }
}

function asArgumentHash(args: Value, fn: string): PHash {
  if (!isHash(args))
    throw new EppEvalError('EPP_ARGUMENTS', `${fn}() expects a Hash of arguments as its second argument`);
  return args;
}

/** Signals that escaped their construct, and the JavaScript stack limit, become EPP errors. */
function normaliseError(e: unknown, template: CompiledTemplate): unknown {
  if (e instanceof EppError) return e;
  const location = { file: template.file, source: template.source, span: { start: 0, end: 0 } };
  if (e instanceof BreakSignal) {
    return new EppEvalError(
      'EPP_BREAK_OUTSIDE_ITERATION',
      'break() from context where this is illegal',
      location,
    );
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new EppEvalError('EPP_EVAL', 'the template nests too deeply to evaluate', location);
  }
  // A string, array or hash past what V8 can hold (a template doubling a string): a limit, not a crash.
  const limit = asMemoryLimit(e);
  if (limit instanceof EppError) return limit.at(location);
  return e;
}
