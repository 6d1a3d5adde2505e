/** A layer of a template's inspection (see ../inspect.ts): the `epp()` call sites and their parameters. */
import type { TemplateNode } from '../../epp/ast.js';
import { didYouMeanHint } from '../../shared/did-you-mean.js';
import { type EppAnalysis, type EppCall, problemAt } from '../static-analysis.js';
import { toJson } from '../yaml-data.js';
import { eppDefault, leadingComment, lineOf, parameter, setKey } from './helpers.js';
import { PartialsInspector } from './partials.js';
import type { InspectCall, InspectOrigin, InspectParameter } from './tree.js';

/** The `epp()` call sites of a file or partial, each with its own parameters, recursively. */
export abstract class CallSiteInspector extends PartialsInspector {
  /** The call sites of a file or partial, each with its own parameters, recursively. */
  protected nested(
    analysis: EppAnalysis,
    source: string,
    file: string,
    stack: readonly string[],
  ): Record<string, InspectCall> {
    const out: Record<string, InspectCall> = {};
    for (const call of analysis.eppCalls) {
      const { line, column } = lineOf(source, call.start);
      setKey(out, `${call.path ?? call.pathText}@${line}:${column}`, this.call(call, source, file, stack));
    }
    return out;
  }

  private call(call: EppCall, source: string, file: string, stack: readonly string[]): InspectCall {
    const { line, column } = lineOf(source, call.start);
    const site = { Line: line, Column: column };
    if (call.path === undefined) {
      return {
        Type: null,
        Description: null,
        File: null,
        ...site,
        Parameters: {},
        NestedParameters: {},
        Error: `the path ${call.pathText} is only known at render time`,
      };
    }
    const target = this.resolvePartial(call.path);
    if (target === undefined) {
      this.problems.push(
        problemAt(
          'error',
          'EPP_TEMPLATE_NOT_FOUND',
          `Could not find template '${call.path}'`,
          file,
          source,
          call.start,
          `epp() paths are relative to the template's directory (${this.t.dir}); partials live in partials/`,
        ),
      );
      return {
        Type: call.path,
        Description: null,
        File: null,
        ...site,
        Parameters: {},
        NestedParameters: {},
        Error: 'not found',
      };
    }
    const parsed = this.parse(target);
    if (!parsed.ast || !parsed.analysis) {
      const error = parsed.error ?? 'unreadable';
      return {
        Type: call.path,
        Description: null,
        File: target,
        ...site,
        Parameters: {},
        NestedParameters: {},
        Error: error,
      };
    }
    const node = {
      Type: call.path,
      Description: leadingComment(parsed.source, this.t.manifest.delimiters),
      File: target,
      ...site,
    };
    this.notePartialUse(target, call);
    const parameters = this.callParameters(call, parsed.ast, parsed.source, source, file);
    if (stack.includes(target)) {
      return {
        ...node,
        Parameters: parameters,
        NestedParameters: {},
        Error: 'calls itself (recursion not expanded)',
      };
    }
    return {
      ...node,
      Parameters: parameters,
      NestedParameters: this.nested(parsed.analysis, parsed.source, target, [...stack, target]),
    };
  }

  /** The parameters of a partial at one call site: the caller's arguments, else the partial's defaults. */
  private callParameters(
    call: EppCall,
    callee: TemplateNode,
    calleeSource: string,
    source: string,
    file: string,
  ): Record<string, InspectParameter> {
    const out: Record<string, InspectParameter> = {};
    const args = call.args;
    const caller = (offset: number, detail?: string): InspectOrigin => {
      const { line, column } = lineOf(source, offset);
      return {
        Layer: 'caller',
        ...(detail !== undefined ? { Detail: detail } : {}),
        File: file,
        Line: line,
        Column: column,
      };
    };
    if (!callee.params) {
      // A partial without parameters sees what it is given as variables.
      for (const [key, arg] of args ?? []) {
        setKey(
          out,
          key,
          parameter('Any', null, {
            Value: arg.value === undefined ? null : toJson(arg.value),
            origin: caller(arg.start, arg.value === undefined ? arg.text : undefined),
          }),
        );
      }
      return out;
    }
    const declared = callee.params.map((p) => p.name);
    for (const p of callee.params) {
      const type = p.valueType ? calleeSource.slice(p.valueType.start, p.valueType.end) : 'Any';
      const own = eppDefault(p, calleeSource);
      const defaults = Object.hasOwn(own, 'Default') ? { Default: own.Default } : {};
      const arg = args?.get(p.name);
      if (!args) {
        setKey(
          out,
          p.name,
          parameter(type, null, { ...defaults, Value: null, origin: caller(call.start, call.argsText) }),
        );
      } else if (arg) {
        const known = arg.value !== undefined;
        setKey(
          out,
          p.name,
          parameter(type, null, {
            ...defaults,
            Value: known ? toJson(arg.value) : null,
            origin: caller(arg.start, known ? undefined : arg.text),
          }),
        );
      } else {
        setKey(out, p.name, parameter(type, null, own));
        if (!p.defaultValue) {
          this.problems.push(
            problemAt(
              'error',
              'NESTED_MISSING_PARAMETER',
              `epp('${call.path}') passes no value for its required parameter '${p.name}'`,
              file,
              source,
              call.start,
              `pass '${p.name}' in the arguments hash, or give the parameter a default in ${call.path}`,
            ),
          );
        }
      }
    }
    for (const [key, arg] of args ?? []) {
      if (declared.includes(key)) continue;
      this.problems.push(
        problemAt(
          'error',
          'NESTED_UNKNOWN_PARAMETER',
          `epp('${call.path}') passes '${key}', which the template does not declare`,
          file,
          source,
          arg.start,
          didYouMeanHint(key, declared) ?? `declare it in ${call.path}, or leave it out`,
        ),
      );
    }
    return out;
  }
}
