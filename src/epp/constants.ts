/**
 * Constant expressions of a template (type expressions mostly: `Array[Hash[String, Data]]`), shared by the
 * compiler and the interpreter: which expressions are constant, the key that identifies a constant's value
 * in every template, and the plan by which the runtime computes it once (see `Runtime.constant`).
 */
import type { Node, ParameterNode } from './ast.js';
import type { ConstantPlan, ConstantSlot } from './runtime/runtime.js';
import { float, integer, type Value } from './runtime/values.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

/** The value of an Integer, String, Boolean or undef literal (see `expr` for Floats). */
export function literalValue(
  value: string | boolean | bigint | undefined,
): string | boolean | number | bigint | undefined {
  return typeof value === 'bigint' ? integer(value) : value;
}

/** JavaScript for a literal; a Float (`number`) only in texts such as constant keys, see `expr`. */
export function literal(value: string | boolean | bigint | number | undefined): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      // Integers are numbers when safe (the model of runtime/values.ts), bigints beyond.
      if (value >= MIN_SAFE && value <= MAX_SAFE) return value < 0n ? `(${value})` : String(value);
      return value < 0n ? `(${value}n)` : `${value}n`;
    case 'number':
      return Object.is(value, -0)
        ? '-0'
        : Number.isFinite(value)
          ? String(value)
          : value > 0
            ? 'Infinity'
            : '-Infinity';
    case 'boolean':
      return String(value);
    default:
      return 'undefined';
  }
}

/** Whether an expression's value can be computed once and reused (type expressions mostly). */
export function isConstant(node: Node): boolean {
  switch (node.type) {
    case 'Literal':
    case 'TypeRef':
    case 'Regex':
    case 'Default':
    case 'BareWord':
      return true;
    case 'Array':
      return node.elements.every(isConstant);
    case 'Hash':
      return node.entries.every((e) => isConstant(e.key) && isConstant(e.value));
    case 'Access':
      return node.target.type === 'TypeRef' || (node.target.type === 'Access' && isConstant(node.target))
        ? node.keys.every(isConstant)
        : false;
    default:
      return false;
  }
}

/**
 * The slot of a constant expression (see `Runtime.constant`), whose plan is made on first use: the runtime
 * shares constants by key, so a template whose constants an earlier one made never needs its plans.
 */
export class LazyConstantSlot implements ConstantSlot {
  done = false;
  value: Value = undefined;
  private made: ConstantPlan | undefined;

  constructor(
    readonly key: string,
    private readonly node: Node,
    private readonly pos: SpanIndex,
  ) {}

  get plan(): ConstantPlan {
    this.made ??= planOf(this.node, this.pos);
    return this.made;
  }
}

/** Gives a node the index of its span, which the runtime's errors look up (see `RuntimeTemplate.span`). */
export type SpanIndex = (node: { readonly start: number; readonly end: number }) => number;

/** How the runtime computes a constant expression; `pos` gives the span indexes of its errors. */
function planOf(node: Node, pos: SpanIndex): ConstantPlan {
  switch (node.type) {
    case 'Literal':
      return {
        t: 'value',
        v: typeof node.value === 'number' ? float(node.value) : literalValue(node.value),
      };
    case 'Default':
      return { t: 'default' };
    case 'BareWord':
      return { t: 'value', v: node.name };
    case 'TypeRef':
      return { t: 'type', name: node.name, p: pos(node) };
    case 'Regex':
      return { t: 'regexp', source: node.source, p: pos(node) };
    case 'Array':
      return { t: 'array', items: node.elements.map((e) => planOf(e, pos)) };
    case 'Hash':
      return {
        t: 'hash',
        items: node.entries.flatMap((e) => [planOf(e.key, pos), planOf(e.value, pos)]),
      };
    case 'Access':
      return {
        t: 'access',
        target: planOf(node.target, pos),
        keys: node.keys.map((k) => planOf(k, pos)),
        p: pos(node),
      };
    default:
      throw new Error(`not a constant: ${node.type}`);
  }
}

/** A text that identifies a constant expression's value (see {@link isConstant}), whatever its spacing. */
export function constantKey(node: Node): string {
  switch (node.type) {
    case 'Literal':
      return `${typeof node.value}:${typeof node.value === 'string' ? JSON.stringify(node.value) : literal(node.value)}`;
    case 'TypeRef':
      return `T:${node.name}`;
    case 'Regex':
      return `R:${JSON.stringify(node.source)}`;
    case 'Default':
      return 'default';
    case 'BareWord':
      return `W:${node.name}`;
    case 'Array':
      return `[${constantKeys(node.elements)}]`;
    case 'Hash': {
      let key = '{';
      for (let i = 0; i < node.entries.length; i++) {
        const e = node.entries[i]!;
        key += `${i > 0 ? ',' : ''}${constantKey(e.key)}=>${constantKey(e.value)}`;
      }
      return `${key}}`;
    }
    case 'Access':
      return `${constantKey(node.target)}[${constantKeys(node.keys)}]`;
    default:
      throw new Error(`not a constant: ${node.type}`);
  }
}

/** The keys of constant expressions, `,` between them. */
function constantKeys(nodes: readonly Node[]): string {
  let key = '';
  for (let i = 0; i < nodes.length; i++) key += i > 0 ? `,${constantKey(nodes[i]!)}` : constantKey(nodes[i]!);
  return key;
}

/** How a template's parameters are bound, decided alike by the compiler and the interpreter. */
export interface ParameterLayout {
  /** Per parameter: its default is an expression that is no constant (evaluated by the code). */
  readonly codeDefaults: readonly boolean[];
  /**
   * Every type is a constant (or absent) and the defaults that are code come last: the runtime binds the
   * parameters as data (`Runtime.params`), the code evaluates the code defaults after. Otherwise one
   * parameter after the other, in order.
   */
  readonly asData: boolean;
}

export function parameterLayout(params: readonly ParameterNode[]): ParameterLayout {
  const codeDefaults: boolean[] = [];
  let constantTypes = true;
  let codeDefaultsLast = true;
  let sawCode = false;
  for (let i = 0; i < params.length; i++) {
    const param = params[i]!;
    if (param.valueType && !isConstant(param.valueType)) constantTypes = false;
    const codeDefault = param.defaultValue !== undefined && !isConstant(param.defaultValue);
    codeDefaults.push(codeDefault);
    if (codeDefault) sawCode = true;
    else if (sawCode) codeDefaultsLast = false;
  }
  return { codeDefaults, asData: constantTypes && codeDefaultsLast };
}
