/**
 * The order in which Puppet's validation reports its errors. Its validator checks the tree top-down,
 * each node before the nodes inside it and those in source order (Checker4_0 over `_pcore_all_contents`),
 * and logs every error it finds; several are printed one by one, then "Language validation logged N
 * errors. Giving up". Pantograph finds them while parsing (and the statements that do nothing after it,
 * effects.ts), so each notes the node whose check found it: sorting by that node's start, then the longer
 * (enclosing) node first, visits the nodes as Puppet's preorder walk does. The sort is stable: the errors
 * one node's check finds keep the order it found them in (the elements of `[$0, 1] = ...`).
 */
import type { EppSyntaxError, Span } from '../errors.js';

export interface ValidationError {
  readonly error: EppSyntaxError;
  /** The node whose check found the error (an assignment for its target, a block for its statement). */
  readonly checked: Span;
}

/** How many errors Puppet prints before its summary line (its `max_errors` setting's default). */
export const PRINTED_VALIDATION_ERRORS = 10;

/** The errors in Puppet's order; the first is the one a caller that shows one error shows. */
export function inValidationOrder(errors: readonly ValidationError[]): EppSyntaxError[] {
  return [...errors]
    .sort((a, b) => a.checked.start - b.checked.start || b.checked.end - a.checked.end)
    .map((e) => e.error);
}
