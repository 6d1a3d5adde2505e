/**
 * Generic walks over the AST, shared by the compiler and the static analysis of templates.
 */
import type { Node } from './ast.js';

/** The child nodes of a node, whatever its kind (also those inside case options and hash entries). */
export function children(node: Node): Node[] {
  const out: Node[] = [];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) for (const v of value) collect(v);
    else if (value && typeof value === 'object') {
      if ('type' in value && 'start' in value) out.push(value as Node);
      else for (const inner of Object.values(value)) collect(inner);
    }
  };
  for (const [key, value] of Object.entries(node)) if (key !== 'type') collect(value);
  return out;
}

/** Names assigned in a scope's body, not descending into lambdas (they are scopes of their own). */
export function assignedNames(body: readonly Node[]): string[] {
  const names: string[] = [];
  const walk = (node: Node) => {
    if (node.type === 'Lambda') return;
    if (node.type === 'Assignment') {
      if (node.target.type === 'Variable') names.push(node.target.name);
      else for (const e of node.target.elements) if (e.type === 'Variable') names.push(e.name);
    }
    for (const child of children(node)) walk(child);
  };
  for (const node of body) walk(node);
  return names;
}
