/**
 * The generator's parameter binding: the template's parameters (as data for `rt.params` when it can), and
 * one parameter at a time, the template's or a lambda's (its default, the missing-parameter error, its type
 * check).
 */
import type { ParameterNode } from '../ast.js';
import { reservedParameter } from '../ast-walk.js';
import { isConstant, parameterLayout } from '../constants.js';
import type { ParameterSet, ParameterSpec } from '../runtime/runtime.js';
import { concat, str } from './helpers.js';
import { StatementGenerator } from './statements.js';

export abstract class ParameterGenerator extends StatementGenerator {
  /**
   * Binds the template's parameters. When every type is a constant (or absent) and the defaults that are
   * code come last, as data: `const P = rt.params(K[n]);` (see `Runtime.params`: the values of a hash are
   * bound once), then each local from `P`, a default that is code evaluated when its entry is unset.
   * Otherwise one parameter after the other, in order.
   */
  protected templateParameters(params: readonly ParameterNode[]): string {
    const n = params.length;
    const names = params.map((param) => param.name);
    const { codeDefaults, asData } = parameterLayout(params);
    const p = this.pos(params[0] ?? { start: 0, end: 0 });
    const lines: string[] = [];
    const reserved = reservedParameter(params);
    if (reserved) lines.push(`rt.reservedParameter(${str(reserved.name)}, ${this.pos(reserved)});`);
    if (asData) {
      const specs: ParameterSpec[] = [];
      for (let i = 0; i < n; i++) specs.push(this.parameterSpec(params[i]!, codeDefaults[i]!));
      lines.push(`const P = rt.params(${this.fixed({ names, p, specs } satisfies ParameterSet)});`);
      for (let i = 0; i < n; i++) lines.push(this.bindFrom(params[i]!, specs[i]!, `P[${i}]`));
    } else {
      lines.push(`rt.checkArguments(${this.fixed(names)}, ${p});`);
      for (let i = 0; i < n; i++) {
        const param = params[i]!;
        if (param.valueType && !isConstant(param.valueType)) {
          lines.push(this.bindParameter(param, `rt.argument(${str(param.name)})`));
          continue;
        }
        const spec = this.parameterSpec(param, codeDefaults[i]!);
        lines.push(this.bindFrom(param, spec, `rt.param(${this.fixed(spec)})`));
      }
    }
    return concat(lines, '\n');
  }

  /**
   * A template parameter whose type is a constant (or absent), as data for `Runtime.param`; `defaultCode`:
   * its default is no constant (evaluated by the code, see `bindFrom`).
   */
  private parameterSpec(param: ParameterNode, defaultCode: boolean): ParameterSpec {
    const valueType = param.valueType;
    const defaultValue = param.defaultValue;
    return {
      name: param.name,
      p: this.pos(param),
      type: valueType ? this.constantSlot(valueType) : undefined,
      defaultValue: defaultValue !== undefined && !defaultCode ? this.constantSlot(defaultValue) : undefined,
      defaultCode,
    };
  }

  /**
   * A parameter's default, in which reads of the parameters not bound yet (itself and those declared after
   * it) go to `rt.parameterAhead` (`template`: the template's parameters, whose given values are bound first).
   */
  private defaultExpr(param: ParameterNode, template: boolean): string {
    const scope = this.current;
    const params = scope.params ?? [param];
    const later = new Set(params.slice(params.indexOf(param)).map((p) => p.name));
    scope.pending = { from: param.name, names: later, template };
    try {
      return this.expr(param.defaultValue!);
    } finally {
      scope.pending = undefined;
    }
  }

  /** Sets a parameter's local from `Runtime.param`'s answer `given` (unset: evaluate the default). */
  private bindFrom(param: ParameterNode, spec: ParameterSpec, given: string): string {
    const local = this.current.locals.get(param.name)!;
    const code = spec.defaultCode
      ? `${local} = (t = ${given}) === U ? rt.checked(${this.fixed(spec)}, ${this.defaultExpr(param, true)}) : t;`
      : `${local} = ${given};`;
    this.current.bound.add(param.name);
    return code;
  }

  /**
   * Binds one parameter: the given value (`rt.MISSING` when absent), else its default (undef also takes the
   * default, as in Puppet), else a missing-parameter error; then the type check. `block`: a lambda's.
   */
  protected bindParameter(param: ParameterNode, given: string, present = false, block?: string): string {
    const local = this.current.locals.get(param.name)!;
    if (present && !param.defaultValue && !param.valueType) {
      // A lambda's required argument, already counted by the arity check: nothing to decide.
      this.current.bound.add(param.name);
      return `${local} = ${given};`;
    }
    const p = this.pos(param);
    const name = str(param.name);
    const v = this.temp();
    let code = `{ let ${v} = ${given};\n`;
    if (param.captureRest) {
      // `*$rest`: its default stands for no arguments, its type for each one (see Runtime.restParameter).
      if (param.defaultValue)
        code += `if (${v}.length === 0) ${v} = rt.restDefault(${this.defaultExpr(param, !block)});\n`;
      if (param.valueType)
        code += `rt.checkRestParameter(${this.expr(param.valueType)}, ${v}, ${name}, ${p}${block ? `, ${block}` : ''});\n`;
      code += `${local} = ${v}; }`;
      this.current.bound.add(param.name);
      return code;
    }
    if (param.defaultValue) {
      code += `if (${v} === rt.MISSING || ${v} === undefined) ${v} = ${this.defaultExpr(param, !block)};\n`;
    } else if (!present) {
      code += `if (${v} === rt.MISSING) ${v} = rt.missingParameter(${name}, ${p});\n`;
    }
    if (param.valueType) {
      code += `rt.checkParameter(${this.expr(param.valueType)}, ${v}, ${name}, ${p}${block ? `, ${block}` : ''});\n`;
    }
    code += `${local} = ${v}; }`;
    this.current.bound.add(param.name);
    return code;
  }
}
