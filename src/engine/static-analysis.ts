/**
 * Static analysis of one EPP template's AST (DESIGN 9), every branch included, whatever the settings:
 * - the variables it reads that no scope of its own declares (parameters, local assignments, lambda
 *   parameters), which must come from outside: settings, a caller's arguments or the top scope;
 * - the functions it calls, so that unknown ones are found where no render reaches;
 * - its `epp()` call sites, with the path and the argument hash where they are written literally.
 *
 * Scopes follow the compiler (src/epp/compiler/scope.ts): the template and each lambda body are scopes; a name
 * assigned anywhere in a scope (not in nested lambdas) or declared as its parameter belongs to it; a read
 * looks through the enclosing scopes. Match captures (`$0`..`$n`) are always known.
 */

import type { AccessNode, LambdaNode, Node, ParameterNode, TemplateNode, VariableNode } from '../epp/ast.js';
import { assignedNames, callSpan, children, type WalkNode } from '../epp/ast-walk.js';
import { EppError } from '../epp/errors.js';
import { FUNCTION_NAMES, UNKNOWN_FUNCTION_HINT, unknownFunctionMessage } from '../epp/functions/index.js';
import { ModulePath, type ModulePathEntry } from '../epp/module-path.js';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { lineColumn } from '../shared/position.js';
import type { Data } from './model.js';
import type { Problem } from './render-plan.js';

/** A variable read that no scope of the template declares. */
export interface FreeRead {
  /** Without `$`; a leading `::` (top scope) is kept. */
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** A function call (`f(x)`, `f x`, `$x.f()`). */
export interface CallRef {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** One argument of an `epp()` call's literal hash. */
export interface CallArgument {
  /** The value when it is written literally (undef is null); undefined when only known at render time. */
  readonly value: Data | undefined;
  /** The value's source text (e.g. `$gem`). */
  readonly text: string;
  /** Offset of the key in the calling file. */
  readonly start: number;
}

/** An `epp('path', { ... })` call site. */
export interface EppCall {
  /** The path when written literally, else undefined. */
  readonly path: string | undefined;
  /** The path expression's source text. */
  readonly pathText: string;
  /**
   * The arguments by name when the second argument is absent (no arguments) or a hash literal with
   * literal keys; undefined when the hash is only known at render time.
   */
  readonly args: ReadonlyMap<string, CallArgument> | undefined;
  /** The arguments' source text when they are not a literal hash. */
  readonly argsText: string | undefined;
  readonly start: number;
  readonly end: number;
}

export { children };

export interface EppAnalysis {
  readonly freeReads: readonly FreeRead[];
  /** `$settings['name']`, a literal key of the top-scope hash of settings: the key's name and place. */
  readonly settingKeys: readonly FreeRead[];
  readonly calls: readonly CallRef[];
  readonly eppCalls: readonly EppCall[];
}

/** Analyses a parsed template (or a Puppet program: a `.pp` hook). */
export function analyzeEpp(ast: TemplateNode, source: string): EppAnalysis {
  const freeReads: FreeRead[] = [];
  const settingKeys: FreeRead[] = [];
  const calls: CallRef[] = [];
  const eppCalls: EppCall[] = [];
  const scopes: Set<string>[] = [];

  const declared = (name: string) => scopes.some((s) => s.has(name));
  const openScope = (params: readonly ParameterNode[], body: readonly Node[]) => {
    scopes.push(new Set([...params.map((p) => p.name), ...assignedNames(body)]));
  };

  const walkParams = (params: readonly ParameterNode[]) => {
    for (const p of params) {
      if (p.valueType) walk(p.valueType);
      if (p.defaultValue) walk(p.defaultValue);
    }
  };
  const walkLambda = (lambda: LambdaNode) => {
    openScope(lambda.params, lambda.body);
    walkParams(lambda.params);
    for (const n of lambda.body) walk(n);
    scopes.pop();
  };

  function walk(node: WalkNode): void {
    switch (node.type) {
      case 'Variable':
        if (!/^\d+$/.test(node.name) && (node.name.startsWith('::') || !declared(node.name))) {
          freeReads.push({ name: node.name, start: node.start, end: node.end });
        }
        return;
      case 'Assignment':
        // The target is a declaration, not a read.
        walk(node.value);
        return;
      case 'Lambda':
        walkLambda(node);
        return;
      case 'Access': {
        const key = literalSettingKey(node);
        // `$settings` is the top scope's unless the template declares a variable of that name.
        if (key && ((node.target as VariableNode).name.startsWith('::') || !declared('settings'))) {
          settingKeys.push(key);
        }
        break;
      }
      case 'Call':
      case 'MethodCall':
        calls.push({ name: node.name, ...callSpan(node) });
        if (node.name === 'epp') {
          const args = node.type === 'Call' ? node.args : [node.receiver, ...node.args];
          const call = eppCall(args, node, source);
          if (call) eppCalls.push(call);
        }
        break;
    }
    for (const child of children(node)) walk(child);
  }

  openScope(ast.params ?? [], ast.body);
  walkParams(ast.params ?? []);
  for (const n of ast.body) walk(n);
  scopes.pop();
  return { freeReads, settingKeys, calls, eppCalls };
}

/** The literal key of `$settings['name']` (`$settings[name]`, `$::settings[...]`), with its place; undefined otherwise. */
function literalSettingKey(node: AccessNode): FreeRead | undefined {
  const { target, keys } = node;
  if (target.type !== 'Variable' || (target.name !== 'settings' && target.name !== '::settings'))
    return undefined;
  const key = keys.length === 1 ? keys[0]! : undefined;
  // A bare word is a string to Puppet: `$settings[port]` reads 'port'.
  if (key?.type === 'BareWord') return { name: key.name, start: key.start, end: key.end };
  if (key?.type !== 'Literal' || typeof key.value !== 'string') return undefined;
  return { name: key.value, start: key.start, end: key.end };
}

function eppCall(args: readonly Node[], node: Node, source: string): EppCall | undefined {
  const [pathNode, argsNode] = args;
  if (!pathNode || args.length > 2) return undefined;
  const path = literalValue(pathNode);
  const text = (n: Node) => source.slice(n.start, n.end);
  let map: Map<string, CallArgument> | undefined = new Map();
  if (argsNode) {
    if (argsNode.type !== 'Hash') map = undefined;
    else {
      for (const entry of argsNode.entries) {
        const key = entry.key.type === 'BareWord' ? entry.key.name : literalValue(entry.key);
        if (typeof key !== 'string') {
          map = undefined;
          break;
        }
        const value = literalValue(entry.value);
        map.set(key, { value, text: text(entry.value), start: entry.key.start });
      }
    }
  }
  return {
    path: typeof path === 'string' ? path : undefined,
    pathText: text(pathNode),
    args: map,
    argsText: map === undefined && argsNode ? text(argsNode) : undefined,
    start: node.start,
    end: node.end,
  };
}

/**
 * The value of an expression written literally (strings without interpolated expressions, numbers,
 * booleans, undef as null, arrays and hashes of those), else undefined.
 */
export function literalValue(node: Node): Data | undefined {
  switch (node.type) {
    case 'Literal':
      return node.value === undefined ? null : node.value;
    case 'Interpolated':
      return node.parts.every((p) => typeof p === 'string') ? node.parts.join('') : undefined;
    case 'Paren':
      return literalValue(node.expr);
    case 'Unary': {
      const v = node.operator === '-' ? literalValue(node.operand) : undefined;
      return typeof v === 'bigint' ? -v : typeof v === 'number' ? -v : undefined;
    }
    case 'Array': {
      const items: Data[] = [];
      for (const e of node.elements) {
        const v = literalValue(e);
        if (v === undefined) return undefined;
        items.push(v);
      }
      return items;
    }
    case 'Hash': {
      const out: { [key: string]: Data } = {};
      for (const e of node.entries) {
        const k = e.key.type === 'BareWord' ? e.key.name : literalValue(e.key);
        const v = literalValue(e.value);
        if (typeof k !== 'string' || v === undefined) return undefined;
        Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Problems of one file

/** The names visible everywhere in a template of a project (DESIGN 7). */
export const TOP_SCOPE_NAMES: readonly string[] = ['settings', 'metadata', 'project', 'template'];

/** A Problem at an offset of a file's source. */
export function problemAt(
  severity: Problem['severity'],
  code: string,
  message: string,
  file: string,
  source: string,
  offset: number,
  hint?: string,
): Problem {
  const { line, column } = lineColumn(source, offset);
  return { severity, code, message, file, line, column, ...(hint !== undefined ? { hint } : {}) };
}

/**
 * An error for every call of a function that is no built-in (as rendering would say, with a hint), nor
 * one written in Puppet by a module on `modulePath`.
 */
export function unknownFunctionProblems(
  analysis: EppAnalysis,
  file: string,
  source: string,
  modulePath?: readonly ModulePathEntry[],
): Problem[] {
  const problems: Problem[] = [];
  for (const c of analysis.calls) {
    if (FUNCTIONS.has(c.name)) continue;
    const inModule = modulePath ? moduleFunctionProblem(c.name, modulePath) : 'missing';
    if (inModule === undefined) continue;
    const message = inModule === 'missing' ? unknownFunctionMessage(c.name) : inModule.message;
    const hint =
      inModule === 'missing'
        ? (didYouMeanHint(c.name, FUNCTION_NAMES) ?? UNKNOWN_FUNCTION_HINT)
        : inModule.hint;
    problems.push(problemAt('error', 'EPP_UNKNOWN_FUNCTION', message, file, source, c.start, hint));
  }
  return problems;
}

/**
 * Undefined when a module on the path defines `name` in Puppet; its error when that file cannot be used
 * or the module writes it in Ruby.
 */
function moduleFunctionProblem(
  name: string,
  modulePath: readonly ModulePathEntry[],
): 'missing' | EppError | undefined {
  try {
    const path = ModulePath.of(modulePath);
    if (path.puppetFunction(name)) return undefined;
    return path.rubyFunctionError(name) ?? 'missing';
  } catch (e) {
    if (e instanceof EppError) return e;
    throw e;
  }
}

const FUNCTIONS: ReadonlySet<string> = new Set(FUNCTION_NAMES);

export interface VariableContext {
  /** Names the file receives: its parameters, or the settings / the caller's keys when it declares none. */
  readonly visible: ReadonlySet<string>;
  /** Candidates for "did you mean" (the template's settings and the visible names). */
  readonly candidates: readonly string[];
  /** Says where the names come from, for the message: e.g. `template 'gemfile'`. */
  readonly what: string;
  /**
   * Puppet's scopes rather than Pantograph's (a Puppet module's template): the top scope is Puppet's
   * (`$facts`, `$trusted`, `$server_facts`), and a qualified name (`$nginx::port`, `$::osfamily`) is a
   * class's or the top scope's variable, which only the catalogue knows.
   */
  readonly puppetScopes?: boolean;
}

/** The top-scope variables Puppet gives every template (those of a Puppet module's templates). */
export const PUPPET_TOP_SCOPE_NAMES: readonly string[] = ['facts', 'trusted', 'server_facts'];

/** A warning for every variable read that is neither visible to the file nor a top-scope name. */
/**
 * Reads of `$settings['name']` naming no setting of the template (`settings`: those it declares). They
 * read undef, silently, where a bare `$name` would fail: most often a typo or a setting renamed.
 */
export function unknownSettingProblems(
  analysis: EppAnalysis,
  file: string,
  source: string,
  settings: readonly string[],
  template: string,
): Problem[] {
  return analysis.settingKeys
    .filter((read) => !settings.includes(read.name))
    .map((read) =>
      problemAt(
        'warning',
        'ANALYSIS_UNKNOWN_SETTING',
        `$settings['${read.name}'] reads a setting template '${template}' does not declare`,
        file,
        source,
        read.start,
        didYouMeanHint(read.name, settings) ??
          'it reads undef: declare the setting (template_schema.json, or default_settings), or read one the template has',
      ),
    );
}

export function unknownVariableProblems(
  analysis: EppAnalysis,
  file: string,
  source: string,
  context: VariableContext,
): Problem[] {
  const problems: Problem[] = [];
  const topNames = context.puppetScopes ? PUPPET_TOP_SCOPE_NAMES : TOP_SCOPE_NAMES;
  const tops = topNames.map((n) => `$${n}`).join(', ');
  for (const read of analysis.freeReads) {
    if (context.puppetScopes && read.name.includes('::')) continue;
    const top = read.name.startsWith('::');
    const name = top ? read.name.slice(2) : read.name;
    if (topNames.includes(name) || (!top && context.visible.has(name))) continue;
    problems.push(
      problemAt(
        'warning',
        'ANALYSIS_UNKNOWN_VARIABLE',
        `'$${read.name}' is neither ${context.what} nor a top-scope name (${tops})`,
        file,
        source,
        read.start,
        didYouMeanHint(name, [...context.candidates, ...topNames]) ??
          'rendering fails (or, with --no-strict, renders it empty) wherever this line is reached',
      ),
    );
  }
  return problems;
}
