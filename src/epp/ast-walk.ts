/**
 * Walks over the AST, shared by the compiler and the static analysis of templates.
 */
import type {
  AccessNode,
  ArrayNode,
  BinaryNode,
  Node,
  ParameterNode,
  ResourceNode,
  TemplateNode,
  VariableNode,
} from './ast.js';
import { forEachChild, nodeChildren, visitAll, type WalkNode } from './node-children.js';

export { nodeChildren as children, type WalkNode };

/** Names assigned in a scope's body, not descending into lambdas (they are scopes of their own). */
export function assignedNames(body: readonly Node[]): string[] {
  const names: string[] = [];
  const walk = (node: WalkNode): number => {
    if (node.type === 'Lambda') return 0;
    if (node.type === 'Assignment') pushAssigned(node, names);
    return forEachChild(node, walk);
  };
  visitAll(body, walk);
  return names;
}

/**
 * Variables Puppet sets itself and refuses to let code assign ("Attempt to assign to a reserved variable
 * name"): no scope declares them, so an assignment to one fails as it runs, in both tiers.
 */
export const RESERVED_VARIABLES: ReadonlySet<string> = new Set(['facts', 'trusted', 'server_facts']);

/**
 * The first parameter named as a reserved variable: Puppet fails when it binds one (a template's as it
 * renders, a lambda's when it is called), with the words of {@link RuntimeBase.reservedParameter}.
 */
export function reservedParameter(params: readonly ParameterNode[]): ParameterNode | undefined {
  for (const param of params) if (RESERVED_VARIABLES.has(param.name)) return param;
  return undefined;
}

/** Appends the names an assignment sets (a variable, or the variables of a destructuring array). */
export function pushAssigned(node: Node & { type: 'Assignment' }, names: string[]): void {
  for (const variable of assignedVariables(node.target)) pushAssignable(variable.name, names);
}

/** The variables an assignment's target sets, in order: itself, or those of a (nested) destructuring array. */
export function assignedVariables(target: Node): VariableNode[] {
  if (target.type === 'Variable') return [target];
  if (target.type !== 'Array') return [];
  return target.elements.flatMap((e) => assignedVariables(e));
}

/** A destructuring array's shape: each variable's name, nested arrays as arrays (`[$a, [$b]]`). */
export type DestructurePattern = readonly (string | DestructurePattern)[];

export function destructurePattern(target: ArrayNode): DestructurePattern {
  return target.elements.map((e) => (e.type === 'Array' ? destructurePattern(e) : (e as VariableNode).name));
}

function pushAssignable(name: string, names: string[]): void {
  if (!RESERVED_VARIABLES.has(name)) names.push(name);
}

/**
 * Where a call's errors point: a call is its whole expression; a method call (and `Type.new(...)`) starts
 * where Puppet places it, at its `(`, or at its `.` when it has no parentheses, not at its receiver, which
 * may be lines before it (`$servers\n  .filter |$s| {...}\n  .joinx(', ')`). The runtime tells a method
 * call by that first character (see `Runtime.locateCall`).
 */
export function callSpan(node: Node): { readonly start: number; readonly end: number } {
  if (node.type === 'MethodCall') return { start: node.callStart, end: node.end };
  if (node.type === 'New' && node.callStart !== undefined) return { start: node.callStart, end: node.end };
  return node;
}

/** A parameter's `$name` (without its type or default): where Puppet points at one left without a value. */
export function parameterNameSpan(param: ParameterNode): { readonly start: number; readonly end: number } {
  return { start: param.nameStart, end: param.nameStart + param.name.length + 1 };
}

/**
 * Where Puppet places a node, as its parser locates it (egrammar.ra's `loc`): an operator expression at
 * its operator, an access or a selector where its left side is placed, a method call at its `(` or `.`;
 * anything else at its start. (An `and`/`or`, whose operator the AST does not keep, at its start.)
 */
/** Where Puppet places the error of a resource expression: its type expression. */
export function resourceTypeSpan(node: ResourceNode): { start: number; end: number } {
  const start = puppetStart(node.typeExpr);
  return { start, end: Math.max(node.typeExpr.end, start + 1) };
}

export function puppetStart(node: Node): number {
  switch (node.type) {
    case 'Binary':
    case 'Logical':
    case 'Assignment':
      return node.operatorStart;
    case 'Access':
      return puppetStart(node.target);
    case 'Selector':
      return puppetStart(node.test);
    case 'MethodCall':
      return node.callStart;
    case 'New':
      return node.callStart ?? node.start;
    default:
      return node.start;
  }
}

/**
 * The operator expression whose operator starts at `operatorStart` and which ends at `end` (the span the
 * runtime is given for an operator's errors), for the positions of its operands. Searched on an error only.
 */
export function findBinary(ast: TemplateNode, operatorStart: number, end: number): BinaryNode | undefined {
  const pending: WalkNode[] = [...(ast.params ?? []), ...ast.body];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.type === 'Binary' && node.operatorStart === operatorStart && node.end === end) return node;
    // Only a node that contains the operator can hold it.
    if (node.start <= operatorStart && node.end >= end) pending.push(...nodeChildren(node));
  }
  return undefined;
}

/**
 * The span the runtime is given for an access's errors: Puppet places an access where its left side is
 * placed, which for a method call (`$p.new(1)[0]`, `1.abs[0]`) is its `(` or `.`, not its receiver.
 */
export function accessSpan(node: AccessNode): { readonly start: number; readonly end: number } {
  let target = node.target;
  while (target.type === 'Access') target = target.target;
  return target.type === 'MethodCall' ? { start: target.callStart, end: node.end } : node;
}

/** The access expression spanning `start` to `end` (the span the runtime is given for its errors). */
export function findAccess(ast: TemplateNode, start: number, end: number): AccessNode | undefined {
  const pending: WalkNode[] = [...(ast.params ?? []), ...ast.body];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.type === 'Access' && accessSpan(node).start === start && node.end === end) return node;
    if (node.start <= start && node.end >= end) pending.push(...nodeChildren(node));
  }
  return undefined;
}
