/**
 * The generator's expressions (extending `ScopeGenerator`): an expression's JavaScript, with operators,
 * `"${}"` strings, array elements and call arguments, assignments, `$h['key']` reads through a hash's index,
 * and constant expressions as data (`rt.constant(K[n])`). The statements, calls and lambdas an expression
 * holds are made by the generators that extend this one (see `compiler.ts`).
 */
import type { AccessNode, ArrayNode, CaseNode, LambdaNode, Node, SelectorNode, UnaryNode } from '../ast.js';
import {
  accessSpan,
  assignedVariables,
  callSpan,
  destructurePattern,
  resourceTypeSpan,
} from '../ast-walk.js';
import { isSplat } from '../calls.js';
import { constantKey, isConstant, LazyConstantSlot, literal } from '../constants.js';
import type { ConstantSlot } from '../runtime/runtime.js';
import { float } from '../runtime/values.js';
import { isBoolean, isString, OPERATOR_METHODS, propertyAccess, str } from './helpers.js';
import { ScopeGenerator } from './scope.js';

export abstract class ExpressionGenerator extends ScopeGenerator {
  // What an expression may hold, made by the generators that extend this one (statements.ts, lambdas.ts,
  // function-calls.ts).
  protected abstract statement(node: Node): string;
  protected abstract valueBlock(nodes: readonly Node[]): string;
  protected abstract caseBody(node: CaseNode, asValue: boolean): string;
  protected abstract selector(node: SelectorNode): string;
  protected abstract lambda(node: LambdaNode | undefined): string;
  protected abstract call(
    name: string,
    argNodes: readonly Node[],
    lambda: LambdaNode | undefined,
    node: Node,
  ): string;

  protected expr(node: Node): string {
    switch (node.type) {
      // The commonest kinds first (a switch on strings tests its cases in order in unoptimised code).
      case 'Variable':
        return this.variable(node.name, this.pos(node));
      case 'Literal':
        // A Float is a PFloat made once, at compile time (a bare number would be an Integer).
        return typeof node.value === 'number' ? this.fixed(float(node.value)) : literal(node.value);
      case 'Access':
        return this.access(node);
      case 'MethodCall':
        // `concat`, not a spread: no iterator protocol in unoptimised code.
        return this.call(node.name, [node.receiver].concat(node.args), node.lambda, node);
      case 'Call':
        return this.call(node.name, node.args, node.lambda, node);
      case 'Binary':
        return this.binary(node);
      case 'Interpolated': {
        const { syntax } = node;
        if (syntax === undefined) return this.interpolated(node.parts);
        const at = this.pos({ start: syntax.textStart, end: syntax.textStart + 1 });
        return `rt.producedText(${this.interpolated(node.parts)}, ${str(syntax.name)}, ${at})`;
      }
      case 'TypeRef':
        return this.sharedConstant(node);
      case 'Logical':
        return node.operator === 'and'
          ? `(${this.test(node.left)} && ${this.test(node.right)})`
          : `(${this.test(node.left)} || ${this.test(node.right)})`;
      case 'Unary':
        if (node.operator === '!') return `!${this.test(node.operand)}`;
        if (node.operator === '-') return `rt.negate(${this.expr(node.operand)}, ${this.pos(node)})`;
        // A splat as a value (not spliced into a list) is an Array, as in Puppet: `*3` is `[3]`.
        return `rt.splat(${this.expr(node.operand)})`;
      case 'Array':
        return `[${this.elements(node.elements)}]`;
      case 'Hash':
        return `rt.hash([${node.entries.map((e) => `${this.expr(e.key)}, ${this.expr(e.value)}`).join(', ')}])`;
      case 'If': {
        const m = this.temp();
        const test = this.test(node.test);
        const otherwise = node.otherwise ? this.valueBlock(node.otherwise) : 'return undefined;';
        return `(() => { const ${m} = rt.m; try { if (${node.negate ? `!${test}` : test}) {\n${this.valueBlock(node.then)}\n} else {\n${otherwise}\n} } finally { rt.m = ${m}; } })()`;
      }
      case 'Lambda':
        return this.lambda(node);
      case 'Assignment':
        return this.assignment(node);
      case 'Paren':
        return `(${this.expr(node.expr)})`;
      case 'Resource':
        return `rt.illegalResourceType(${this.expr(node.typeExpr)}, ${this.pos(resourceTypeSpan(node))})`;
      case 'Default':
        return 'rt.DEFAULT';
      case 'BareWord':
        return str(node.name);
      case 'Regex':
        return this.constant(`rt.regexp(${str(node.source)}, ${this.pos(node)})`);
      case 'New':
        return `rt.newValue(${this.expr(node.typeExpr)}, [${this.elements(node.args)}], ${this.lambda(node.lambda)}, ${this.pos(callSpan(node))})`;
      case 'Case':
        return `(() => {\n${this.caseBody(node, true)}\n})()`;
      case 'Selector':
        return this.selector(node);
      case 'Block':
      case 'Definition': // never compiled: its validation error stops the template (see StatementParser)
        return `(() => {\n${this.valueBlock(node.body)}\n})()`;
      case 'Text':
      case 'Render':
        return `(() => { ${this.statement(node)} return undefined; })()`;
    }
  }

  /** `"a${x}b"`: `("a" + I(x) + "b")`. */
  private interpolated(parts: readonly (string | Node)[]): string {
    let code = '(';
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i > 0) code += ' + ';
      code += typeof part === 'string' ? str(part) : `I(${this.expr(part)})`;
    }
    return `${code})`;
  }

  /** A condition: Puppet truthiness (`T`), left out when the expression is a boolean already. */
  protected test(node: Node): string {
    return isBoolean(node) ? this.expr(node) : `T(${this.expr(node)})`;
  }

  /** Array elements or call arguments, `, ` between them. */
  protected elements(nodes: readonly Node[]): string {
    const splat = nodes.find(isSplat);
    if (splat) return this.spread(nodes, splat);
    let code = '';
    for (let i = 0; i < nodes.length; i++)
      code += i === 0 ? this.expr(nodes[i]!) : `, ${this.expr(nodes[i]!)}`;
    return code;
  }

  /** A list with splats: its parts joined by `rt.spread`, which checks their size first. */
  private spread(nodes: readonly Node[], first: Node): string {
    const parts = nodes.map((node) =>
      isSplat(node) ? `rt.splat(${this.expr((node as UnaryNode).operand)})` : `[${this.expr(node)}]`,
    );
    return `...rt.spread(${this.pos(first)}, ${parts.join(', ')})`;
  }

  /** An assignment: its errors at its `=`, as Puppet's, but a name no assignment takes at the variable. */
  private assignment(node: Node & { type: 'Assignment' }): string {
    const target = node.target;
    const value = this.expr(node.value);
    const p = this.pos({ start: node.operatorStart, end: node.operatorStart + 1 });
    if (target.type === 'Variable') return this.assignLocal(target.name, value, p, this.pos(target));
    // The destructured values come back flat, in the order of the (nested) variables.
    const pattern = destructurePattern(target as ArrayNode);
    const variables = assignedVariables(target);
    const assigns = variables.map((v, i) => `${this.assignLocal(v.name, `a[${i}]`, p, this.pos(v))};`);
    return `((v) => { const a = rt.destructure(${JSON.stringify(pattern)}, v, ${p}); ${assigns.join(' ')} return v; })(${value})`;
  }

  private access(node: AccessNode): string {
    // A type expression such as `Array[Hash[String, Data]]` means the same in every template: its value is
    // shared by all compiles (no re-parameterizing per compile; the instance memo of checkParameter hits).
    if (isConstant(node)) return this.sharedConstant(node);
    const [only] = node.keys;
    // A single key avoids building an array of keys.
    let code: string;
    if (node.keys.length !== 1 || !only || (only.type === 'Unary' && only.operator === '*')) {
      code = `rt.access(${this.expr(node.target)}, [${this.elements(node.keys)}], ${this.pos(accessSpan(node))})`;
    } else if (
      only.type === 'Literal' &&
      typeof only.value === 'string' &&
      !(only.value in Object.prototype)
    ) {
      // `$h['key']`, the commonest access: a hash is read through its index of string keys, a plain
      // property read (`H`, see `hashIndex`; undefined for anything but a hash, which `rt.keyed` reads
      // as an object of that one key). The scratch `t` is used at once. Not for a key that
      // `Object.prototype` has (`toString`): the index of a hash made from a JavaScript object inherits it.
      const key = str(only.value);
      const hoisted = node.target.type === 'Variable' ? this.indexOf(node.target.name) : undefined;
      code = hoisted
        ? `(${hoisted.index} ?? rt.keyed(${hoisted.local}, ${key}, ${this.pos(accessSpan(node))}))`
        : `(H(t = ${this.expr(node.target)}) ?? rt.keyed(t, ${key}, ${this.pos(accessSpan(node))}))`;
      code += propertyAccess(only.value);
    } else {
      code = `rt.access1(${this.expr(node.target)}, ${this.expr(only)}, ${this.pos(accessSpan(node))})`;
    }
    return code;
  }

  /**
   * A constant expression (see {@link isConstant}) as data, `rt.constant(K[n])`: the runtime computes it
   * once (shared by key with every template) and keeps it in the slot. Data is cheaper to compile than code.
   */
  private sharedConstant(node: Node): string {
    return `rt.constant(${this.fixed(this.constantSlot(node))})`;
  }

  protected constantSlot(node: Node): ConstantSlot {
    return new LazyConstantSlot(constantKey(node), node, this.spanIndex);
  }

  private binary(node: Node & { type: 'Binary' }): string {
    const op = node.operator;
    if (op === '==' || op === '!=') return (op === '!=' ? '!' : '') + this.equals(node.left, node.right);
    const left = this.expr(node.left);
    const right = this.expr(node.right);
    const p = this.pos({ start: node.operatorStart, end: node.end });
    switch (op) {
      case '<':
      case '<=':
      case '>':
      case '>=':
      case '+':
      case '-':
      case '*':
        // Runtime methods with a fast path for two Integers (JavaScript numbers).
        return `rt.${OPERATOR_METHODS[op]}(${left}, ${right}, ${p})`;
      case '=~':
        return `rt.match(${left}, ${right}, ${p})`;
      case '!~':
        return `!rt.match(${left}, ${right}, ${p})`;
      case 'in':
        return `rt.isIn(${left}, ${right})`;
      default:
        return `rt.arithmetic(${str(op)}, ${left}, ${right}, ${p})`;
    }
  }

  /** `a == b`; against a string literal, `rt.eqs` (case-insensitive string compare, no type dispatch). */
  private equals(left: Node, right: Node): string {
    if (isString(right)) return `rt.eqs(${this.expr(left)}, ${this.expr(right)})`;
    // The literal has no side effects: evaluating it first changes nothing.
    if (isString(left)) return `rt.eqs(${this.expr(right)}, ${this.expr(left)})`;
    return `rt.equals(${this.expr(left)}, ${this.expr(right)})`;
  }
}
