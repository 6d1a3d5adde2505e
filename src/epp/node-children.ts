/**
 * The child nodes of an AST node by its kind: what `children` in `ast-walk.ts` finds with a generic walk
 * over the node's properties, without that walk's cost (it dominated cold compiles). Same children, in
 * the same order; a lambda's parameters come first, then its body, as the generic walk lists them.
 */
import type { Node, ParameterNode } from './ast.js';

/** A node or a lambda parameter (whose type and default are expressions too). */
export type WalkNode = Node | ParameterNode;

export function nodeChildren(node: WalkNode): WalkNode[] {
  switch (node.type) {
    case 'Text':
    case 'Literal':
    case 'Default':
    case 'BareWord':
    case 'TypeRef':
    case 'Regex':
    case 'Variable':
      return [];
    case 'Render':
    case 'Paren':
      return [node.expr];
    case 'Interpolated':
      return node.parts.filter((part): part is Node => typeof part !== 'string');
    case 'Array':
      return [...node.elements];
    case 'Hash':
    case 'Selector': {
      const out: WalkNode[] = node.type === 'Selector' ? [node.test] : [];
      for (const e of node.entries) out.push(e.key, e.value);
      return out;
    }
    case 'Access':
      return [node.target, ...node.keys];
    case 'Binary':
    case 'Logical':
      return [node.left, node.right];
    case 'Unary':
      return [node.operand];
    case 'Assignment':
      return [node.target, node.value];
    case 'Lambda':
      return [...node.params, ...node.body];
    case 'Call':
      return withLambda([...node.args], node.lambda);
    case 'MethodCall':
      return withLambda([node.receiver, ...node.args], node.lambda);
    case 'New':
      return withLambda([node.typeExpr, ...node.args], node.lambda);
    case 'If':
      return node.otherwise ? [node.test, ...node.then, ...node.otherwise] : [node.test, ...node.then];
    case 'Case': {
      const out: WalkNode[] = [node.test];
      for (const option of node.options) out.push(...option.values, ...option.body);
      return out;
    }
    case 'Block':
      return [...node.body];
    case 'Parameter': {
      const out: WalkNode[] = [];
      if (node.valueType) out.push(node.valueType);
      if (node.defaultValue) out.push(node.defaultValue);
      return out;
    }
  }
}

function withLambda(out: WalkNode[], lambda: Node | undefined): WalkNode[] {
  if (lambda) out.push(lambda);
  return out;
}
