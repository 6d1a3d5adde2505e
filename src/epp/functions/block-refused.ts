/**
 * What Puppet says of a block given to a function that takes none.
 *
 * Puppet's dispatcher judges a call's arguments before its block (`describe_signatures` in Puppet 7's
 * type_mismatch_describer.rb: "Skip block checks if all signatures have argument errors"), so
 * `upcase(true) |$x| { $x }` is `'upcase' parameter 'arg' expects ..., got Boolean`, and only a call whose
 * arguments some signature accepts is `'upcase' does not expect a block`.
 *
 * Our functions check their arguments in their bodies, first thing, in the dispatcher's words. So the
 * arguments are judged by calling the function without the block in a context that stops it at its first
 * effect (a log line, a warning, another template or function): an error it raises before that in the
 * dispatcher's words is Puppet's answer; anything else (a value, an error of its body) means the
 * arguments passed, and the block is what is wrong. Only functions known to check first are called so
 * (the built-ins, {@link judgeArgumentsFirst}); a module's Puppet function checks its own parameter types
 * ({@link FunctionDef.checkArguments}); a function a program defines is never run for this.
 */
import { EppError, EppEvalError } from '../errors.js';
import type { Value } from '../runtime/values.js';
import type { CallContext, FunctionDef } from './registry.js';

/** The lists given to {@link judgeArgumentsFirst}. */
const marked: (readonly FunctionDef[])[] = [];
/**
 * The functions whose bodies check all their arguments before any effect (see the header), made a set on
 * first use: a refused block is an error, rare, and the ~250 entries made at import delayed the process's
 * first scavenge into the first render (the bench's fresh-process row, session 34).
 */
let checksFirst: WeakSet<FunctionDef> | undefined;

/** Marks functions as checking their arguments first, so that a refused block is judged after them. */
export function judgeArgumentsFirst(defs: readonly FunctionDef[]): void {
  marked.push(defs);
  checksFirst = undefined;
}

function checksArgumentsFirst(def: FunctionDef): boolean {
  checksFirst ??= new WeakSet(marked.flat());
  return checksFirst.has(def);
}

/** The error for a call of `def` given a block it does not take: its arguments' mismatch, or the block. */
export function blockRefused(def: FunctionDef, ctx: CallContext, args: Value[]): EppEvalError {
  return (
    argumentMismatchOf(def, ctx, args) ??
    new EppEvalError('EPP_ARGUMENTS', `'${def.name}' does not expect a block`)
  );
}

/** What Puppet's dispatch says of the arguments alone, when it refuses them. */
function argumentMismatchOf(def: FunctionDef, ctx: CallContext, args: Value[]): EppEvalError | undefined {
  try {
    if (def.checkArguments) def.checkArguments(args);
    else if (checksArgumentsFirst(def)) def.call(stoppingContext(ctx), args, undefined);
  } catch (e) {
    if (e instanceof EppEvalError && e.code === 'EPP_ARGUMENTS' && isDispatchWording(def.name, e.message)) {
      return e;
    }
    // A fault of ours is no answer about the arguments: reported as the call would report it.
    if (e instanceof Error && !(e instanceof EppError)) throw e;
  }
  return undefined;
}

/**
 * Whether a message is one Puppet's dispatcher gives for `name`'s arguments: `'name' expects ...`,
 * `'name' parameter 'p' ...`, or the list of signatures. An error naming another function (a deprecated
 * stdlib name's `stdlib::` function, which Puppet calls only after the block is refused) is not.
 */
function isDispatchWording(name: string, message: string): boolean {
  return (
    message.startsWith(`'${name}' expects `) ||
    message.startsWith(`'${name}' parameter '`) ||
    message.startsWith(`The function '${name}' was called with arguments it does not accept.`)
  );
}

/** Thrown by the context of {@link stoppingContext} at the function's first effect. */
const STOPPED = Symbol('stopped before an effect');

/** `ctx` as a function sees it, but ending the call where it would log, warn, render or call. */
function stoppingContext(ctx: CallContext): CallContext {
  const stop = (): never => {
    throw STOPPED;
  };
  return {
    strict: ctx.strict,
    get returnAllowed() {
      return ctx.returnAllowed;
    },
    lookupVariable: (name) => ctx.lookupVariable(name),
    warn: stop,
    log: stop,
    renderFile: stop,
    renderInline: stop,
    callFunction: stop,
  };
}
