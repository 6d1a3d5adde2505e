/**
 * Helpers shared by the unit tests of EPP's built-in functions: a fake CallContext that records what the
 * functions ask of it, lambdas shaped as the compiler makes them, calling a function through the registry's
 * `invoke` (so arity checks apply), and catching the EppEvalError a call throws.
 */
import { EppEvalError } from '../../src/epp/errors.js';
import {
  type CallContext,
  type FunctionDef,
  invoke,
  type Lambda,
  NextSignal,
} from '../../src/epp/functions/registry.js';
import type { PHash, Value } from '../../src/epp/runtime/values.js';

export interface FakeContext extends CallContext {
  readonly logs: string[];
  readonly warnings: string[];
  readonly rendered: string[];
}

export function fakeContext(variables: Record<string, Value> = {}): FakeContext {
  const logs: string[] = [];
  const warnings: string[] = [];
  const rendered: string[] = [];
  const argsText = (args: Value | undefined) =>
    args instanceof Map ? [...args.keys()].join(',') : String(args);
  return {
    strict: true,
    returnAllowed: true,
    logs,
    warnings,
    rendered,
    warn: (message) => void warnings.push(message),
    log: (level, message) => void logs.push(`${level}: ${message}`),
    lookupVariable: (name) =>
      Object.hasOwn(variables, name)
        ? { found: true, value: variables[name] }
        : { found: false, value: undefined },
    renderFile: (path, args) => {
      rendered.push(`file ${path} ${argsText(args)}`);
      return `<${path}>`;
    },
    renderInline: (source, args) => {
      rendered.push(`inline ${source} ${argsText(args)}`);
      return `<${source}>`;
    },
    callFunction: (name, args) => {
      rendered.push(`call ${name} ${args.length}`);
      return `<${name}>`;
    },
  };
}

/** A lambda as the compiler makes one: `next(v)` inside ends the call with v. */
export function makeLambda(
  fn: (...args: Value[]) => Value,
  paramCount: number,
  requiredCount = paramCount,
  hasRest = false,
): Lambda {
  const call = (...args: Value[]): Value => {
    try {
      return fn(...args);
    } catch (e) {
      if (e instanceof NextSignal) return e.value;
      throw e;
    }
  };
  return Object.assign(call, { paramCount, requiredCount, hasRest });
}

/** Calls function `name` of `defs` through `invoke`, as a template's call does. */
export function callFunction(
  defs: readonly FunctionDef[] | { get(name: string): FunctionDef | undefined },
  name: string,
  args: Value[],
  block?: Lambda,
  ctx: CallContext = fakeContext(),
): Value {
  const def = 'get' in defs ? defs.get(name) : defs.find((f) => f.name === name);
  if (!def) throw new Error(`no function ${name}`);
  return invoke(def, ctx, args, block);
}

/** Runs `f` and returns the EppEvalError it throws (fails the test when nothing is thrown). */
export function errorOf(f: () => unknown): EppEvalError {
  try {
    f();
  } catch (e) {
    if (e instanceof EppEvalError) return e;
    throw e;
  }
  throw new Error('expected an EppEvalError');
}

export const hash = (...entries: [Value, Value][]): PHash => new Map(entries);
