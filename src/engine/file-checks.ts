/**
 * Checks of one file's text as an editor holds it (saved or not), for the language server: an EPP
 * template (syntax, parameters, unknown functions and variables), a `template.json`, a
 * `template_schema.json`. The codes and messages are those of `pantograph epp validate` and `validate`
 * (the same functions make them); each problem carries a span of offsets into the text, for a range.
 *
 * An EPP file inside a template repository (`<template>/files/`, `files_init/`, `partials/`) is checked
 * as `validate` checks it: a file without parameters sees the template's settings, so reading a setting
 * the template does not declare is flagged where it is read.
 */
import { basename, dirname, join, relative, sep } from 'node:path';
import type { TemplateNode } from '../epp/ast.js';
import { type EppError, EppSyntaxError } from '../epp/errors.js';
import { findSyntaxErrors, type ModulePathEntry, parseEpp } from '../epp/index.js';
import { parameterProblems } from '../epp/parameter-checks.js';
import { offsetAt } from '../shared/position.js';
import { EngineError } from './errors.js';
import { parseJsonData } from './json-data.js';
import { compileSettingsSchema, shippedSchema, violationProblems } from './json-schema.js';
import type { Data } from './model.js';
import { type ReadText, readDisk } from './read-text.js';
import type { Problem } from './render-plan.js';
import {
  analyzeEpp,
  unknownFunctionProblems,
  unknownSettingProblems,
  unknownVariableProblems,
  type VariableContext,
} from './static-analysis.js';

export type { ReadText } from './read-text.js';

/** A problem of a file's text, with the span it covers. */
export interface SpanProblem {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
  readonly start: number;
  readonly end: number;
}

/** What a setting of a template is, as its schema and template.json say. */
export interface SettingInfo {
  readonly schema: Readonly<Record<string, unknown>> | undefined;
  readonly default: Data | undefined;
}

/** The template a file belongs to, and where in it the file is. */
export interface TemplateContext {
  readonly name: string;
  readonly dir: string;
  /** `files` and `files_init` are output files; `partials` are called with epp(). */
  readonly part: 'files' | 'files_init' | 'partials' | 'other';
  readonly settings: ReadonlyMap<string, SettingInfo>;
  /** Its schema takes settings it does not name (`additionalProperties` is not false). */
  readonly openSettings?: boolean;
  readonly delimiters: readonly [string, string] | undefined;
}

/** The template of a file: the nearest directory above it holding a `template.json`. */
export function templateContextOf(file: string, read: ReadText = readDisk): TemplateContext | undefined {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifestText = read(join(dir, 'template.json'));
    if (manifestText === undefined) continue;
    const first = relative(dir, file).split(sep)[0];
    const part = first === 'files' || first === 'files_init' || first === 'partials' ? first : 'other';
    const manifest = objectOf(parseJsonData(manifestText, join(dir, 'template.json'), 'TEMPLATE_JSON').data);
    const schemaText = read(join(dir, 'template_schema.json'));
    const schema =
      schemaText === undefined
        ? undefined
        : objectOf(parseJsonData(schemaText, join(dir, 'template_schema.json'), 'TEMPLATE_SCHEMA').data);
    const properties = objectOf(schema?.properties) ?? {};
    const defaults = objectOf(manifest?.default_settings) ?? {};
    const subscriptions = Array.isArray(manifest?.setting_subscriptions)
      ? manifest.setting_subscriptions
      : [];
    const settings = new Map<string, SettingInfo>();
    for (const name of [...Object.keys(properties), ...Object.keys(defaults), ...subscriptions]) {
      if (typeof name !== 'string' || settings.has(name)) continue;
      settings.set(name, {
        schema: objectOf(Object.hasOwn(properties, name) ? properties[name] : undefined),
        default: Object.hasOwn(defaults, name) ? defaults[name] : undefined,
      });
    }
    const d = manifest?.delimiters;
    const delimiters =
      Array.isArray(d) && d.length === 2 && typeof d[0] === 'string' && typeof d[1] === 'string'
        ? ([d[0], d[1]] as const)
        : undefined;
    const openSettings = schema !== undefined && schema.additionalProperties !== false;
    return { name: basename(dir), dir, part, settings, openSettings, delimiters };
  }
  return undefined;
}

export interface EppCheck {
  /** The template's syntax tree, when it parses. */
  readonly ast: TemplateNode | undefined;
  readonly problems: readonly SpanProblem[];
}

/**
 * Every problem of an EPP template's text; `context` when it belongs to a template repository,
 * `modulePath` when to a Puppet module (see module-context.ts).
 */
export function checkEppText(
  text: string,
  file: string,
  context?: TemplateContext,
  modulePath?: readonly ModulePathEntry[],
): EppCheck {
  const options = { file, delimiters: context?.delimiters };
  let ast: TemplateNode;
  try {
    ast = parseEpp(text, options);
  } catch (e) {
    if (!(e instanceof EppSyntaxError)) throw e;
    return { ast: undefined, problems: findSyntaxErrors(text, options).map(fromEppError) };
  }
  const problems: SpanProblem[] = parameterProblems(ast, text, file, { modulePath }).map(fromEppError);
  for (const w of ast.warnings ?? []) problems.push({ severity: 'warning', ...w });
  const analysis = analyzeEpp(ast, text);
  problems.push(
    ...unknownFunctionProblems(analysis, file, text, modulePath).map((p) => fromProblem(p, text)),
  );
  const visible = variablesOf(ast, context, modulePath !== undefined);
  if (visible) {
    problems.push(...unknownVariableProblems(analysis, file, text, visible).map((p) => fromProblem(p, text)));
  }
  if (context && context.part !== 'other' && !context.openSettings) {
    const settings = [...context.settings.keys()];
    const unknown = unknownSettingProblems(analysis, file, text, settings, context.name);
    problems.push(...unknown.map((p) => fromProblem(p, text)));
  }
  return { ast, problems };
}

/** The names a file receives, as `validate` says them; undefined when only its callers know. */
function variablesOf(
  ast: TemplateNode,
  context: TemplateContext | undefined,
  inModule: boolean,
): VariableContext | undefined {
  const params = ast.params?.map((p) => p.name);
  const settings = context ? [...context.settings.keys()] : [];
  if (params) {
    const isFile = context?.part === 'files' || context?.part === 'files_init';
    return {
      puppetScopes: inModule,
      visible: new Set(params),
      candidates: [...new Set([...params, ...settings])],
      what: isFile
        ? `a parameter of this file (a file with parameters receives only those; $settings has them all)`
        : context?.part === 'partials'
          ? 'a parameter of this partial'
          : 'a parameter of this file',
    };
  }
  if (context?.part !== 'files' && context?.part !== 'files_init') return undefined;
  return {
    visible: new Set(settings),
    candidates: settings,
    what: `a setting of template '${context.name}'`,
  };
}

/** Problems of a `template.json` text: JSON syntax, then the published template schema. */
export function checkTemplateManifestText(text: string, file: string): SpanProblem[] {
  const parsed = parseJsonData(text, file, 'TEMPLATE_JSON');
  const problems = [...parsed.problems];
  if (parsed.data !== undefined) {
    problems.push(
      ...violationProblems(
        shippedSchema('template').validate(parsed.data, text),
        parsed.positions,
        'TEMPLATE_INVALID',
        (p) => `template.json${p}`,
      ),
    );
  }
  return problems.map((p) => fromProblem(p, text));
}

/** Problems of a `template_schema.json` text: JSON syntax, then whether it is a JSON Schema we take. */
export function checkTemplateSchemaText(text: string, file: string): SpanProblem[] {
  const parsed = parseJsonData(text, file, 'TEMPLATE_SCHEMA');
  const problems = [...parsed.problems];
  if (parsed.data !== undefined) {
    try {
      compileSettingsSchema(parsed.data, file, parsed.positions);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      problems.push(...e.problems);
    }
  }
  return problems.map((p) => fromProblem(p, text));
}

function fromEppError(e: EppError): SpanProblem {
  const span = e.location?.span ?? { start: 0, end: 0 };
  return {
    severity: 'error',
    code: e.code,
    message: e.message,
    ...(e.hint !== undefined ? { hint: e.hint } : {}),
    start: span.start,
    end: Math.max(span.end, span.start),
  };
}

/** A Problem (line and column) as a span: from its place to the end of the word there. */
export function fromProblem(p: Problem, text: string): SpanProblem {
  const start = offsetAt(text, p.line ?? 1, p.column ?? 1);
  return {
    severity: p.severity,
    code: p.code,
    message: p.message,
    ...(p.hint !== undefined ? { hint: p.hint } : {}),
    start,
    end: wordEnd(text, start),
  };
}

/** The end of the word (a name, `$name`, a quoted string) at `start`; one character at least. */
function wordEnd(text: string, start: number): number {
  const quote = text[start];
  if (quote === '"' || quote === "'") {
    const close = text.indexOf(quote, start + 1);
    const eol = text.indexOf('\n', start);
    if (close > 0 && (eol < 0 || close < eol)) return close + 1;
  }
  // A colon ends it before a space (a YAML key), not inside a name (`stdlib::ensure`, a URL).
  const match = /^\$?(?:::)?(?:[\w.-]|:(?![\s]|$))+/.exec(text.slice(start, start + 200));
  return start + Math.max(match?.[0].length ?? 1, 1);
}

function objectOf(value: unknown): Record<string, Data> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, Data>)
    : undefined;
}
