/**
 * Expressions: assignment, the binary and logical operators by precedence climbing, the selector
 * `? {...}`, the unary operators, and the postfix access `[...]` and method calls `.f()`.
 *
 * The operator table and the loop that climbs it live together here; Puppet's precedence is set out in
 * parser.ts's header. The operands themselves are primary expressions (primary-expressions.ts), and a
 * lambda after a method call is a parameter list (parameters.ts): both are declared here and defined in
 * those layers.
 */
import type { ArrayNode, BinaryOperator, LambdaNode, Node, SyntaxWarning, VariableNode } from '../ast.js';
import { puppetStart } from '../ast-walk.js';
import type { Token } from '../lexer/tokens.js';
import { duplicateLiteralKeys } from './literal-keys.js';
import { nodeLabelWithArticle } from './node-labels.js';
import { TokenCursor } from './token-cursor.js';

/** The level of the selector `? {...}`: between `and` and the comparisons. */
const SELECTOR_LEVEL = 2;

/**
 * The operator level of a token, or -1 when it is not a logical or binary operator. Loosest first: `or` 0,
 * `and` 1, the selector 2, `< <= > >=` 3, `== !=` 4, `<< >>` 5, `+ -` 6, `* / %` 7, `=~ !~` 8, `in` 9. A
 * switch rather than a Map lookup: it runs for every operand.
 */
function operatorLevel(t: Token): number {
  if (t.kind === 'PUNCT') {
    switch (t.value) {
      case '?':
        return SELECTOR_LEVEL;
      case '<':
      case '<=':
      case '>':
      case '>=':
        return 3;
      case '==':
      case '!=':
        return 4;
      case '<<':
      case '>>':
        return 5;
      case '+':
      case '-':
        return 6;
      case '*':
      case '/':
      case '%':
        return 7;
      case '=~':
      case '!~':
        return 8;
      default:
        return -1;
    }
  }
  if (t.kind === 'KEYWORD') return t.value === 'or' ? 0 : t.value === 'and' ? 1 : t.value === 'in' ? 9 : -1;
  return -1;
}

/** Deepest expression nesting accepted: far beyond real templates, well within the JavaScript stack. */
const MAX_NESTING = 400;

export abstract class ExpressionParser extends TokenCursor {
  expression(): Node {
    if (++this.depth > MAX_NESTING) {
      const t = this.tokens[this.i]!;
      throw this.error('Expression nested too deeply', t.start, Math.max(t.end, t.start + 1));
    }
    // No try/finally: an error ends the whole parse, so the depth need not be restored on throw.
    const node = this.assignment();
    this.depth--;
    return node;
  }

  protected assignment(): Node {
    const left = this.binary(0);
    const t = this.tokens[this.i]!;
    if (t.kind !== 'PUNCT') return left;
    if (t.value === '=') {
      const eq = this.next();
      const value = this.expression();
      const node: Node = {
        type: 'Assignment',
        target: left as VariableNode | ArrayNode,
        value,
        operatorStart: eq.start,
        start: left.start,
        end: value.end,
      };
      for (const refused of unassignable(left)) {
        const at = puppetStart(refused.node);
        this.refuseAfterParse(refused.message, at, refused.node.end, undefined, node);
      }
      return node;
    }
    if (t.value === '+=' || t.value === '-=') {
      const op = this.next();
      throw this.error(
        `The operator '${op.value}' is no longer supported`,
        op.start,
        op.end,
        'EPP_UNSUPPORTED',
      );
    }
    return left;
  }

  /**
   * Precedence climbing over the operatorLevel levels: the same left-associative trees as one
   * function per level, without descending through every level for each operand.
   */
  protected binary(minLevel: number): Node {
    let left = this.unary();
    while (true) {
      const t = this.tokens[this.i]!;
      const level = operatorLevel(t);
      if (level < minLevel) return left;
      this.next();
      if (level === SELECTOR_LEVEL) {
        // Puppet's grammar also takes one option without braces: `$x ? 'a' => 'b'`.
        if (!this.isPunct('{')) {
          const key = this.expression();
          this.expectPunct('=>');
          const entries = [{ key, value: this.expression() }];
          left = { type: 'Selector', test: left, entries, start: left.start, end: this.lastEnd() };
          continue;
        }
        this.next();
        // Puppet's grammar wants at least one entry: `1 ? { }` is a syntax error at the `}`.
        if (this.isPunct('}')) throw this.unexpected(this.tokens[this.i]!);
        const entries = this.hashEntries(false);
        const defaults = entries.filter((e) => e.key.type === 'Default');
        const selector: Node = {
          type: 'Selector',
          test: left,
          entries,
          start: left.start,
          end: this.lastEnd(),
        };
        // Only the second `default` is refused, as Puppet's check of a selector does.
        if (defaults.length > 1)
          this.duplicateDefault('This Selector Expression', defaults[1]!.key, selector);
        left = selector;
        continue;
      }
      const right = this.binary(level + 1);
      if (level < 2) {
        // Levels 0 and 1 are `or` and `and`.
        const operator = level === 0 ? 'or' : 'and';
        left = {
          type: 'Logical',
          operator,
          left,
          right,
          operatorStart: t.start,
          start: left.start,
          end: right.end,
        };
        continue;
      }
      left = {
        type: 'Binary',
        operator: t.value as BinaryOperator,
        left,
        right,
        operatorStart: t.start,
        start: left.start,
        end: right.end,
      };
    }
  }

  protected unary(): Node {
    const t = this.tokens[this.i]!;
    if (t.kind === 'PUNCT' && (t.value === '!' || t.value === '-' || t.value === '*')) {
      this.next();
      const operand = this.unary();
      if (
        t.value === '-' &&
        operand.type === 'Literal' &&
        (typeof operand.value === 'bigint' || typeof operand.value === 'number')
      ) {
        return { type: 'Literal', value: -operand.value, start: t.start, end: operand.end };
      }
      return { type: 'Unary', operator: t.value, operand, start: t.start, end: operand.end };
    }
    return this.postfix(this.primary());
  }

  protected postfix(node: Node): Node {
    let result = node;
    while (true) {
      const t = this.tokens[this.i]!;
      if (t.kind !== 'PUNCT') return result;
      if (t.value === '[' && !t.spaceBefore) {
        this.next();
        const keys = this.commaList(']');
        if (keys.length === 0) throw this.unexpected(this.tokens[this.i - 1]!);
        result = { type: 'Access', target: result, keys, start: result.start, end: this.lastEnd() };
      } else if (t.value === '(' && result.type === 'Access' && isTypeAccess(result)) {
        // `Integer[0, 5]('3')`: a parameterized type called is its `new`, as `Integer('3')` is.
        this.next();
        const args = this.commaList(')');
        const lambda = this.optionalLambda();
        result = { type: 'New', typeExpr: result, args, lambda, start: result.start, end: this.lastEnd() };
      } else if (t.value === '(' && !this.firstOnLine(t)) {
        // Puppet's grammar calls whatever a `(` follows (but one first on its line, its WSLPAREN), and its
        // validator then refuses what is no function name: `<%= 'x' %><%(1) %>`, `$a = 1 (2)`.
        this.refuseFunctor(result);
        this.next();
        const args = this.commaList(')');
        const lambda = this.optionalLambda();
        result = { type: 'Call', name: '', args, lambda, start: result.start, end: this.lastEnd() };
      } else if (t.value === '.') {
        this.next();
        const name = this.tokens[this.i]!;
        if (name.kind !== 'NAME' && name.kind !== 'KEYWORD') throw this.unexpected(name);
        this.next();
        let args: Node[] = [];
        // Where Puppet places the call: its `(`, or its `.` when it has no parentheses.
        let callStart = t.start;
        // A space before its `(` is fine (`$x.join (',')`), a line break with only blanks is not.
        if (this.isPunct('(') && !this.firstOnLine(this.tokens[this.i]!)) {
          callStart = this.tokens[this.i]!.start;
          this.next();
          args = this.commaList(')');
        }
        const lambda = this.optionalLambda();
        if (name.value === 'new' && (result.type === 'TypeRef' || result.type === 'Access')) {
          const end = this.lastEnd();
          result = { type: 'New', typeExpr: result, args, lambda, callStart, start: result.start, end };
        } else {
          result = {
            type: 'MethodCall',
            receiver: result,
            name: name.value,
            nameStart: name.start,
            callStart,
            args,
            lambda,
            start: result.start,
            end: this.lastEnd(),
          };
        }
      } else {
        return result;
      }
    }
  }

  /**
   * Puppet's validation of a call's functor, for what only a name or a type may be: text is its mistyped
   * `<%-|` parameter list, anything else an illegal function name (kept for after the parse).
   */
  private refuseFunctor(functor: Node): void {
    if (functor.type === 'Text') {
      this.refuseAfterParse(
        "Ambiguous EPP parameter expression. Probably missing '<%-' before parameters to remove leading whitespace",
        functor.start,
        functor.end,
      );
      return;
    }
    const at = puppetStart(functor);
    this.refuseAfterParse(
      `Illegal expression. ${capitalised(nodeLabelWithArticle(functor))} is unacceptable as function name in a Function Call`,
      at,
      functor.end,
      CALLED_BY_PARENTHESIS,
    );
  }

  /** Expressions separated by commas up to `close` (consumed); a trailing comma is allowed. */
  protected commaList(close: string): Node[] {
    const items: Node[] = [];
    while (!this.isPunct(close)) {
      items.push(this.expression());
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct(close)) throw this.unexpected(this.tokens[this.i]!);
    }
    this.next();
    return items;
  }

  /**
   * `key => value, ...` up to `}` (consumed): a hash literal's, whose keys given twice are warned of, or
   * a selector's options (`literal` false), which Puppet's validation does not look at.
   */
  protected hashEntries(literal = true): { key: Node; value: Node }[] {
    const entries: { key: Node; value: Node }[] = [];
    // This literal's warnings go before those of the literals inside it (see warnOfDuplicateKeys).
    const warningsBefore = this.warnings.length;
    while (!this.isPunct('}')) {
      const key = this.expression();
      this.expectPunct('=>');
      const value = this.expression();
      entries.push({ key, value });
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct('}')) throw this.unexpected(this.tokens[this.i]!);
    }
    this.next();
    if (literal && entries.length > 1) this.warnOfDuplicateKeys(entries, warningsBefore);
    return entries;
  }

  /**
   * Puppet's warning for a literal key given twice, at the later entry's `=>` (where Puppet places an
   * entry). Inserted at `at`, before the warnings of the literals inside this one: Puppet's validator
   * visits a literal before what it holds, and prints its warnings in that order.
   */
  private warnOfDuplicateKeys(entries: { key: Node }[], at: number): void {
    const found: SyntaxWarning[] = [];
    for (const { key, text } of duplicateLiteralKeys(entries, this.source)) {
      // The first `=>` after the key (found again here, as a duplicate is rare).
      const arrow = this.tokens.find((t) => t.start >= key.end && t.kind === 'PUNCT' && t.value === '=>');
      const start = arrow?.start ?? key.start;
      found.push({
        code: 'EPP_DUPLICATE_KEY',
        message: `The key '${text}' is declared more than once`,
        start,
        end: start + 2,
      });
    }
    this.warnings.splice(at, 0, ...found);
  }

  protected abstract primary(): Node;

  protected abstract optionalLambda(): LambdaNode | undefined;
}

/**
 * What an assignment cannot assign to, each with Puppet's words, as its validation finds them: assignable
 * are a variable that is neither a match result (`$0`) nor in another namespace (`$a::b`), and an array of
 * assignables (`[$a, [$b, $c]]`, `[]`, to destructure a value into), each element checked in turn. Text is
 * refused too (`abc<% = 1 %>` assigns to the text).
 */
function unassignable(node: Node): { node: Node; message: string }[] {
  if (node.type === 'Array') return node.elements.flatMap(unassignable);
  if (node.type === 'Access')
    return [{ node, message: 'Illegal attempt to assign via [index/key]. Not an assignable reference' }];
  if (node.type !== 'Variable')
    return [
      {
        node,
        message: `Illegal attempt to assign to '${nodeLabelWithArticle(node)}'. Not an assignable reference`,
      },
    ];
  const refused: { node: Node; message: string }[] = [];
  if (/^\d+$/.test(node.name)) {
    const message = `Illegal attempt to assign to the numeric match result variable '$${node.name}'. Numeric variables are not assignable`;
    refused.push({ node, message });
  }
  if (node.name.includes('::')) {
    const message = `Illegal attempt to assign to '${node.name}'. Cannot assign to variables in other namespaces`;
    refused.push({ node, message });
  }
  return refused;
}

/** Whether an access is a type's parameters (`Hash[String, Integer]`): its innermost target is a type name. */
function isTypeAccess(node: Node): boolean {
  let target = node;
  while (target.type === 'Access') target = target.target;
  return target.type === 'TypeRef';
}

/** What Puppet's "unacceptable as function name" usually means in a template. */
const CALLED_BY_PARENTHESIS =
  'Puppet reads a `(` as a call of what stands before it, even across tags (`<%= $a %><%(1) %>`), unless only blanks stand before it on its line: end the statement with `;`, or start the line with the `(`';

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
