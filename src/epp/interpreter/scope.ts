/**
 * The interpreter's variables: the scope of a template or a lambda body, as the compiler's locals are (a
 * name is assigned once, in the scope that declares it; an inner scope reads outer names until it sets its
 * own). Reads walk the chain in `expressions.ts` (`variable`), written out there because they are hot.
 */
import type { ParameterNode } from '../ast.js';
import type { Value } from '../runtime/values.js';

/**
 * The variables a template or lambda body has set, over the scope it was made in. Scopes hold few names
 * (a lambda's parameters mostly): two arrays searched from the start are cheaper to make and read than a Map.
 */
export class Scope {
  /**
   * `names` and `values` may come made to their size (a lambda's parameters): arrays grown by `push` from
   * empty get room for 17 each, which was a third of what a template's first render allocated.
   */
  constructor(
    readonly parent: Scope | undefined,
    readonly declared: ReadonlySet<string>,
    readonly names: string[] = [],
    readonly values: Value[] = [],
    /** Set on the scope of a parameter's default (see {@link defaultScope}): its names are not bound yet. */
    readonly pending: { readonly from: string; readonly template: boolean } | undefined = undefined,
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

const NOTHING_DECLARED: ReadonlySet<string> = new Set();

/**
 * The scope a parameter's default is evaluated in: over `scope`, the parameters not bound yet (the `i`th
 * and those after it), whose reads go to `Runtime.parameterAhead` (`template`: a template's parameters).
 */
export function defaultScope(
  scope: Scope,
  params: readonly ParameterNode[],
  i: number,
  template: boolean,
): Scope {
  const names = params.slice(i).map((p) => p.name);
  const values = names.map((): Value => undefined);
  return new Scope(scope, NOTHING_DECLARED, names, values, { from: params[i]!.name, template });
}
