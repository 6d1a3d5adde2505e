/**
 * What the function modules share about their arguments: the wording of type mismatches (by Puppet's
 * mismatch describer), and which of its variants a lambda's parameter count picks.
 */
import { EppEvalError } from '../errors.js';
import {
  describeArgumentMismatches,
  describeMismatch,
  inferGenericType,
  type PType,
  parameterizeType,
  resolveTypeName,
} from '../runtime/types.js';
import type { Value } from '../runtime/values.js';
import { BreakSignal, type CallContext, type Lambda } from './registry.js';

/** The generalized type of a value, as Puppet names it in most "got ..." messages (`Integer`, `Boolean`). */
export function typeLabel(v: Value): string {
  return inferGenericType(v).toString();
}

/** A Puppet type by name, optionally parameterized (`puppetType('Integer', 1)` is `Integer[1]`). */
export function puppetType(name: string, ...params: Value[]): PType {
  const t = resolveTypeName(name);
  if (!t) throw new Error(`unknown built-in type ${name}`);
  return params.length > 0 ? parameterizeType(t, params) : t;
}

/**
 * An `EPP_ARGUMENTS` error for an argument of the wrong type, worded by Puppet's mismatch describer:
 * `'keys' parameter 'hsh' expects a Hash value, got Tuple`. `param` may be empty.
 */
export function argumentMismatch(fn: string, param: string, expected: PType, v: Value): EppEvalError {
  const subject = param === '' ? `'${fn}'` : `'${fn}' parameter '${param}'`;
  return new EppEvalError('EPP_ARGUMENTS', describeMismatch(expected, v, subject));
}

/**
 * An argument that fits no member of its function's only signature in several ways: Puppet lists the
 * signature, then each problem (`'stdlib::end_with' expects (String test_string, ...)` and `  rejected:`
 * lines); with one problem, the message of {@link argumentMismatch}.
 */
export function signatureMismatch(
  fn: string,
  signature: string,
  param: string,
  expected: PType,
  v: Value,
): EppEvalError {
  const problems = describeArgumentMismatches(expected, v, `parameter '${param}'`);
  if (problems.length < 2) return argumentMismatch(fn, param, expected, v);
  const rejected = problems.map((why) => `\n  rejected: ${why}`).join('');
  return new EppEvalError('EPP_ARGUMENTS', `'${fn}' expects ${signature}${rejected}`);
}

/**
 * Puppet's "called with arguments it does not accept" for a function with several signatures: each
 * signature on a line of its own, with why it rejected the arguments under it.
 */
export function noMatchingSignature(
  fn: string,
  rejections: readonly (readonly [signature: string, why: string])[],
): EppEvalError {
  const lines = rejections.map(([signature, why]) => `\n  ${signature}\n    rejected: ${why}`);
  return new EppEvalError(
    'EPP_ARGUMENTS',
    `The function '${fn}' was called with arguments it does not accept. It expects one of:${lines.join('')}`,
  );
}

/** Whether a lambda can be called with `n` arguments. */
export function acceptsArgs(block: Lambda, n: number): boolean {
  return block.requiredCount <= n && (block.hasRest || n <= block.paramCount);
}

/** Runs `body`, treating a `break()` inside it as the normal end. Returns whether it broke. */
export function untilBreak(body: () => void): boolean {
  try {
    body();
    return false;
  } catch (e) {
    if (e instanceof BreakSignal) return true;
    throw e;
  }
}

const warned = new WeakMap<CallContext, Set<string>>();

/** Warns once per render (Puppet warns once per process) about a deprecated use. */
export function warnOnce(ctx: CallContext, key: string, message: string): void {
  let keys = warned.get(ctx);
  if (!keys) {
    keys = new Set();
    warned.set(ctx, keys);
  }
  if (keys.has(key)) return;
  keys.add(key);
  ctx.warn(message);
}
