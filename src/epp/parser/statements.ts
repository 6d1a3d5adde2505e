/**
 * Statements and blocks: the statement list of a template or a `{...}` block (template text, `<%= %>`
 * renders and code alike), statement calls without parentheses (`notice 'x'`), the constructs a template
 * refuses (resources, virtual resources), and the block-bodied expressions `if` / `unless` / `elsif` /
 * `else` and `case`.
 *
 * They share one job: deciding where a statement ends and what a block holds, which is why the blocks'
 * expressions live here rather than with the other primary expressions.
 */
import type { CaseOption, Node } from '../ast.js';
import { puppetStart } from '../ast-walk.js';
import { EppSyntaxError } from '../errors.js';
import type { Token } from '../lexer/tokens.js';
import { doesNothing } from './effects.js';
import { nodeLabel } from './node-labels.js';
import { PrimaryExpressionParser } from './primary-expressions.js';

/** Functions that may be called as statements without parentheses (`notice 'x'`). */
const STATEMENT_CALLS = new Set([
  'fail',
  'notice',
  'info',
  'warning',
  'err',
  'debug',
  'alert',
  'crit',
  'emerg',
  'break',
  'next',
  'return',
  'include',
  'require',
  'contain',
  'realize',
  'tag',
]);

/** A definition as Puppet's messages name it. */
const DEFINITION_LABELS = {
  class: 'A Host Class Definition',
  define: "A 'define' expression",
  node: 'A Node Definition',
};

const DEFINITION_NOT_HERE =
  'Classes, definitions, and nodes may only appear at toplevel or inside other classes';

export abstract class StatementParser extends PrimaryExpressionParser {
  /** Statements up to EOF, or in a block up to `}` (not consumed). */
  protected statements(inBlock: boolean): Node[] {
    const body: Node[] = [];
    // The statement a `{` would continue: Puppet reads `x {...}` (text, a render or any expression, then a
    // hash literal opening the next statement) as a resource expression, and refuses it. `;` ends it.
    let previous: Node | undefined;
    // Puppet's grammar puts a `;` between two statements only: not first, not twice, not last.
    let semicolon: Token | undefined;
    while (true) {
      const t = this.tokens[this.i]!;
      if (t.kind === 'EOF' || (inBlock && t.kind === 'PUNCT' && t.value === '}')) {
        if (semicolon) throw this.unexpected(t);
        break;
      }
      if (t.kind === 'PUNCT' && t.value === ';') {
        if (body.length === 0 || semicolon) throw this.unexpected(t);
        semicolon = t;
        this.next();
        previous = undefined;
        continue;
      }
      semicolon = undefined;
      if (t.kind === 'PUNCT' && t.value === '{' && previous !== undefined) {
        if (this.refuseResourceBody()) {
          // A titled body Puppet's validation lets through: its evaluator refuses the type once evaluated.
          previous = this.titledResource(previous);
          body[body.length - 1] = previous;
          continue;
        }
        throw this.error(
          'Expression is not valid as a resource, resource-default, or resource-override',
          // Puppet reads `$a = 1 {` as `$a = (1 {`: the value is the resource's title.
          puppetStart(previous.type === 'Assignment' ? previous.value : previous),
          previous.end,
        );
      }
      previous = this.textRenderOrStatement(t);
      body.push(previous);
    }
    return body;
  }

  /**
   * Puppet's parser reads the `{` after a statement as the body of a resource expression, and fails where
   * the body stops being one (`x<% { "a" => 1 }` at the `=>`: a title wants a `:`); a body it can read
   * (`{}`, `{ a => 1 }`, `{ 'a': }`) its validator refuses afterwards, which the caller does.
   */
  private refuseResourceBody(): boolean {
    const first = this.peek(1);
    if (first.kind === 'PUNCT' && first.value === '}') return false;
    const second = this.peek(2);
    const attribute = (first.kind === 'NAME' || first.kind === 'KEYWORD') && second.kind === 'PUNCT';
    if (attribute && (second.value === '=>' || second.value === '+>')) return false;
    const at = this.i;
    const warnings = this.warnings.length;
    this.next();
    this.expression();
    if (!this.isPunct(':')) throw this.unexpected(this.tokens[this.i]!);
    // Read again by `titledResource`, which warns of its hash literals then.
    this.i = at;
    this.warnings.length = warnings;
    return true;
  }

  /**
   * The titled resource body `{ title: attributes; ... }` at the current `{` (read to its `}`, consumed),
   * whose type is `previous`, or an assignment's value (`$a = 1 { 'a': }` is `$a = (1 { 'a': })`). It is
   * read as Puppet's grammar reads it, so that a syntax error in it is Puppet's, then dropped: the
   * evaluator refuses the type before any body is evaluated.
   */
  private titledResource(previous: Node): Node {
    this.resourceBodies();
    const end = this.lastEnd();
    if (previous.type === 'Assignment') {
      const value: Node = { type: 'Resource', typeExpr: previous.value, start: previous.value.start, end };
      return { ...previous, value, end };
    }
    return { type: 'Resource', typeExpr: previous, start: previous.start, end };
  }

  /**
   * `{ title: attribute => value, ...; title: ...; }` from the `{`, as Puppet's grammar has it: bodies
   * separated by `;` (one may end the list), attributes by `,` (one may end a body).
   */
  private resourceBodies(): void {
    this.next();
    while (true) {
      this.expression();
      this.expectPunct(':');
      this.attributeOperations();
      if (this.isPunct('}')) break;
      this.expectPunct(';');
      if (this.isPunct('}')) break;
    }
    this.next();
  }

  /** `name => value` or `name +> value` or `* => value`, separated by `,`, one `,` allowed at the end. */
  private attributeOperations(): void {
    // With no attribute, the body's `,` may still stand after its `:` (`{ 'a': , }`).
    if (!this.startsAttributeOperation()) {
      if (this.isPunct(',')) this.next();
      return;
    }
    while (this.startsAttributeOperation()) {
      const name = this.next();
      const operator = this.tokens[this.i]!;
      const plus = name.value !== '*' && this.appendArrow();
      if (!plus && !this.isPunct('=>')) throw this.unexpected(operator);
      this.next();
      if (plus) this.next();
      this.expression();
      if (plus) {
        // Puppet's validation refuses it in a titled body, after the parse.
        this.refuseAfterParse(
          `Illegal +> operation on attribute ${name.value}. This operator can not be used in a Resource Instance Definition`,
          name.start,
          this.lastEnd(),
        );
      }
      if (!this.isPunct(',')) return;
      this.next();
    }
  }

  /** `+>` (read as `+` then `>`: Pantograph's lexer has no such token, EPP has no other use for it). */
  private appendArrow(): boolean {
    const plus = this.tokens[this.i]!;
    const next = this.tokens[this.i + 1]!;
    return this.isPunct('+') && next.kind === 'PUNCT' && next.value === '>' && next.start === plus.end;
  }

  /** An attribute's name (a name or a keyword but `true` and `false`) or the `*` of `* => hash`. */
  private startsAttributeOperation(): boolean {
    const t = this.tokens[this.i]!;
    if (t.kind === 'NAME') return true;
    if (t.kind === 'KEYWORD') return t.value !== 'true' && t.value !== 'false';
    return t.kind === 'PUNCT' && t.value === '*';
  }

  /**
   * The statement starting at `t`: template text, a `<%= %>` render, or code. Text and renders are
   * operands in Puppet's grammar, so an operator in the next tag goes on from them (`abc<% == 1 %>` is a
   * comparison that does nothing, `abc<% = 1 %>` an assignment to the text): only text followed by no
   * operator is taken at once.
   */
  protected textRenderOrStatement(t: Token): Node {
    if (t.kind === 'TEXT') {
      const n = this.peek(1);
      // `}`, which ends a block, is the commonest punctuation after text: not an operator.
      const operator =
        (n.kind === 'PUNCT' && n.value !== '}') ||
        (n.kind === 'KEYWORD' && (n.value === 'and' || n.value === 'or' || n.value === 'in'));
      if (!operator) return this.textOrRender(this.next());
    }
    if (t.kind === 'PARAMS' || t.kind === 'RENDER_END') throw this.unexpected(t);
    return this.statement();
  }

  protected statement(): Node {
    const t = this.tokens[this.i]!;
    if (t.kind === 'NAME') {
      const n = this.peek(1);
      if (n.kind === 'PUNCT' && n.value === '{') {
        throw this.error(
          'Resource expressions are not supported in templates: a template has no catalogue',
          t.start,
          n.end,
          'EPP_UNSUPPORTED',
        );
      }
      if (
        STATEMENT_CALLS.has(t.value) &&
        !(n.kind === 'PUNCT' && n.value === '(') &&
        this.startsExpression(n)
      ) {
        this.next();
        const args = [this.expression()];
        while (this.isPunct(',')) {
          this.next();
          args.push(this.expression());
        }
        return { type: 'Call', name: t.value, args, lambda: undefined, start: t.start, end: this.lastEnd() };
      }
    }
    if (t.kind === 'TYPE' && this.peek(1).kind === 'PUNCT' && this.peek(1).value === '{') {
      throw this.error(
        'Resource expressions are not supported in templates: a template has no catalogue',
        t.start,
        t.end,
        'EPP_UNSUPPORTED',
      );
    }
    if (t.kind === 'PUNCT' && (t.value === '@' || t.value === '@@')) {
      throw this.error(
        'Virtual and exported resources are not supported in templates',
        t.start,
        t.end,
        'EPP_UNSUPPORTED',
      );
    }
    return this.expression();
  }

  /** Whether a token can begin an argument of a statement call on the same statement. */
  protected startsExpression(t: Token): boolean {
    switch (t.kind) {
      case 'STRING':
      case 'DQ':
      case 'VARIABLE':
      case 'NUMBER':
      case 'NAME':
      case 'TYPE':
      case 'REGEX':
      // Text and renders too: Puppet makes the statement after `notice` its argument (`<% notice %>abc`).
      case 'TEXT':
      case 'RENDER':
        return true;
      case 'KEYWORD':
        return ['true', 'false', 'undef', 'default'].includes(t.value);
      case 'PUNCT':
        return t.value === '[' || t.value === '-' || t.value === '!';
      default:
        return false;
    }
  }

  /**
   * The test of an `if`, `unless`, `elsif` or `case`: an expression, not an assignment, unless in
   * parentheses (Puppet's grammar: `if $x = 1 {` is a syntax error at the `=`, `if ($x = 1) {` is not).
   */
  private conditionTest(): Node {
    const first = this.i;
    const test = this.expression();
    if (test.type === 'Assignment' && !this.isPunctAt(first, '(')) {
      let at = first;
      while (at < this.i && !this.isPunctAt(at, '=')) at++;
      throw this.unexpected(this.tokens[at]!);
    }
    return test;
  }

  private isPunctAt(index: number, value: string): boolean {
    const t = this.tokens[index]!;
    return t.kind === 'PUNCT' && t.value === value;
  }

  /** Statements up to `}` (consumed); the `{` was consumed by the caller. */
  protected block(): Node[] {
    const body = this.statements(true);
    this.expectPunct('}');
    return body;
  }

  protected override ifExpression(t: Token): Node {
    const test = this.conditionTest();
    this.expectPunct('{');
    const then = this.block();
    let otherwise: Node[] | undefined;
    if (t.value === 'if' && this.isKeyword('elsif')) {
      const elsif = this.next();
      otherwise = [this.ifExpression({ ...elsif, value: 'if' })];
    } else if (this.isKeyword('else')) {
      this.next();
      this.expectPunct('{');
      otherwise = this.block();
    }
    return {
      type: 'If',
      negate: t.value === 'unless',
      test,
      then,
      otherwise,
      start: t.start,
      end: this.lastEnd(),
    };
  }

  /**
   * `class`, `define` or `node` (`t`) in a template, which Puppet's validation refuses once the parse is
   * done, with the errors in its body. The header (name, parameters, `inherits`, a node's names) is
   * skipped to the body's `{`; a body Pantograph cannot read (resources) is skipped too, unchecked. With
   * no body to find, it is refused at once.
   */
  protected override definition(t: Token): Node {
    const refused = () => this.error(DEFINITION_NOT_HERE, t.start, t.end, 'EPP_UNSUPPORTED');
    if (!this.skipTo('{')) throw refused();
    this.next();
    const saved = {
      i: this.i,
      depth: this.depth,
      errors: this.validation.errors.length,
      warnings: this.warnings.length,
    };
    let body: Node[];
    try {
      body = this.block();
    } catch (e) {
      if (!(e instanceof EppSyntaxError)) throw e;
      // What the body's statements may be that a template's may not (resources): skipped, unchecked.
      this.i = saved.i;
      this.depth = saved.depth;
      this.validation.errors.length = saved.errors;
      this.warnings.length = saved.warnings;
      if (!this.skipTo('}')) throw refused();
      this.next();
      body = [];
    }
    const keyword = t.value as 'class' | 'define' | 'node';
    const node: Node = { type: 'Definition', keyword, body, start: t.start, end: this.lastEnd() };
    this.refuseAfterParse(DEFINITION_NOT_HERE, t.start, t.end, undefined, node, 'EPP_UNSUPPORTED');
    // Its check goes on with its last statement, which must do something (its value would be lost).
    const last = body.at(-1);
    if (last && doesNothing(last)) {
      const message = `This ${nodeLabel(last)} has no effect. ${DEFINITION_LABELS[keyword]} can not end with a value-producing expression without other effect`;
      this.refuseAfterParse(message, puppetStart(last), last.end, undefined, node, 'EPP_NO_EFFECT');
    }
    return node;
  }

  /**
   * Moves to the next `punct` outside brackets (not consumed), skipping balanced `()`, `[]` and `{}`;
   * false at the end of the text or an unbalanced closing bracket.
   */
  private skipTo(punct: '{' | '}'): boolean {
    let depth = 0;
    while (true) {
      const t = this.tokens[this.i]!;
      if (t.kind === 'EOF') return false;
      if (t.kind === 'PUNCT') {
        if (depth === 0 && t.value === punct) return true;
        if (t.value === '(' || t.value === '[' || t.value === '{') depth++;
        else if (t.value === ')' || t.value === ']' || t.value === '}') {
          if (depth === 0) return false;
          depth--;
        }
      }
      this.next();
    }
  }

  protected override caseExpression(t: Token): Node {
    const test = this.conditionTest();
    this.expectPunct('{');
    // Puppet's grammar wants at least one option: `case 1 { }` is a syntax error at the `}`.
    if (this.isPunct('}')) throw this.unexpected(this.tokens[this.i]!);
    const options: CaseOption[] = [];
    while (!this.isPunct('}')) {
      const values: Node[] = [this.expression()];
      while (this.isPunct(',')) {
        this.next();
        values.push(this.expression());
      }
      this.expectPunct(':');
      this.expectPunct('{');
      options.push({ values, body: this.block() });
    }
    this.next();
    const node: Node = { type: 'Case', test, options, start: t.start, end: this.lastEnd() };
    // Every `default` after the first is refused, as the case's check finds them.
    const defaults = options.flatMap((option) => option.values.filter((v) => v.type === 'Default'));
    for (const extra of defaults.slice(1)) this.duplicateDefault("This 'case' statement", extra, node);
    return node;
  }
}
