/**
 * The registry of every built-in function a template can call: Puppet 7's core functions that make sense
 * in a template, plus stdlib's to_json / to_json_pretty / to_yaml. A name missing here is an unknown
 * function (catalogue functions such as include or lookup are left out on purpose).
 */
import { judgeArgumentsFirst } from './block-refused.js';
import { collectionFunctions } from './collections.js';
import { convertToFunction, newFunction } from './conversion.js';
import { iterationFunctions } from './iteration.js';
import { miscFunctions } from './misc.js';
import { orderingFunctions } from './ordering.js';
import { type FunctionDef, FunctionRegistry } from './registry.js';
import { serializationFunctions } from './serialization.js';
import { stdlibFunctions } from './stdlib/index.js';
import { stringFunctions } from './strings.js';

const builtIns: readonly FunctionDef[] = [
  ...iterationFunctions,
  ...collectionFunctions,
  ...orderingFunctions,
  ...miscFunctions,
  ...stringFunctions,
  ...serializationFunctions,
  ...stdlibFunctions,
  newFunction,
  convertToFunction,
];

export const coreFunctions: FunctionRegistry = new FunctionRegistry().add(...builtIns);

// Every built-in checks its arguments before anything else, as Puppet's dispatch does: a block given to
// one that takes none is judged after its arguments by calling it without the block (block-refused.ts).
judgeArgumentsFirst(builtIns);

/** The names of all built-ins, sorted: the candidates of "did you mean" for an unknown function. */
export const FUNCTION_NAMES: readonly string[] = Object.freeze(coreFunctions.names());

/** Puppet's words for a call of a function no registry or module has (the render's and the editor's). */
export function unknownFunctionMessage(name: string): string {
  return `Unknown function: '${name}'.`;
}

/** What an unknown function's error suggests when no name is close to it. */
export const UNKNOWN_FUNCTION_HINT =
  "templates can call Puppet's core functions and stdlib's, and with a module path, the functions its modules write in Puppet";
