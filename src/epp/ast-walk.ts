/**
 * Walks over the AST, shared by the compiler and the static analysis of templates.
 */
import type { Node } from './ast.js';
import { nodeChildren, type WalkNode } from './node-children.js';

export { nodeChildren as children, type WalkNode };

/** Names assigned in a scope's body, not descending into lambdas (they are scopes of their own). */
export function assignedNames(body: readonly Node[]): string[] {
  const names: string[] = [];
  const walk = (node: WalkNode) => {
    if (node.type === 'Lambda') return;
    if (node.type === 'Assignment') {
      if (node.target.type === 'Variable') names.push(node.target.name);
      else for (const e of node.target.elements) if (e.type === 'Variable') names.push(e.name);
    }
    for (const child of nodeChildren(node)) walk(child);
  };
  for (const node of body) walk(node);
  return names;
}
