/**
 * The warnings of a template's text a render reports, as `puppet epp render` prints them at each parse:
 * its lexer's first, as it reads, then its validation's (a hash literal's key given twice), of which
 * Puppet prints at most 10 (its `max_warnings` setting, per file; issue_reporter.rb stops logging there
 * and says nothing of the rest). The template's AST keeps every warning (the editor and `validate` show
 * each, where it is), in this order: see `parseTemplate`.
 */
import type { SyntaxWarning } from './ast.js';

/** Puppet's `max_warnings` default: validation warnings printed per parse. */
export const MAX_VALIDATION_WARNINGS = 10;

/** The warnings of Puppet's validation, as opposed to its lexer's. */
function isValidation(warning: SyntaxWarning): boolean {
  return warning.code === 'EPP_DUPLICATE_KEY';
}

export function reportedWarnings(warnings: readonly SyntaxWarning[]): readonly SyntaxWarning[] {
  let validation = 0;
  for (const w of warnings) if (isValidation(w)) validation++;
  if (validation <= MAX_VALIDATION_WARNINGS) return warnings;
  let kept = 0;
  return warnings.filter((w) => !isValidation(w) || kept++ < MAX_VALIDATION_WARNINGS);
}
