/**
 * Inspection of a project's whole tree (DESIGN 9, Heat's NestedParameters adapted): project -> applied
 * templates -> their files -> the `epp()` call sites in them, recursively. Every parameter says what it
 * is (`Type`, `Description`), what it gets before the project layer (`Default`), what the project or the
 * calling template supplies (`Value`; `null` when only known at render time), where the value comes from
 * (`Origin`), and `Required: true` when it has neither Default nor Value: those a user must supply.
 *
 * Each call site is its own node, with its own values, as Heat lists each resource instance: a partial
 * called from two places appears twice. Building the tree is static (the ASTs, every branch) on top of a
 * plan, which gives each template's settings and their origins; `validate` uses the problems found on the
 * way (`buildTree`), the library the tree alone (`inspect`).
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ParameterNode, TemplateNode } from '../epp/ast.js';
import { EppError } from '../epp/errors.js';
import { compileEpp } from '../epp/index.js';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { lineColumn } from '../shared/position.js';
import type { Data, LoadedTemplate, TemplateFile } from './model.js';
import { type DetailedPlan, planDetailed, type ResolvedTemplate } from './plan.js';
import type { Project } from './project.js';
import type { Problem } from './render-plan.js';
import { inferSchema } from './settings.js';
import { publishersByName } from './shared-settings.js';
import { sourceIdentity } from './sources/index.js';
import {
  analyzeEpp,
  type EppAnalysis,
  type EppCall,
  literalValue,
  problemAt,
  unknownFunctionProblems,
  unknownSettingProblems,
  unknownVariableProblems,
} from './static-analysis.js';
import { jsonPointer, toJson } from './yaml-data.js';

// ---------------------------------------------------------------------------------------------------
// The tree

/** Where a parameter's value (or, without one, its default) comes from. */
export interface InspectOrigin {
  /**
   * `default` (template.json), `shared` (a shared setting; Detail names the publishers), `project`
   * (.sync.yml; with its position), `hook` (Detail names it), `caller` (the calling file's argument, with
   * its position; Detail is the expression when the value is only known at render time) or `epp_default`
   * (the parameter's own default in the EPP file).
   */
  readonly Layer: 'default' | 'shared' | 'project' | 'hook' | 'caller' | 'epp_default';
  readonly Detail?: string;
  readonly File?: string;
  readonly Line?: number;
  readonly Column?: number;
}

export interface InspectParameter {
  /** A Puppet type for declared EPP parameters (`Array[String]`), a schema label for settings. */
  readonly Type: string;
  readonly Description: string | null;
  /** The value before the project layer, or the EPP parameter's default as source text. */
  readonly Default?: unknown;
  /** What the project or the caller supplies; `null` when the caller's value is only known at render time. */
  readonly Value?: unknown;
  readonly Origin: InspectOrigin | null;
  /** Present (true) when there is neither Default nor Value. */
  readonly Required?: true;
}

/** One `epp()` call site, keyed `<path as written>@<line>:<column>` in its caller's NestedParameters. */
export interface InspectCall {
  /** The template path as written (`partials/gem.epp`); null when it is computed at render time. */
  readonly Type: string | null;
  /** The partial's leading `<%# %>` comment, or null. */
  readonly Description: string | null;
  /** Absolute path of the partial, when found. */
  readonly File: string | null;
  /** Where the call is in the calling file. */
  readonly Line: number;
  readonly Column: number;
  readonly Parameters: Readonly<Record<string, InspectParameter>>;
  readonly NestedParameters: Readonly<Record<string, InspectCall>>;
  /** Why the partial could not be inspected (not found, computed path, syntax error, recursion). */
  readonly Error?: string;
}

/** One file of a template, keyed by its path inside the template (`files/Gemfile.epp`). */
export interface InspectFile {
  /** The project-relative output path. */
  readonly Path: string;
  /** `file` (files/) or `init` (files_init/, rendered for new projects only). */
  readonly Kind: 'file' | 'init';
  /** True for `.epp` files; others are copied byte for byte. */
  readonly Template: boolean;
  /** Whether this project renders it now (init files of an existing project and files a hook drops do not). */
  readonly Rendered: boolean;
  readonly File: string;
  readonly Description: string | null;
  /** Declared parameters; for a file that declares none, the settings it reads. */
  readonly Parameters: Readonly<Record<string, InspectParameter>>;
  readonly NestedParameters: Readonly<Record<string, InspectCall>>;
  readonly Error?: string;
}

export interface InspectTemplate {
  readonly Type: string;
  readonly Description: string;
  /** template.json's `name`. */
  readonly Title: string;
  readonly Version: string | null;
  readonly Source: {
    readonly Index: number;
    readonly Type: string;
    readonly Location: string;
    readonly Ref?: string;
    readonly Commit?: string;
  };
  /** Its settings. */
  readonly Parameters: Readonly<Record<string, InspectParameter>>;
  readonly Files: Readonly<Record<string, InspectFile>>;
}

export interface InspectTree {
  readonly Project: { readonly Name: string; readonly Root: string; readonly IsNew: boolean };
  /** The applied templates, in applied order. */
  readonly Templates: Readonly<Record<string, InspectTemplate>>;
}

/** The whole tree of a loaded project (plans it: pure, nothing is written). */
export async function inspect(project: Project): Promise<InspectTree> {
  return buildTree(project, await planDetailed(project)).tree;
}

/** The tree and the problems found statically on the way (for `validate`). */
export function buildTree(
  project: Project,
  detailed: DetailedPlan,
): { tree: InspectTree; problems: Problem[] } {
  const problems: Problem[] = [];
  const templates: Record<string, InspectTemplate> = {};
  for (const r of detailed.templates) {
    setKey(templates, r.template.name, new TemplateInspector(project, r, problems).inspect());
  }
  const tree: InspectTree = {
    Project: { Name: project.name, Root: project.root, IsNew: project.isNew },
    Templates: templates,
  };
  return { tree, problems };
}

// ---------------------------------------------------------------------------------------------------
// One template

type Schema = Readonly<Record<string, unknown>>;

interface ParsedFile {
  readonly source: string;
  readonly ast: TemplateNode | undefined;
  readonly analysis: EppAnalysis | undefined;
  readonly error: string | undefined;
}

/** What callers pass to one partial, gathered over its call sites, for its variable check. */
interface PartialUse {
  readonly keys: Set<string>;
  dynamic: boolean;
}

class TemplateInspector {
  private readonly t: LoadedTemplate;
  private readonly schema: Schema;
  private readonly properties: Readonly<Record<string, Schema>>;
  private readonly settings: Readonly<Record<string, InspectParameter>>;
  private readonly parsed = new Map<string, ParsedFile>();
  private readonly uses = new Map<string, PartialUse>();
  private readonly checked = new Set<string>();
  private readonly unresolved: boolean;

  constructor(
    private readonly project: Project,
    private readonly r: ResolvedTemplate,
    private readonly problems: Problem[],
  ) {
    this.t = r.template;
    this.schema = settingsSchema(project, this.t);
    this.properties = (this.schema.properties ?? {}) as Record<string, Schema>;
    this.settings = this.settingParameters();
    // A template whose JavaScript hooks may not run was never resolved: its settings are unknown.
    this.unresolved = !this.t.source.trusted && Object.values(this.t.hooks).some((h) => h?.kind === 'mjs');
  }

  inspect(): InspectTemplate {
    const t = this.t;
    const files: Record<string, InspectFile> = {};
    for (const f of t.files) setKey(files, f.source, this.file(f));
    this.checkPartials();
    const spec = t.source.spec;
    return {
      Type: t.manifest.type,
      Description: t.manifest.description,
      Title: t.manifest.name,
      Version: t.manifest.version ?? null,
      Source: {
        Index: t.source.index,
        Type: spec.type,
        Location: sourceIdentity(spec),
        ...(spec.ref !== undefined ? { Ref: spec.ref } : {}),
        ...(t.source.commit !== undefined ? { Commit: t.source.commit } : {}),
      },
      Parameters: this.settings,
      Files: files,
    };
  }

  /** Every setting: defaults, subscriptions, schema properties, then any others set (as `show` lists them). */
  private settingParameters(): Record<string, InspectParameter> {
    const { t, r } = this;
    const section = this.project.config.settings[t.name] ?? {};
    const names = new Set([
      ...Object.keys(t.manifest.default_settings),
      ...t.manifest.setting_subscriptions,
      ...Object.keys(this.properties),
      ...Object.keys(r.settings),
      ...Object.keys(section),
    ]);
    const out: Record<string, InspectParameter> = {};
    for (const name of names) setKey(out, name, this.setting(name, this.typeOf(name)));
    return out;
  }

  /** A setting as a parameter, with the given type. */
  private setting(name: string, type: string): InspectParameter {
    const { t, r } = this;
    const section = this.project.config.settings[t.name] ?? {};
    const before = own(r.defaults, name);
    const final = own(r.settings, name);
    const fromProject = own(section, name) !== undefined && own(section, name) !== null;
    const changedLater = final !== undefined && final !== null && !sameData(before, final);
    const hasDefault = before !== undefined && before !== null;
    const hasValue = (fromProject || changedLater) && final !== undefined && final !== null;
    const origin = r.origins[name];
    let o: InspectOrigin | null = null;
    if ((hasValue || hasDefault) && origin) {
      o = { Layer: origin.layer, ...(origin.detail !== undefined ? { Detail: origin.detail } : {}) };
      if (origin.layer === 'project') {
        const p = this.project.config.positionOf(jsonPointer([t.name, name]));
        o = { ...o, File: p.file, Line: p.line, Column: p.column };
      }
    }
    return parameter(type, this.descriptionOf(name), {
      ...(hasDefault ? { Default: toJson(before) } : {}),
      ...(hasValue ? { Value: toJson(final) } : {}),
      origin: o,
    });
  }

  private typeOf(name: string): string {
    const property = own(this.properties, name);
    return property ? typeLabel(property) : 'any';
  }

  private descriptionOf(name: string): string | null {
    const property = own(this.properties, name);
    if (typeof property?.description === 'string') return property.description;
    if (!this.t.manifest.setting_subscriptions.includes(name)) return null;
    const publisher = publishersByName(this.project.applied)
      .get(name)
      ?.find((p) => p !== this.t);
    return publisher?.manifest.shared_settings[name]?.description ?? null;
  }

  // ------------------------------------------------------------------------------------------- files

  private file(f: TemplateFile): InspectFile {
    const base = {
      Path: f.output,
      Kind: f.kind,
      Template: f.isTemplate,
      Rendered: this.r.files.some((p) => p.source === f.source),
      File: f.absPath,
      Description: null,
    };
    if (!f.isTemplate) return { ...base, Parameters: {}, NestedParameters: {} };
    const parsed = this.parse(f.absPath);
    if (!parsed.ast || !parsed.analysis) {
      return { ...base, Parameters: {}, NestedParameters: {}, Error: parsed.error ?? 'unreadable' };
    }
    const { ast, analysis, source } = parsed;
    const settingNames = Object.keys(this.r.settings);
    const parameters: Record<string, InspectParameter> = {};
    if (ast.params) {
      // Rendering checked the files it rendered; statically, the others (init files of an existing
      // project, files a hook drops), unless settings change per file or were never resolved.
      const check = !base.Rendered && !this.t.hooks.before_file_render && !this.unresolved;
      for (const p of ast.params) setKey(parameters, p.name, this.fileParameter(p, source, f, check));
    } else {
      for (const read of analysis.freeReads) {
        if (Object.hasOwn(this.r.settings, read.name) && !Object.hasOwn(parameters, read.name)) {
          setKey(parameters, read.name, this.setting(read.name, this.typeOf(read.name)));
        }
      }
    }
    if (!this.checked.has(f.absPath)) {
      this.checked.add(f.absPath);
      this.problems.push(...unknownFunctionProblems(analysis, f.absPath, source));
    }
    if (!this.unresolved) {
      const visible = new Set(ast.params ? ast.params.map((p) => p.name) : settingNames);
      this.problems.push(
        ...unknownVariableProblems(analysis, f.absPath, source, {
          visible,
          candidates: [...new Set([...visible, ...settingNames])],
          what: ast.params
            ? `a parameter of this file (a file with parameters receives only those; $settings has them all)`
            : `a setting of template '${this.t.name}'`,
        }),
      );
      if (this.schema.additionalProperties === false) {
        const declared = [...new Set([...Object.keys(this.properties), ...settingNames])];
        this.problems.push(...unknownSettingProblems(analysis, f.absPath, source, declared, this.t.name));
      }
    }
    return {
      ...base,
      Description: leadingComment(source, this.t.manifest.delimiters),
      Parameters: parameters,
      NestedParameters: this.nested(analysis, source, f.absPath, [f.absPath]),
    };
  }

  /** A declared parameter of an output file: filled from the setting of its name. */
  private fileParameter(p: ParameterNode, source: string, f: TemplateFile, check: boolean): InspectParameter {
    const type = p.valueType ? source.slice(p.valueType.start, p.valueType.end) : 'Any';
    const setting = this.setting(p.name, type);
    const has = (k: 'Default' | 'Value') => Object.hasOwn(setting, k);
    if (check && !Object.hasOwn(this.r.settings, p.name)) {
      const hint = didYouMeanHint(p.name, Object.keys(this.r.settings));
      this.problems.push(
        problemAt(
          'warning',
          'RENDER_UNKNOWN_PARAMETER',
          `parameter '${p.name}' of ${this.t.name}/${f.source} matches no setting of template '${this.t.name}'`,
          f.absPath,
          source,
          p.start,
          hint,
        ),
      );
    }
    if (has('Default') || has('Value')) return setting;
    if (p.defaultValue) return parameter(type, setting.Description, eppDefault(p, source));
    if (check) {
      this.problems.push(
        problemAt(
          'error',
          'RENDER_MISSING_PARAMETER',
          `template '${this.t.name}', file ${f.source}: required parameter '${p.name}' has no value`,
          f.absPath,
          source,
          p.start,
          `set '${p.name}' in the '${this.t.name}' section of .sync.yml, or give the parameter a default`,
        ),
      );
    }
    return setting;
  }

  // -------------------------------------------------------------------------------------- call sites

  /** The call sites of a file or partial, each with its own parameters, recursively. */
  private nested(
    analysis: EppAnalysis,
    source: string,
    file: string,
    stack: readonly string[],
  ): Record<string, InspectCall> {
    const out: Record<string, InspectCall> = {};
    for (const call of analysis.eppCalls) {
      const { line, column } = lineOf(source, call.start);
      setKey(out, `${call.path ?? call.pathText}@${line}:${column}`, this.call(call, source, file, stack));
    }
    return out;
  }

  private call(call: EppCall, source: string, file: string, stack: readonly string[]): InspectCall {
    const { line, column } = lineOf(source, call.start);
    const site = { Line: line, Column: column };
    if (call.path === undefined) {
      return {
        Type: null,
        Description: null,
        File: null,
        ...site,
        Parameters: {},
        NestedParameters: {},
        Error: `the path ${call.pathText} is only known at render time`,
      };
    }
    const target = this.resolvePartial(call.path);
    if (target === undefined) {
      this.problems.push(
        problemAt(
          'error',
          'EPP_TEMPLATE_NOT_FOUND',
          `Could not find template '${call.path}'`,
          file,
          source,
          call.start,
          `epp() paths are relative to the template's directory (${this.t.dir}); partials live in partials/`,
        ),
      );
      return {
        Type: call.path,
        Description: null,
        File: null,
        ...site,
        Parameters: {},
        NestedParameters: {},
        Error: 'not found',
      };
    }
    const parsed = this.parse(target);
    if (!parsed.ast || !parsed.analysis) {
      const error = parsed.error ?? 'unreadable';
      return {
        Type: call.path,
        Description: null,
        File: target,
        ...site,
        Parameters: {},
        NestedParameters: {},
        Error: error,
      };
    }
    const node = {
      Type: call.path,
      Description: leadingComment(parsed.source, this.t.manifest.delimiters),
      File: target,
      ...site,
    };
    this.notePartialUse(target, call);
    const parameters = this.callParameters(call, parsed.ast, parsed.source, source, file);
    if (stack.includes(target)) {
      return {
        ...node,
        Parameters: parameters,
        NestedParameters: {},
        Error: 'calls itself (recursion not expanded)',
      };
    }
    return {
      ...node,
      Parameters: parameters,
      NestedParameters: this.nested(parsed.analysis, parsed.source, target, [...stack, target]),
    };
  }

  /** The parameters of a partial at one call site: the caller's arguments, else the partial's defaults. */
  private callParameters(
    call: EppCall,
    callee: TemplateNode,
    calleeSource: string,
    source: string,
    file: string,
  ): Record<string, InspectParameter> {
    const out: Record<string, InspectParameter> = {};
    const args = call.args;
    const caller = (offset: number, detail?: string): InspectOrigin => {
      const { line, column } = lineOf(source, offset);
      return {
        Layer: 'caller',
        ...(detail !== undefined ? { Detail: detail } : {}),
        File: file,
        Line: line,
        Column: column,
      };
    };
    if (!callee.params) {
      // A partial without parameters sees what it is given as variables.
      for (const [key, arg] of args ?? []) {
        setKey(
          out,
          key,
          parameter('Any', null, {
            Value: arg.value === undefined ? null : toJson(arg.value),
            origin: caller(arg.start, arg.value === undefined ? arg.text : undefined),
          }),
        );
      }
      return out;
    }
    const declared = callee.params.map((p) => p.name);
    for (const p of callee.params) {
      const type = p.valueType ? calleeSource.slice(p.valueType.start, p.valueType.end) : 'Any';
      const own = eppDefault(p, calleeSource);
      const defaults = Object.hasOwn(own, 'Default') ? { Default: own.Default } : {};
      const arg = args?.get(p.name);
      if (!args) {
        setKey(
          out,
          p.name,
          parameter(type, null, { ...defaults, Value: null, origin: caller(call.start, call.argsText) }),
        );
      } else if (arg) {
        const known = arg.value !== undefined;
        setKey(
          out,
          p.name,
          parameter(type, null, {
            ...defaults,
            Value: known ? toJson(arg.value) : null,
            origin: caller(arg.start, known ? undefined : arg.text),
          }),
        );
      } else {
        setKey(out, p.name, parameter(type, null, own));
        if (!p.defaultValue) {
          this.problems.push(
            problemAt(
              'error',
              'NESTED_MISSING_PARAMETER',
              `epp('${call.path}') passes no value for its required parameter '${p.name}'`,
              file,
              source,
              call.start,
              `pass '${p.name}' in the arguments hash, or give the parameter a default in ${call.path}`,
            ),
          );
        }
      }
    }
    for (const [key, arg] of args ?? []) {
      if (declared.includes(key)) continue;
      this.problems.push(
        problemAt(
          'error',
          'NESTED_UNKNOWN_PARAMETER',
          `epp('${call.path}') passes '${key}', which the template does not declare`,
          file,
          source,
          arg.start,
          didYouMeanHint(key, declared) ?? `declare it in ${call.path}, or leave it out`,
        ),
      );
    }
    return out;
  }

  private notePartialUse(target: string, call: EppCall): void {
    let use = this.uses.get(target);
    if (!use) {
      use = { keys: new Set(), dynamic: false };
      this.uses.set(target, use);
    }
    if (call.args === undefined) use.dynamic = true;
    else for (const k of call.args.keys()) use.keys.add(k);
  }

  /**
   * Unknown functions and variables in every partial of the template, once each: a partial sees its
   * parameters, or (declaring none) what its callers pass; variables are not checked when that is only
   * known at render time.
   */
  private checkPartials(): void {
    const partials = new Set<string>(this.uses.keys());
    for (const rel of this.t.partials) {
      if (!rel.endsWith('.epp')) continue;
      const real = this.resolvePartial(rel);
      if (real) partials.add(real);
    }
    for (const target of partials) {
      const parsed = this.parse(target);
      if (!parsed.ast || !parsed.analysis || this.checked.has(target)) continue;
      this.checked.add(target);
      this.problems.push(...unknownFunctionProblems(parsed.analysis, target, parsed.source));
      const use = this.uses.get(target);
      const params = parsed.ast.params?.map((p) => p.name);
      if (!params && (!use || use.dynamic)) continue;
      const visible = new Set(params ?? use?.keys ?? []);
      this.problems.push(
        ...unknownVariableProblems(parsed.analysis, target, parsed.source, {
          visible,
          candidates: [...visible],
          what: params ? 'a parameter of this partial' : 'an argument its callers pass',
        }),
      );
    }
  }

  /** The real path of a partial inside the template directory, as `epp()` resolves it; else undefined. */
  private resolvePartial(path: string): string | undefined {
    if (isAbsolute(path)) return undefined;
    try {
      const base = realpathSync(this.t.dir);
      const real = realpathSync(resolve(this.t.dir, path));
      const rel = relative(base, real);
      if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
      return statSync(real).isFile() ? real : undefined;
    } catch {
      return undefined;
    }
  }

  private parse(file: string): ParsedFile {
    let parsed = this.parsed.get(file);
    if (parsed) return parsed;
    let source = '';
    try {
      source = readFileSync(file, 'utf8');
      // Compiled (and cached by content) when rendering already: the cached AST costs nothing here.
      const ast = compileEpp(source, { file, delimiters: this.t.manifest.delimiters }).ast;
      parsed = { source, ast, analysis: analyzeEpp(ast, source), error: undefined };
    } catch (e) {
      const error =
        e instanceof EppError ? `syntax error: ${e.message}` : `cannot read: ${(e as Error).message}`;
      parsed = { source, ast: undefined, analysis: undefined, error };
    }
    this.parsed.set(file, parsed);
    return parsed;
  }
}

// ---------------------------------------------------------------------------------------------------
// Helpers

function parameter(
  type: string,
  description: string | null,
  fields: { Default?: unknown; Value?: unknown; origin: InspectOrigin | null },
): InspectParameter {
  const { origin, ...values } = fields;
  const required = !Object.hasOwn(values, 'Default') && !Object.hasOwn(values, 'Value');
  return {
    Type: type,
    Description: description,
    ...values,
    Origin: origin,
    ...(required ? { Required: true } : {}),
  };
}

/**
 * An EPP parameter's own default: its value when written literally, else its source text; the origin
 * names the text. No default: Required.
 */
function eppDefault(p: ParameterNode, source: string): { Default?: unknown; origin: InspectOrigin | null } {
  if (!p.defaultValue) return { origin: null };
  const text = source.slice(p.defaultValue.start, p.defaultValue.end);
  const value = literalValue(p.defaultValue);
  return {
    Default: value === undefined ? text : toJson(value),
    origin: { Layer: 'epp_default', Detail: text },
  };
}

const lineOf = lineColumn;

/** The text of a `<%# ... %>` comment the file starts with (after a parameter list), or null. */
function leadingComment(source: string, delimiters: readonly [string, string] | undefined): string | null {
  const [open, close] = delimiters ?? ['<%', '%>'];
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const params = `(?:${esc(open)}-?\\s*\\|[\\s\\S]*?\\|\\s*-?${esc(close)}\\s*)?`;
  const m = new RegExp(`^\\s*${params}${esc(open)}#([\\s\\S]*?)-?${esc(close)}`).exec(source);
  const text = m?.[1]?.trim();
  return text ? text : null;
}

function own<T>(map: { readonly [key: string]: T }, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

function setKey<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function sameData(a: Data | undefined, b: Data | undefined): boolean {
  return JSON.stringify(toJson(a)) === JSON.stringify(toJson(b));
}

/** The template's schema, or the one inferred from its defaults and the publishers' schemas. */
export function settingsSchema(project: Project, t: LoadedTemplate): Schema {
  if (t.schema) return t.schema;
  const publishers = publishersByName([...project.available.values()]);
  return inferSchema(t, (name) => publishers.get(name)?.[0]?.manifest.shared_settings[name]?.schema);
}

/** `string`, `array of string`, `integer|null`, `enum("a", "b")`, or `any` (as `show` prints types). */
export function typeLabel(schema: Schema): string {
  if (Array.isArray(schema.enum)) return `enum(${schema.enum.map((v) => JSON.stringify(v)).join(', ')})`;
  if (Object.hasOwn(schema, 'const')) return `const ${JSON.stringify(schema.const)}`;
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(variants)) return variants.map(typeLabel).join('|');
  const type = schema.type;
  const label = Array.isArray(type) ? type.join('|') : typeof type === 'string' ? type : 'any';
  const items = schema.items as Schema | undefined;
  if (label === 'array' && items && typeof items === 'object' && !Array.isArray(items)) {
    const inner = typeLabel(items);
    if (inner !== 'any') return `array of ${inner}`;
  }
  return label;
}
