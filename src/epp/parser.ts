/**
 * The EPP parser: tokens -> AST.
 *
 * A recursive-descent parser with precedence climbing for binary operators. Puppet's precedence, from
 * loosest to tightest: `=` (right), `or`, `and`, the selector `? {...}`, `< <= > >=`, `== !=`, `<< >>`,
 * `+ -`, `* / %`, `=~ !~`, `in`, then unary `!`, `-`, splat `*`, then access `[...]` and method calls
 * `.f()`. (That `==` binds tighter than `<` is Puppet's, not a slip.) The selector is a postfix operator at
 * its level: `$v =~ String ? {...}` selects on the match, `true and 1 ? {...}` on `1` only, and an operator
 * after it goes on from its value (`1 + 2 ? { 3 => 10 } + 5` is 15), as Puppet 7 does (every case checked
 * with `puppet epp render`: test/conformance/cases/selector_*). `**` is `*` then a splat, as in Puppet.
 *
 * Template text and `<%= %>` renders are statements like any other, so they may appear inside blocks:
 * `<% if $x { %>yes<% } %>` parses as an `if` whose body holds a Text node.
 */
import type {
  ArrayNode,
  BinaryOperator,
  CaseOption,
  LambdaNode,
  Node,
  ParameterNode,
  TemplateNode,
  VariableNode,
} from './ast.js';
import { EppSyntaxError } from './errors.js';
import { checkNumericName } from './lexer/chars.js';
import { lex } from './lexer/lexer.js';
import { makeToken, type Token } from './lexer/tokens.js';

/**
 * What a template or lambda parameter may be called (Puppet's naming rule, `/^[a-z_]\w*$/`), tested by
 * char codes: a regular expression is compiled on its first use, again to machine code on its second, and
 * both were in a fresh process's first parse.
 */
function isParameterName(name: string): boolean {
  const first = name.charCodeAt(0);
  if (!((first >= 97 && first <= 122) || first === 95)) return false;
  for (let i = 1; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95)) return false;
  }
  return true;
}

export interface ParseOptions {
  /** File name for error messages (default `<inline>`). */
  readonly file?: string;
  readonly delimiters?: readonly [string, string] | undefined;
}

export function parseTemplate(source: string, options: ParseOptions = {}): TemplateNode {
  const file = options.file ?? '<inline>';
  const tokens = lex(source, { file, delimiters: options.delimiters });
  return new Parser(tokens, source, file).template();
}

/** Parses Puppet code (no EPP tags), e.g. a `.pp` hook or a `--values` hash literal. */
export function parsePuppet(source: string, options: ParseOptions = {}): TemplateNode {
  // A code-only program is a template that is one code tag; delimiters that cannot occur keep it so.
  const open = '\u0000<';
  const close = '>\u0000';
  const file = options.file ?? '<inline>';
  // The space keeps a leading `#`, `-` or `=` from reading as a comment, trim or render tag.
  const wrapped = `${open} ${source}\n${close}`;
  const tokens = lex(wrapped, { file, delimiters: [open, close] }).map((t) =>
    shift(t, -open.length - 1, source.length),
  );
  return new Parser(tokens, source, file).template();
}

function shift(t: Token, by: number, limit: number): Token {
  const clamp = (n: number) => Math.min(limit, Math.max(0, n + by));
  const parts = t.parts?.map((p) => (typeof p === 'string' ? p : p.map((x) => shift(x, by, limit))));
  return makeToken(t.kind, t.value, clamp(t.start), clamp(t.end), t.spaceBefore, parts);
}

/**
 * The operator level of a token, or -1 when it is not a logical or binary operator. Loosest first: `or` 0,
 * `and` 1, `< <= > >=` 2, `== !=` 3, `<< >>` 4, `+ -` 5, `* / %` 6, `=~ !~` 7, `in` 8. A switch rather than a
 * Map lookup: it runs for every operand.
 */
/** The level of the selector `? {...}`: between `and` and the comparisons. */
const SELECTOR_LEVEL = 2;

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

/** Deepest expression nesting accepted: far beyond real templates, well within the JavaScript stack. */
const MAX_NESTING = 400;

class Parser {
  private i = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly source: string,
    private readonly file: string,
    private depth = 0,
  ) {}

  // ------------------------------------------------------------ helpers

  /** The token `offset` ahead of the current one (the current token itself is `this.tokens[this.i]`). */
  private peek(offset: number): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }

  /** Consumes the current token; `i` never passes the final EOF token, so reads need no bounds check. */
  private next(): Token {
    const t = this.tokens[this.i]!;
    if (this.i < this.tokens.length - 1) this.i++;
    return t;
  }

  private isPunct(value: string): boolean {
    const t = this.tokens[this.i]!;
    return t.kind === 'PUNCT' && t.value === value;
  }

  private isKeyword(value: string): boolean {
    const t = this.tokens[this.i]!;
    return t.kind === 'KEYWORD' && t.value === value;
  }

  private expectPunct(value: string): Token {
    if (!this.isPunct(value)) throw this.unexpected(this.tokens[this.i]!);
    return this.next();
  }

  private lastEnd(): number {
    return this.tokens[this.i - 1]?.end ?? 0;
  }

  private unexpected(t: Token, message?: string): EppSyntaxError {
    const text =
      message ??
      (t.kind === 'EOF'
        ? t.value === '}'
          ? `Syntax error at '}'`
          : 'Syntax error at end of input'
        : `Syntax error at '${this.source.slice(t.start, t.end) || t.value}'`);
    return this.error(text, t.start, Math.max(t.end, t.start + 1));
  }

  private error(
    message: string,
    start: number,
    end: number,
    code: 'EPP_SYNTAX' | 'EPP_UNSUPPORTED' = 'EPP_SYNTAX',
  ) {
    return new EppSyntaxError(code, message, { file: this.file, source: this.source, span: { start, end } });
  }

  // ------------------------------------------------------------ template and statements

  template(): TemplateNode {
    let params: ParameterNode[] | undefined;
    if (this.tokens[this.i]!.kind === 'PARAMS') {
      this.next();
      params = this.parameterList();
      this.duplicateCheck(params);
    }
    const body = this.statements(false);
    const eof = this.tokens[this.i]!;
    if (eof.kind !== 'EOF') throw this.unexpected(eof);
    return { type: 'Template', params, body, start: 0, end: this.source.length };
  }

  private duplicateCheck(params: readonly ParameterNode[]): void {
    // Parameter lists are short: compare with the earlier names rather than build a Set each time.
    if (params.length > 16) {
      this.duplicateCheckLarge(params);
      return;
    }
    for (let i = 1; i < params.length; i++) {
      const p = params[i]!;
      for (let j = 0; j < i; j++) {
        if (params[j]!.name === p.name)
          throw this.error(
            `The parameter '${p.name}' is declared more than once in the parameter list`,
            p.start,
            p.end,
          );
      }
    }
  }

  private duplicateCheckLarge(params: readonly ParameterNode[]): void {
    const seen = new Set<string>();
    for (const p of params) {
      if (seen.has(p.name))
        throw this.error(
          `The parameter '${p.name}' is declared more than once in the parameter list`,
          p.start,
          p.end,
        );
      seen.add(p.name);
    }
  }

  /** Parses `[Type] [*]$name [= default], ...` up to and including the closing `|`. */
  private parameterList(): ParameterNode[] {
    const params: ParameterNode[] = [];
    while (!this.isPunct('|')) {
      const start = this.tokens[this.i]!.start;
      let valueType: Node | undefined;
      if (this.tokens[this.i]!.kind === 'TYPE') valueType = this.postfix(this.primary());
      let captureRest = false;
      if (this.isPunct('*')) {
        this.next();
        captureRest = true;
      }
      const v = this.tokens[this.i]!;
      if (v.kind !== 'VARIABLE') throw this.unexpected(v);
      // Puppet's rule: no `::` scopes, no match numbers, no capitals (they could not be bound as locals).
      if (!isParameterName(v.value))
        throw this.error(
          `Illegal parameter name. The given name '${v.value}' does not conform to the naming rule /^[a-z_]\\w*$/`,
          v.start,
          v.end,
        );
      this.next();
      let defaultValue: Node | undefined;
      if (this.isPunct('=')) {
        this.next();
        defaultValue = this.expression();
      }
      params.push({
        type: 'Parameter',
        name: v.value,
        valueType,
        defaultValue,
        captureRest,
        start,
        end: this.lastEnd(),
      });
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct('|')) throw this.unexpected(this.tokens[this.i]!);
    }
    this.next();
    return params;
  }

  /** Statements up to EOF, or in a block up to `}` (not consumed). */
  private statements(inBlock: boolean): Node[] {
    const body: Node[] = [];
    // The statement a `{` would continue: Puppet reads `x {...}` (text, a render or any expression, then a
    // hash literal opening the next statement) as a resource expression, and refuses it. `;` ends it.
    let previous: Node | undefined;
    while (true) {
      const t = this.tokens[this.i]!;
      if (t.kind === 'EOF' || (inBlock && t.kind === 'PUNCT' && t.value === '}')) break;
      if (t.kind === 'PUNCT' && t.value === ';') {
        this.next();
        previous = undefined;
        continue;
      }
      if (t.kind === 'PUNCT' && t.value === '{' && previous !== undefined) {
        throw this.error(
          'Expression is not valid as a resource, resource-default, or resource-override',
          previous.start,
          previous.end,
        );
      }
      previous = this.textRenderOrStatement(t);
      body.push(previous);
    }
    return body;
  }

  /** The statement starting at `t`: template text, a `<%= %>` render, or code. */
  private textRenderOrStatement(t: Token): Node {
    if (t.kind === 'TEXT') {
      this.next();
      return { type: 'Text', value: t.value, start: t.start, end: t.end };
    }
    if (t.kind === 'RENDER') {
      this.next();
      const expr = this.renderExpression();
      const end = this.tokens[this.i]!;
      if (end.kind !== 'RENDER_END') throw this.unexpected(end);
      this.next();
      return { type: 'Render', expr, start: t.start, end: end.end };
    }
    if (t.kind === 'PARAMS' || t.kind === 'RENDER_END') throw this.unexpected(t);
    return this.statement();
  }

  private renderExpression(): Node {
    const expr = this.expression();
    if (expr.type === 'Assignment') {
      const eq = this.source.indexOf('=', expr.target.end);
      throw this.error(`Syntax error at '='`, eq, eq + 1);
    }
    return expr;
  }

  private statement(): Node {
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
  private startsExpression(t: Token): boolean {
    switch (t.kind) {
      case 'STRING':
      case 'DQ':
      case 'VARIABLE':
      case 'NUMBER':
      case 'NAME':
      case 'TYPE':
      case 'REGEX':
        return true;
      case 'KEYWORD':
        return ['true', 'false', 'undef', 'default'].includes(t.value);
      case 'PUNCT':
        return t.value === '[' || t.value === '-' || t.value === '!';
      default:
        return false;
    }
  }

  // ------------------------------------------------------------ expressions

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

  private assignment(): Node {
    const left = this.binary(0);
    const t = this.tokens[this.i]!;
    if (t.kind !== 'PUNCT') return left;
    if (t.value === '=') {
      const eq = this.next();
      if (!this.isAssignable(left)) throw this.error(`Syntax error at '='`, eq.start, eq.end);
      const value = this.expression();
      return {
        type: 'Assignment',
        target: left as VariableNode | ArrayNode,
        value,
        start: left.start,
        end: value.end,
      };
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

  private isAssignable(node: Node): boolean {
    if (node.type === 'Variable') return true;
    return (
      node.type === 'Array' && node.elements.length > 0 && node.elements.every((e) => e.type === 'Variable')
    );
  }

  /**
   * Precedence climbing over the operatorLevel levels: the same left-associative trees as one
   * function per level, without descending through every level for each operand.
   */
  private binary(minLevel: number): Node {
    let left = this.unary();
    while (true) {
      const t = this.tokens[this.i]!;
      const level = operatorLevel(t);
      if (level < minLevel) return left;
      this.next();
      if (level === SELECTOR_LEVEL) {
        this.expectPunct('{');
        const entries = this.hashEntries();
        left = { type: 'Selector', test: left, entries, start: left.start, end: this.lastEnd() };
        continue;
      }
      const right = this.binary(level + 1);
      if (level < 2) {
        // Levels 0 and 1 are `or` and `and`.
        const operator = level === 0 ? 'or' : 'and';
        left = { type: 'Logical', operator, left, right, start: left.start, end: right.end };
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

  private unary(): Node {
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

  private postfix(node: Node): Node {
    let result = node;
    while (true) {
      const t = this.tokens[this.i]!;
      if (t.kind !== 'PUNCT') return result;
      if (t.value === '[' && !t.spaceBefore) {
        this.next();
        const keys = this.commaList(']');
        if (keys.length === 0) throw this.unexpected(this.tokens[this.i - 1]!);
        result = { type: 'Access', target: result, keys, start: result.start, end: this.lastEnd() };
      } else if (t.value === '.') {
        this.next();
        const name = this.tokens[this.i]!;
        if (name.kind !== 'NAME' && name.kind !== 'KEYWORD') throw this.unexpected(name);
        this.next();
        let args: Node[] = [];
        if (this.isPunct('(') && !this.tokens[this.i]!.spaceBefore) {
          this.next();
          args = this.commaList(')');
        }
        const lambda = this.optionalLambda();
        if (name.value === 'new' && (result.type === 'TypeRef' || result.type === 'Access')) {
          result = { type: 'New', typeExpr: result, args, lambda, start: result.start, end: this.lastEnd() };
        } else {
          result = {
            type: 'MethodCall',
            receiver: result,
            name: name.value,
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

  /** Expressions separated by commas up to `close` (consumed); a trailing comma is allowed. */
  private commaList(close: string): Node[] {
    const items: Node[] = [];
    while (!this.isPunct(close)) {
      items.push(this.expression());
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct(close)) throw this.unexpected(this.tokens[this.i]!);
    }
    this.next();
    return items;
  }

  /** `key => value, ...` up to `}` (consumed). */
  private hashEntries(): { key: Node; value: Node }[] {
    const entries: { key: Node; value: Node }[] = [];
    while (!this.isPunct('}')) {
      const key = this.expression();
      this.expectPunct('=>');
      const value = this.expression();
      entries.push({ key, value });
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct('}')) throw this.unexpected(this.tokens[this.i]!);
    }
    this.next();
    return entries;
  }

  private optionalLambda(): LambdaNode | undefined {
    if (!this.isPunct('|')) return undefined;
    const start = this.next().start;
    // A lambda may declare a name twice (Puppet 7 accepts it; the last parameter's value wins).
    const params = this.parameterList();
    this.expectPunct('{');
    const body = this.block();
    return { type: 'Lambda', params, body, start, end: this.lastEnd() };
  }

  /** Statements up to `}` (consumed); the `{` was consumed by the caller. */
  private block(): Node[] {
    const body = this.statements(true);
    this.expectPunct('}');
    return body;
  }

  private primary(): Node {
    const t = this.next();
    const { start, end } = t;
    switch (t.kind) {
      case 'NUMBER': {
        const value = parseNumber(t.value);
        if (typeof value === 'bigint' && (value > 9223372036854775807n || value < -9223372036854775808n)) {
          throw new EppSyntaxError(
            'EPP_INTEGER_OVERFLOW',
            `The integer ${t.value} is outside the 64-bit Integer range`,
            {
              file: this.file,
              source: this.source,
              span: { start, end },
            },
          );
        }
        return { type: 'Literal', value, start, end };
      }
      case 'STRING':
        return { type: 'Literal', value: t.value, start, end };
      case 'DQ':
        return this.interpolated(t);
      case 'REGEX':
        return { type: 'Regex', source: t.value, start, end };
      case 'VARIABLE':
        return { type: 'Variable', name: t.value, start, end };
      case 'TYPE': {
        if (this.isPunct('(') && !this.tokens[this.i]!.spaceBefore) {
          this.next();
          const args = this.commaList(')');
          const lambda = this.optionalLambda();
          const typeExpr: Node = { type: 'TypeRef', name: t.value, start, end };
          return { type: 'New', typeExpr, args, lambda, start, end: this.lastEnd() };
        }
        return { type: 'TypeRef', name: t.value, start, end };
      }
      case 'NAME': {
        if (this.isPunct('(')) {
          this.next();
          const args = this.commaList(')');
          const lambda = this.optionalLambda();
          return { type: 'Call', name: t.value, args, lambda, start, end: this.lastEnd() };
        }
        return { type: 'BareWord', name: t.value, start, end };
      }
      case 'KEYWORD':
        return this.keyword(t);
      case 'PUNCT':
        if (t.value === '[') {
          const elements = this.commaList(']');
          return { type: 'Array', elements, start, end: this.lastEnd() };
        }
        if (t.value === '{') {
          const entries = this.hashEntries();
          return { type: 'Hash', entries, start, end: this.lastEnd() };
        }
        if (t.value === '(') {
          const expr = this.expression();
          this.expectPunct(')');
          return { type: 'Paren', expr, start, end: this.lastEnd() };
        }
        throw this.unexpected(t);
      default:
        throw this.unexpected(t);
    }
  }

  private keyword(t: Token): Node {
    const { start, end } = t;
    switch (t.value) {
      case 'true':
      case 'false':
        return { type: 'Literal', value: t.value === 'true', start, end };
      case 'undef':
        return { type: 'Literal', value: undefined, start, end };
      case 'default':
        return { type: 'Default', start, end };
      case 'if':
      case 'unless':
        return this.ifExpression(t);
      case 'case':
        return this.caseExpression(t);
      case 'class':
      case 'define':
      case 'node':
        throw this.error(
          'Classes, definitions, and nodes may only appear at toplevel or inside other classes',
          start,
          end,
          'EPP_UNSUPPORTED',
        );
      default:
        throw this.unexpected(t);
    }
  }

  private ifExpression(t: Token): Node {
    const test = this.expression();
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

  private caseExpression(t: Token): Node {
    const test = this.expression();
    this.expectPunct('{');
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
    return { type: 'Case', test, options, start: t.start, end: this.lastEnd() };
  }

  /** A double-quoted string: text parts and `${...}` / `$name` expressions. */
  private interpolated(t: Token): Node {
    const parts: (string | Node)[] = [];
    for (const part of t.parts ?? ['']) {
      if (typeof part === 'string') {
        parts.push(part);
        continue;
      }
      const sub = new Parser(part, this.source, this.file, this.depth + 1);
      const first = sub.peek(0);
      if (first.kind === 'EOF') {
        parts.push('');
        continue;
      }
      const expr = sub.expression();
      const rest = sub.peek(0);
      if (rest.kind !== 'EOF') throw sub.unexpected(rest);
      parts.push(this.interpolationVariable(expr));
    }
    if (parts.every((p) => typeof p === 'string')) {
      return { type: 'Literal', value: (parts as string[]).join(''), start: t.start, end: t.end };
    }
    return { type: 'Interpolated', parts, start: t.start, end: t.end };
  }

  /** In `${x}`, `${x[0]}`, `${x.f}` and `${1}` the leading name or number is a variable. */
  private interpolationVariable(expr: Node): Node {
    switch (expr.type) {
      case 'BareWord':
        return { type: 'Variable', name: expr.name, start: expr.start, end: expr.end };
      case 'Literal':
        if (typeof expr.value === 'bigint' || typeof expr.value === 'number') {
          // `${1}` is the capture `$1`; `${0x10}`, `${01}` or `${1.5}` are no capture names.
          const name = this.source.slice(expr.start, expr.end);
          checkNumericName(name, (message) => this.error(message, expr.start, expr.end));
          return { type: 'Variable', name, start: expr.start, end: expr.end };
        }
        return expr;
      case 'Access':
        return { ...expr, target: this.interpolationVariable(expr.target) };
      case 'MethodCall':
        return { ...expr, receiver: this.interpolationVariable(expr.receiver) };
      default:
        return expr;
    }
  }
}

function parseNumber(text: string): bigint | number {
  // By hand rather than with regexps: `0x...` hex, `0[0-7]+` octal, `[0-9]+` decimal, else a Float.
  if (text.length > 1 && text.charCodeAt(0) === 48) {
    const c1 = text.charCodeAt(1);
    if (c1 === 120 || c1 === 88) return BigInt(text);
  }
  let octal = text.length > 1 && text.charCodeAt(0) === 48;
  let decimal = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return Number(text);
    if (c > 55) octal = false;
    decimal = decimal * 10 + (c - 48);
  }
  if (octal) return BigInt(`0o${text.slice(1)}`);
  // Up to 15 digits the number is exact, and BigInt of a number is cheaper than parsing the text again.
  return text.length <= 15 ? BigInt(decimal) : BigInt(text);
}
