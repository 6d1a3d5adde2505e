/**
 * The EPP interpreter: renders a template by walking its AST, the first tier of rendering.
 *
 * Most templates are rendered once per process (`pantograph apply`, `epp render`): for them, generating
 * JavaScript and compiling it with `new Function` costs more than the render itself. A template's first
 * render is therefore interpreted here (its second too), and only a template rendered again is compiled
 * (see `INTERPRETED_RENDERS` in `epp.ts`).
 *
 * Both tiers must do exactly the same: the interpreter calls the same runtime (`rt`, see
 * `runtime/runtime.ts`) for every Puppet semantic, and mirrors the compiler (`compiler.ts`) in what is left:
 * scopes, evaluation order, match captures, the positions of errors. The test suite renders through both
 * tiers (`PANTOGRAPH_EPP_TIER`) and the fuzz test compares them on random templates.
 *
 * Calls take the runtime's fast paths as compiled code does (`Runtime.each`, `Runtime.length`, ...). The
 * compiler's other shortcuts are code it writes for one case (`$h['key']` through a hash index, `==`
 * against a string literal); the interpreter asks the runtime's general operations, which do the same.
 *
 * Positions: the runtime takes a number for the span of an error. The compiler numbers its spans in a
 * table; the interpreter encodes the span itself in the number (see `TemplateInterpreter.pos`).
 */
import type { CaseNode, IfNode, LambdaNode, Node, ParameterNode, SelectorNode, TemplateNode } from './ast.js';
import { assignedNames } from './ast-walk.js';
import {
  COLLECTION_FAST_PATHS,
  hasRest,
  hasSplat,
  ITERATION_FAST_PATHS,
  isSplat,
  requiredCount,
  SCOPE_FUNCTIONS,
} from './calls.js';
import { constantKey, isConstant, LazyConstantSlot, literalValue, parameterLayout } from './constants.js';
import { type CallSite, type Lambda, newCallSite } from './functions/registry.js';
import {
  interpolateText,
  type ParameterSet,
  type ParameterSpec,
  type Runtime,
  renderText,
  truthy,
} from './runtime/runtime.js';
import { DEFAULT, float, type Value } from './runtime/values.js';

/**
 * Sources up to this length are interpreted: a span is passed to the runtime as one number, `start * (length
 * + 1) + end`, which must stay a safe integer. (Longer ones are compiled, whose span table has no limit.)
 */
const MAX_INTERPRETED_LENGTH = 90_000_000;

export function canInterpret(source: string): boolean {
  return source.length <= MAX_INTERPRETED_LENGTH;
}

/** What the interpreter keeps of a template between renders: constants, lambdas, scope names. */
export class TemplateInterpreter {
  private readonly scale: number;
  private readonly constants = new Map<Node, LazyConstantSlot>();
  private readonly lambdas = new Map<LambdaNode, LambdaFacts>();
  private readonly sites = new Map<Node, CallSite>();
  private readonly declared = new Map<TemplateNode | LambdaNode, ReadonlySet<string>>();
  private parameterPlan: ParameterPlan | undefined;

  constructor(
    readonly ast: TemplateNode,
    /** A program whose value is its last expression (hooks, `--values`), not a text render. */
    readonly value: boolean,
    source: string,
  ) {
    this.scale = source.length + 1;
  }

  /** Renders (or evaluates, for a program) with `rt`; `S0` is the dynamic scope, as for compiled code. */
  run(rt: Runtime, S0: object): unknown {
    return new Evaluation(this, rt, S0 as Record<string, Value>).template(this.ast);
  }

  /**
   * The position index of a span for the runtime's errors: the span itself, as one number (no table to
   * fill on every render, see {@link span}).
   */
  readonly pos = (node: { readonly start: number; readonly end: number }): number =>
    node.start * this.scale + node.end;

  /** The position index of the span from `start` to `end` (see {@link pos}). */
  at(start: number, end: number): number {
    return start * this.scale + end;
  }

  /** The span of a position index made by {@link pos}. */
  span(p: number): { start: number; end: number } {
    return { start: Math.floor(p / this.scale), end: p % this.scale };
  }

  /** A call site's memory of the function it calls (see `newCallSite`), kept across renders. */
  site(node: Node): CallSite {
    let site = this.sites.get(node);
    if (!site) {
      site = newCallSite();
      this.sites.set(node, site);
    }
    return site;
  }

  /** A lambda's parameter counts and the names its body may assign, found on its first use. */
  lambda(node: LambdaNode): LambdaFacts {
    let facts = this.lambdas.get(node);
    if (!facts) {
      const params = node.params;
      let firstOptional = params.length;
      for (let i = 0; i < params.length && firstOptional === params.length; i++) {
        if (params[i]!.defaultValue || params[i]!.captureRest) firstOptional = i;
      }
      const names = params.map((p) => p.name);
      const distinct = new Set(names).size;
      const declared = this.declaredNames(node);
      facts = {
        required: requiredCount(params),
        rest: hasRest(params),
        firstOptional,
        declared,
        names,
        assigns: declared.size > distinct,
        plain:
          distinct === names.length && params.every((p) => !p.valueType && !p.defaultValue && !p.captureRest),
      };
      this.lambdas.set(node, facts);
    }
    return facts;
  }

  /** The slot of a constant expression, shared by key with compiled templates (see `Runtime.constant`). */
  constant(node: Node): LazyConstantSlot {
    let slot = this.constants.get(node);
    if (!slot) {
      slot = new LazyConstantSlot(constantKey(node), node, this.pos);
      this.constants.set(node, slot);
    }
    return slot;
  }

  /**
   * The template's parameters as the runtime's data, made once: the spec of each parameter whose type is a
   * constant (or absent), and the whole set for `Runtime.params` when `parameterLayout` binds them as data.
   */
  parameters(params: readonly ParameterNode[]): ParameterPlan {
    if (this.parameterPlan) return this.parameterPlan;
    const { codeDefaults, asData } = parameterLayout(params);
    const specs: (ParameterSpec | undefined)[] = [];
    for (let i = 0; i < params.length; i++) {
      const param = params[i]!;
      const codeDefault = codeDefaults[i]!;
      if (param.valueType && !isConstant(param.valueType)) {
        specs.push(undefined);
        continue;
      }
      specs.push({
        name: param.name,
        p: this.pos(param),
        type: param.valueType ? this.constant(param.valueType) : undefined,
        defaultValue: param.defaultValue && !codeDefault ? this.constant(param.defaultValue) : undefined,
        defaultCode: codeDefault,
      });
    }
    const p = this.pos(params[0] ?? NO_SPAN);
    const set = asData
      ? { names: params.map((param) => param.name), p, specs: specs as ParameterSpec[] }
      : undefined;
    this.parameterPlan = { specs, set };
    return this.parameterPlan;
  }

  /**
   * The names a scope may assign: its parameters and the names its body assigns (not in nested lambdas),
   * as the compiler declares its locals. Other names (`$::x`, `$1`) cannot be assigned.
   */
  declaredNames(owner: TemplateNode | LambdaNode): ReadonlySet<string> {
    let names = this.declared.get(owner);
    if (!names) {
      const all = new Set<string>();
      for (const p of owner.params ?? []) all.add(p.name);
      for (const name of assignedNames(owner.body)) all.add(name);
      for (const name of all) if (name.includes('::') || isDigits(name)) all.delete(name);
      names = all;
      this.declared.set(owner, names);
    }
    return names;
  }
}

interface ParameterPlan {
  /** Undefined for a parameter whose type is not a constant. */
  readonly specs: readonly (ParameterSpec | undefined)[];
  readonly set: ParameterSet | undefined;
}

interface LambdaFacts {
  readonly required: number;
  readonly rest: boolean;
  /** Parameters before the first with a default (or `*$rest`) are present once the arity is checked. */
  readonly firstOptional: number;
  readonly declared: ReadonlySet<string>;
  /** The parameters' names, in order. */
  readonly names: readonly string[];
  /** Whether every parameter is a plain `$name` (no type, default or `*`) and no two share a name. */
  readonly plain: boolean;
  /** Whether the body assigns variables (`declared` holds more than the parameters). */
  readonly assigns: boolean;
}

/**
 * The variables a template or lambda body has set, over the scope it was made in. Scopes hold few names
 * (a lambda's parameters mostly): two arrays searched from the start are cheaper to make and read than a Map.
 */
class Scope {
  /**
   * `names` and `values` may come made to their size (a lambda's parameters): arrays grown by `push` from
   * empty get room for 17 each, which was a third of what a template's first render allocated.
   */
  constructor(
    readonly parent: Scope | undefined,
    readonly declared: ReadonlySet<string>,
    readonly names: string[] = [],
    readonly values: Value[] = [],
  ) {}

  /** The index of a name this scope has set, or -1. */
  indexOf(name: string): number {
    const names = this.names;
    for (let i = 0; i < names.length; i++) if (names[i] === name) return i;
    return -1;
  }

  set(name: string, value: Value): void {
    this.names.push(name);
    this.values.push(value);
  }

  /** Sets a lambda parameter: a name declared twice takes the later value, as in Puppet. */
  bind(name: string, value: Value): void {
    const i = this.indexOf(name);
    if (i >= 0) this.values[i] = value;
    else this.set(name, value);
  }
}

/** One render of a template: its runtime, dynamic scope and output. */
class Evaluation {
  private out = '';

  constructor(
    private readonly t: TemplateInterpreter,
    private readonly rt: Runtime,
    private readonly S0: Record<string, Value>,
  ) {}

  template(ast: TemplateNode): unknown {
    const rt = this.rt;
    const scope = new Scope(undefined, this.t.declaredNames(ast));
    if (ast.params) this.templateParameters(ast.params, scope);
    else rt.bindArguments(this.S0);
    if (this.t.value) {
      try {
        return this.valueBlock(ast.body, scope);
      } catch (e) {
        return rt.returnValue(e);
      }
    }
    try {
      this.statements(ast.body, scope);
    } catch (e) {
      rt.returnValue(e);
    }
    return this.out;
  }

  /**
   * Binds the template's parameters as the compiled code does (see `TemplateInterpreter.parameters`): every
   * given key must be declared; an absent (or undef) argument takes the default, else is missing (undef
   * stays undef); then the type check.
   */
  private templateParameters(params: readonly ParameterNode[], scope: Scope): void {
    const rt = this.rt;
    const { specs, set } = this.t.parameters(params);
    if (set) {
      // All types constant, defaults that are code last: the runtime binds the data, code defaults follow.
      const bound = rt.params(set);
      for (let i = 0; i < params.length; i++) {
        const value = bound[i]!;
        const param = params[i]!;
        scope.set(
          param.name,
          value === rt.UNSET ? rt.checked(specs[i]!, this.expr(param.defaultValue!, scope)) : value,
        );
      }
      return;
    }
    rt.checkArguments(
      params.map((p) => p.name),
      this.t.pos(params[0] ?? NO_SPAN),
    );
    for (let i = 0; i < params.length; i++) {
      const param = params[i]!;
      const spec = specs[i];
      let value: Value | typeof rt.MISSING | typeof rt.UNSET;
      if (spec) {
        value = rt.param(spec);
        if (value === rt.UNSET) value = rt.checked(spec, this.expr(param.defaultValue!, scope));
      } else {
        // A type that is no constant: evaluated after the value is chosen.
        value = rt.argument(param.name);
        if (param.defaultValue) {
          if (value === rt.MISSING || value === undefined) value = this.expr(param.defaultValue, scope);
        } else if (value === rt.MISSING) {
          value = rt.missingParameter(param.name, this.t.pos(param));
        }
        rt.checkParameter(this.expr(param.valueType!, scope), value, param.name, this.t.pos(param));
      }
      scope.set(param.name, value);
    }
  }

  // ---------------------------------------------------------------- statements

  private statements(nodes: readonly Node[], scope: Scope): void {
    for (let i = 0; i < nodes.length; i++) this.statement(nodes[i]!, scope);
  }

  /** Statements whose value is the last one's (undef when it is text or output). */
  private valueBlock(nodes: readonly Node[], scope: Scope): Value {
    const n = nodes.length;
    const last = nodes[n - 1];
    if (!last || last.type === 'Text' || last.type === 'Render') {
      this.statements(nodes, scope);
      return undefined;
    }
    for (let i = 0; i < n - 1; i++) this.statement(nodes[i]!, scope);
    return this.expr(last, scope);
  }

  private statement(node: Node, scope: Scope): void {
    switch (node.type) {
      case 'Text':
        this.out += node.value;
        return;
      case 'Render': {
        const text = renderText(this.expr(node.expr, scope));
        this.out += text;
        return;
      }
      case 'If':
        this.ifStatement(node, scope);
        return;
      case 'Case':
        this.caseBody(node, scope, false);
        return;
      default:
        this.expr(node, scope);
    }
  }

  /** Match captures set inside an `if` (its test included) are gone after it. */
  private ifStatement(node: IfNode, scope: Scope): void {
    const rt = this.rt;
    const saved = rt.m;
    try {
      if (this.test(node, scope)) this.statements(node.then, scope);
      else if (node.otherwise) this.statements(node.otherwise, scope);
    } finally {
      rt.m = saved;
    }
  }

  private test(node: IfNode, scope: Scope): boolean {
    const result = truthy(this.expr(node.test, scope));
    return node.negate ? !result : result;
  }

  /**
   * `case` as statement and as value (`asValue`: the chosen body's value). Captures set while choosing an
   * option are gone after it; those of the tested expression stay.
   */
  private caseBody(node: CaseNode, scope: Scope, asValue: boolean): Value {
    const rt = this.rt;
    const value = this.expr(node.test, scope);
    const saved = rt.m;
    const p = this.t.pos(node);
    try {
      // The body of the last option with `default` runs when no other value matches.
      let fallback: readonly Node[] | undefined;
      // Indexed loops here and below: a first render runs in V8's interpreter, where `for of` allocates
      // an iterator and a result object per step.
      const options = node.options;
      for (let i = 0; i < options.length; i++) {
        const option = options[i]!;
        for (let j = 0; j < option.values.length; j++) {
          const candidate = option.values[j]!;
          if (candidate.type === 'Default') fallback = option.body;
          else if (this.optionMatches(value, candidate, p, scope))
            return this.body(option.body, scope, asValue);
        }
      }
      return fallback ? this.body(fallback, scope, asValue) : undefined;
    } finally {
      rt.m = saved;
    }
  }

  private body(nodes: readonly Node[], scope: Scope, asValue: boolean): Value {
    if (asValue) return this.valueBlock(nodes, scope);
    this.statements(nodes, scope);
    return undefined;
  }

  /** Whether a case or selector option matches: `*` splats, a literal compares with `==`. */
  private optionMatches(value: Value, option: Node, p: number, scope: Scope): boolean {
    const rt = this.rt;
    if (option.type === 'Unary' && option.operator === '*') {
      return rt.matchesAny(value, this.expr(option.operand, scope), p);
    }
    if (option.type === 'Literal') return rt.equals(value, this.expr(option, scope));
    return rt.matchesOption(value, this.expr(option, scope), p);
  }

  private selector(node: SelectorNode, scope: Scope): Value {
    const value = this.expr(node.test, scope);
    const p = this.t.pos(node);
    let fallback: Node | undefined;
    for (let i = 0; i < node.entries.length; i++) {
      const entry = node.entries[i]!;
      if (entry.key.type === 'Default') {
        fallback = entry.value;
        continue;
      }
      if (this.optionMatches(value, entry.key, p, scope)) return this.expr(entry.value, scope);
    }
    return fallback ? this.expr(fallback, scope) : this.rt.noSelectorMatch(value, p);
  }

  // ---------------------------------------------------------------- expressions

  private expr(node: Node, scope: Scope): Value {
    const rt = this.rt;
    switch (node.type) {
      case 'Variable':
        return this.variable(node.name, node, scope);
      case 'Literal':
        return typeof node.value === 'number' ? float(node.value) : literalValue(node.value);
      case 'Access':
        return this.access(node, scope);
      case 'MethodCall':
        return this.call(node.name, node.receiver, node.args, node.lambda, node, scope);
      case 'Call':
        return this.call(node.name, undefined, node.args, node.lambda, node, scope);
      case 'Binary':
        return this.binary(node, scope);
      case 'Interpolated': {
        let text = '';
        const parts = node.parts;
        for (let i = 0; i < parts.length; i++) {
          const part = parts[i]!;
          text += typeof part === 'string' ? part : interpolateText(this.expr(part, scope));
        }
        return text;
      }
      case 'TypeRef':
        return rt.constant(this.t.constant(node));
      case 'Logical':
        return node.operator === 'and'
          ? truthy(this.expr(node.left, scope)) && truthy(this.expr(node.right, scope))
          : truthy(this.expr(node.left, scope)) || truthy(this.expr(node.right, scope));
      case 'Unary':
        if (node.operator === '!') return !truthy(this.expr(node.operand, scope));
        if (node.operator === '-') return rt.negate(this.expr(node.operand, scope), this.t.pos(node));
        // A splat as a value (not spliced into a list) is an Array, as in Puppet: `*3` is `[3]`.
        return rt.splat(this.expr(node.operand, scope));
      case 'Array':
        return this.elements(node.elements, scope);
      case 'Hash': {
        const flat: Value[] = [];
        const entries = node.entries;
        for (let i = 0; i < entries.length; i++) {
          flat.push(this.expr(entries[i]!.key, scope), this.expr(entries[i]!.value, scope));
        }
        return rt.hash(flat);
      }
      case 'If': {
        // As a value, an `if` always drops the captures it set.
        const saved = rt.m;
        try {
          if (this.test(node, scope)) return this.valueBlock(node.then, scope);
          return node.otherwise ? this.valueBlock(node.otherwise, scope) : undefined;
        } finally {
          rt.m = saved;
        }
      }
      case 'Lambda':
        return this.lambda(node, scope) as unknown as Value;
      case 'Assignment':
        return this.assignment(node, scope);
      case 'Paren':
        return this.expr(node.expr, scope);
      case 'Default':
        return DEFAULT;
      case 'BareWord':
        return node.name;
      case 'Regex':
        return rt.regexp(node.source, this.t.pos(node));
      case 'New': {
        const type = this.expr(node.typeExpr, scope);
        const args = this.elements(node.args, scope);
        return rt.newValue(type, args, this.lambda(node.lambda, scope), this.t.pos(node));
      }
      case 'Case':
        return this.caseBody(node, scope, true);
      case 'Selector':
        return this.selector(node, scope);
      case 'Block':
        return this.valueBlock(node.body, scope);
      case 'Text':
      case 'Render':
        this.statement(node, scope);
        return undefined;
    }
  }

  /** Array elements or call arguments (after a method's receiver, `first`); `*x` splats. */
  private elements(nodes: readonly Node[], scope: Scope, first?: Node): Value[] {
    // The commonest lists (a call's receiver and an argument or two) as literals: made to their size, where
    // `push` from empty makes room for 17.
    const count = nodes.length + (first ? 1 : 0);
    if (count <= 2 && !hasSplat(nodes) && !(first && isSplat(first))) {
      if (count === 0) return [];
      const a = first ?? nodes[0]!;
      if (count === 1) return [this.expr(a, scope)];
      const va = this.expr(a, scope);
      return [va, this.expr(first ? nodes[0]! : nodes[1]!, scope)];
    }
    const values: Value[] = [];
    if (first) this.element(first, scope, values);
    for (let i = 0; i < nodes.length; i++) this.element(nodes[i]!, scope, values);
    return values;
  }

  private element(node: Node, scope: Scope, values: Value[]): void {
    if (node.type === 'Unary' && node.operator === '*') {
      for (const v of this.rt.splat(this.expr(node.operand, scope))) values.push(v);
    } else {
      values.push(this.expr(node, scope));
    }
  }

  private variable(name: string, node: Node, scope: Scope): Value {
    const rt = this.rt;
    const c = name.charCodeAt(0);
    // `$1` (a capture: names that start with a digit are digits), `$::x` (top scope).
    if (c >= 48 && c <= 57) return rt.capture(Number(name));
    if (c === 58) return rt.topVariable(name.slice(2), this.t.pos(node));
    // Innermost scope first; a scope reads outer names until it sets its own. The search is written out
    // here, not a call of `Scope.indexOf`: called for every variable read, that small function was the
    // first V8 optimised early ("small function") in a template's first render in a fresh process, and
    // that compile stalled the render ~3-5 ms (bench/epp.mjs, cold in a fresh process).
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const names = s.names;
      for (let i = 0; i < names.length; i++) if (names[i] === name) return s.values[i];
    }
    return rt.lookup(this.S0, name, this.t.pos(node));
  }

  private assignment(node: Node & { type: 'Assignment' }, scope: Scope): Value {
    const target = node.target;
    const p = this.t.pos(target);
    if (target.type === 'Variable') {
      // As compiled: the name is checked before the value is evaluated.
      this.checkAssignable(target.name, p, scope);
      const value = this.expr(node.value, scope);
      scope.set(target.name, value);
      return value;
    }
    const value = this.expr(node.value, scope);
    const names = target.elements.map((e) => (e as { name: string }).name);
    const values = this.rt.destructure(names, value, p);
    for (let i = 0; i < names.length; i++) {
      this.checkAssignable(names[i]!, p, scope);
      scope.set(names[i]!, values[i]);
    }
    return value;
  }

  /** Puppet variables are assigned once, in the scope that declares them. */
  private checkAssignable(name: string, p: number, scope: Scope): void {
    if (!scope.declared.has(name)) this.rt.assignInvalid(name, p);
    if (scope.indexOf(name) >= 0) this.rt.reassigned(name, p);
  }

  private access(node: Node & { type: 'Access' }, scope: Scope): Value {
    const rt = this.rt;
    if (isConstant(node)) return rt.constant(this.t.constant(node));
    const target = this.expr(node.target, scope);
    const only = node.keys[0];
    if (node.keys.length === 1 && !(only!.type === 'Unary' && only!.operator === '*')) {
      return rt.access1(target, this.expr(only!, scope), this.t.pos(node));
    }
    return rt.access(target, this.elements(node.keys, scope), this.t.pos(node));
  }

  private binary(node: Node & { type: 'Binary' }, scope: Scope): Value {
    const rt = this.rt;
    const left = this.expr(node.left, scope);
    const right = this.expr(node.right, scope);
    const op = node.operator;
    if (op === '==') return rt.equals(left, right);
    if (op === '!=') return !rt.equals(left, right);
    const p = this.t.at(node.operatorStart, node.end);
    switch (op) {
      case '<':
        return rt.lt(left, right, p);
      case '<=':
        return rt.le(left, right, p);
      case '>':
        return rt.gt(left, right, p);
      case '>=':
        return rt.ge(left, right, p);
      case '+':
        return rt.add(left, right, p);
      case '-':
        return rt.sub(left, right, p);
      case '*':
        return rt.mul(left, right, p);
      case '=~':
        return rt.match(left, right, p);
      case '!~':
        return !rt.match(left, right, p);
      case 'in':
        return rt.isIn(left, right, p);
      default:
        return rt.arithmetic(op, left, right, p);
    }
  }

  private call(
    name: string,
    receiver: Node | undefined,
    argNodes: readonly Node[],
    lambdaNode: LambdaNode | undefined,
    node: Node,
    scope: Scope,
  ): Value {
    const fast = this.fastCall(name, receiver, argNodes, lambdaNode, node, scope);
    if (fast !== NO_FAST_PATH) return fast;
    const args = this.elements(argNodes, scope, receiver);
    const view = SCOPE_FUNCTIONS.has(name) ? () => this.view(scope) : undefined;
    return this.rt.call(name, args, this.lambda(lambdaNode, scope), this.t.pos(node), view);
  }

  /**
   * The runtime's fast paths the compiled code takes (see the compiler's `iterationCall` and
   * `collectionCall`), under the same conditions: each/map/filter/reduce with a lambda of required
   * parameters only, length/size/empty/join without one; no splats. NO_FAST_PATH for any other call.
   */
  private fastCall(
    name: string,
    receiver: Node | undefined,
    argNodes: readonly Node[],
    lambdaNode: LambdaNode | undefined,
    node: Node,
    scope: Scope,
  ): Value | typeof NO_FAST_PATH {
    const fast = lambdaNode
      ? ITERATION_FAST_PATHS.has(name)
      : COLLECTION_FAST_PATHS.has(name) || name === 'join';
    if (!fast) return NO_FAST_PATH;
    const count = argNodes.length + (receiver ? 1 : 0);
    if (hasSplat(argNodes) || (receiver && isSplat(receiver))) return NO_FAST_PATH;
    const rt = this.rt;
    if (lambdaNode) {
      const facts = this.t.lambda(lambdaNode);
      const n = lambdaNode.params.length;
      if (facts.required !== n || count < 1 || count > (name === 'reduce' ? 2 : 1)) return NO_FAST_PATH;
      const args = this.elements(argNodes, scope, receiver);
      const fn = (...given: Value[]) => this.invoke(lambdaNode, facts, scope, given);
      const p = this.t.pos(node);
      const site = this.t.site(node);
      switch (name) {
        case 'each':
          return rt.each(args[0], fn, n, p, site);
        case 'map':
          return rt.map(args[0], fn, n, p, site);
        case 'filter':
          return rt.filter(args[0], fn, n, p, site);
        default:
          return rt.reduce(args, fn, n, p, site);
      }
    }
    if (name === 'join') {
      if (count !== 1 && count !== 2) return NO_FAST_PATH;
      const args = this.elements(argNodes, scope, receiver);
      return rt.join(args[0], count === 2 ? args[1] : rt.UNSET, this.t.pos(node), this.t.site(node));
    }
    if (count !== 1) return NO_FAST_PATH;
    const value = this.expr(receiver ?? argNodes[0]!, scope);
    const p = this.t.pos(node);
    const site = this.t.site(node);
    return name === 'length'
      ? rt.length(value, p, site)
      : name === 'size'
        ? rt.size(value, p, site)
        : rt.empty(value, p, site);
  }

  /** The visible variables for functions that look them up by name (innermost set name wins). */
  private view(scope: Scope): object {
    const entries: unknown[] = [];
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      for (let i = 0; i < s.names.length; i++) entries.push(s.names[i], s.values[i]);
    }
    return this.rt.view(this.S0, entries);
  }

  private lambda(node: LambdaNode | undefined, scope: Scope): Lambda | undefined {
    if (!node) return undefined;
    const facts = this.t.lambda(node);
    const fn = (...args: Value[]) => this.invoke(node, facts, scope, args);
    return this.rt.lambda(fn, node.params.length, facts.required, facts.rest);
  }

  /** A lambda's call: arity, parameters (defaults, types), then its body, which next() may end. */
  private invoke(node: LambdaNode, facts: LambdaFacts, outer: Scope, args: Value[]): Value {
    const rt = this.rt;
    const params = node.params;
    const n = params.length;
    const max = facts.rest ? Number.POSITIVE_INFINITY : n;
    if (args.length < facts.required || args.length > max) {
      rt.checkLambdaArity(args.length, facts.required, max, this.t.pos(node));
    }
    if (facts.plain) {
      // Distinct names, no defaults or types: `args` (made for this call, of length n) are the values;
      // the names are shared when the body assigns no variable (nothing is ever added to them).
      const names = facts.assigns ? facts.names.slice() : (facts.names as string[]);
      return this.lambdaBody(node, new Scope(outer, facts.declared, names, args));
    }
    const scope = new Scope(outer, facts.declared);
    for (let i = 0; i < n; i++) {
      const param = params[i]!;
      if (i < facts.firstOptional && !param.valueType) {
        scope.bind(param.name, args[i]);
        continue;
      }
      let value: Value | typeof rt.MISSING = param.captureRest
        ? args.slice(i)
        : i < facts.firstOptional || args.length > i
          ? args[i]
          : rt.MISSING;
      if (param.defaultValue) {
        if (value === rt.MISSING || value === undefined) value = this.expr(param.defaultValue, scope);
      } else if (value === rt.MISSING) {
        value = rt.missingParameter(param.name, this.t.pos(param));
      }
      if (param.valueType) {
        rt.checkParameter(this.expr(param.valueType, scope), value, param.name, this.t.pos(param), true);
      }
      scope.bind(param.name, value);
    }
    return this.lambdaBody(node, scope);
  }

  /** A lambda's body, which next() may end. */
  private lambdaBody(node: LambdaNode, scope: Scope): Value {
    try {
      return this.valueBlock(node.body, scope);
    } catch (e) {
      return this.rt.nextValue(e);
    }
  }
}

/** `/^\d+$/` by char codes (no regular expression to compile in a fresh process's first render). */
function isDigits(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** What `fastCall` answers for a call without a fast path. */
const NO_FAST_PATH = Symbol('no fast path');

/** The position of errors about an empty parameter list. */
const NO_SPAN = { start: 0, end: 0 };
