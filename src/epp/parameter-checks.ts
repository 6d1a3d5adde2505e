/**
 * Checks of a template's declared parameters that need no values: each type must name a known type, and
 * a default written as a constant must be of its parameter's type. Rendering finds the same problems only
 * when it reaches them (a default is evaluated only when no value is given), with the same codes and
 * messages; an editor wants them as soon as they are typed.
 */
import type { Node, ParameterNode, TemplateNode } from './ast.js';
import { children } from './ast-walk.js';
import { evaluatePuppet } from './epp.js';
import { EppError, EppEvalError } from './errors.js';
import type { ModulePathEntry } from './module-path.js';
import { acceptsTemplateArgument } from './runtime/template-arguments.js';
import { AliasType, describeMismatch, PType } from './runtime/types.js';
import type { Value } from './runtime/values.js';

/** Where the types a template names are found besides Puppet's own: a module path (see RenderOptions). */
export interface ParameterCheckOptions {
  readonly modulePath?: readonly ModulePathEntry[] | undefined;
}

/** The problems of the parameters of `ast` (parsed from `source`), each located in `file`. */
export function parameterProblems(
  ast: TemplateNode,
  source: string,
  file: string,
  options: ParameterCheckOptions = {},
): EppError[] {
  const problems: EppError[] = [];
  const where = { file, modulePath: options.modulePath };
  for (const p of ast.params ?? []) {
    const problem = parameterProblem(p, source, where);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** The file a template is in, and its module path. */
interface Where {
  readonly file: string;
  readonly modulePath: readonly ModulePathEntry[] | undefined;
}

function parameterProblem(p: ParameterNode, source: string, where: Where): EppError | undefined {
  if (!p.valueType) return undefined;
  const type = evaluated(p.valueType, source, where);
  if (type instanceof EppError) return type;
  if (!(type instanceof PType) || !p.defaultValue || !isConstant(p.defaultValue)) return undefined;
  const value = evaluated(p.defaultValue, source, where);
  if (value instanceof EppError) return value;
  if (acceptsTemplateArgument(type, value)) return undefined;
  return new EppEvalError('EPP_TYPE_MISMATCH', describeMismatch(type, value, `parameter '${p.name}'`), {
    file: where.file,
    source,
    span: { start: p.start, end: p.end },
  });
}

/** The value of an expression of the template, or its error located in the template. */
function evaluated(node: Node, source: string, where: Where): Value | EppError {
  const text = source.slice(node.start, node.end);
  const { file } = where;
  try {
    const value = evaluatePuppet(text, where);
    // A module's alias is read when first used: an editor wants its errors as soon as it is named.
    if (value instanceof AliasType) value.resolved();
    return value;
  } catch (e) {
    if (!(e instanceof EppError)) throw e;
    // An error in a module's file (a type alias the expression names) is shown on the whole expression,
    // saying where in that file it is.
    const elsewhere = e.location !== undefined && e.location.file !== file;
    const span = elsewhere
      ? { start: 0, end: text.length }
      : (e.location?.span ?? { start: 0, end: text.length });
    const message = elsewhere ? `${e.message} (${e.location!.file}:${e.line}:${e.column})` : e.message;
    return new EppEvalError(
      e.code,
      message,
      { file, source, span: { start: node.start + span.start, end: node.start + span.end } },
      e.hint,
    );
  }
}

/** Whether an expression reads nothing and calls nothing: its value is the same at every render. */
function isConstant(node: Node): boolean {
  if (node.type === 'Variable' || node.type === 'Call' || node.type === 'MethodCall' || node.type === 'New')
    return false;
  return children(node).every((c) => c.type !== 'Parameter' && isConstant(c));
}
