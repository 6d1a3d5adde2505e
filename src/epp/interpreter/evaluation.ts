/**
 * One render of a template from its start: the template's parameters bound as the compiled code binds them
 * (given keys checked, defaults, types), then its body run, for its text or (a program) its last value.
 * `Evaluation` is the last layer of the class a render is, the one made (see `EvaluationState`).
 */
import type { ParameterNode, TemplateNode } from '../ast.js';
import { reservedParameter } from '../ast-walk.js';
import type { Value } from '../runtime/values.js';
import { CallEvaluation } from './calls-and-lambdas.js';
import { defaultScope, Scope } from './scope.js';

/** One render of a template: parameters, then body (the other layers hold the rest). */
export class Evaluation extends CallEvaluation {
  template(ast: TemplateNode): unknown {
    const rt = this.rt;
    const scope = new Scope(undefined, this.t.declaredNames(ast));
    if (ast.params) this.templateParameters(ast.params, scope);
    else rt.bindArguments(this.S0);
    if (this.t.value) {
      try {
        return this.valueBlock(ast.body, scope);
      } catch (e) {
        return rt.returnValue(e);
      }
    }
    try {
      this.statements(ast.body, scope);
    } catch (e) {
      return rt.templateEnded(e, this.out);
    }
    return this.out;
  }

  /**
   * Binds the template's parameters as the compiled code does (see `TemplateInterpreter.parameters`): every
   * given key must be declared; an absent (or undef) argument takes the default, else is missing (undef
   * stays undef); then the type check.
   */
  private templateParameters(params: readonly ParameterNode[], scope: Scope): void {
    const rt = this.rt;
    const reserved = reservedParameter(params);
    if (reserved) rt.reservedParameter(reserved.name, this.t.pos(reserved));
    const { specs, set } = this.t.parameters(params);
    if (set) {
      // All types constant, defaults that are code last: the runtime binds the data, code defaults follow.
      const bound = rt.params(set);
      for (let i = 0; i < params.length; i++) {
        const value = bound[i]!;
        const param = params[i]!;
        scope.set(
          param.name,
          value === rt.UNSET
            ? rt.checked(specs[i]!, this.expr(param.defaultValue!, defaultScope(scope, params, i, true)))
            : value,
        );
      }
      return;
    }
    rt.checkArguments(
      params.map((p) => p.name),
      this.t.pos(params[0] ?? NO_SPAN),
    );
    for (let i = 0; i < params.length; i++) {
      const param = params[i]!;
      const spec = specs[i];
      let value: Value | typeof rt.MISSING | typeof rt.UNSET;
      if (spec) {
        value = rt.param(spec);
        if (value === rt.UNSET) {
          value = rt.checked(spec, this.expr(param.defaultValue!, defaultScope(scope, params, i, true)));
        }
      } else {
        // A type that is no constant: evaluated after the value is chosen.
        value = rt.argument(param.name);
        if (param.defaultValue) {
          if (value === rt.MISSING || value === undefined) {
            value = this.expr(param.defaultValue, defaultScope(scope, params, i, true));
          }
        } else if (value === rt.MISSING) {
          value = rt.missingParameter(param.name, this.t.pos(param));
        }
        rt.checkParameter(this.expr(param.valueType!, scope), value, param.name, this.t.pos(param));
      }
      scope.set(param.name, value);
    }
  }
}

/** The position of errors about an empty parameter list. */
export const NO_SPAN = { start: 0, end: 0 };
