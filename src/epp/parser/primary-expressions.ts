/**
 * Primary expressions, the operands of the operators: literals (numbers, strings, regexps, `true`, `undef`,
 * `default`), variables, type references and `Type(...)` calls, bare words and function calls, array and
 * hash literals, parentheses, the keyword expressions, and double-quoted strings with their `${...}`
 * interpolations.
 *
 * One token decides which: `primary` is a switch on its kind. The block-bodied keyword expressions (`if`,
 * `unless`, `case`) are statements' business (statements.ts) and a call's lambda is parameters.ts's; both
 * are declared here and defined in those layers.
 */
import type { Node, ProducedTextSyntax } from '../ast.js';
import { checkNumericName, isDigits } from '../lexer/chars.js';
import { heredocSyntaxOf, makeToken, type Token } from '../lexer/tokens.js';
import { hasSyntaxChecker, producedTextHint, producedTextProblem } from '../produced-text/index.js';
import { RegexpSyntaxError, toJsRegExp } from '../runtime/regexp/translate.js';
import { ExpressionParser } from './expressions.js';

export abstract class PrimaryExpressionParser extends ExpressionParser {
  protected override primary(): Node {
    const t = this.next();
    const { start, end } = t;
    switch (t.kind) {
      case 'NUMBER': {
        const value = parseNumber(t.value);
        if (typeof value === 'bigint' && (value > 9223372036854775807n || value < -9223372036854775808n)) {
          // Puppet's words, the value printed as Ruby's `'%#+x' % value`.
          const hex = `${value < 0n ? '-' : '+'}0x${(value < 0n ? -value : value).toString(16)}`;
          // Puppet's validation refuses it, with its other errors (the literal is never evaluated).
          this.refuseAfterParse(
            `A Literal Integer resulted in a value outside of Puppet Integer max range, got '${hex}'`,
            start,
            end,
            undefined,
            { start, end },
            'EPP_INTEGER_OVERFLOW',
          );
        }
        return { type: 'Literal', value, start, end };
      }
      case 'STRING':
        return { type: 'Literal', value: t.value, start, end };
      case 'DQ':
        return this.interpolated(t);
      case 'REGEX':
        this.checkRegexp(t.value, start, end);
        return { type: 'Regex', source: t.value, start, end };
      case 'VARIABLE':
        if (!isDigits(t.value) && !VARIABLE_NAME.test(t.value)) {
          // `${x}` in code: Puppet's parser fails at the `{` before its validation looks at the name ''.
          if (t.value === '' && this.isPunct('{')) throw this.unexpected(this.tokens[this.i]!);
          throw this.error(
            `Illegal variable name, The given name '${t.value}' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/`,
            start,
            end,
          );
        }
        return { type: 'Variable', name: t.value, start, end };
      case 'TYPE': {
        // A type called is its `new`, with or without a space before the parenthesis (`Integer ('3')`).
        if (this.isPunct('(')) {
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
        if (RESERVED_WORDS.has(t.value)) {
          throw this.error(
            `Use of reserved word: ${t.value}, must be quoted if intended to be a String value`,
            start,
            end,
          );
        }
        return { type: 'BareWord', name: t.value, start, end };
      }
      case 'KEYWORD':
        return this.keyword(t);
      case 'TEXT':
      case 'RENDER':
        // Puppet's grammar makes template text and a `<%= %>` render operands like any other: `<% if %>abc`
        // tests the text (rendering it, undef), and `<% $x = %>abc` assigns it.
        return this.textOrRender(t);
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

  /** Template text or a `<%= %>` render, whose first token `t` was consumed. */
  protected textOrRender(t: Token): Node {
    if (t.kind === 'TEXT') return { type: 'Text', value: t.value, start: t.start, end: t.end };
    const expr = this.renderExpression();
    const end = this.tokens[this.i]!;
    if (end.kind !== 'RENDER_END') throw this.unexpected(end);
    this.next();
    return { type: 'Render', expr, start: t.start, end: end.end };
  }

  private renderExpression(): Node {
    const expr = this.expression();
    if (expr.type === 'Assignment') {
      const eq = this.source.indexOf('=', expr.target.end);
      throw this.error(`Syntax error at '='`, eq, eq + 1);
    }
    return expr;
  }

  protected keyword(t: Token): Node {
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
        return this.definition(t);
      default:
        throw this.unexpected(t);
    }
  }

  /** A double-quoted string: text parts and `${...}` / `$name` expressions. */
  protected interpolated(t: Token): Node {
    const parts: (string | Node)[] = [];
    const tokenParts = t.parts ?? [''];
    for (const [i, part] of tokenParts.entries()) {
      if (typeof part === 'string') {
        parts.push(part);
        continue;
      }
      if (part[0]!.kind === 'EOF') {
        // `"${}"`: Puppet's parser finds no expression there and fails at the text that follows the `}`
        // (up to the next interpolation or the string's end), where that text begins.
        const next = tokenParts[i + 1];
        const text = typeof next === 'string' ? next : '';
        throw this.error(`Syntax error at '${text}'`, part[0]!.end, part[0]!.end + 1);
      }
      const sub = this.nestedParser(this.withInterpolatedVariable(part));
      const expr = sub.expression();
      const rest = sub.peek(0);
      if (rest.kind !== 'EOF') throw sub.unexpected(rest);
      parts.push(expr);
    }
    const heredoc = heredocSyntaxOf(t);
    const syntax =
      heredoc && hasSyntaxChecker(heredoc.name)
        ? { name: heredoc.name, textStart: t.start + heredoc.textOffset }
        : undefined;
    if (parts.every((p) => typeof p === 'string')) {
      const value = (parts as string[]).join('');
      if (syntax) this.checkProducedText(value, syntax);
      return { type: 'Literal', value, start: t.start, end: t.end };
    }
    if (syntax) return { type: 'Interpolated', parts, syntax, start: t.start, end: t.end };
    return { type: 'Interpolated', parts, start: t.start, end: t.end };
  }

  /** A heredoc's text without interpolation is checked in its declared syntax now, as Puppet's validation does. */
  private checkProducedText(text: string, syntax: ProducedTextSyntax): void {
    const problem = producedTextProblem(text, syntax.name);
    if (problem === undefined) return;
    const error = this.error(problem, syntax.textStart, syntax.textStart + 1, 'EPP_HEREDOC_SYNTAX');
    error.hint = producedTextHint(syntax.name);
    throw error;
  }

  /**
   * Puppet's lexer rule for `${...}` (`enqueue_until`): a name, keyword or number that is the only token,
   * or the first one followed by `.` or `[` (not a `[` after a space, which opens an array), is a
   * variable: `${x}`, `${x[0] + 5}`, `${x.length + 1}`, `${1}`. Otherwise it stays what it is (`${x + 1}`
   * adds to the string 'x', as in Puppet).
   */
  private withInterpolatedVariable(tokens: Token[]): Token[] {
    const first = tokens[0]!;
    const second = tokens[1]!;
    const single = second.kind === 'EOF';
    const chained =
      second.kind === 'PUNCT' && (second.value === '.' || (second.value === '[' && !second.spaceBefore));
    if (!single && !chained) return tokens;
    if (first.kind !== 'NAME' && first.kind !== 'KEYWORD' && first.kind !== 'NUMBER') return tokens;
    // `${1}` is the capture `$1`; `${0x10}`, `${01}` or `${1.5}` are no capture names.
    if (first.kind === 'NUMBER')
      checkNumericName(first.value, (message) => this.error(message, first.start, first.end));
    const variable = makeToken('VARIABLE', first.value, first.start, first.end, first.spaceBefore);
    return [variable, ...tokens.slice(1)];
  }

  protected abstract ifExpression(t: Token): Node;

  protected abstract caseExpression(t: Token): Node;

  protected abstract definition(t: Token): Node;

  /** A parser of the same source for the tokens of one `${...}` interpolation, one level deeper. */
  protected abstract nestedParser(tokens: Token[]): PrimaryExpressionParser;

  /**
   * A regexp literal Onigmo would refuse, or one Pantograph cannot run (JavaScript has no way to say it),
   * is a syntax error, as Puppet's lexer makes it: `validate` and the editor see it before any render.
   */
  private checkRegexp(source: string, start: number, end: number): void {
    try {
      toJsRegExp(source);
    } catch (e) {
      const error = this.error(`Invalid regular expression /${source}/: ${(e as Error).message}`, start, end);
      if (e instanceof RegexpSyntaxError && e.unsupported) error.hint = UNSUPPORTED_REGEXP_HINT;
      throw error;
    }
  }
}

/** Puppet's rule for variable names (`Patterns::VAR_NAME`); `$Cap` is refused, reading or assigning. */
const VARIABLE_NAME = /^((::)?[a-z]\w*)*((::)?[a-z_]\w*)$/;

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

const UNSUPPORTED_REGEXP_HINT =
  "Puppet's regexps run as JavaScript's here, which cannot say this: write the pattern without it (README, Errors)";

/** Words Puppet reserves for future use: refused as bare words (Puppet's lexer, `attr`, `private`). */
const RESERVED_WORDS: ReadonlySet<string> = new Set(['attr', 'private']);
