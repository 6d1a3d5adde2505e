/**
 * What the compiler and the interpreter both know of calls, kept in one place so that the two tiers of
 * rendering cannot drift apart: which functions look at the caller's variables, which calls the runtime
 * answers on its fast paths, and how a lambda's parameters count.
 */
import type { Node, ParameterNode } from './ast.js';

/**
 * Functions that read variables by name: they get a view of the scope at the call site. `call` too, as
 * the function it calls by name may be one of them.
 */
export const SCOPE_FUNCTIONS: ReadonlySet<string> = new Set(['getvar', 'defined', 'inline_epp', 'call']);

/**
 * Functions of one argument the runtime answers in place for arrays and hashes (`Runtime.length`, ...);
 * `join` (one or two arguments) has its own (`Runtime.join`).
 */
export const COLLECTION_FAST_PATHS: ReadonlySet<string> = new Set(['length', 'size', 'empty']);

/** Iteration functions the runtime runs as plain loops (`Runtime.each`, ...) for a lambda of required parameters. */
export const ITERATION_FAST_PATHS: ReadonlySet<string> = new Set(['each', 'map', 'filter', 'reduce']);

/** Whether an argument is a splat (`*x`). */
export function isSplat(node: Node): boolean {
  return node.type === 'Unary' && node.operator === '*';
}

/** Whether an argument list has a splat (`*x`). */
export function hasSplat(nodes: readonly Node[]): boolean {
  for (let i = 0; i < nodes.length; i++) if (isSplat(nodes[i]!)) return true;
  return false;
}

/** How many of a lambda's parameters are required (no default, not `*$rest`). */
export function requiredCount(params: readonly ParameterNode[]): number {
  let required = 0;
  for (let i = 0; i < params.length; i++) if (!params[i]!.defaultValue && !params[i]!.captureRest) required++;
  return required;
}

/** Whether a lambda takes the rest of its arguments (`*$rest`). */
export function hasRest(params: readonly ParameterNode[]): boolean {
  for (let i = 0; i < params.length; i++) if (params[i]!.captureRest) return true;
  return false;
}
