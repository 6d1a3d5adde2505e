/**
 * A module's function written in Puppet (`functions/<name>.pp`, read by module-path.ts), as a function
 * templates can call.
 */
import type { ParameterNode } from './ast.js';
import { evaluatePuppet, type RenderOptions } from './epp.js';
import { EppEvalError } from './errors.js';
import { argumentMismatch } from './functions/arguments.js';
import { defineFunction, type FunctionDef } from './functions/registry.js';
import { FUNCTION_ARGUMENTS, type ModulePathEntry, type PuppetFunctionSource } from './module-path.js';
import { parsePuppet } from './parser/parser.js';
import { describeMismatch, PType } from './runtime/types.js';
import type { Value } from './runtime/values.js';

/**
 * The function: its body runs as a lambda given the arguments (`with(*args) |...|`), so its parameters
 * are bound as a lambda's; it sees its parameters and the top scope only, and `return(v)` gives `v`. The
 * number and types of the arguments are checked first, at the call (Puppet's messages: `'demo::twice'
 * parameter 'x' expects an Integer value`), and the declared return type after.
 */
export function puppetFunction(
  source: PuppetFunctionSource,
  modules: readonly ModulePathEntry[],
  options: RenderOptions,
): FunctionDef {
  const common = { file: source.file, modulePath: modules, functions: options.functions };
  const params = functionParameters(source);
  const typeOf = (param: ParameterNode): PType | undefined => {
    if (!param.valueType) return undefined;
    const type = evaluatePuppet(source.lambda.slice(param.valueType.start, param.valueType.end), common);
    return type instanceof PType ? type : undefined;
  };
  const types = new Map<ParameterNode, PType | undefined>();
  const required = params.filter((p) => !p.defaultValue && !p.captureRest).length;
  const rest = params.some((p) => p.captureRest);
  const max = rest ? Number.POSITIVE_INFINITY : params.length;
  const checkArguments = (args: readonly Value[]): void => {
    args.forEach((arg, i) => {
      // Arguments beyond the parameters are the captured rest's, each of its type.
      const param = params[Math.min(i, params.length - 1)]!;
      if (!types.has(param)) types.set(param, typeOf(param));
      const type = types.get(param);
      if (type && !type.isInstance(arg)) throw argumentMismatch(source.name, param.name, type, arg);
    });
  };
  const def = defineFunction(source.name, required, max, (ctx, args) => {
    checkArguments(args);
    const value = evaluatePuppet(source.lambda, {
      ...common,
      strict: ctx.strict,
      topScope: options.topScope,
      onWarning: options.onWarning,
      onLog: options.onLog,
      variables: new Map([[FUNCTION_ARGUMENTS, args]]),
    });
    if (source.returnType === undefined) return value;
    const type = evaluatePuppet(source.returnType, common);
    if (type instanceof PType && !type.isInstance(value)) {
      throw new EppEvalError(
        'EPP_TYPE_MISMATCH',
        describeMismatch(type, value, `value returned from function '${source.name}'`),
      );
    }
    return value;
  });
  // A block given to it is judged after these checks, as Puppet's dispatch judges it (block-refused.ts).
  return { ...def, checkArguments };
}

/** The parameters of the function: those of the lambda its source was made into. */
function functionParameters(source: PuppetFunctionSource): readonly ParameterNode[] {
  const [call] = parsePuppet(source.lambda, { file: source.file }).body;
  return call?.type === 'Call' && call.lambda ? call.lambda.params : [];
}
