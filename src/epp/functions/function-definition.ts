/**
 * `defineFunction`'s arguments checked where a library user writes them: a wrong call
 * (`defineFunction('triple', (x) => x * 3)`) was accepted and crashed the first render that called it
 * (`def.call is not a function`, a stack trace inside the engine). Now it is an `EPP_FUNCTION_DEFINITION`
 * error at once, saying what is wrong and giving the signature.
 */
import { EppError } from '../errors.js';

export const DEFINE_FUNCTION_SIGNATURE =
  "defineFunction(name, minArgs, maxArgs, (ctx, args, block) => value, block = 'none')";

const EXAMPLE = "e.g. defineFunction('triple', 1, 1, (_ctx, [n]) => n * 3)";

/** A Puppet function name: `triple`, `mymodule::triple`. */
const NAME = /^[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*$/;

const BLOCKS = ['none', 'optional', 'required'];

/** Throws an EPP_FUNCTION_DEFINITION error for arguments `defineFunction` cannot make a function of. */
export function checkFunctionDefinition(
  name: unknown,
  minArgs: unknown,
  maxArgs: unknown,
  call: unknown,
  block: unknown,
): void {
  const wrong = whatIsWrong(name, minArgs, maxArgs, call, block);
  if (wrong === undefined) return;
  const shown = typeof name === 'string' ? `'${name}'` : describe(name);
  throw new EppError(
    'EPP_FUNCTION_DEFINITION',
    `defineFunction(${shown}, ...): ${wrong}; the signature is ${DEFINE_FUNCTION_SIGNATURE}`,
    undefined,
    `args are the evaluated arguments, in order; minArgs and maxArgs bound how many (Infinity: no limit); ${EXAMPLE}`,
  );
}

function whatIsWrong(
  name: unknown,
  minArgs: unknown,
  maxArgs: unknown,
  call: unknown,
  block: unknown,
): string | undefined {
  if (typeof name !== 'string' || !NAME.test(name)) {
    return `the name must be a Puppet function name (lower-case letters, digits and _, namespaces with ::), got ${describe(name)}`;
  }
  // The likely guess: the implementation where minArgs goes.
  if (typeof minArgs === 'function' || typeof maxArgs === 'function') {
    return 'the function comes fourth, after the least and the most arguments it takes';
  }
  if (!Number.isInteger(minArgs) || (minArgs as number) < 0) {
    return `minArgs must be a whole number of at least 0, got ${describe(minArgs)}`;
  }
  const fewest = minArgs as number;
  if (maxArgs !== Number.POSITIVE_INFINITY && (!Number.isInteger(maxArgs) || (maxArgs as number) < fewest)) {
    return `maxArgs must be a whole number of at least minArgs (${fewest}), or Infinity, got ${describe(maxArgs)}`;
  }
  if (typeof call !== 'function') return `the implementation must be a function, got ${describe(call)}`;
  if (!BLOCKS.includes(block as string)) {
    return `block must be 'none', 'optional' or 'required', got ${describe(block)}`;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return `'${value}'`;
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}
