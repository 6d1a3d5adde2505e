/**
 * Puppet's check that no statement is there for nothing: "This String has no effect. A value was
 * produced and then forgotten". In a block (a lambda's body, a branch of `if` or `case`, `{ ... }`) every
 * statement but the last, whose value is the block's, must do something; in a template's body every
 * statement must, the last one too when text follows it (even text a `-%>` trims away). Puppet refuses such a template
 * before rendering any of it, so this is a syntax error here, reported at the first such statement of each
 * block, with the parser's other validation errors (the outer block before the blocks inside it, as
 * Puppet's validator visits them).
 *
 * What "does nothing" (Puppet's checker4_0 `idem`, each rule checked with `puppet epp render`): a
 * literal, name, type, regexp, string (interpolated too), variable, array or hash, access, operator
 * (but `=~` and `!~`, which set the match variables), `and`/`or`, `!`, unary minus, splat, selector,
 * parentheses around any of these, and an `if`, `unless` or `case` whose test and branches all do
 * nothing. Calls, assignments, renders and text do something.
 */
import type { Node, TemplateNode } from '../ast.js';
import { puppetStart } from '../ast-walk.js';
import { EppSyntaxError } from '../errors.js';
import { forEachChild, type WalkNode } from '../node-children.js';
import { nodeLabel } from './node-labels.js';
import type { ValidationError } from './validation-order.js';

/**
 * Puppet's error at the first statement of each block that does nothing where something must be done,
 * each noted with its block (the node whose check finds it, see validation-order.ts).
 * `endsInCode`: no text follows the template's last tag (see LexReport), so its last statement is the
 * template's value, exempt as a block's last is (`a<% 1 %>` at the end is fine, `a<% 1 %>b` is not).
 */
export function checkStatementEffects(
  template: TemplateNode,
  source: string,
  file: string,
  endsInCode = false,
): ValidationError[] {
  const found: ValidationError[] = [];
  const refuse = (node: Node, block: readonly Node[]): void => {
    const start = puppetStart(node);
    const error = new EppSyntaxError(
      'EPP_NO_EFFECT',
      `This ${nodeLabel(node)} has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)`,
      // Where Puppet places the node (an operator expression at its operator).
      { file, source, span: { start, end: Math.max(node.end, start + 1) } },
    );
    // The block encloses its statements: its check comes before theirs.
    found.push({ error, checked: { start: block[0]!.start, end: block.at(-1)!.end + 1 } });
  };
  // Only the first statement of a block that does nothing is refused, as Puppet's check of a block does.
  const checkStatements = (statements: readonly Node[], checked: number): void => {
    const idle = statements.slice(0, checked).find(doesNothing);
    if (idle) refuse(idle, statements);
  };
  const body = template.body;
  // The last statement is the template's value when no text follows it: none at all, or the text that
  // follows its last tag taken in as an operand (`<% 1 + %>` and its line break).
  const last = body.at(-1);
  const lastIsValue = endsInCode || (last !== undefined && last.type !== 'Text' && last.end >= source.length);
  checkStatements(body, lastIsValue ? body.length - 1 : body.length);
  // In a block, the last statement is the block's value: every other one must do something.
  const checkBlock = (statements: readonly Node[]): void =>
    checkStatements(statements, statements.length - 1);
  const visit = (node: WalkNode): number => {
    if (node.type === 'Lambda' || node.type === 'Block' || node.type === 'Definition') checkBlock(node.body);
    else if (node.type === 'If') {
      checkBlock(node.then);
      if (node.otherwise) checkBlock(node.otherwise);
    } else if (node.type === 'Case') for (const option of node.options) checkBlock(option.body);
    forEachChild(node, visit);
    return 0;
  };
  for (const statement of template.body) visit(statement);
  return found;
}

/** Whether evaluating a statement can have no effect but its value (Puppet's `idem`). */
export function doesNothing(node: Node): boolean {
  switch (node.type) {
    case 'Literal':
    case 'Default':
    case 'BareWord':
    case 'TypeRef':
    case 'Regex':
    case 'Interpolated':
    case 'Variable':
    case 'Array':
    case 'Hash':
    case 'Access':
    case 'Logical':
    case 'Unary':
    case 'Selector':
      return true;
    case 'Binary':
      return node.operator !== '=~' && node.operator !== '!~';
    case 'Paren':
      return doesNothing(node.expr);
    case 'If':
      return (
        doesNothing(node.test) && node.then.every(doesNothing) && (node.otherwise ?? []).every(doesNothing)
      );
    case 'Case':
      return (
        doesNothing(node.test) &&
        node.options.every((option) => option.values.every(doesNothing) && option.body.every(doesNothing))
      );
    case 'Block':
      return node.body.every(doesNothing);
    default:
      return false;
  }
}
