/**
 * Walks over the AST, shared by the compiler and the static analysis of templates.
 */
import type { Node } from './ast.js';
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

/** Appends the names an assignment sets (a variable, or the variables of a destructuring array). */
export function pushAssigned(node: Node & { type: 'Assignment' }, names: string[]): void {
  if (node.target.type === 'Variable') names.push(node.target.name);
  else for (const e of node.target.elements) if (e.type === 'Variable') names.push(e.name);
}
