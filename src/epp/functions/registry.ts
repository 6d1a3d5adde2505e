/**
 * The contract between compiled templates and built-in functions.
 *
 * A function receives its evaluated arguments, the optional lambda (block) and a {@link CallContext}. It
 * returns a Puppet value or throws an `EppEvalError` without a location: the call site adds the position
 * of the call. Arity is checked by the registry from `minArgs` / `maxArgs` before the function runs.
 */
import { EppEvalError } from '../errors.js';
import type { Value } from '../runtime/values.js';
import { blockRefused } from './block-refused.js';
import { checkFunctionDefinition } from './function-definition.js';

/** A lambda as functions see it: call it with the block's arguments. */
export interface Lambda {
  (...args: Value[]): Value;
  /** Number of declared parameters (`|$k, $v|` is 2). A captures-rest parameter counts as one. */
  readonly paramCount: number;
  /** Number of parameters without default, i.e. the minimum the lambda accepts. */
  readonly requiredCount: number;
  /** True when the last parameter is `*$rest`. */
  readonly hasRest: boolean;
}

/** What a function can reach of the template that calls it. */
export interface CallContext {
  /** Strict variables (Puppet 8 default, ours): unknown variables are errors. */
  readonly strict: boolean;
  /**
   * Whether `return()` may end what is being evaluated: a template that epp() or inline_epp() renders, or
   * Puppet code evaluated for its value; not the template a render starts with (Puppet refuses it there).
   */
  readonly returnAllowed: boolean;
  /** Reports a warning (e.g. `warning()`, or non-strict unknown variables). */
  warn(message: string): void;
  /** Prints what `notice()`/`info()` etc. would log. */
  log(level: string, message: string): void;
  /** Looks a variable up as the calling scope sees it. `found` is false for an unknown variable. */
  lookupVariable(name: string): { found: boolean; value: Value };
  /**
   * Renders another EPP file, resolved relative to the caller's base directory (never outside it): its
   * text, or the value a `return()` in it gave.
   */
  renderFile(path: string, args: Value | undefined): Value;
  /** Renders EPP source text; `args` like the second argument of `inline_epp()`. */
  renderInline(source: string, args: Value | undefined): Value;
  /** Calls a function of the render by name (`call()`); an unknown name is an `EPP_UNKNOWN_FUNCTION` error. */
  callFunction(name: string, args: Value[], block: Lambda | undefined): Value;
}

export type FunctionImpl = (ctx: CallContext, args: Value[], block: Lambda | undefined) => Value;

export interface FunctionDef {
  readonly name: string;
  readonly minArgs: number;
  /** `Infinity` for variadic functions. */
  readonly maxArgs: number;
  /** Whether the function takes a lambda. */
  readonly block: 'none' | 'optional' | 'required';
  readonly call: FunctionImpl;
  /**
   * A function of Puppet's 3.x API (md5, sprintf, most of stdlib's; made by `runtime3`): Puppet calls it
   * without the block a call gives, and its argument count is said in Ruby's words (`md5(): Wrong number
   * of arguments given (2 for 1)`).
   */
  readonly legacy?: boolean;
  /**
   * What Puppet says of a call that leaves out a required block, when that is not always `expects a
   * block`: its dispatches judge the arguments first (`each(true)` lists each signature refusing `true`).
   */
  readonly blockLeftOut?: (args: readonly Value[]) => EppEvalError;
  /**
   * Checks the arguments as Puppet's dispatch does, without running the function (throws its mismatch):
   * how a block given to a function that takes none is judged after its arguments (block-refused.ts).
   */
  readonly checkArguments?: (args: readonly Value[]) => void;
}

/** Thrown by `break()`: stops the innermost iteration. Iterating functions catch it. */
export class BreakSignal {
  readonly signal = 'break';
}

/** Thrown by `next(value)`: ends the current lambda call with `value`. Lambdas catch it themselves. */
export class NextSignal {
  readonly signal = 'next';
  constructor(readonly value: Value) {}
}

/** Thrown by `return(value)`: ends the current template/lambda evaluation with `value`. */
export class ReturnSignal {
  readonly signal = 'return';
  constructor(readonly value: Value) {}
}

export class FunctionRegistry {
  private readonly defs = new Map<string, FunctionDef>();
  /** Changes with every `add`, so that a {@link CallSite} can tell its remembered function is current. */
  private changes = 0;

  get version(): number {
    return this.changes;
  }

  add(...defs: FunctionDef[]): this {
    for (const def of defs) this.defs.set(def.name, def);
    this.changes++;
    return this;
  }

  /**
   * The function `name` as `site` last resolved it: a compiled call site calls the same function render
   * after render, so it looks it up only when the registry is another one or has changed.
   */
  resolve(site: CallSite, name: string): FunctionDef | undefined {
    if (site.registry !== this || site.version !== this.changes) {
      site.registry = this;
      site.version = this.changes;
      site.def = this.defs.get(name);
    }
    return site.def;
  }

  get(name: string): FunctionDef | undefined {
    return this.defs.get(name);
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  names(): string[] {
    return [...this.defs.keys()].sort();
  }

  /** A copy to which extra functions can be added without changing this registry. */
  extend(...defs: FunctionDef[]): FunctionRegistry {
    const copy = new FunctionRegistry();
    for (const def of this.defs.values()) copy.add(def);
    return copy.add(...defs);
  }
}

/** What one call site of a compiled template remembers of the function it calls (see `resolve`). */
export interface CallSite {
  registry: FunctionRegistry | undefined;
  version: number;
  def: FunctionDef | undefined;
}

/** A call site that has resolved nothing yet. */
export function newCallSite(): CallSite {
  return { registry: undefined, version: -1, def: undefined };
}

/** Checks argument count and block presence the way Puppet words it, then calls. */
export function invoke(def: FunctionDef, ctx: CallContext, args: Value[], block: Lambda | undefined): Value {
  if (args.length < def.minArgs || args.length > def.maxArgs) {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      def.legacy
        ? `${def.name}(): Wrong number of arguments given (${args.length} for ${legacyArity(def)})`
        : `'${def.name}' ${expectsText(def)}, got ${args.length || 'none'}`,
    );
  }
  if (def.legacy) return def.call(ctx, args, undefined);
  if (block && def.block === 'none') throw blockRefused(def, ctx, args);
  if (!block && def.block === 'required') {
    if (def.blockLeftOut) throw def.blockLeftOut(args);
    throw new EppEvalError('EPP_ARGUMENTS', `'${def.name}' expects a block`);
  }
  return def.call(ctx, args, block);
}

/** A Puppet 3 function's `:arity` as Ruby's count error names it: `1`, or `minimum 1`. */
function legacyArity(def: FunctionDef): string {
  return def.minArgs === def.maxArgs ? String(def.minArgs) : `minimum ${def.minArgs}`;
}

function expectsText(def: FunctionDef): string {
  if (def.minArgs === def.maxArgs) return `expects ${def.minArgs} argument${def.minArgs === 1 ? '' : 's'}`;
  // Puppet's noun is singular for "at least 1 argument" too.
  if (def.maxArgs === Number.POSITIVE_INFINITY)
    return `expects at least ${def.minArgs} argument${def.minArgs === 1 ? '' : 's'}`;
  return `expects between ${def.minArgs} and ${def.maxArgs} arguments`;
}

/**
 * Defines a function for a render's `functions` option: its name, the least and the most arguments it
 * takes (`Infinity`: no limit), its implementation, and whether it takes a lambda. A wrong call is an
 * EPP_FUNCTION_DEFINITION error here, not a crash at the first render that calls it.
 */
export function defineFunction(
  name: string,
  minArgs: number,
  maxArgs: number,
  call: FunctionImpl,
  block: FunctionDef['block'] = 'none',
): FunctionDef {
  checkFunctionDefinition(name, minArgs, maxArgs, call, block);
  return { name, minArgs, maxArgs, block, call };
}
