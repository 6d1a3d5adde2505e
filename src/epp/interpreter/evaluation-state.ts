/**
 * What every part of one render shares: the template's interpreter (what it keeps between renders), the
 * runtime, the dynamic scope `S0` and the output so far.
 *
 * A render is one object, of a class built in layers, one concern per file: this state, statements and
 * control flow (statements.ts), expressions and operators (expressions.ts), calls and lambdas
 * (calls-and-lambdas.ts), and the render's start, the template's parameters (evaluation.ts). Layers of one
 * class rather than objects that call each other: a method is found on the render's own prototype chain,
 * as when the class was one, with no object or indirection more on the first-render path. A layer declares
 * (abstract) what it calls of a later one.
 */
import type { Runtime } from '../runtime/runtime.js';
import type { Value } from '../runtime/values.js';
import type { TemplateInterpreter } from './interpreter.js';

/** One render of a template: its runtime, dynamic scope and output. */
export abstract class EvaluationState {
  protected out = '';

  constructor(
    protected readonly t: TemplateInterpreter,
    protected readonly rt: Runtime,
    protected readonly S0: Record<string, Value>,
  ) {}
}
