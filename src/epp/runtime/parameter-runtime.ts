/**
 * A render's template arguments and parameters, and its lambdas' parameters: what the generated code
 * asks to bind them, check their types and report what is missing or unknown (Puppet's words). Split from
 * runtime-base.ts; `OperatorRuntime` extends it.
 */
import type { EppErrorCode } from '../errors.js';
import { EppEvalError } from '../errors.js';
import { blockSignatureText, type LambdaSignature } from './block-signature.js';
import { MISSING, type ParameterSet, type ParameterSpec, UNSET } from './contracts.js';
import { isInstanceMemo } from './instance-memo.js';
import { bindPlainParameter, bindPlainValues, onlyDeclaredKeys, PlainValues } from './plain-values.js';
import { everyKey } from './record-hash.js';
import { RuntimeBase } from './runtime-base.js';
import { acceptsTemplateArgument } from './template-arguments.js';
import { NO_FIT } from './typed-conversion.js';
import { describeArgumentMismatches, describeMismatch, describesMismatch, PType } from './types.js';
import type { Value } from './values.js';

/** The errors of binding a template's arguments to its parameters (see `withEveryParameterProblem`). */
const PARAMETER_PROBLEMS: ReadonlySet<EppErrorCode> = new Set([
  'EPP_UNKNOWN_PARAMETER',
  'EPP_MISSING_PARAMETER',
  'EPP_TYPE_MISMATCH',
]);

function unknownParameterMessage(key: Value): string {
  return `The template has no parameter named '${String(key)}'`;
}

export abstract class ParameterRuntime extends RuntimeBase {
  // ---------------------------------------------------------------- arguments and parameters

  /** Template parameters: every given key must be declared. */
  checkArguments(declared: readonly string[], p: number): void {
    if (this.values instanceof PlainValues && onlyDeclaredKeys(declared, this.values.given)) return;
    const isDeclared = (key: Value) => typeof key === 'string' && declared.includes(key);
    // A walk without a key list first (a RecordHash lists none); the error names the first unknown key.
    if (everyKey(this.values, isDeclared)) return;
    for (const key of this.values.keys()) {
      if (!isDeclared(key)) {
        this.fail('EPP_UNKNOWN_PARAMETER', unknownParameterMessage(key), p);
      }
    }
  }

  argument(name: string): Value | typeof MISSING {
    return this.values.has(name) ? this.values.get(name) : MISSING;
  }

  /** A template without declared parameters sees every value as a local variable. */
  bindArguments(scope: Record<string, Value>): void {
    for (const [key, value] of this.values) {
      if (typeof key !== 'string') continue;
      scope[key] = value;
    }
  }

  missingParameter(name: string, p: number): never {
    const error = new EppEvalError(
      'EPP_MISSING_PARAMETER',
      `expects a value for parameter '${name}'`,
      this.location(p),
    );
    error.hint = `pass a value for '${name}', or give the parameter a default`;
    throw error;
  }

  /**
   * The values of a template's parameters (see `param`). Hashes are immutable (see {@link hashIndex}) and
   * binding is pure (type checks, constant defaults): a template rendered again with the same values hash
   * reuses the last binding. (Only the last: a WeakMap by hash costs more than it saves when every render
   * has new values.)
   */
  params(set: ParameterSet): readonly (Value | typeof UNSET)[] {
    if (set.lastValues === this.values && set.lastBound) return set.lastBound;
    if (this.values instanceof PlainValues) {
      const fromPlain = bindPlainValues(this, set, this.values.given);
      if (fromPlain) return fromPlain;
    }
    let bound: (Value | typeof UNSET)[];
    try {
      this.checkArguments(set.names, set.p);
      bound = set.specs.map((spec) => this.param(spec));
    } catch (e) {
      throw this.withEveryParameterProblem(set, e);
    }
    set.lastValues = this.values;
    set.lastBound = bound;
    return bound;
  }

  /**
   * The first problem binding the parameters, with the others the values have, as Puppet lists them all
   * in one message (unknown keys, then each parameter missing or of the wrong type, in order): the first
   * keeps its message and position, the others follow it, a line each. A default that is code is not
   * evaluated for this (the render stops before it).
   */
  private withEveryParameterProblem(set: ParameterSet, first: unknown): unknown {
    if (!(first instanceof EppEvalError) || !PARAMETER_PROBLEMS.has(first.code)) return first;
    let problems: string[];
    try {
      problems = this.parameterProblems(set);
    } catch {
      return first; // a type that cannot be made: the first problem is the one to tell
    }
    if (problems[0] !== first.message) return first;
    // Several problems (of several parameters, or of one: `entry 'a' ...`, `entry 'b' ...`) go under
    // Puppet's `lambda:` line (the template is its lambda), a line each; a lone one is the message.
    const lines = problems.join('\n  ');
    if (lines.includes('\n')) first.message = `lambda:\n  ${lines}`;
    return first;
  }

  /**
   * Every problem of this render's values for the parameters (see `withEveryParameterProblem`), each the
   * message binding gives it: unknown keys, then each parameter bound as `param` binds it.
   */
  private parameterProblems(set: ParameterSet): string[] {
    const problems: string[] = [];
    for (const key of this.values.keys()) {
      if (typeof key !== 'string' || !set.names.includes(key)) problems.push(unknownParameterMessage(key));
    }
    for (const spec of set.specs) {
      try {
        this.param(spec);
      } catch (e) {
        if (!(e instanceof EppEvalError) || !PARAMETER_PROBLEMS.has(e.code)) throw e;
        problems.push(e.message);
      }
    }
    return problems;
  }

  /**
   * A template parameter's value: the argument, else (absent or undef) the default, else a missing-parameter
   * error; then the type check. UNSET when the default is code for the caller to evaluate (then `checked`).
   */
  param(spec: ParameterSpec): Value | typeof UNSET {
    if (this.values instanceof PlainValues) {
      const fromPlain = bindPlainParameter(this, spec, this.values.given);
      if (fromPlain !== NO_FIT) return fromPlain;
    }
    let value: Value | typeof MISSING = this.values.get(spec.name);
    if (value === undefined) {
      if (!this.values.has(spec.name)) value = MISSING;
      if (spec.defaultCode) return UNSET;
      if (spec.defaultValue) value = this.constant(spec.defaultValue);
      else if (value === MISSING) this.missingParameter(spec.name, spec.p);
    }
    return this.checked(spec, value as Value);
  }

  /** The value of a parameter once its type is checked. */
  checked(spec: ParameterSpec, value: Value): Value {
    if (spec.type) this.checkParameter(this.constant(spec.type), value, spec.name, spec.p);
    return value;
  }

  /** A lambda's `*$rest` given no arguments takes its default, as an array (`*$r = 9` is `[9]`). */
  restDefault(value: Value): Value[] {
    return Array.isArray(value) ? value : [value];
  }

  /** A typed `*$rest`: the type is each argument's (`|Integer *$r|`), as Puppet checks it. */
  checkRestParameter(
    type: Value,
    values: readonly Value[],
    name: string,
    p: number,
    signature?: LambdaSignature,
  ): void {
    for (const value of values) this.checkParameter(type, value, name, p, signature ?? true);
  }

  /**
   * A parameter's type check; `block`: a lambda's parameter, which Puppet calls a block parameter, with
   * the lambda's signature when its types are known (Puppet prints it when it cannot word the mismatch).
   */
  checkParameter(
    type: Value,
    value: Value,
    name: string,
    p: number,
    block?: boolean | LambdaSignature,
  ): void {
    const what = block ? `block parameter '${name}'` : `parameter '${name}'`;
    if (!(type instanceof PType)) this.fail('EPP_TYPE_MISMATCH', `the type of ${what} is not a Type`, p);
    if (!(block ? isInstanceMemo(type, value) : acceptsTemplateArgument(type, value))) {
      const signature = typeof block === 'object' ? block : undefined;
      const message = signature
        ? this.blockParameterMismatch(signature, type, value, name)
        : describeMismatch(type, value, what);
      // A lambda's is the error of the call that called it (see `locateCall`), as in Puppet.
      if (block) throw new EppEvalError('EPP_TYPE_MISMATCH', message);
      this.fail('EPP_TYPE_MISMATCH', message, p);
    }
  }

  /**
   * A lambda parameter's mismatch in the words of Puppet's describer for the lambda's one signature: a
   * lone problem after `block`; several (`entry 'a' ...`, `entry 'b' ...`) under the lambda's signature,
   * `rejected:` each; none it can word, the signature alone.
   */
  private blockParameterMismatch(
    signature: LambdaSignature,
    type: PType,
    value: Value,
    name: string,
  ): string {
    const problems = describesMismatch(type, value)
      ? describeArgumentMismatches(type, value, `parameter '${name}'`)
      : [];
    if (problems.length === 1) return `block ${problems[0]}`;
    const expects = `block expects ${blockSignatureText(signature.parameters((slot) => this.constant(slot)))}`;
    return expects + problems.map((why) => `\n  rejected: ${why}`).join('');
  }

  /**
   * A lambda called with fewer arguments than it has required parameters: Puppet names the first one left
   * without a value. (Arguments beyond its parameters are dropped, as Puppet's closures drop them; the
   * functions that refuse a block of the wrong size, `each` or `then`, say so when they are called.)
   */
  missingBlockArgument(name: string, p: number): never {
    const error = new EppEvalError(
      'EPP_MISSING_PARAMETER',
      `Parameter $${name} is required but no value was given`,
      this.location(p),
    );
    error.hint = `the block is called with fewer values than it has parameters: give $${name} a default`;
    throw error;
  }
}
