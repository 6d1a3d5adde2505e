/**
 * The generator's bookkeeping (the first of its chain of classes, see compiler.ts): compile-time scopes and
 * the JavaScript locals of Puppet names, variable reads and single assignments, hoisted hash indexes, spans,
 * temporaries and the values the code reads from `K`.
 */
import type { LambdaNode, ParameterNode, TemplateNode } from '../ast.js';
import type { Span } from '../errors.js';
import { newCallSite } from '../functions/registry.js';
import { isDigits } from '../lexer/chars.js';
import type { Facts } from './facts.js';
import { str } from './helpers.js';

/** A compile-time scope: the Puppet names it declares, each with its JavaScript local. */
export interface StaticScope {
  readonly parent: StaticScope | undefined;
  readonly locals: Map<string, string>;
  /** Parameters bound so far: their locals are always set, so reads skip the `!== U` chain. */
  readonly bound: Set<string>;
  /** The scope's parameters (a template's or a lambda's), in order. */
  readonly params?: readonly ParameterNode[];
  /**
   * While a parameter's default is generated: the parameters not bound yet (itself and later ones),
   * whose reads go to `rt.parameterAhead`.
   */
  pending?:
    | { readonly from: string; readonly names: ReadonlySet<string>; readonly template: boolean }
    | undefined;
  /**
   * Hash indexes of bound parameters, by their local (`v3` -> `h0`: `const h0 = H(v3);`): set once the
   * scope's parameters are bound, declared after them. A parameter never changes, so `$p['key']` reads
   * take its index once per call instead of once per read.
   */
  indexes?: Map<string, string>;
  /** A lambda's scope (not the template's, nor the root standing for the dynamic scope). */
  readonly lambda: boolean;
  /**
   * Whether the scope's code reads a local (or an index) of an enclosing lambda: a lambda that does not
   * is the same function on every call of the lambdas around it, made once per render (see `hoisted`).
   */
  capturesLambdaLocal: boolean;
}

export class ScopeGenerator {
  readonly spans: Span[] = [];
  /** `K` of the generated code: values made at compile time, and slots of constants made on first use. */
  readonly constants: unknown[] = [];
  protected tempCount = 0;
  protected indexCount = 0;
  protected localCount = 0;
  protected current: StaticScope = {
    parent: undefined,
    locals: new Map(),
    bound: new Set(),
    lambda: false,
    capturesLambdaLocal: false,
  };
  /**
   * `const L0 = (function ...);` for the lambdas nested in lambdas that read no local of those: declared
   * once at the top of the render function instead of made anew on every call of the lambda around them.
   */
  protected readonly hoisted: string[] = [];

  constructor(protected readonly facts: Facts) {}

  /** Registers a span and returns its index for the generated code. */
  protected pos(node: { start: number; end: number }): number {
    this.spans.push({ start: node.start, end: node.end });
    return this.spans.length - 1;
  }

  /** `pos` for the plans of constants, made after the code (see `LazyConstantSlot`). */
  protected readonly spanIndex = (node: { start: number; end: number }) => this.pos(node);

  /** Declares a scope's parameters and the names it assigns (see `Facts.assigned`). */
  protected openScope(params: readonly ParameterNode[], owner: TemplateNode | LambdaNode): StaticScope {
    const locals = new Map<string, string>();
    for (const p of params) this.declare(locals, p.name);
    for (const name of this.facts.assigned(owner)) this.declare(locals, name);
    this.current = {
      parent: this.current,
      locals,
      bound: new Set(),
      params,
      lambda: owner.type === 'Lambda',
      capturesLambdaLocal: false,
    };
    return this.current;
  }

  /** Notes that the current code reads a local of `owner`: the lambdas in between capture it. */
  protected reads(owner: StaticScope): void {
    if (!owner.lambda) return;
    for (let scope: StaticScope | undefined = this.current; scope && scope !== owner; scope = scope.parent) {
      scope.capturesLambdaLocal = true;
    }
  }

  /** Gives `name` a local, unless it has one or is no local name (`::x` is global, `$1` a capture). */
  protected declare(locals: Map<string, string>, name: string): void {
    if (!locals.has(name) && !name.includes('::') && !isDigits(name))
      locals.set(name, `v${this.localCount++}`);
  }

  protected closeScope(): void {
    this.current = this.current.parent!;
  }

  /** `let v1 = U, v2 = U;` for a scope's locals (but those in `except`, a lambda's own parameters). */
  protected declareLocals(scope: StaticScope, except?: ReadonlySet<string>): string {
    const ids = [...scope.locals.values()].filter((id) => !except?.has(id));
    return ids.length === 0 ? '' : `let ${ids.map((id) => `${id} = U`).join(', ')};`;
  }

  /** A view of every visible local for functions that look variables up by name. */
  protected scopeView(): string {
    // Innermost first; the view lets an inner local that is set win over an outer one.
    const entries: string[] = [];
    for (let scope: StaticScope | undefined = this.current; scope; scope = scope.parent) {
      if (scope.locals.size > 0) this.reads(scope);
      for (const [name, id] of scope.locals) entries.push(`${str(name)}, ${id}`);
    }
    return `() => rt.view(S0, [${entries.join(', ')}])`;
  }

  protected temp(): string {
    return `t${this.tempCount++}`;
  }

  /** A call site's memory of the function it calls, kept across renders. */
  protected site(): string {
    return this.fixed(newCallSite());
  }

  /** Caches a constant value in `K` on first evaluation. */
  protected constant(code: string): string {
    const k = this.constants.push(undefined) - 1;
    return `(K[${k}] ?? (K[${k}] = ${code}))`;
  }

  /** A value made now, at compile time, that the code reads from `K`. */
  protected fixed(value: unknown): string {
    return `K[${this.constants.push(value) - 1}]`;
  }

  /** The hoisted hash index of a bound parameter (see `StaticScope.indexes`), if `name` is one. */
  protected indexOf(name: string): { local: string; index: string } | undefined {
    for (let scope: StaticScope | undefined = this.current; scope; scope = scope.parent) {
      const local = scope.locals.get(name);
      if (!local) continue;
      if (!scope.bound.has(name) || !scope.indexes) return undefined;
      this.reads(scope);
      let index = scope.indexes.get(local);
      if (!index) {
        index = `h${this.indexCount++}`;
        scope.indexes.set(local, index);
      }
      return { local, index };
    }
    return undefined;
  }

  /** `const h0 = H(v3), ...;` for the indexes a scope's code used. */
  protected declareIndexes(scope: StaticScope): string {
    const indexes = scope.indexes;
    if (!indexes || indexes.size === 0) return '';
    let decls = '';
    indexes.forEach((index, local) => {
      decls += `${decls ? ', ' : ''}${index} = H(${local})`;
    });
    return `const ${decls};\n`;
  }

  protected variable(name: string, p: number): string {
    if (isDigits(name)) return `rt.capture(${Number(name)})`;
    if (name.startsWith('::')) return `rt.topVariable(${str(name.slice(2))}, ${p})`;
    // `(inner !== U ? inner : outer !== U ? outer : end)`, innermost scope first.
    let chain = '';
    let closing = 0;
    let end: string | undefined;
    for (let scope: StaticScope | undefined = this.current; scope; scope = scope.parent) {
      const id = scope.locals.get(name);
      if (!id) continue;
      this.reads(scope);
      const pending = scope.pending;
      if (pending?.names.has(name)) {
        end = `rt.parameterAhead(${str(pending.from)}, ${str(name)}, ${pending.template}, ${p})`;
        break;
      }
      // A bound parameter is set for good: the chain ends there, without the dynamic lookup.
      if (scope.bound.has(name)) {
        end = id;
        break;
      }
      chain += `${id} !== U ? ${id} : `;
      closing++;
    }
    const last = end ?? `rt.lookup(S0, ${str(name)}, ${p})`;
    return closing > 0 ? `(${chain}${last})` : last;
  }

  /** Assigns a local once: Puppet variables cannot be reassigned in their scope. `pv`: the variable's position. */
  protected assignLocal(name: string, value: string, p: number, pv: number): string {
    const id = this.current.locals.get(name);
    if (!id) return `rt.assignInvalid(${str(name)}, ${p}, ${pv})`;
    return `(${id} !== U ? rt.reassigned(${str(name)}, ${p}) : (${id} = ${value}))`;
  }
}
