/**
 * The interpreter's expressions: the node-kind dispatch of every value (`expr`), list elements and splats,
 * variables (the scope chain, then the dynamic scope), assignment, access and the operators. Puppet's
 * semantics are the runtime's (`rt`); this walks the nodes in the compiled code's order.
 */
import type { LambdaNode, Node, UnaryNode } from '../ast.js';
import {
  accessSpan,
  assignedVariables,
  callSpan,
  destructurePattern,
  resourceTypeSpan,
} from '../ast-walk.js';
import { hasSplat, isSplat } from '../calls.js';
import { isConstant, literalValue } from '../constants.js';
import type { Lambda } from '../functions/registry.js';
import { interpolateText, truthy } from '../runtime/runtime.js';
import { DEFAULT, float, type Value } from '../runtime/values.js';
import type { Scope } from './scope.js';
import { StatementEvaluation } from './statements.js';

/** Expressions of a render (see `EvaluationState` for the layers). */
export abstract class ExpressionEvaluation extends StatementEvaluation {
  /** A function or method call (calls-and-lambdas.ts). */
  protected abstract call(
    name: string,
    receiver: Node | undefined,
    argNodes: readonly Node[],
    lambdaNode: LambdaNode | undefined,
    node: Node,
    scope: Scope,
  ): Value;

  /** A lambda as the runtime's value, closing over `scope` (calls-and-lambdas.ts). */
  protected abstract lambda(node: LambdaNode | undefined, scope: Scope): Lambda | undefined;

  protected expr(node: Node, scope: Scope): Value {
    const rt = this.rt;
    switch (node.type) {
      case 'Variable':
        return this.variable(node.name, node, scope);
      case 'Literal':
        return typeof node.value === 'number' ? float(node.value) : literalValue(node.value);
      case 'Access':
        return this.access(node, scope);
      case 'MethodCall':
        return this.call(node.name, node.receiver, node.args, node.lambda, node, scope);
      case 'Call':
        return this.call(node.name, undefined, node.args, node.lambda, node, scope);
      case 'Binary':
        return this.binary(node, scope);
      case 'Interpolated': {
        let text = '';
        const parts = node.parts;
        for (let i = 0; i < parts.length; i++) {
          const part = parts[i]!;
          text += typeof part === 'string' ? part : interpolateText(this.expr(part, scope));
        }
        const syntax = node.syntax;
        if (syntax === undefined) return text;
        return rt.producedText(
          text,
          syntax.name,
          this.t.pos({ start: syntax.textStart, end: syntax.textStart + 1 }),
        );
      }
      case 'TypeRef':
        return rt.constant(this.t.constant(node));
      case 'Logical':
        return node.operator === 'and'
          ? truthy(this.expr(node.left, scope)) && truthy(this.expr(node.right, scope))
          : truthy(this.expr(node.left, scope)) || truthy(this.expr(node.right, scope));
      case 'Unary':
        if (node.operator === '!') return !truthy(this.expr(node.operand, scope));
        if (node.operator === '-') return rt.negate(this.expr(node.operand, scope), this.t.pos(node));
        // A splat as a value (not spliced into a list) is an Array, as in Puppet: `*3` is `[3]`.
        return rt.splat(this.expr(node.operand, scope));
      case 'Array':
        return this.elements(node.elements, scope);
      case 'Hash': {
        const flat: Value[] = [];
        const entries = node.entries;
        for (let i = 0; i < entries.length; i++) {
          flat.push(this.expr(entries[i]!.key, scope), this.expr(entries[i]!.value, scope));
        }
        return rt.hash(flat);
      }
      case 'If': {
        // As a value, an `if` always drops the captures it set.
        const saved = rt.m;
        try {
          if (this.test(node, scope)) return this.valueBlock(node.then, scope);
          return node.otherwise ? this.valueBlock(node.otherwise, scope) : undefined;
        } finally {
          rt.m = saved;
        }
      }
      case 'Lambda':
        return this.lambda(node, scope) as unknown as Value;
      case 'Assignment':
        return this.assignment(node, scope);
      case 'Paren':
        return this.expr(node.expr, scope);
      case 'Resource':
        return rt.illegalResourceType(this.expr(node.typeExpr, scope), this.t.pos(resourceTypeSpan(node)));
      case 'Default':
        return DEFAULT;
      case 'BareWord':
        return node.name;
      case 'Regex':
        return rt.regexp(node.source, this.t.pos(node));
      case 'New': {
        const type = this.expr(node.typeExpr, scope);
        const args = this.elements(node.args, scope);
        return rt.newValue(type, args, this.lambda(node.lambda, scope), this.t.pos(callSpan(node)));
      }
      case 'Case':
        return this.caseBody(node, scope, true);
      case 'Selector':
        return this.selector(node, scope);
      case 'Block':
      case 'Definition': // never run: its validation error stops the template (see StatementParser)
        return this.valueBlock(node.body, scope);
      case 'Text':
      case 'Render':
        this.statement(node, scope);
        return undefined;
    }
  }

  /** Array elements or call arguments (after a method's receiver, `first`); `*x` splats. */
  protected elements(nodes: readonly Node[], scope: Scope, first?: Node): Value[] {
    // The commonest lists (a call's receiver and an argument or two) as literals: made to their size, where
    // `push` from empty makes room for 17.
    const count = nodes.length + (first ? 1 : 0);
    if (count <= 2 && !hasSplat(nodes) && !(first && isSplat(first))) {
      if (count === 0) return [];
      const a = first ?? nodes[0]!;
      if (count === 1) return [this.expr(a, scope)];
      const va = this.expr(a, scope);
      return [va, this.expr(first ? nodes[0]! : nodes[1]!, scope)];
    }
    const splat = first && isSplat(first) ? first : nodes.find(isSplat);
    if (splat) {
      // A list with splats: its parts joined by `rt.spread`, which checks their size first (as compiled).
      const parts = (first ? [first, ...nodes] : nodes).map((node) => this.part(node, scope));
      return this.rt.spread(this.t.pos(splat), ...parts);
    }
    const values: Value[] = [];
    if (first) values.push(this.expr(first, scope));
    for (let i = 0; i < nodes.length; i++) values.push(this.expr(nodes[i]!, scope));
    return values;
  }

  /** A part of a list with splats: a splat's elements, or one element in an array of its own. */
  private part(node: Node, scope: Scope): Value[] {
    if (isSplat(node)) return this.rt.splat(this.expr((node as UnaryNode).operand, scope));
    return [this.expr(node, scope)];
  }

  private variable(name: string, node: Node, scope: Scope): Value {
    const rt = this.rt;
    const c = name.charCodeAt(0);
    // `$1` (a capture: names that start with a digit are digits), `$::x` (top scope).
    if (c >= 48 && c <= 57) return rt.capture(Number(name));
    if (c === 58) return rt.topVariable(name.slice(2), this.t.pos(node));
    // Innermost scope first; a scope reads outer names until it sets its own. The search is written out
    // here, not a call of `Scope.indexOf`: called for every variable read, that small function was the
    // first V8 optimised early ("small function") in a template's first render in a fresh process, and
    // that compile stalled the render ~3-5 ms (bench/epp.mjs, cold in a fresh process).
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const names = s.names;
      for (let i = 0; i < names.length; i++) {
        if (names[i] !== name) continue;
        const pending = s.pending;
        return pending === undefined
          ? s.values[i]
          : rt.parameterAhead(pending.from, name, pending.template, this.t.pos(node));
      }
    }
    return rt.lookup(this.S0, name, this.t.pos(node));
  }

  private assignment(node: Node & { type: 'Assignment' }, scope: Scope): Value {
    const target = node.target;
    // Its errors at its `=`, as Puppet's, but a name no assignment takes at the variable (as compiled).
    const p = this.t.at(node.operatorStart, node.operatorStart + 1);
    if (target.type === 'Variable') {
      // As compiled: the name is checked before the value is evaluated.
      this.checkAssignable(target.name, p, this.t.pos(target), scope);
      const value = this.expr(node.value, scope);
      scope.set(target.name, value);
      return value;
    }
    const value = this.expr(node.value, scope);
    const variables = assignedVariables(target);
    const values = this.rt.destructure(destructurePattern(target), value, p);
    for (let i = 0; i < variables.length; i++) {
      const v = variables[i]!;
      this.checkAssignable(v.name, p, this.t.pos(v), scope);
      scope.set(v.name, values[i]);
    }
    return value;
  }

  /** Puppet variables are assigned once, in the scope that declares them. */
  private checkAssignable(name: string, p: number, pv: number, scope: Scope): void {
    if (!scope.declared.has(name)) this.rt.assignInvalid(name, p, pv);
    if (scope.indexOf(name) >= 0) this.rt.reassigned(name, p);
  }

  private access(node: Node & { type: 'Access' }, scope: Scope): Value {
    const rt = this.rt;
    if (isConstant(node)) return rt.constant(this.t.constant(node));
    const target = this.expr(node.target, scope);
    const only = node.keys[0];
    if (node.keys.length === 1 && !(only!.type === 'Unary' && only!.operator === '*')) {
      return rt.access1(target, this.expr(only!, scope), this.t.pos(accessSpan(node)));
    }
    return rt.access(target, this.elements(node.keys, scope), this.t.pos(accessSpan(node)));
  }

  private binary(node: Node & { type: 'Binary' }, scope: Scope): Value {
    const rt = this.rt;
    const left = this.expr(node.left, scope);
    const right = this.expr(node.right, scope);
    const op = node.operator;
    if (op === '==') return rt.equals(left, right);
    if (op === '!=') return !rt.equals(left, right);
    const p = this.t.at(node.operatorStart, node.end);
    switch (op) {
      case '<':
        return rt.lt(left, right, p);
      case '<=':
        return rt.le(left, right, p);
      case '>':
        return rt.gt(left, right, p);
      case '>=':
        return rt.ge(left, right, p);
      case '+':
        return rt.add(left, right, p);
      case '-':
        return rt.sub(left, right, p);
      case '*':
        return rt.mul(left, right, p);
      case '=~':
        return rt.match(left, right, p);
      case '!~':
        return !rt.match(left, right, p);
      case 'in':
        return rt.isIn(left, right);
      default:
        return rt.arithmetic(op, left, right, p);
    }
  }
}
