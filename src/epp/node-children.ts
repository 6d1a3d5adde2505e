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
    case 'Resource':
      return [node.typeExpr];
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
    case 'Definition':
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

/**
 * Calls `visit` on each child of `node`, in {@link nodeChildren}'s order, and returns the bitwise OR of
 * its answers: a walk that allocates nothing (the compiler's one pass of facts, see `compiler/facts.ts`).
 */
export function forEachChild(node: WalkNode, visit: (child: WalkNode) => number): number {
  // The commonest kinds first: a switch on strings tests its cases in order in unoptimised code.
  switch (node.type) {
    case 'Text':
    case 'Variable':
    case 'Literal':
    case 'TypeRef':
    case 'Default':
    case 'BareWord':
    case 'Regex':
      return 0;
    case 'Render':
    case 'Paren':
      return visit(node.expr);
    case 'Resource':
      return visit(node.typeExpr);
    case 'Access':
      return visit(node.target) | visitAll(node.keys, visit);
    case 'Parameter':
      return (
        (node.valueType ? visit(node.valueType) : 0) | (node.defaultValue ? visit(node.defaultValue) : 0)
      );
    case 'MethodCall':
      return visit(node.receiver) | visitAll(node.args, visit) | (node.lambda ? visit(node.lambda) : 0);
    case 'If':
      return (
        visit(node.test) | visitAll(node.then, visit) | (node.otherwise ? visitAll(node.otherwise, visit) : 0)
      );
    case 'Binary':
    case 'Logical':
      return visit(node.left) | visit(node.right);
    case 'Lambda':
      return visitAll(node.params, visit) | visitAll(node.body, visit);
    case 'Call':
      return visitAll(node.args, visit) | (node.lambda ? visit(node.lambda) : 0);
    case 'Interpolated': {
      let flags = 0;
      for (const part of node.parts) if (typeof part !== 'string') flags |= visit(part);
      return flags;
    }
    case 'Assignment':
      return visit(node.target) | visit(node.value);
    case 'Array':
      return visitAll(node.elements, visit);
    case 'Hash':
    case 'Selector': {
      let flags = node.type === 'Selector' ? visit(node.test) : 0;
      for (const e of node.entries) flags |= visit(e.key) | visit(e.value);
      return flags;
    }
    case 'Unary':
      return visit(node.operand);
    case 'New':
      return visit(node.typeExpr) | visitAll(node.args, visit) | (node.lambda ? visit(node.lambda) : 0);
    case 'Case': {
      let flags = visit(node.test);
      for (const option of node.options)
        flags |= visitAll(option.values, visit) | visitAll(option.body, visit);
      return flags;
    }
    case 'Block':
    case 'Definition':
      return visitAll(node.body, visit);
  }
}

/** The OR of `visit` over `nodes`, in order (every node is visited). */
export function visitAll(nodes: readonly WalkNode[], visit: (child: WalkNode) => number): number {
  let flags = 0;
  for (let i = 0; i < nodes.length; i++) flags |= visit(nodes[i]!);
  return flags;
}
