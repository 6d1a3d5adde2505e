/**
 * The generator's lambdas: a lambda's JavaScript function (its scope, arity check and parameters; a plain
 * lambda's required, untyped parameters are the function's own), and `rt.lambda` around it.
 */
import type { LambdaNode } from '../ast.js';
import { parameterNameSpan, reservedParameter } from '../ast-walk.js';
import { hasRest, requiredCount } from '../calls.js';
import { isConstant } from '../constants.js';
import { ConstantLambdaSignature } from '../runtime/block-signature.js';
import type { ConstantSlot } from '../runtime/contracts.js';
import { BODY_CAPTURES, BODY_NEXT } from './facts.js';
import { arityArgument, isUniqueName, str } from './helpers.js';
import { ParameterGenerator } from './parameters.js';

export abstract class LambdaGenerator extends ParameterGenerator {
  protected override lambda(node: LambdaNode | undefined): string {
    if (!node) return 'undefined';
    const params = node.params;
    const fn = this.plainLambda(node);
    return `rt.lambda(${fn.code}, ${params.length}, ${requiredCount(params)}, ${hasRest(params)}${arityArgument(fn)})`;
  }

  /**
   * The lambda's JavaScript function, without the metadata `rt.lambda` adds. Nested in a lambda and
   * reading none of its locals, it is hoisted (see `hoisted`) and this is its name. A lambda whose parameters
   * are all required and untyped does not check its arity itself (the runtime loops call it right):
   * `unchecked` is then its parameters' names and spans (a `K` entry), for `rt.lambda` to wrap it with the
   * check when a function calls it.
   * Plain loops, no callbacks: this runs for every lambda of every compile, mostly in unoptimised code.
   */
  protected plainLambda(node: LambdaNode): { code: string; unchecked: string | undefined } {
    const params = node.params;
    const n = params.length;
    const scope = this.openScope(params, node);
    const required = requiredCount(params);
    // Parameters before the first optional one are present once the arity check has passed.
    let firstOptional = n;
    for (let i = 0; i < n; i++) {
      if (params[i]!.defaultValue || params[i]!.captureRest) {
        firstOptional = i;
        break;
      }
    }
    // A present, untyped parameter is the JavaScript parameter itself (its local): nothing to bind.
    const direct: boolean[] = [];
    const own = new Set<string>();
    let args = '';
    let allDirect = true;
    for (let i = 0; i < n; i++) {
      const param = params[i]!;
      const local = scope.locals.get(param.name);
      const isDirect =
        i < firstOptional && !param.valueType && local !== undefined && isUniqueName(params, i);
      direct.push(isDirect);
      if (isDirect) own.add(local);
      else allDirect = false;
      args += `${i > 0 ? ', ' : ''}${isDirect ? local : `a${i}`}`;
    }
    // In parentheses: compiled at once, see `Generator.template` (compiler.ts).
    let code = `(function (${args}) { let t; ${this.declareLocals(scope, own)}\n`;
    // Arguments beyond the parameters are dropped (as Puppet's closures drop them): only too few is an error.
    const requiredParameters =
      required > 0
        ? this.fixed(
            params.slice(0, required).map((param) => [param.name, this.pos(parameterNameSpan(param))]),
          )
        : '';
    const unchecked = allDirect && required > 0 ? requiredParameters : undefined;
    if (!allDirect && required > 0) {
      code += `if (arguments.length < ${required}) rt.missingRequired(${requiredParameters}, arguments.length);\n`;
    }
    let signature: string | undefined;
    const reserved = reservedParameter(params);
    if (reserved) code += `rt.reservedParameter(${str(reserved.name)}, ${this.pos(reserved)}, true);\n`;
    for (let i = 0; i < n; i++) {
      const param = params[i]!;
      if (direct[i]) {
        scope.bound.add(param.name);
        continue;
      }
      const present = i < firstOptional;
      const given = param.captureRest
        ? `Array.prototype.slice.call(arguments, ${i})`
        : present
          ? `a${i}`
          : `(arguments.length > ${i} ? a${i} : rt.MISSING)`;
      code += `${this.bindParameter(param, given, present, (signature ??= this.lambdaSignature(node)))}\n`;
    }
    scope.indexes = new Map();
    // Only a body that calls next() needs to catch it (nested lambdas catch their own).
    let body = this.facts.has(node, BODY_NEXT)
      ? `try {\n${this.valueBlock(node.body)}\n} catch (e) { return rt.nextValue(e); }\n`
      : `${this.valueBlock(node.body)}\n`;
    // Match captures the body sets are gone after the call, as a Puppet closure's are.
    if (this.facts.has(node, BODY_CAPTURES)) {
      const m = this.temp();
      body = `const ${m} = rt.m; try {\n${body}} finally { rt.m = ${m}; }\n`;
    }
    code += `${this.declareIndexes(scope)}${body}})`;
    this.closeScope();
    if (this.current.lambda && !scope.capturesLambdaLocal) {
      const name = `L${this.hoisted.length}`;
      this.hoisted.push(`const ${name} = ${code};`);
      return { code: name, unchecked };
    }
    return { code, unchecked };
  }

  /**
   * What a parameter's type check gets as `block`: the lambda's signature (its types constants, for the
   * message Puppet gives when it cannot word a mismatch), or `true` when a type is computed at run time.
   */
  private lambdaSignature(node: LambdaNode): string {
    if (!node.params.some((param) => param.valueType)) return 'true';
    const entries: [ConstantSlot | undefined, string, string][] = [];
    for (const param of node.params) {
      if (param.valueType && !isConstant(param.valueType)) return 'true';
      const indicator = param.captureRest ? '*' : param.defaultValue ? '?' : '';
      entries.push([param.valueType && this.constantSlot(param.valueType), param.name, indicator]);
    }
    return this.fixed(new ConstantLambdaSignature(entries));
  }
}
