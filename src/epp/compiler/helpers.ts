/**
 * Small helpers of the code generator (compiler.ts): JavaScript text (string literals, property reads,
 * concatenation) and what it can tell of a node at a glance (a Boolean, a string literal).
 */
import type { Node, ParameterNode } from '../ast.js';

/** A JavaScript string literal. */
export const str = (s: string): string => JSON.stringify(s);

/** Whether no other parameter has the name of `params[i]`. */
export function isUniqueName(params: readonly ParameterNode[], i: number): boolean {
  const name = params[i]!.name;
  for (let j = 0; j < params.length; j++) if (j !== i && params[j]!.name === name) return false;
  return true;
}

/** `, K[n]`: the parameters of a lambda that does not check its arity (see `plainLambda`), as a last argument. */
export function arityArgument(fn: { unchecked: string | undefined }): string {
  return fn.unchecked === undefined ? '' : `, ${fn.unchecked}`;
}

/** Whether an expression's value is always a Boolean (comparisons, `!`, `and`, `or`, true/false). */
export function isBoolean(node: Node): boolean {
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'boolean';
    case 'Logical':
      return true;
    case 'Unary':
      return node.operator === '!';
    case 'Binary':
      return BOOLEAN_OPERATORS.has(node.operator);
    case 'Paren':
      return isBoolean(node.expr);
    default:
      return false;
  }
}

export const OPERATOR_METHODS: Record<string, string> = {
  '<': 'lt',
  '<=': 'le',
  '>': 'gt',
  '>=': 'ge',
  '+': 'add',
  '-': 'sub',
  '*': 'mul',
};

export function isString(node: Node): boolean {
  return node.type === 'Literal' && typeof node.value === 'string';
}

const BOOLEAN_OPERATORS = new Set(['==', '!=', '<', '<=', '>', '>=', '=~', '!~', 'in']);

/** `.name` for a key that is an identifier, else `["..."]` (the index has no inherited properties). */
export function propertyAccess(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${str(key)}]`;
}

/**
 * `parts.join(separator)` without flattening: the parts are concatenations themselves, and `join` would copy
 * them at every level of nesting; `+` makes a rope that `new Function` flattens once.
 */
export function concat(parts: readonly string[], separator: string): string {
  let out = parts[0] ?? '';
  for (let i = 1; i < parts.length; i++) out += separator + parts[i];
  return out;
}
