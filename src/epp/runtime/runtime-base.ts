/**
 * The state of one render and what the generated code asks of it besides operators and calls (see
 * runtime.ts): positions for errors, variables, constants and element access. The template's arguments
 * and parameters are parameter-runtime.ts's, which extends this class; `Runtime` extends that in turn.
 */
import {
  type DestructurePattern,
  findAccess,
  findBinary,
  puppetStart,
  RESERVED_VARIABLES,
} from '../ast-walk.js';
import {
  EppError,
  type EppErrorCode,
  EppEvalError,
  PlacedEvalError,
  type SourceLocation,
  TypeKeyError,
} from '../errors.js';
import type { FunctionRegistry } from '../functions/registry.js';
import { setEql } from './compare.js';
import {
  type ConstantPlan,
  type ConstantSlot,
  MISSING,
  type RuntimeHost,
  type RuntimeTemplate,
  UNSET,
} from './contracts.js';
import { destructure } from './destructure.js';
import { renderValue } from './format.js';
import type { HashIndex } from './hash-index.js';
import { access, numericFromString, splat } from './operators.js';
import { asMemoryLimit, collectionTooLarge, MAX_COLLECTION_SIZE } from './size-limits.js';
import { inferGenericType, inferReducedType } from './types/infer.js';
import { type PType, resolveTypeName } from './types.js';
import { DEFAULT, type PHash, PRegexp, PSymbol, type Value } from './values.js';

const regexpCache = new Map<string, PRegexp>();

/** Errors `locateCall` leaves unwrapped: Pantograph's limits, which Puppet does not have. */
const UNWRAPPED: ReadonlySet<EppErrorCode> = new Set([
  'EPP_TIME_LIMIT',
  'EPP_ITERATION_LIMIT',
  'EPP_MEMORY_LIMIT',
]);

/** Values of constant type expressions by their key (see the compiler's `constantKey`), for all templates. */
const sharedConstants = new Map<string, Value>();

export class RuntimeBase {
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
  protected declare scope: object | undefined;
  /** The render's functions (`host.functions`, one property load closer for every call). */
  protected declare readonly functions: FunctionRegistry;
  protected declare readonly template: RuntimeTemplate;
  protected declare readonly host: RuntimeHost;
  /** The values passed to the template (a hash: string keys). */
  protected declare readonly values: PHash;
  protected declare readonly topScope: object;
  protected declare readonly depth: number;

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

  protected location(p: number): SourceLocation {
    const span = this.template.span(p) ?? { start: 0, end: 0 };
    return { file: this.template.file, source: this.template.source, span };
  }

  /**
   * Where Puppet places an operand of the operator expression at `p` (the span from its operator to its
   * end, as the code passes it): the operand as its parser places it (`puppetStart`). Looked up in the
   * syntax tree, which only an error or a warning needs; the operator's position when it is not found.
   */
  protected operandLocation(p: number, operand: 'left' | 'right'): SourceLocation {
    const location = this.location(p);
    const ast = this.template.ast;
    const node = ast && findBinary(ast, location.span.start, location.span.end);
    if (!node) return location;
    const side = operand === 'left' ? node.left : node.right;
    return { ...location, span: { start: puppetStart(side), end: side.end } };
  }

  /** A titled resource body after a value (`x<% { 'a': } %>`): Puppet's evaluator refuses the value as its type. */
  illegalResourceType(value: Value, p: number): never {
    const actual = value instanceof PSymbol ? inferReducedType(value) : inferGenericType(value);
    const error = new EppEvalError(
      'EPP_UNSUPPORTED',
      `Illegal Resource Type expression, expected result to be a type name, or untitled Resource, got ${actual.toString()}`,
      this.location(p),
    );
    error.hint =
      'Puppet reads a `{` after a value, in the same tag or the next, as a resource body for it (a template has no catalogue): end the statement before it with `;`';
    throw error;
  }

  protected fail(code: EppErrorCode, message: string, p: number): never {
    throw new EppEvalError(code, message, this.location(p));
  }

  /**
   * Places an EPP error that has no position here, or notes this call as its caller; V8's errors past
   * its limits become `EPP_MEMORY_LIMIT` here, at the call that built the value; others pass.
   */
  protected locate(e: unknown, p: number): unknown {
    const error = e instanceof RangeError ? asMemoryLimit(e) : e;
    if (!(error instanceof EppError)) return error;
    // An error in another template (a file epp() rendered) keeps its place and notes this call.
    if (error.location) error.calledFrom(this.location(p));
    else error.at(this.location(p));
    return error;
  }

  /**
   * `locate` for an error out of a function call (or `new`) at `p`: one the function raised itself, which
   * has no position yet, gets Puppet's `Error while evaluating a Function Call, ` (`a Method call` for a
   * call Puppet places at its `.` or `(`, see `callSpan`), as Puppet's evaluator wraps every error that
   * reaches it without a position. Errors of the lambda's body have theirs already, and Pantograph's own
   * limits are no Puppet error.
   */
  protected locateCall(e: unknown, p: number): unknown {
    const error = e instanceof RangeError ? asMemoryLimit(e) : e;
    if (
      error instanceof EppError &&
      !error.location &&
      !UNWRAPPED.has(error.code) &&
      !(error instanceof PlacedEvalError)
    ) {
      const location = this.location(p);
      const first = location.source.charCodeAt(location.span.start);
      // 46 `.`, 40 `(`.
      const what = first === 46 || first === 40 ? 'Method call' : 'Function Call';
      error.message = `Error while evaluating a ${what}, ${error.message}`;
      error.at(location);
    }
    return this.locate(error, p);
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
    // Puppet's warning, in its words: the name without its `$`, and a period.
    this.host.warn('EPP_UNKNOWN_VARIABLE', `Unknown variable: '${name}'.`, this.location(p));
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

  /**
   * A parameter's default reads a parameter not bound yet (itself, or one declared after it). A template's
   * given values are bound before any default, as in Puppet, so one given is read; otherwise Puppet's error.
   * A lambda's is the error of the call that called it (see `locateCall`), with Puppet's `lambda: `.
   */
  parameterAhead(from: string, to: string, template: boolean, p: number): Value {
    if (template) {
      const given = this.values.get(to);
      if (given !== undefined) return given;
    } else {
      throw new EppEvalError(
        'EPP_EVAL',
        `lambda: default expression for $${from} tries to illegally access not yet evaluated $${to}`,
      );
    }
    return this.fail(
      'EPP_EVAL',
      `default expression for $${from} tries to illegally access not yet evaluated $${to}`,
      p,
    );
  }

  /**
   * A parameter named as a reserved variable (see `reservedParameter`): Puppet names it without `$`. A
   * lambda's (`block`) is the error of the call that called it (see `locateCall`), as in Puppet.
   */
  reservedParameter(name: string, p: number, block?: boolean): never {
    const message = `Attempt to assign to a reserved variable name: '${name}'`;
    if (block) throw new EppEvalError('EPP_REASSIGNMENT', message);
    return this.fail('EPP_REASSIGNMENT', message, p);
  }

  /**
   * A name no assignment takes, at the assignment's `=` (`p`) or at the variable (`pv`) as Puppet places
   * each: `$facts` and `$trusted` are refused by Puppet's scope, an error its evaluator words as the `=`
   * expression's; `$server_facts` by its validation, which names it with its dollar; a numeric or a
   * namespaced name by its validation too, at the variable.
   */
  assignInvalid(name: string, p: number, pv: number): never {
    if (name === 'server_facts') {
      this.fail('EPP_REASSIGNMENT', "Attempt to assign to a reserved variable name: '$server_facts'", p);
    }
    if (RESERVED_VARIABLES.has(name)) {
      this.fail(
        'EPP_REASSIGNMENT',
        `Error while evaluating a '=' expression, Attempt to assign to a reserved variable name: '${name}'`,
        p,
      );
    }
    if (/^\d+$/.test(name))
      this.fail(
        'EPP_REASSIGNMENT',
        `Illegal attempt to assign to the numeric match result variable '$${name}'. Numeric variables are not assignable`,
        pv,
      );
    return this.fail(
      'EPP_REASSIGNMENT',
      `Illegal attempt to assign to '${name}'. Cannot assign to variables in other namespaces`,
      pv,
    );
  }

  /** `[$a, $b] = value`: the values for the names, from an array by position or a hash by name. */
  /** `[$a, [$b, $c]] = value`: the values, flat, in the order of the variables (see destructure.ts). */
  destructure(pattern: DestructurePattern, value: Value, p: number): Value[] {
    try {
      return destructure(pattern, value);
    } catch (e) {
      throw this.locate(e, p);
    }
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
    const type = resolveTypeName(name) ?? this.moduleType(name, p);
    if (!type) {
      const error = new EppEvalError(
        'EPP_UNKNOWN_TYPE',
        `Resource type not found: ${name}`,
        this.location(p),
      );
      error.hint = name.includes('::')
        ? `a type of the module '${name.slice(0, name.indexOf('::')).toLowerCase()}': give the directory ` +
          'holding it as the module path (--modulepath; a template inside a module also finds its own ' +
          'module, the modules of its spec/fixtures/modules and those beside it)'
        : 'templates can use the Puppet data types (String, Integer, Array, Hash, Optional, ...)';
      throw error;
    }
    return type;
  }

  /**
   * Set while a constant is computed when it named a module's type alias: its value depends on the
   * render's module path, so it is not shared with other templates nor kept in the slot.
   */
  private namedModuleType = false;

  private moduleType(name: string, p: number): PType | undefined {
    let type: PType | undefined;
    try {
      type = this.host.moduleType(name);
    } catch (e) {
      // An error in the alias's own file keeps its position there; others get the reference's.
      if (e instanceof EppError && !e.location) e.location = this.location(p);
      throw e;
    }
    if (type) this.namedModuleType = true;
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
      this.namedModuleType = false;
      value = this.evaluate(slot.plan);
      if (this.namedModuleType) return value;
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

  /**
   * Puppet's warning for a string it takes as a number (an array's index, an operand of arithmetic):
   * "The string '1' was automatically coerced to the numerical value 1".
   */
  protected warnIfNumericString(v: Value, p: number, operand?: 'left' | 'right'): void {
    if (typeof v !== 'string') return;
    const n = numericFromString(v);
    if (n === undefined) return;
    this.host.warn(
      'EPP_NUMERIC_STRING',
      `The string '${v}' was automatically coerced to the numerical value ${renderValue(n)}`,
      operand ? this.operandLocation(p, operand) : this.location(p),
    );
  }

  hash(flat: Value[]): PHash {
    const h: PHash = new Map();
    for (let i = 0; i < flat.length; i += 2) {
      const key = flat[i];
      // A structured key (`[1]`, `{a => 1}`) equal to one before it is that key, as in Ruby's Hash.
      if (typeof key === 'object') setEql(h, key, flat[i + 1]);
      else h.set(key, flat[i + 1]);
    }
    return h;
  }

  splat(v: Value): Value[] {
    return splat(v);
  }

  /**
   * A list with splats (`[*$a, *$a, $b]`), from its parts (a splat's elements, or one element in an
   * array of its own), joined once their size is known to be within the cap: splats can repeat an array
   * many times over in one literal, past any memory.
   */
  spread(p: number, ...parts: Value[][]): Value[] {
    let size = 0;
    for (const part of parts) size += part.length;
    if (size > MAX_COLLECTION_SIZE) throw this.locate(collectionTooLarge(size, 'an Array'), p);
    return ([] as Value[]).concat(...parts);
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
    if (Array.isArray(target)) for (const key of keys) this.warnIfNumericString(key, p);
    try {
      return access(target, keys);
    } catch (e) {
      if (e instanceof TypeKeyError && !e.location) e.at(this.keyLocation(p, e.keyIndex));
      throw this.locate(e, p);
    }
  }

  /**
   * Where Puppet places an error in the key at `index` of the access at `p`: at that key as written, or
   * at the access when the keys written are fewer (an array among them, flattened). Looked up in the
   * syntax tree, which only an error needs.
   */
  private keyLocation(p: number, index: number): SourceLocation {
    const location = this.location(p);
    const ast = this.template.ast;
    const key = ast && findAccess(ast, location.span.start, location.span.end)?.keys[index];
    return key ? { ...location, span: { start: puppetStart(key), end: key.end } } : location;
  }
}

Object.defineProperties(RuntimeBase.prototype, {
  MISSING: { value: MISSING },
  UNSET: { value: UNSET },
  DEFAULT: { value: DEFAULT },
});
