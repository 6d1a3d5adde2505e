/**
 * The run-time support that compiled templates call (`rt` in the generated code). One Runtime exists per
 * render; it holds the render's state (argument values, match captures, warnings) and implements the
 * `CallContext` that built-in functions receive.
 *
 * Its parts: the contracts with the compiler and the host (contracts.ts), the helpers the generated code
 * calls as functions (compiled-helpers.ts), the render's state, parameters, variables and constants
 * (runtime-base.ts, which this class extends); here, operators, matching and calls, with the direct paths
 * of the commonest calls (each/map/filter/reduce, whose loops are functions/loops.ts, and
 * length/size/empty/join).
 */

import { didYouMean } from '../../shared/did-you-mean.js';
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
import { lineColumn } from '../position.js';
import { compareForOperator, compareIgnoreCase, hashLookup, puppetEquals, typesEqual } from './compare.js';
import { UNSET } from './contracts.js';
import { renderValue } from './format.js';
import { arithmetic, matchNotRegexp, matchNotString, negate, splat, typeLabel } from './operators.js';
import { RuntimeBase } from './runtime-base.js';
import { PType } from './types.js';
import { DEFAULT, isHash, isNumeric, type PHash, PRegexp, PTimestamp, type Value } from './values.js';

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

export class Runtime extends RuntimeBase implements CallContext {
  /** The position of the function call being made (its logging names the line, see `log`). */
  private callAt = 0;

  // ---------------------------------------------------------------- operators

  arithmetic(op: string, a: Value, b: Value, p: number): Value {
    let result: Value;
    try {
      result = arithmetic(op, a, b);
    } catch (e) {
      throw this.locate(e, p);
    }
    // A string taken as a number (`'1' + 1`) is worth Puppet's warning; `[1] + '1'` took it as an element.
    if (
      (typeof a === 'string' || typeof b === 'string') &&
      (isNumeric(result) || result instanceof PTimestamp)
    ) {
      this.warnIfNumericString(a, p);
      this.warnIfNumericString(b, p);
    }
    return result;
  }

  negate(v: Value, p: number): Value {
    try {
      return negate(v);
    } catch (e) {
      throw this.locate(e, p);
    }
  }

  /** `a + b`; two Integers (numbers) add natively unless the sum leaves the safe range. */
  add(a: Value, b: Value, p: number): Value {
    if (typeof a === 'number' && typeof b === 'number') {
      const r = a + b;
      if (Number.isSafeInteger(r)) return r;
    }
    return this.arithmetic('+', a, b, p);
  }

  sub(a: Value, b: Value, p: number): Value {
    if (typeof a === 'number' && typeof b === 'number') {
      const r = a - b;
      if (Number.isSafeInteger(r)) return r;
    }
    return this.arithmetic('-', a, b, p);
  }

  mul(a: Value, b: Value, p: number): Value {
    if (typeof a === 'number' && typeof b === 'number') {
      const r = a * b;
      // `-0` is no Integer (0 * -1); a product beyond the safe range fails isSafeInteger.
      if (Number.isSafeInteger(r)) return r === 0 ? 0 : r;
    }
    return this.arithmetic('*', a, b, p);
  }

  /** `a == b` (a type on the left asks the type calculator: see `typesEqual`). */
  equals(a: Value, b: Value): boolean {
    return a instanceof PType ? typesEqual(a, b) : puppetEquals(a, b);
  }

  /** `a == 'literal'`: strings compare ignoring ASCII case (which keeps lengths), other values never match. */
  eqs(a: Value, b: string): boolean {
    return a === b || (typeof a === 'string' && a.length === b.length && compareIgnoreCase(a, b) === 0);
  }

  // `<`, `<=`, `>`, `>=`: two Integers (numbers) compare natively.
  lt(a: Value, b: Value, p: number): boolean {
    return typeof a === 'number' && typeof b === 'number' ? a < b : this.compare(a, b, '<', p) < 0;
  }

  le(a: Value, b: Value, p: number): boolean {
    return typeof a === 'number' && typeof b === 'number' ? a <= b : this.compare(a, b, '<=', p) <= 0;
  }

  gt(a: Value, b: Value, p: number): boolean {
    return typeof a === 'number' && typeof b === 'number' ? a > b : this.compare(a, b, '>', p) > 0;
  }

  ge(a: Value, b: Value, p: number): boolean {
    return typeof a === 'number' && typeof b === 'number' ? a >= b : this.compare(a, b, '>=', p) >= 0;
  }

  compare(a: Value, b: Value, op: string, p: number): number {
    try {
      return compareForOperator(a, b, op);
    } catch (e) {
      throw this.locate(e, p);
    }
  }

  /** `a =~ b`: b a Regexp, a regexp string, or a Type. A successful regexp match sets `$0..$n`. */
  match(a: Value, b: Value, p: number): boolean {
    if (b instanceof PType) return b.isInstance(a);
    let re: PRegexp;
    if (b instanceof PRegexp) re = b;
    else if (typeof b === 'string') re = this.regexp(b, p);
    else throw this.locate(matchNotRegexp(b), p);
    if (typeof a !== 'string') throw this.locate(matchNotString(a), p);
    return this.regexMatch(re, a);
  }

  private regexMatch(re: PRegexp, s: string): boolean {
    re.regex.lastIndex = 0;
    const found = re.regex.exec(s);
    if (!found) return false;
    this.m = [...found];
    return true;
  }

  /** `a in b`: substring (case-insensitive), array element, hash key; a regexp or type left matches. */
  isIn(a: Value, b: Value): boolean {
    if (typeof b === 'string') {
      if (a instanceof PRegexp) return this.regexMatch(a, b);
      if (typeof a !== 'string') return false;
      return b.toLowerCase().includes(a.toLowerCase());
    }
    const candidates = Array.isArray(b) ? b : isHash(b) ? [...b.keys()] : undefined;
    // Nothing is in any other value (an Integer, a Boolean, a type, undef): Puppet answers false.
    if (!candidates) return false;
    if (a instanceof PRegexp) return candidates.some((c) => typeof c === 'string' && this.regexMatch(a, c));
    if (a instanceof PType) return candidates.some((c) => a.isInstance(c));
    return candidates.some((c) => puppetEquals(a, c));
  }

  /** Whether a `case` / selector option matches the tested value. */
  matchesOption(value: Value, option: Value, p: number): boolean {
    if (option === DEFAULT) return true;
    if (option instanceof PRegexp) return typeof value === 'string' && this.regexMatch(option, value);
    if (option instanceof PType) return option.isInstance(value);
    if (Array.isArray(option)) {
      return (
        Array.isArray(value) &&
        option.length === value.length &&
        option.every((o, i) => this.matchesOption(value[i], o, p))
      );
    }
    // A hash option matches a hash holding each of its keys (exactly, as Ruby's Hash#[] finds them) with a
    // value matching the option's; a key the value lacks is matched as undef (`Optional[...]` matches it).
    if (isHash(option)) {
      if (!isHash(value)) return false;
      for (const [key, pattern] of option) {
        if (!this.matchesOption(hashLookup(value, key).value, pattern, p)) return false;
      }
      return true;
    }
    return puppetEquals(value, option);
  }

  /** A splatted option `*[a, b]`: matches when any element does. */
  matchesAny(value: Value, options: Value, p: number): boolean {
    return splat(options).some((o) => this.matchesOption(value, o, p));
  }

  noSelectorMatch(value: Value, p: number): never {
    return this.fail(
      'EPP_NO_MATCH',
      `No matching entry for selector parameter with value '${renderValue(value)}'`,
      p,
    );
  }

  // ---------------------------------------------------------------- calls

  /**
   * A compiled lambda as functions receive it. `unchecked`: the span of a lambda of `paramCount` required
   * parameters that does not check how many arguments it gets (the compiler leaves that out, as the loops
   * below call it right): it is wrapped with the check.
   */
  lambda(
    fn: (...args: Value[]) => Value,
    paramCount: number,
    requiredCount: number,
    hasRest: boolean,
    unchecked?: number,
  ): Lambda {
    const target = unchecked === undefined ? fn : this.arityChecked(fn, paramCount, unchecked);
    // Plain assignments: cheaper than Object.assign, and every lambda gets the same hidden class.
    const lambda = target as unknown as { paramCount: number; requiredCount: number; hasRest: boolean };
    lambda.paramCount = paramCount;
    lambda.requiredCount = requiredCount;
    lambda.hasRest = hasRest;
    return target as unknown as Lambda;
  }

  private arityChecked(fn: (...args: Value[]) => Value, n: number, p: number): (...args: Value[]) => Value {
    return (...args: Value[]) => {
      if (args.length !== n) this.checkLambdaArity(args.length, n, n, p);
      return fn(...args);
    };
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

  /** The ordinary call; `lp` is the span of a lambda that does not check its arity (see `lambda`). */
  private callPlain(
    name: string,
    args: Value[],
    fn: PlainLambda,
    n: number,
    p: number,
    site: CallSite,
    lp: number | undefined,
  ): Value {
    return this.call(name, args, this.lambda(fn, n, n, false, lp), p, undefined, site);
  }

  each(receiver: Value, fn: PlainLambda, n: number, p: number, site: CallSite, lp?: number): Value {
    if ((n !== 1 && n !== 2) || !isCollection(receiver) || !this.isCore(coreIteration.each, site))
      return this.callPlain('each', [receiver], fn, n, p, site, lp);
    try {
      eachLoop(receiver, fn, n);
    } catch (e) {
      throw this.locate(e, p);
    }
    return receiver;
  }

  map(receiver: Value, fn: PlainLambda, n: number, p: number, site: CallSite, lp?: number): Value {
    if ((n !== 1 && n !== 2) || !isCollection(receiver) || !this.isCore(coreIteration.map, site))
      return this.callPlain('map', [receiver], fn, n, p, site, lp);
    try {
      return mapLoop(receiver, fn, n);
    } catch (e) {
      throw this.locate(e, p);
    }
  }

  filter(receiver: Value, fn: PlainLambda, n: number, p: number, site: CallSite, lp?: number): Value {
    if ((n !== 1 && n !== 2) || !Array.isArray(receiver) || !this.isCore(coreIteration.filter, site))
      return this.callPlain('filter', [receiver], fn, n, p, site, lp);
    try {
      return filterLoop(receiver, fn, n);
    } catch (e) {
      throw this.locate(e, p);
    }
  }

  /** `reduce` over an Array, with (`args` of 2) or without a start value. */
  reduce(args: Value[], fn: PlainLambda, n: number, p: number, site: CallSite, lp?: number): Value {
    const receiver = args[0];
    if (n !== 2 || !Array.isArray(receiver) || !this.isCore(coreIteration.reduce, site))
      return this.callPlain('reduce', args, fn, n, p, site, lp);
    try {
      return reduceLoop(receiver, fn, args.length === 2, args[1]);
    } catch (e) {
      throw this.locate(e, p);
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
      for (; i < a.length && typeof s === 'string'; i++) {
        const item = a[i];
        if (typeof item !== 'string') break;
        s += delimiter + item;
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
    lp?: number,
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
      throw this.locate(e, p);
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
        return invoke(def, this, args, block);
      } catch (e) {
        throw this.locate(e, p);
      }
    }
    const previous = this.scope;
    this.scope = view?.();
    try {
      return invoke(def, this, args, block);
    } catch (e) {
      throw this.locate(e, p);
    } finally {
      this.scope = previous;
    }
  }

  newValue(type: Value, args: Value[], block: Lambda | undefined, p: number): Value {
    try {
      if (!(type instanceof PType)) this.fail('EPP_EVAL', `new() expects a Type, got ${typeLabel(type)}`, p);
      const value = newInstance(type, args);
      return block ? block(value) : value;
    } catch (e) {
      throw this.locate(e, p);
    }
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
