/**
 * The run-time support that compiled templates call (`rt` in the generated code). One Runtime exists per
 * render; it holds the render's state (argument values, match captures, warnings) and implements the
 * `CallContext` that built-in functions receive.
 */

import { didYouMean } from '../../shared/did-you-mean.js';
import { EppError, type EppErrorCode, EppEvalError, type SourceLocation } from '../errors.js';
import { newInstance } from '../functions/conversion.js';
import { coreFunctions } from '../functions/index.js';
import { coreIteration } from '../functions/iteration.js';
import { eachLoop, filterLoop, mapJoinLoop, mapLoop, reduceLoop } from '../functions/loops.js';
import {
  BreakSignal,
  type CallContext,
  type CallSite,
  type FunctionDef,
  type FunctionRegistry,
  invoke,
  type Lambda,
  NextSignal,
  ReturnSignal,
} from '../functions/registry.js';
import { compareForOperator, compareIgnoreCase, puppetEquals } from './compare.js';
import { interpolate, renderValue } from './format.js';
import { type HashIndex, hashIndex } from './hash-index.js';
import { access, arithmetic, negate, splat, typeLabel } from './operators.js';
import { RecordHash } from './record-hash.js';
import { describeMismatch, PType, resolveTypeName } from './types.js';
import { DEFAULT, isHash, PFloat, type PHash, PRegexp, type Value } from './values.js';

/** What a Runtime needs to know of the template it runs. */
export interface RuntimeTemplate {
  readonly file: string;
  readonly source: string;
  /** The span of a position index passed by the code (see the compiler's and the interpreter's `pos`). */
  span(p: number): { readonly start: number; readonly end: number } | undefined;
}

/** What a Runtime needs from its environment: rendering nested templates, warnings, logs. */
export interface RuntimeHost {
  readonly strict: boolean;
  readonly functions: FunctionRegistry;
  warn(code: string, message: string, location: SourceLocation | undefined): void;
  log(level: string, message: string): void;
  /** Renders `epp(path, args)`; `scope` is the top scope (file templates see only global names). */
  renderFile(path: string, args: Value | undefined, depth: number): string;
  /** Renders `inline_epp(source, args)` seeing the caller's scope. */
  renderInline(source: string, args: Value | undefined, callerScope: object, depth: number): string;
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
const MISSING = Symbol('missing');

/** Marks a local variable not assigned yet (compiled templates start every local with it). */
const UNSET = Symbol('unset');

// ---------------------------------------------------------------- helpers of the generated code

/** What `<%= v %>` appends: strings and Integers inline (the common cases), the rest as Puppet prints it. */
export function renderText(v: Value): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? `${v}` : renderOther(v);
}

function renderOther(v: Value): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  // Floats are interned and immutable: format each once (Ruby's float text is costly to compute).
  if (v instanceof PFloat) {
    v.rendered ??= renderValue(v);
    return v.rendered;
  }
  return renderValue(v);
}

/** What `"${v}"` gives. */
export function interpolateText(v: Value): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? `${v}` : interpolateOther(v);
}

function interpolateOther(v: Value): string {
  return typeof v === 'bigint' ? v.toString() : interpolate(v);
}

/** Only `undef` and `false` are falsy. */
export function truthy(v: Value): boolean {
  return v !== undefined && v !== false;
}

/**
 * Module-level helpers the generated code receives as parameters of its factory, by these names: shorter
 * code than `rt.method(...)` (cheaper to compile), and small enough for V8 to inline.
 */
export const compiledHelpers = {
  S: renderText,
  I: interpolateText,
  T: truthy,
  H: hashIndex,
} as const;

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

const regexpCache = new Map<string, PRegexp>();

/** Values of constant type expressions by their key (see the compiler's `constantKey`), for all templates. */
const sharedConstants = new Map<string, Value>();

/**
 * Hashes are never mutated, so whether one is an instance of a type can be remembered: the same settings
 * checked against the same (constant) parameter types in every file of a template, or in every render,
 * are checked once. Not arrays: a render given plain JavaScript values uses the caller's arrays as they
 * are (see `valuesFromJs`), which the caller may change before the next render; nor RecordHashes, made
 * anew for each render.
 */
const instanceMemo = new WeakMap<PType, WeakMap<object, boolean>>();

function isInstanceMemo(type: PType, value: Value): boolean {
  if (!(value instanceof Map) || value instanceof RecordHash) return type.isInstance(value);
  // By type first: types are few (shared constants), so new values add entries, not WeakMaps.
  let byValue = instanceMemo.get(type);
  if (!byValue) {
    byValue = new WeakMap();
    instanceMemo.set(type, byValue);
  }
  let result = byValue.get(value);
  if (result === undefined) {
    result = type.isInstance(value);
    byValue.set(value, result);
  }
  return result;
}

export class Runtime implements CallContext {
  // The markers live on the prototype (see below the class): a Runtime is made per render, and these need
  // no per-render stores.
  declare readonly MISSING: typeof MISSING;
  declare readonly UNSET: typeof UNSET;
  declare readonly DEFAULT: typeof DEFAULT;
  /** Captures of the last successful match (`$0`, `$1`, ...). */
  // The fields are `declare`d and set once in the constructor (ES2022 class fields would define each as
  // undefined first, then the constructor store it again).
  declare m: Value[] | undefined;
  /** The variables visible at the function call in progress, for getvar/defined/inline_epp. */
  private declare scope: object | undefined;
  /** The render's functions (`host.functions`, one property load closer for every call). */
  private declare readonly functions: FunctionRegistry;
  private declare readonly template: RuntimeTemplate;
  private declare readonly host: RuntimeHost;
  /** The values passed to the template (a hash: string keys). */
  private declare readonly values: PHash;
  private declare readonly topScope: object;
  private declare readonly depth: number;

  constructor(template: RuntimeTemplate, host: RuntimeHost, values: PHash, topScope: object, depth: number) {
    // Every field once, in declaration order: one hidden class, no field defined twice.
    this.m = undefined;
    this.scope = undefined;
    this.functions = host.functions;
    this.template = template;
    this.host = host;
    this.values = values;
    this.topScope = topScope;
    this.depth = depth;
  }

  get strict(): boolean {
    return this.host.strict;
  }

  // ---------------------------------------------------------------- positions and errors

  private location(p: number): SourceLocation {
    const span = this.template.span(p) ?? { start: 0, end: 0 };
    return { file: this.template.file, source: this.template.source, span };
  }

  private fail(code: EppErrorCode, message: string, p: number): never {
    throw new EppEvalError(code, message, this.location(p));
  }

  /** Adds this position to an EPP error that has none; other errors pass through. */
  private locate(e: unknown, p: number): unknown {
    if (e instanceof EppError && !e.location) e.at(this.location(p));
    return e;
  }

  // ---------------------------------------------------------------- arguments and parameters

  /** Template parameters: every given key must be declared. */
  checkArguments(declared: readonly string[], p: number): void {
    for (const key of this.values.keys()) {
      if (typeof key !== 'string' || !declared.includes(key)) {
        this.fail('EPP_UNKNOWN_PARAMETER', `The template has no parameter named '${String(key)}'`, p);
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
    this.checkArguments(set.names, set.p);
    const bound = set.specs.map((spec) => this.param(spec));
    set.lastValues = this.values;
    set.lastBound = bound;
    return bound;
  }

  /**
   * A template parameter's value: the argument, else (absent or undef) the default, else a missing-parameter
   * error; then the type check. UNSET when the default is code for the caller to evaluate (then `checked`).
   */
  param(spec: ParameterSpec): Value | typeof UNSET {
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

  /** A parameter's type check; `block`: a lambda's parameter, which Puppet calls a block parameter. */
  checkParameter(type: Value, value: Value, name: string, p: number, block?: boolean): void {
    const what = block ? `block parameter '${name}'` : `parameter '${name}'`;
    if (!(type instanceof PType)) this.fail('EPP_TYPE_MISMATCH', `the type of ${what} is not a Type`, p);
    if (!isInstanceMemo(type, value)) {
      this.fail('EPP_TYPE_MISMATCH', describeMismatch(type, value, what), p);
    }
  }

  checkLambdaArity(given: number, min: number, max: number, p: number): void {
    if (given < min || given > max) {
      const expected =
        min === max
          ? `${min}`
          : max === Number.POSITIVE_INFINITY
            ? `at least ${min}`
            : `between ${min} and ${max}`;
      this.fail('EPP_ARGUMENTS', `lambda expects ${expected} arguments, got ${given}`, p);
    }
  }

  // ---------------------------------------------------------------- variables

  unknownVariable(name: string, p: number): Value {
    if (this.host.strict) {
      const error = new EppEvalError(
        'EPP_UNKNOWN_VARIABLE',
        `Unknown variable: '$${name}'`,
        this.location(p),
      );
      error.hint =
        'pass it as a value, assign it before use, or render with strict variables off (--no-strict)';
      throw error;
    }
    this.host.warn('EPP_UNKNOWN_VARIABLE', `Unknown variable: '$${name}'`, this.location(p));
    return undefined;
  }

  topVariable(name: string, p: number): Value {
    const top = this.topScope as Record<string, Value>;
    const value = top[name];
    if (value !== undefined || name in top) return value;
    return this.unknownVariable(`::${name}`, p);
  }

  capture(n: number): Value {
    return this.m?.[n];
  }

  /** A variable that is not a local of any scope: the dynamic scope (values, then top scope) or unknown. */
  lookup(scope: Record<string, Value>, name: string, p: number): Value {
    const value = scope[name];
    if (value !== undefined || name in scope) return value;
    return this.unknownVariable(name, p);
  }

  reassigned(name: string, p: number): never {
    return this.fail('EPP_REASSIGNMENT', `Cannot reassign variable '$${name}'`, p);
  }

  assignInvalid(name: string, p: number): never {
    if (/^\d+$/.test(name))
      this.fail(
        'EPP_REASSIGNMENT',
        `Illegal attempt to assign to the numeric match result variable '$${name}'`,
        p,
      );
    return this.fail('EPP_REASSIGNMENT', `Cannot assign to variables in other namespaces: '$${name}'`, p);
  }

  /** `[$a, $b] = value`: the values for the names, from an array by position or a hash by name. */
  destructure(names: string[], value: Value, p: number): Value[] {
    if (Array.isArray(value)) {
      if (value.length !== names.length) {
        this.fail(
          'EPP_EVAL',
          `Number of values in the array (${value.length}) does not match the number of variables (${names.length})`,
          p,
        );
      }
      return value;
    }
    if (isHash(value)) {
      return names.map((name) => {
        if (!value.has(name)) this.fail('EPP_EVAL', `No value for required variable '$${name}' in hash`, p);
        return value.get(name);
      });
    }
    return this.fail('EPP_EVAL', `Cannot assign ${typeLabel(value)} to an array of variables`, p);
  }

  /** The visible locals (name, value pairs; unset ones skipped) over the dynamic scope. */
  view(dynamic: object, entries: unknown[]): object {
    const scope = Object.create(dynamic) as Record<string, unknown>;
    for (let i = entries.length - 2; i >= 0; i -= 2) {
      if (entries[i + 1] !== UNSET) scope[entries[i] as string] = entries[i + 1];
    }
    return scope;
  }

  // ---------------------------------------------------------------- values

  type(name: string, p: number): PType {
    const type = resolveTypeName(name);
    if (!type) {
      const error = new EppEvalError(
        'EPP_UNKNOWN_TYPE',
        `Resource type not found: ${name}`,
        this.location(p),
      );
      error.hint = 'templates can use the Puppet data types (String, Integer, Array, Hash, Optional, ...)';
      throw error;
    }
    return type;
  }

  regexp(source: string, p: number): PRegexp {
    let re = regexpCache.get(source);
    if (!re) {
      try {
        re = new PRegexp(source);
      } catch (e) {
        this.fail('EPP_SYNTAX', `Invalid regular expression /${source}/: ${(e as Error).message}`, p);
      }
      if (regexpCache.size > 1000) regexpCache.clear();
      regexpCache.set(source, re);
    }
    return re;
  }

  /** A constant of the compiled code: computed once, and shared by key with every template. */
  constant(slot: ConstantSlot): Value {
    if (slot.done) return slot.value;
    let value = sharedConstants.get(slot.key);
    if (value === undefined && !sharedConstants.has(slot.key)) {
      value = this.evaluate(slot.plan);
      if (sharedConstants.size > 1000) sharedConstants.clear();
      sharedConstants.set(slot.key, value);
    }
    slot.value = value;
    slot.done = true;
    return value;
  }

  private evaluate(plan: ConstantPlan): Value {
    switch (plan.t) {
      case 'value':
        return plan.v;
      case 'default':
        return DEFAULT;
      case 'type':
        return this.type(plan.name, plan.p);
      case 'regexp':
        return this.regexp(plan.source, plan.p);
      case 'array':
        return plan.items.map((item) => this.evaluate(item));
      case 'hash':
        return this.hash(plan.items.map((item) => this.evaluate(item)));
      case 'access': {
        const target = this.evaluate(plan.target);
        const keys = plan.keys.map((key) => this.evaluate(key));
        return keys.length === 1 ? this.access1(target, keys[0], plan.p) : this.access(target, keys, plan.p);
      }
    }
  }

  hash(flat: Value[]): PHash {
    const h: PHash = new Map();
    for (let i = 0; i < flat.length; i += 2) h.set(flat[i], flat[i + 1]);
    return h;
  }

  splat(v: Value): Value[] {
    return splat(v);
  }

  // ---------------------------------------------------------------- operators

  arithmetic(op: string, a: Value, b: Value, p: number): Value {
    try {
      return arithmetic(op, a, b);
    } catch (e) {
      throw this.locate(e, p);
    }
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

  equals(a: Value, b: Value): boolean {
    return puppetEquals(a, b);
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

  /** `target[key]` of a target that is not a hash, as an object with that property (see `hashIndex`). */
  keyed(target: Value, key: string, p: number): HashIndex {
    return { [key]: this.access1(target, key, p) };
  }

  /** `target[key]`, the common single-key access, without an array of keys. */
  access1(target: Value, key: Value, p: number): Value {
    if (target instanceof Map && (typeof key !== 'object' || key === null)) return target.get(key);
    return this.access(target, [key], p);
  }

  access(target: Value, keys: Value[], p: number): Value {
    try {
      return access(target, keys);
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
    else
      return this.fail(
        'EPP_OPERATOR',
        `Right operand of =~ must be a Regexp, String or Type, got ${typeLabel(b)}`,
        p,
      );
    if (typeof a !== 'string') {
      return this.fail(
        'EPP_OPERATOR',
        `Left operand of =~ must be a String when matching a Regexp, got ${typeLabel(a)}`,
        p,
      );
    }
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
  isIn(a: Value, b: Value, p: number): boolean {
    if (typeof b === 'string') {
      if (a instanceof PRegexp) return this.regexMatch(a, b);
      if (typeof a !== 'string') return false;
      return b.toLowerCase().includes(a.toLowerCase());
    }
    const candidates = Array.isArray(b) ? b : isHash(b) ? [...b.keys()] : undefined;
    if (!candidates) {
      if (b instanceof PType || b === undefined) return false;
      return this.fail(
        'EPP_OPERATOR',
        `Operator 'in' is not applicable to ${typeLabel(b)} (right operand)`,
        p,
      );
    }
    if (a instanceof PRegexp) return candidates.some((c) => typeof c === 'string' && this.regexMatch(a, c));
    if (a instanceof PType) return candidates.some((c) => a.isInstance(c));
    return candidates.some((c) => puppetEquals(a, c));
  }

  /** Whether a `case` / selector option matches the tested value. */
  matchesOption(value: Value, option: Value, p: number): boolean {
    if (option === DEFAULT) return true;
    if (option instanceof PRegexp) return typeof value === 'string' && this.regexMatch(option, value);
    if (option instanceof PType) return option.isInstance(value);
    if (Array.isArray(option) && Array.isArray(value)) {
      return option.length === value.length && option.every((o, i) => this.matchesOption(value[i], o, p));
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

  /** `return(v)` (or a `next(v)` outside any lambda) ends the template: its value, else rethrows. */
  returnValue(e: unknown): Value {
    if (e instanceof ReturnSignal || e instanceof NextSignal) return e.value;
    throw e;
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
    const def = site ? this.functions.resolve(site, name) : this.functions.get(name);
    if (!def) {
      const error = new EppEvalError('EPP_UNKNOWN_FUNCTION', `Unknown function: '${name}'`, this.location(p));
      const suggestion = didYouMean(name, this.host.functions.names());
      error.hint = suggestion
        ? `did you mean '${suggestion}'?`
        : 'templates can call Puppet core functions and to_json, to_json_pretty, to_yaml';
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
    this.host.log(level, message);
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

  renderFile(path: string, args: Value | undefined): string {
    this.checkDepth();
    return this.host.renderFile(path, args, this.depth + 1);
  }

  renderInline(source: string, args: Value | undefined): string {
    this.checkDepth();
    return this.host.renderInline(source, args, this.scope ?? this.topScope, this.depth + 1);
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

Object.defineProperties(Runtime.prototype, {
  MISSING: { value: MISSING },
  UNSET: { value: UNSET },
  DEFAULT: { value: DEFAULT },
});
