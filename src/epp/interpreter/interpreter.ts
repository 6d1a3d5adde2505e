/**
 * The EPP interpreter: renders a template by walking its AST, the first tier of rendering.
 *
 * Most templates are rendered once per process (`pantograph apply`, `epp render`): for them, generating
 * JavaScript and compiling it with `new Function` costs more than the render itself. A template's first
 * render is therefore interpreted here (its second too), and only a template rendered again is compiled
 * (see `INTERPRETED_RENDERS` in `../epp.ts`).
 *
 * Both tiers must do exactly the same: the interpreter calls the same runtime (`rt`, see
 * `../runtime/runtime.ts`) for every Puppet semantic, and mirrors the compiler (`../compiler/`) in what is
 * left: scopes, evaluation order, match captures, the positions of errors. The test suite renders through
 * both tiers (`PANTOGRAPH_EPP_TIER`) and the fuzz test compares them on random templates.
 *
 * Calls take the runtime's fast paths as compiled code does (`Runtime.each`, `Runtime.length`, ...). The
 * compiler's other shortcuts are code it writes for one case (`$h['key']` through a hash index, `==`
 * against a string literal); the interpreter asks the runtime's general operations, which do the same.
 *
 * Positions: the runtime takes a number for the span of an error. The compiler numbers its spans in a
 * table; the interpreter encodes the span itself in the number (see `TemplateInterpreter.pos`).
 *
 * The interpreter's parts: this file, what a template keeps between renders (`TemplateInterpreter`); one
 * render, an `Evaluation`, a class built in layers of one concern each (see evaluation-state.ts): statements
 * and control flow (statements.ts), expressions and operators (expressions.ts), calls, fast paths and
 * lambdas (calls-and-lambdas.ts), the render's start and the template's parameters (evaluation.ts); and the
 * scopes of variables (scope.ts).
 */
import type { LambdaNode, Node, ParameterNode, TemplateNode } from '../ast.js';
import { assignedNames, reservedParameter } from '../ast-walk.js';
import { hasRest, requiredCount } from '../calls.js';
import { constantKey, isConstant, LazyConstantSlot, parameterLayout } from '../constants.js';
import { type CallSite, newCallSite } from '../functions/registry.js';
import { isDigits } from '../lexer/chars.js';
import type { ParameterSet, ParameterSpec, Runtime } from '../runtime/runtime.js';
import type { Value } from '../runtime/values.js';
import { Evaluation, NO_SPAN } from './evaluation.js';

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
        reserved: reservedParameter(params),
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

export interface LambdaFacts {
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
  /** A parameter named as a reserved variable (`$facts`): calling the lambda fails. */
  readonly reserved: ParameterNode | undefined;
}
