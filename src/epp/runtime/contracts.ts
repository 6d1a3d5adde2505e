/**
 * What the runtime and the code that drives it agree on: the template and host a Runtime is given, the
 * constants and parameter sets the compiler and the interpreter hand it, and the markers of absent values.
 */
import type { TemplateNode } from '../ast.js';
import type { SourceLocation } from '../errors.js';
import type { FunctionDef, FunctionRegistry } from '../functions/registry.js';
import type { PType } from './types.js';
import type { PHash, Value } from './values.js';

/** What a Runtime needs to know of the template it runs. */
/** Where a logging function (`notice()`, ...) was called: Puppet prints it as `Scope(file, line)`. */
export interface LogSource {
  readonly file: string;
  readonly line: number;
}

export interface RuntimeTemplate {
  readonly file: string;
  readonly source: string;
  /** The span of a position index passed by the code (see the compiler's and the interpreter's `pos`). */
  span(p: number): { readonly start: number; readonly end: number } | undefined;
  /** Its syntax tree: an operator's error looks its operands up there (see `OperatorRuntime.operandError`). */
  readonly ast?: TemplateNode;
}

/** What a Runtime needs from its environment: rendering nested templates, warnings, logs. */
export interface RuntimeHost {
  readonly strict: boolean;
  readonly functions: FunctionRegistry;
  /** Puppet code evaluated for its value (`evaluatePuppet`), where `return()` gives that value. */
  readonly evaluatesCode: boolean;
  warn(code: string, message: string, location: SourceLocation | undefined): void;
  /** `where`: the template and line of the logging call, as Puppet's `Scope(file, line)` names them. */
  log(level: string, message: string, where: LogSource): void;
  /** Renders `epp(path, args)`; `scope` is the top scope (file templates see only global names). */
  renderFile(path: string, args: Value | undefined, depth: number): Value;
  /** Renders `inline_epp(source, args)` seeing the caller's scope. */
  renderInline(source: string, args: Value | undefined, callerScope: object, depth: number): Value;
  /** A type alias of a module on the render's module path (`Redis::LogLevel`), or undefined. */
  moduleType(name: string): PType | undefined;
  /** A function written in Puppet by a module on the render's module path (`collectd::indent`). */
  moduleFunction(name: string): FunctionDef | undefined;
}

/** How to compute a constant expression (type expressions mostly), made by the compiler. */
export type ConstantPlan =
  | { readonly t: 'value'; readonly v: Value }
  | { readonly t: 'default' }
  | { readonly t: 'type'; readonly name: string; readonly p: number }
  | { readonly t: 'regexp'; readonly source: string; readonly p: number }
  | { readonly t: 'array' | 'hash'; readonly items: readonly ConstantPlan[] }
  | {
      readonly t: 'access';
      readonly target: ConstantPlan;
      readonly keys: readonly ConstantPlan[];
      readonly p: number;
    };

/** A constant of a compiled template: its key (shared by all templates), plan, and value once known. */
export interface ConstantSlot {
  readonly key: string;
  readonly plan: ConstantPlan;
  done: boolean;
  value: Value;
}

/** A template parameter whose type is a constant (see `Runtime.param`). */
export interface ParameterSpec {
  readonly name: string;
  /** Its span index. */
  readonly p: number;
  readonly type: ConstantSlot | undefined;
  readonly defaultValue: ConstantSlot | undefined;
  /** Whether the default is an expression the compiled code evaluates (`param` returns UNSET for it). */
  readonly defaultCode: boolean;
}

/** All the parameters of a template whose types are constants (see `Runtime.params`). */
export interface ParameterSet {
  readonly names: readonly string[];
  /** The span index for an unknown-parameter error. */
  readonly p: number;
  readonly specs: readonly ParameterSpec[];
  /** The values hash of the last render and what its parameters were bound to (see `Runtime.params`). */
  lastValues?: PHash;
  lastBound?: readonly (Value | typeof UNSET)[];
}

/** Marks an absent argument (as opposed to one given as undef). */
export const MISSING = Symbol('missing');

/** Marks a local variable not assigned yet (compiled templates start every local with it). */
export const UNSET = Symbol('unset');
