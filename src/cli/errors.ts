/**
 * The CLI's one place that turns errors into output and exit codes. A user's mistake (bad template, bad
 * values, bad configuration) prints its message with position and exits 1; anything else is a bug and
 * prints its stack with a request to report it.
 */
import { EppError, EppSyntaxError } from '../epp/errors.js';
import { PRINTED_VALIDATION_ERRORS } from '../epp/parser/validation-order.js';
import { type Displayable, fileOrigin, formatProblem } from './format-error.js';
import type { Io } from './io.js';
import { readableStack } from './stack.js';

/** A mistake in how the command was called (bad flag value, missing file). */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * A mistake at a place in a file the command was given, not a template (a values or facts file, or a
 * template that is no text): shown as a template's error is, `file:line:col: error: ...`, with a code frame
 * when the text is given.
 */
export class InputFileError extends Error {
  override name = 'InputFileError';
  readonly source: string | undefined;
  readonly span: { readonly start: number; readonly end: number } | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(
    readonly code: string,
    message: string,
    readonly file: string,
    at:
      | { readonly source: string; readonly span: { readonly start: number; readonly end: number } }
      | { readonly line: number; readonly column: number },
    readonly hint?: string,
  ) {
    super(message);
    this.source = 'source' in at ? at.source : undefined;
    this.span = 'span' in at ? at.span : undefined;
    this.line = 'line' in at ? at.line : undefined;
    this.column = 'column' in at ? at.column : undefined;
  }
}

/** Errors that carry a string `code` are the project's typed errors (or Node's file errors). */
function isUserError(e: unknown): e is Error & { code: string } {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string';
}

export function toDisplayable(e: Error & { code?: string }): Displayable {
  if (e instanceof EppError) {
    return {
      code: e.code,
      message: e.messageWithCallers,
      file: e.location?.file,
      source: e.location?.source,
      span: e.location?.span,
      hint: e.hint,
      origin: fileOrigin(e.location?.file),
    };
  }
  // Engine and sync errors carry `position: { file, line, column }`; others may carry the fields flat.
  const positioned = e as Error &
    Partial<Displayable> & { position?: { file: string; line: number; column: number } };
  const position = positioned.position;
  return {
    code: e.code,
    message: e.message,
    file: position?.file ?? positioned.file,
    line: position?.line ?? positioned.line,
    column: position?.column ?? positioned.column,
    source: positioned.source,
    span: positioned.span,
    hint: positioned.hint,
    origin: fileOrigin(position?.file ?? positioned.file),
  };
}

export function reportError(e: unknown, io: Io): number {
  if (e instanceof UsageError) {
    io.err(`${formatProblem({ message: e.message, hint: e.hint }, io.colors, io.widths?.err)}\n`);
    return 1;
  }
  if (e instanceof EppSyntaxError && e.errors) {
    reportValidationErrors(e, e.errors, io);
    return 1;
  }
  if (isUserError(e)) {
    io.err(`${formatProblem(toDisplayable(e), io.colors, io.widths?.err)}\n`);
    return 1;
  }
  const detail =
    e instanceof Error ? (e.stack === undefined ? e.message : readableStack(e.stack)) : String(e);
  io.err(
    `internal error: ${detail}\nThis is a bug in Pantograph; please report it with the command you ran.\n`,
  );
  return 70;
}

/**
 * Several errors of a template's validation, as `puppet epp render` prints them: each (the first ten, its
 * `max_errors`), then "Language validation logged N errors. Giving up" at the file.
 */
function reportValidationErrors(e: EppSyntaxError, errors: readonly EppSyntaxError[], io: Io): void {
  for (const error of errors.slice(0, PRINTED_VALIDATION_ERRORS)) {
    io.err(`${formatProblem(toDisplayable(error), io.colors, io.widths?.err)}\n`);
  }
  const summary = { message: e.givingUp ?? '', file: e.location?.file, origin: fileOrigin(e.location?.file) };
  io.err(`${formatProblem(summary, io.colors, io.widths?.err)}\n`);
}
