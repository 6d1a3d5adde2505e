/**
 * Typed EPP errors. Every error carries a `code` (a stable string a program can test) and, where it points
 * at user input, the file, the source text and a `[start, end)` span of offsets. Line and column are
 * computed on demand (see `shared/position.ts`): errors are cheap to create and most are never displayed.
 */
import { lineColumn } from '../shared/position.js';
import type { SyntaxWarning } from './ast.js';

export type EppErrorCode =
  // lexing and parsing
  | 'EPP_SYNTAX'
  | 'EPP_UNCLOSED_TAG'
  | 'EPP_UNBALANCED_TAG'
  | 'EPP_UNCLOSED_STRING'
  | 'EPP_PARAMS_NOT_FIRST'
  | 'EPP_EMPTY_RENDER_TAG'
  | 'EPP_UNSUPPORTED'
  | 'EPP_NO_EFFECT'
  | 'EPP_HEREDOC_SYNTAX'
  | 'EPP_DELIMITERS'
  | 'EPP_ENCODING'
  | 'EPP_INTERNAL'
  // parameters and values
  | 'EPP_MISSING_PARAMETER'
  | 'EPP_UNKNOWN_PARAMETER'
  | 'EPP_TYPE_MISMATCH'
  // evaluation
  | 'EPP_UNKNOWN_VARIABLE'
  | 'EPP_UNKNOWN_FUNCTION'
  | 'EPP_UNKNOWN_TYPE'
  | 'EPP_REASSIGNMENT'
  | 'EPP_ARGUMENTS'
  | 'EPP_OPERATOR'
  | 'EPP_DIVISION_BY_ZERO'
  | 'EPP_INTEGER_OVERFLOW'
  | 'EPP_FLOAT_OVERFLOW'
  | 'EPP_CONVERSION'
  | 'EPP_ACCESS'
  | 'EPP_NO_MATCH'
  | 'EPP_FAIL'
  | 'EPP_TEMPLATE_NOT_FOUND'
  | 'EPP_BREAK_OUTSIDE_ITERATION'
  | 'EPP_TIME_LIMIT'
  | 'EPP_ITERATION_LIMIT'
  | 'EPP_MEMORY_LIMIT'
  // the library API
  | 'EPP_FUNCTION_DEFINITION'
  | 'EPP_EVAL';

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Where an error points: a file name (may be a label like `<inline>`), its text and a span in it. */
export interface SourceLocation {
  readonly file: string;
  readonly source: string;
  readonly span: Span;
}

export class EppError extends Error {
  override name = 'EppError';
  location: SourceLocation | undefined;
  /** A short suggestion of what to do, shown under the code frame. */
  hint: string | undefined;
  /**
   * When the error is in another template than the one rendered (a file epp() renders, a module's
   * function): the call that led there in each template on the way, innermost first.
   */
  callers: SourceLocation[] | undefined;

  constructor(
    readonly code: EppErrorCode,
    message: string,
    location?: SourceLocation,
    hint?: string,
  ) {
    super(message);
    this.location = location;
    this.hint = hint;
  }

  /** 1-based line of the error's start, when it has a location. */
  get line(): number | undefined {
    return this.location ? lineColumn(this.location.source, this.location.span.start).line : undefined;
  }

  /** 1-based column of the error's start, when it has a location. */
  get column(): number | undefined {
    return this.location ? lineColumn(this.location.source, this.location.span.start).column : undefined;
  }

  /** `file:line:col` when known, else the file name, else ''. */
  get where(): string {
    if (!this.location) return '';
    const { line, column } = lineColumn(this.location.source, this.location.span.start);
    return `${this.location.file}:${line}:${column}`;
  }

  /**
   * The message with the calls that led to the template at fault, as `epp render` and the playground
   * say it: `… (called at partials/a.epp:3:5, from main.epp:2:5)`.
   */
  get messageWithCallers(): string {
    if (!this.callers) return this.message;
    const places = this.callers.map((c) => {
      const { line, column } = lineColumn(c.source, c.span.start);
      return `${c.file}:${line}:${column}`;
    });
    return `${this.message} (called at ${places.join(', from ')})`;
  }

  /** Attaches a location unless one is already there (the innermost position wins). */
  at(location: SourceLocation): this {
    if (!this.location) this.location = location;
    return this;
  }

  /**
   * Notes the call at `location` that led to the template the error is in, when that call is in another
   * template than the last one noted (outer calls in the same template, a `map` around the epp(), add
   * nothing).
   */
  calledFrom(location: SourceLocation): this {
    const last = this.callers?.at(-1) ?? this.location;
    if (last && last.file === location.file && last.source === location.source) return this;
    (this.callers ??= []).push(location);
    return this;
  }
}

/** An error found while reading a template (lexer or parser). Always has a location. */
export class EppSyntaxError extends EppError {
  override name = 'EppSyntaxError';
  /**
   * What the lexer warned of before the error (an escape a string does not know), which Puppet reports
   * before the error, as its lexer reads only as far as its parser gets (see `reportSyntaxWarnings`).
   */
  warnings: readonly SyntaxWarning[] | undefined;
  /**
   * When Puppet's validation found several errors: all of them, in the order Puppet prints them, this one
   * first (its message and position are the first's). Undefined for a single error.
   */
  errors: readonly EppSyntaxError[] | undefined;
  /** With `errors`: how many warnings the validation gave, which Puppet's summary line counts. */
  validationWarnings = 0;

  /**
   * Puppet's line after several validation errors, "Language validation logged 2 errors. Giving up"
   * (with ", and 1 warnings" when it warned too); undefined for a single error.
   */
  get givingUp(): string | undefined {
    if (!this.errors) return undefined;
    const warned = this.validationWarnings > 0 ? `, and ${this.validationWarnings} warnings` : '';
    return `Language validation logged ${this.errors.length} errors${warned}. Giving up`;
  }
}

/** An error raised while rendering. Functions throw it without a location; the call site adds one. */
export class EppEvalError extends EppError {
  override name = 'EppEvalError';
}

/**
 * An error a function raises that Puppet raises with its position already, so that its evaluator does
 * not put `Error while evaluating a Function Call, ` before it (`return()` where it is illegal). The
 * call site still gives it its position (see `Runtime.locateCall`).
 */
export class PlacedEvalError extends EppEvalError {}

/**
 * An error in a type's parameters that Puppet places at one of the access's keys (`Integer['a']` at its
 * `'a'`). `keyIndex` counts the keys as the access operator sees them, nested arrays flattened; Puppet
 * looks it up among the written keys, and one past them gives no key (the access's own position then).
 */
export class TypeKeyError extends EppEvalError {
  constructor(
    message: string,
    readonly keyIndex: number,
  ) {
    super('EPP_ARGUMENTS', message);
  }
}
