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
import { acceptsTemplateArgument } from './runtime/template-arguments.js';
import { describeMismatch, PType } from './runtime/types.js';
import type { Value } from './runtime/values.js';

/** The problems of the parameters of `ast` (parsed from `source`), each located in `file`. */
export function parameterProblems(ast: TemplateNode, source: string, file: string): EppError[] {
  const problems: EppError[] = [];
  for (const p of ast.params ?? []) {
    const problem = parameterProblem(p, source, file);
    if (problem) problems.push(problem);
  }
  return problems;
}

function parameterProblem(p: ParameterNode, source: string, file: string): EppError | undefined {
  if (!p.valueType) return undefined;
  const type = evaluated(p.valueType, source, file);
  if (type instanceof EppError) return type;
  if (!(type instanceof PType) || !p.defaultValue || !isConstant(p.defaultValue)) return undefined;
  const value = evaluated(p.defaultValue, source, file);
  if (value instanceof EppError) return value;
  if (acceptsTemplateArgument(type, value)) return undefined;
  return new EppEvalError('EPP_TYPE_MISMATCH', describeMismatch(type, value, `parameter '${p.name}'`), {
    file,
    source,
    span: { start: p.start, end: p.end },
  });
}

/** The value of an expression of the template, or its error located in the template. */
function evaluated(node: Node, source: string, file: string): Value | EppError {
  const text = source.slice(node.start, node.end);
  try {
    return evaluatePuppet(text, { file });
  } catch (e) {
    if (!(e instanceof EppError)) throw e;
    const span = e.location?.span ?? { start: 0, end: text.length };
    return new EppEvalError(
      e.code,
      e.message,
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
