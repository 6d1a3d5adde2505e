/**
 * An EPP error of a template's file as a Problem, at the error's place. An error in a file the file
 * renders through epp() (a partial) says which file called it and at which line, as the template's other
 * render errors name their template and file: the partial's place alone did not tell which of the files
 * calling it, with which values, went wrong.
 */
import { isAbsolute, relative } from 'node:path';
import type { EppError, SourceLocation } from '../epp/errors.js';
import { lineColumn } from '../shared/position.js';
import type { TemplateFile } from './model.js';
import type { Problem } from './render-plan.js';

export function eppProblem(e: EppError, file: TemplateFile, template: string): Problem {
  const where = e.location
    ? { file: e.location.file, line: e.line!, column: e.column! }
    : { file: file.absPath, line: 1, column: 1 };
  const callers = e.location ? (e.callers ?? []) : [];
  const hint = e.hint ?? (callers.length > 0 ? argumentHint(e, callers[0]!, file) : undefined);
  return {
    severity: 'error',
    code: e.code,
    message: callers.length > 0 ? `${callChain(e, callers, file, template)}: ${e.message}` : e.message,
    file: where.file,
    line: where.line,
    column: where.column,
    ...(hint !== undefined ? { hint } : {}),
  };
}

/** `template 'x', file files/a.epp, line 2 renders partials/b.epp`, from the outermost call in. */
function callChain(
  e: EppError,
  callers: readonly SourceLocation[],
  file: TemplateFile,
  template: string,
): string {
  const outermost = callers.at(-1)!;
  const steps = [
    `template '${template}', file ${inTemplate(outermost.file, file)}, line ${lineOf(outermost)}`,
  ];
  for (let i = callers.length - 2; i >= 0; i--) {
    steps.push(`renders ${inTemplate(callers[i]!.file, file)}, line ${lineOf(callers[i]!)}`);
  }
  steps.push(`renders ${inTemplate(e.location!.file, file)}`);
  return steps.join(' ');
}

/** When the called file's parameters refuse what the call passes: where to fix it, on either side. */
function argumentHint(e: EppError, call: SourceLocation, file: TemplateFile): string | undefined {
  const { line, column } = lineColumn(call.source, call.span.start);
  const at = `${inTemplate(call.file, file)}:${line}:${column}`;
  const callee = inTemplate(e.location!.file, file);
  if (e.code === 'EPP_TYPE_MISMATCH' && e.message.startsWith("parameter '")) {
    return `fix the value the call at ${at} passes (a key missing from $metadata or $settings reads undef), or widen the parameter's type in ${callee} (Optional[...] also takes undef)`;
  }
  if (e.code === 'EPP_UNKNOWN_PARAMETER') {
    return `remove it from the arguments of the call at ${at}, or declare it in ${callee}'s parameters`;
  }
  return undefined;
}

function lineOf(location: SourceLocation): number {
  return lineColumn(location.source, location.span.start).line;
}

/** A path as the template names it (`partials/footer.epp`), or as it is when outside the template. */
function inTemplate(path: string, file: TemplateFile): string {
  const dir = file.absPath.slice(0, file.absPath.length - file.source.length);
  const rel = relative(dir, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel.split('\\').join('/');
}
