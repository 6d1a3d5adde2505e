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
 *
 * The parser is one class built in layers, one file each, every layer adding one group of rules to the
 * one below it: token-cursor.ts (reading tokens, making syntax errors), expressions.ts (operators),
 * primary-expressions.ts (operands), statements.ts (statements, blocks, `if` and `case`), parameters.ts
 * (parameter lists and lambdas), and here the template itself and the entry points. The grammar is
 * recursive (an `if` is an operand whose body is statements), so a rule a layer needs from a later one is
 * declared `abstract` where it is called. Subclasses rather than free functions keep every rule a
 * `this.rule()` call, with no closures nor extra arguments on the token loop.
 */
import type { ParameterNode, SyntaxWarning, TemplateNode } from '../ast.js';
import { EppSyntaxError } from '../errors.js';
import { keepLexError, lex, lexErrorOf } from '../lexer/lexer.js';
import type { LexReport } from '../lexer/scanner.js';
import { keepHeredocSyntax, makeToken, type Token } from '../lexer/tokens.js';
import { checkStatementEffects } from './effects.js';
import { ParameterListParser } from './parameters.js';
import { inValidationOrder, type ValidationError } from './validation-order.js';

export interface ParseOptions {
  /** File name for error messages (default `<inline>`). */
  readonly file?: string;
  readonly delimiters?: readonly [string, string] | undefined;
}

export function parseTemplate(source: string, options: ParseOptions = {}): TemplateNode {
  const file = options.file ?? '<inline>';
  const report: LexReport = { warnings: [], endsInCode: false };
  const tokens = lex(source, { file, delimiters: options.delimiters, report });
  const parser = new Parser(tokens, source, file);
  let template: TemplateNode;
  try {
    template = parser.template();
  } catch (e) {
    // The warnings of the text before a syntax error go with it: Puppet's lexer gets no further.
    if (e instanceof EppSyntaxError) {
      const at = e.location?.span.start ?? source.length;
      withWarnings(
        e,
        report.warnings.filter((w) => w.start < at),
      );
    }
    throw e;
  }
  addValidationWarnings(report, parser.warnings);
  const effects = checkStatementEffects(template, source, file, report.endsInCode);
  const errors = [...effects, ...parser.validation.errors];
  if (errors.length > 0) {
    // A validation error comes after the whole text was read and validated: every warning goes with it.
    const error = validationFailure(errors, parser.warnings.length);
    withWarnings(error, report.warnings);
    throw error;
  }
  return report.warnings.length > 0 ? { ...template, warnings: report.warnings } : template;
}

/**
 * The error a template's validation errors make: the first in Puppet's order, carrying all of them when
 * there are several (see `EppSyntaxError.errors`). `warnings`: how many the validation gave (Puppet's
 * summary line counts them).
 */
function validationFailure(found: readonly ValidationError[], warnings: number): EppSyntaxError {
  const errors = inValidationOrder(found);
  const first = errors[0]!;
  if (errors.length > 1) {
    first.errors = errors;
    first.validationWarnings = warnings;
  }
  return first;
}

function withWarnings(error: EppSyntaxError, warnings: readonly SyntaxWarning[]): void {
  if (warnings.length > 0) error.warnings = warnings;
}

/** Parses Puppet code (no EPP tags), e.g. a `.pp` hook or a `--values` hash literal. */
export function parsePuppet(source: string, options: ParseOptions = {}): TemplateNode {
  // A code-only program is a template that is one code tag; delimiters that cannot occur keep it so.
  const open = '\u0000<';
  const close = '>\u0000';
  const file = options.file ?? '<inline>';
  // The space keeps a leading `#`, `-` or `=` from reading as a comment, trim or render tag.
  const wrapped = `${open} ${source}\n${close}`;
  const report: LexReport = { warnings: [], endsInCode: true };
  const textEnd = open.length + 1 + source.length;
  const tokens = lex(wrapped, { file, delimiters: [open, close], report, textEnd }).map((t) =>
    shift(t, -open.length - 1, source.length),
  );
  // A lexer error is at offsets in the wrapped text: moved to the source's, as the tokens are.
  const lexError = lexErrorOf(tokens.at(-1)!);
  if (lexError?.location?.source === wrapped) {
    const { start, end } = lexError.location.span;
    const at = (n: number) => Math.min(source.length, Math.max(0, n - open.length - 1));
    lexError.location = { file, source, span: { start: at(start), end: at(end) } };
  }
  const parser = new Parser(tokens, source, file);
  const program = parser.template();
  if (parser.validation.errors.length > 0) {
    throw validationFailure(parser.validation.errors, parser.warnings.length);
  }
  const by = -open.length - 1;
  // The lexer's warnings are at offsets in the wrapped text, the parser's in the source (see `shift`).
  const shifted = {
    ...report,
    warnings: report.warnings.map((w) => ({ ...w, start: w.start + by, end: w.end + by })),
  };
  addValidationWarnings(shifted, parser.warnings);
  if (shifted.warnings.length === 0) return program;
  return { ...program, warnings: shifted.warnings };
}

/**
 * The validation's warnings after the lexer's, in the order Puppet prints them: it lexes and parses the
 * whole text, then validates the tree (an outer hash literal before the ones inside it).
 */
function addValidationWarnings(report: LexReport, warnings: readonly SyntaxWarning[]): void {
  report.warnings.push(...warnings);
}

function shift(t: Token, by: number, limit: number): Token {
  const clamp = (n: number) => Math.min(limit, Math.max(0, n + by));
  const parts = t.parts?.map((p) => (typeof p === 'string' ? p : p.map((x) => shift(x, by, limit))));
  const moved = makeToken(t.kind, t.value, clamp(t.start), clamp(t.end), t.spaceBefore, parts);
  return keepLexError(t, keepHeredocSyntax(t, moved));
}

class Parser extends ParameterListParser {
  template(): TemplateNode {
    let params: ParameterNode[] | undefined;
    if (this.tokens[this.i]!.kind === 'PARAMS') {
      this.next();
      params = this.parameterList();
      this.duplicateCheck(params);
      const rest = params.find((p) => p.captureRest);
      if (rest)
        throw this.error(
          `Parameter $${rest.name} has 'captures rest' - not supported in an Epp Template`,
          rest.nameStart, // at its `$`, after the `*`, as Puppet places a parameter
          rest.end,
        );
    }
    const body = this.statements(false);
    const eof = this.tokens[this.i]!;
    if (eof.kind !== 'EOF' || lexErrorOf(eof)) throw this.unexpected(eof);
    return { type: 'Template', params, body, start: 0, end: this.source.length };
  }

  protected override nestedParser(tokens: Token[]): Parser {
    const nested = new Parser(tokens, this.source, this.file, this.depth + 1);
    nested.validation = this.validation;
    nested.warnings = this.warnings;
    return nested;
  }
}
