/**
 * The run-time support that compiled templates call (`rt` in the generated code). One Runtime exists per
 * render; it holds the render's state (argument values, match captures, warnings) and implements the
 * `CallContext` that built-in functions receive.
 *
 * Its parts: the contracts with the compiler and the host (contracts.ts), the helpers the generated code
 * calls as functions (compiled-helpers.ts), the render's state, parameters, variables and constants
 * (runtime-base.ts), operators and matching (operator-runtime.ts, which extends it and which this class
 * extends); here, calls, with the direct paths of the commonest calls (each/map/filter/reduce, whose loops
 * are functions/loops.ts, and length/size/empty/join).
 */

import { didYouMean } from '../../shared/did-you-mean.js';
import { lineColumn } from '../../shared/position.js';
import { EppEvalError } from '../errors.js';
import { newInstance } from '../functions/conversion.js';
import { coreFunctions, UNKNOWN_FUNCTION_HINT, unknownFunctionMessage } from '../functions/index.js';
import { coreIteration } from '../functions/iteration.js';
import { eachLoop, filterLoop, mapJoinLoop, mapLoop, reduceLoop } from '../functions/loops.js';
import {
  BreakSignal,
  type CallContext,
  type CallSite,
  type FunctionDef,
  invoke,
  type Lambda,
  NextSignal,
  ReturnSignal,
} from '../functions/registry.js';
import { producedTextHint, producedTextProblem } from '../produced-text/index.js';
import { UNSET } from './contracts.js';
import { OperatorRuntime } from './operator-runtime.js';
import { typeLabel } from './operators.js';
import { checkProduced, MAX_STRING_LENGTH, textTooLong } from './size-limits.js';
import { PType } from './types.js';
import { type PHash, PObject, type Value } from './values.js';

export { compiledHelpers, interpolateText, renderText, truthy } from './compiled-helpers.js';
export type {
  ConstantPlan,
  ConstantSlot,
  ParameterSet,
  ParameterSpec,
  RuntimeHost,
  RuntimeTemplate,
} from './contracts.js';

/** The core functions of the collection fast paths (`Runtime.length`, ...). */
const coreCollection = {
  length: coreFunctions.get('length'),
  size: coreFunctions.get('size'),
  empty: coreFunctions.get('empty'),
  join: coreFunctions.get('join'),
} as const;

/** A plain compiled lambda: `n` required parameters, no defaults, no rest. */
type PlainLambda = (...args: Value[]) => Value;

/** What the iteration fast paths loop over themselves: an Array or a Hash. */
function isCollection(v: Value): v is Value[] | PHash {
  return Array.isArray(v) || v instanceof Map;
}

/** Deepest nesting of epp()/inline_epp() calls: a template that calls itself ends with an error. */
export const MAX_DEPTH = 64;

/** What `objectMember` answers when the name is no member of the Object value or the call no method call. */
const NO_MEMBER = Symbol('no member');

/** The names and spans of a compiled lambda's required parameters, for the error of a missing one. */
export type RequiredParameters = readonly (readonly [name: string, p: number])[];

export class Runtime extends OperatorRuntime implements CallContext {
  /** The position of the function call being made (its logging names the line, see `log`). */
  private callAt = 0;

  // ---------------------------------------------------------------- calls

  /**
   * A compiled lambda as functions receive it. `unchecked`: the parameters (all required) of a lambda
   * that does not check how many arguments it gets (the compiler leaves that out, as the loops below call
   * it right): it is wrapped with the check.
   */
  lambda(
    fn: (...args: Value[]) => Value,
    paramCount: number,
    requiredCount: number,
    hasRest: boolean,
    unchecked?: RequiredParameters,
  ): Lambda {
    const target = unchecked === undefined ? fn : this.arityChecked(fn, unchecked);
    // Plain assignments: cheaper than Object.assign, and every lambda gets the same hidden class.
    const lambda = target as unknown as { paramCount: number; requiredCount: number; hasRest: boolean };
    lambda.paramCount = paramCount;
    lambda.requiredCount = requiredCount;
    lambda.hasRest = hasRest;
    return target as unknown as Lambda;
  }

  private arityChecked(
    fn: (...args: Value[]) => Value,
    params: RequiredParameters,
  ): (...args: Value[]) => Value {
    return (...args: Value[]) => {
      if (args.length < params.length) this.missingRequired(params, args.length);
      return fn(...args);
    };
  }

  /** The error of a compiled lambda given `given` arguments, fewer than its required `params`. */
  missingRequired(params: RequiredParameters, given: number): never {
    const [name, p] = params[given]!;
    return this.missingBlockArgument(name, p);
  }

  // ---------------------------------------------------------------- iteration fast paths
  //
  // `$xs.each |$i, $x| {...}` (and map, filter, reduce) with a plain lambda of 1 or 2 parameters is the
  // commonest loop of a template. When the receiver is an Array or a Hash and the render's registry still
  // has the core function, these loop directly: no argument array, no Lambda object, number indexes. They
  // do what the core functions do (iteration.ts), break() included; anything else takes the ordinary call.

  /** Whether a fast path may stand in for `def`: the render's registry has not replaced it. */
  private isCore(def: FunctionDef | undefined, site: CallSite): boolean {
    // The core registry is never changed (renders with extra functions get a copy, see `registryFor`).
    if (this.functions === coreFunctions) return def !== undefined;
    return def !== undefined && this.functions.resolve(site, def.name) === def;
  }

  /** The ordinary call; `lp`: the parameters of a lambda that does not check its arity (see `lambda`). */
  private callPlain(
    name: string,
    args: Value[],
    fn: PlainLambda,
    n: number,
    p: number,
    site: CallSite,
    lp: RequiredParameters | undefined,
  ): Value {
    return this.call(name, args, this.lambda(fn, n, n, false, lp), p, undefined, site);
  }

  each(
    receiver: Value,
    fn: PlainLambda,
    n: number,
    p: number,
    site: CallSite,
    lp?: RequiredParameters,
  ): Value {
    if ((n !== 1 && n !== 2) || !isCollection(receiver) || !this.isCore(coreIteration.each, site))
      return this.callPlain('each', [receiver], fn, n, p, site, lp);
    try {
      eachLoop(receiver, fn, n);
    } catch (e) {
      throw this.locateCall(e, p);
    }
    return receiver;
  }

  map(
    receiver: Value,
    fn: PlainLambda,
    n: number,
    p: number,
    site: CallSite,
    lp?: RequiredParameters,
  ): Value {
    if ((n !== 1 && n !== 2) || !isCollection(receiver) || !this.isCore(coreIteration.map, site))
      return this.callPlain('map', [receiver], fn, n, p, site, lp);
    try {
      return mapLoop(receiver, fn, n);
    } catch (e) {
      throw this.locateCall(e, p);
    }
  }

  filter(
    receiver: Value,
    fn: PlainLambda,
    n: number,
    p: number,
    site: CallSite,
    lp?: RequiredParameters,
  ): Value {
    if ((n !== 1 && n !== 2) || !Array.isArray(receiver) || !this.isCore(coreIteration.filter, site))
      return this.callPlain('filter', [receiver], fn, n, p, site, lp);
    try {
      return filterLoop(receiver, fn, n);
    } catch (e) {
      throw this.locateCall(e, p);
    }
  }

  /** `reduce` over an Array, with (`args` of 2) or without a start value. */
  reduce(
    args: Value[],
    fn: PlainLambda,
    n: number,
    p: number,
    site: CallSite,
    lp?: RequiredParameters,
  ): Value {
    const receiver = args[0];
    if (n !== 2 || !Array.isArray(receiver) || !this.isCore(coreIteration.reduce, site))
      return this.callPlain('reduce', args, fn, n, p, site, lp);
    try {
      return reduceLoop(receiver, fn, args.length === 2, args[1]);
    } catch (e) {
      throw this.locateCall(e, p);
    }
  }

  // length/size/empty(x) and join(x[, d]) of arrays and hashes, answered in place when the core function
  // is in use (as the iteration fast paths); anything else, strings included, makes the ordinary call.

  length(v: Value, p: number, site: CallSite): Value {
    if (Array.isArray(v) && this.isCore(coreCollection.length, site)) return v.length;
    if (v instanceof Map && this.isCore(coreCollection.length, site)) return v.size;
    return this.call('length', [v], undefined, p, undefined, site);
  }

  size(v: Value, p: number, site: CallSite): Value {
    if (Array.isArray(v) && this.isCore(coreCollection.size, site)) return v.length;
    if (v instanceof Map && this.isCore(coreCollection.size, site)) return v.size;
    return this.call('size', [v], undefined, p, undefined, site);
  }

  empty(v: Value, p: number, site: CallSite): Value {
    if (Array.isArray(v) && this.isCore(coreCollection.empty, site)) return v.length === 0;
    if (v instanceof Map && this.isCore(coreCollection.empty, site)) return v.size === 0;
    return this.call('empty', [v], undefined, p, undefined, site);
  }

  /** `join(a, d)`; `d` is UNSET when absent. An array of strings joins here, as the core function does. */
  join(a: Value, d: Value | typeof UNSET, p: number, site: CallSite): Value {
    const delimiter = d === UNSET ? '' : d;
    if (Array.isArray(a) && typeof delimiter === 'string' && this.isCore(coreCollection.join, site)) {
      let s = a.length > 0 ? a[0] : '';
      let i = 1;
      try {
        for (; i < a.length && typeof s === 'string'; i++) {
          const item = a[i];
          if (typeof item !== 'string') break;
          s += delimiter + item;
          // Bounded as it grows: the pieces of a long text take more memory than its characters.
          if (s.length > MAX_STRING_LENGTH) throw textTooLong('the joined text');
        }
      } catch (e) {
        throw this.locateCall(e, p);
      }
      if (typeof s === 'string' && i >= a.length) return s;
    }
    const args = d === UNSET ? [a] : [a, d];
    return this.call('join', args, undefined, p, undefined, site);
  }

  /**
   * `$xs.map |$x| { ... }.join(d)`, a common idiom, in one loop: when both are the core functions and the
   * receiver is an Array, the text is built as the lambda returns strings, without map's array and join's
   * second pass. The results are still kept (an array made once, at its size) for anything else: a result
   * that is not a string, or a delimiter that is not one, goes to the ordinary join. A `break()` ends map
   * with the results so far, as `Runtime.map` does. Otherwise the two calls, as written.
   */
  mapJoin(
    receiver: Value,
    fn: PlainLambda,
    n: number,
    d: Value | typeof UNSET,
    p: number,
    site: CallSite,
    pj: number,
    joinSite: CallSite,
    lp?: RequiredParameters,
  ): Value {
    const delimiter = d === UNSET ? '' : d;
    if (
      !Array.isArray(receiver) ||
      (n !== 1 && n !== 2) ||
      typeof delimiter !== 'string' ||
      !this.isCore(coreIteration.map, site) ||
      !this.isCore(coreCollection.join, joinSite)
    ) {
      return this.join(this.map(receiver, fn, n, p, site, lp), d, pj, joinSite);
    }
    let joined: string | Value[];
    try {
      joined = mapJoinLoop(receiver, fn, n, delimiter);
    } catch (e) {
      throw this.locateCall(e, p);
    }
    return typeof joined === 'string' ? joined : this.join(joined, d, pj, joinSite);
  }

  /** `return(v)` (or a `next(v)` outside any lambda) ends the evaluation: its value, else rethrows. */
  returnValue(e: unknown): Value {
    if (e instanceof ReturnSignal || e instanceof NextSignal) return e.value;
    throw e;
  }

  /**
   * A template ended by `next(v)` outside any lambda (or by `return(v)`): the template a render starts
   * with gives its text so far (only `next` gets here: `return()` is refused there, and Puppet's own
   * output is no text); for a template that epp() or inline_epp() renders, the signal goes on to the
   * function, which gives `v` instead of the text, as Puppet does (see `Host.nested`).
   */
  templateEnded(e: unknown, out: string): string {
    if (this.depth > 0 || !(e instanceof ReturnSignal || e instanceof NextSignal)) throw e;
    return out;
  }

  /** Lambdas end early with `next(value)`. */
  nextValue(e: unknown): Value {
    if (e instanceof NextSignal) return e.value;
    throw e;
  }

  call(
    name: string,
    args: Value[],
    block: Lambda | undefined,
    p: number,
    view: (() => object) | undefined,
    site?: CallSite,
  ): Value {
    // An Object value's attribute, read as a method (`$p.x`), comes before any function of its name.
    if (args[0] instanceof PObject) {
      const member = this.objectMember(args[0], name, args.length - 1, p);
      if (member !== NO_MEMBER) return member;
    }
    const def =
      (site ? this.functions.resolve(site, name) : this.functions.get(name)) ?? this.moduleFunction(name, p);
    // Where the function was called, for what it logs (`log`).
    this.callAt = p;
    if (!def) {
      const error = new EppEvalError('EPP_UNKNOWN_FUNCTION', unknownFunctionMessage(name), this.location(p));
      const suggestion = didYouMean(name, this.host.functions.names());
      error.hint = suggestion ? `did you mean '${suggestion}'?` : UNKNOWN_FUNCTION_HINT;
      throw error;
    }
    // Only getvar/defined/inline_epp get a view; outside their call `scope` is undefined, and a call
    // without a view leaves it so: no need to save and restore it.
    if (!view && this.scope === undefined) {
      try {
        return checkProduced(invoke(def, this, args, block));
      } catch (e) {
        throw this.locateCall(e, p);
      }
    }
    const previous = this.scope;
    this.scope = view?.();
    try {
      return checkProduced(invoke(def, this, args, block));
    } catch (e) {
      throw this.locateCall(e, p);
    } finally {
      this.scope = previous;
    }
  }

  /**
   * `$p.x`: the attribute or constant `name` of an Object value, when the call is a method call (Puppet
   * reads no attribute for `x($p)`); NO_MEMBER otherwise. An attribute takes no arguments.
   */
  private objectMember(o: PObject, name: string, argCount: number, p: number): Value | typeof NO_MEMBER {
    const member = o.type.member(name);
    if (!member.found) return NO_MEMBER;
    const { source, span } = this.location(p);
    if (source.charCodeAt(span.start) !== 46 && source.charCodeAt(span.start) !== 40) return NO_MEMBER;
    if (argCount > 0) {
      const error = new EppEvalError(
        'EPP_ARGUMENTS',
        `'attribute ${o.type.typeName}[${name}]' expects no arguments, got ${argCount}`,
      );
      throw this.locateCall(error, p);
    }
    return member.index < 0 ? member.value : o.values[member.index];
  }

  newValue(type: Value, args: Value[], block: Lambda | undefined, p: number): Value {
    try {
      if (!(type instanceof PType)) this.fail('EPP_EVAL', `new() expects a Type, got ${typeLabel(type)}`, p);
      const value = checkProduced(newInstance(type, args));
      return block ? block(value) : value;
    } catch (e) {
      throw this.locateCall(e, p);
    }
  }

  /** A heredoc's text made with interpolation, checked in its declared syntax each time it is made, as Puppet does. */
  producedText(text: string, syntax: string, p: number): string {
    const problem = producedTextProblem(text, syntax);
    if (problem === undefined) return text;
    throw new EppEvalError('EPP_HEREDOC_SYNTAX', problem, this.location(p), producedTextHint(syntax));
  }

  // ---------------------------------------------------------------- CallContext

  warn(message: string): void {
    this.host.warn('EPP_WARNING', message, undefined);
  }

  log(level: string, message: string): void {
    const { file, source, span } = this.location(this.callAt);
    this.host.log(level, message, { file, line: lineColumn(source, span.start).line });
  }

  lookupVariable(name: string): { found: boolean; value: Value } {
    const bare = name.startsWith('$') ? name.slice(1) : name;
    if (/^\d+$/.test(bare)) {
      const n = Number(bare);
      return { found: this.m !== undefined && n < this.m.length, value: this.m?.[n] };
    }
    const scope = (bare.startsWith('::') ? this.topScope : (this.scope ?? this.topScope)) as Record<
      string,
      Value
    >;
    const key = bare.startsWith('::') ? bare.slice(2) : bare;
    return key in scope ? { found: true, value: scope[key] } : { found: false, value: undefined };
  }

  get returnAllowed(): boolean {
    return this.depth > 0 || this.host.evaluatesCode;
  }

  renderFile(path: string, args: Value | undefined): Value {
    this.checkDepth();
    return this.host.renderFile(path, args, this.depth + 1);
  }

  renderInline(source: string, args: Value | undefined): Value {
    this.checkDepth();
    return this.host.renderInline(source, args, this.scope ?? this.topScope, this.depth + 1);
  }

  /** A module's function written in Puppet (`collectd::indent`), when the render has a module path. */
  private moduleFunction(name: string, p?: number): FunctionDef | undefined {
    if (!name.includes('::')) return undefined;
    try {
      return this.host.moduleFunction(name);
    } catch (e) {
      // A file that cannot be read or is no function: at the call, unless the error is in the file itself.
      if (e instanceof EppEvalError && !e.location && p !== undefined) e.location = this.location(p);
      throw e;
    }
  }

  callFunction(name: string, args: Value[], block: Lambda | undefined): Value {
    const def = this.functions.get(name) ?? this.moduleFunction(name);
    if (!def) throw new EppEvalError('EPP_UNKNOWN_FUNCTION', `Unknown function '${name}'`);
    return invoke(def, this, args, block);
  }

  private checkDepth(): void {
    if (this.depth + 1 > MAX_DEPTH) {
      throw new EppEvalError(
        'EPP_EVAL',
        `templates nested more than ${MAX_DEPTH} deep (does a template call itself?)`,
      );
    }
  }

  /** A `break()` that escaped every iteration. */
  static isBreak(e: unknown): boolean {
    return e instanceof BreakSignal;
  }
}
