/**
 * Every mistake of a template schema at once. ajv stops at the first of some kinds: a schema its
 * meta-schema refuses is not compiled, and compiling stops at the first `$ref` it cannot resolve, before
 * the unknown keywords of the rest are seen. So each part at fault is taken out of a copy of the schema,
 * and the copy is checked again until it compiles: the author sees them all, each at its place, and fixes
 * them in one go. Only keys are taken out, so every pointer still names its place in the file.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { type EngineErrorCode, problem } from './errors.js';
import type { Position } from './model.js';
import type { Problem } from './render-plan.js';
import {
  metaSchemaProblems,
  missingRefProblem,
  refLoopProblem,
  unknownKeywordProblems,
} from './schema-errors.js';
import { parsePointer } from './yaml-data.js';

/** ajv, for one schema draft. */
export interface SchemaChecker {
  /** The meta-schema's errors for `schema`; none when it is valid. */
  metaErrors(schema: Record<string, unknown>): readonly ErrorObject[];
  /** The validator and the unknown keywords ajv saw; throws as ajv does (a `$ref` it cannot resolve). */
  compile(schema: Record<string, unknown>): { fn: ValidateFunction; unknownKeywords: readonly string[] };
}

/** The validator when the schema has no mistake; else every mistake, in the file's order. */
export function compileWithEveryMistake(
  schema: Record<string, unknown>,
  checker: SchemaChecker,
  where: (pointer: string) => Position,
  code: EngineErrorCode,
): { fn?: ValidateFunction; problems: Problem[] } {
  const errors = checker.metaErrors(schema);
  if (errors.length === 0) {
    const first = compileOnce(schema, checker, where, code);
    if (first !== undefined) return first;
  }
  const copy = structuredClone(schema);
  const problems = metaSchemaProblems(errors, schema, where, code);
  // ajv reports every meta-schema error at once (allErrors): without those parts the copy is valid.
  for (const e of errors) {
    if (!removeAt(copy, e.instancePath)) return { problems: inFileOrder(problems) };
  }
  for (;;) {
    try {
      const { unknownKeywords } = checker.compile(copy);
      problems.push(...unknownKeywordProblems(schema, unknownKeywords, where, code));
      return { problems: inFileOrder(problems) };
    } catch (e) {
      const missing = missingRefProblem(e as Error, copy, where, code);
      if (missing === undefined) {
        problems.push(...otherProblem(e as Error, copy, where, code));
        return { problems: inFileOrder(problems) };
      }
      problems.push(missing.problem);
      // The next compile goes past it, to the next `$ref` or the end.
      if (!removeAt(copy, missing.pointer)) return { problems: inFileOrder(problems) };
    }
  }
}

/** The common case, a valid schema, compiled without a copy; undefined when it has a mistake. */
function compileOnce(
  schema: Record<string, unknown>,
  checker: SchemaChecker,
  where: (pointer: string) => Position,
  code: EngineErrorCode,
): { fn?: ValidateFunction; problems: Problem[] } | undefined {
  try {
    const { fn, unknownKeywords } = checker.compile(schema);
    const problems = unknownKeywordProblems(schema, unknownKeywords, where, code);
    return problems.length === 0 ? { fn, problems } : { problems };
  } catch (e) {
    if (missingRefProblem(e as Error, schema, where, code) !== undefined) return undefined;
    return { problems: otherProblem(e as Error, schema, where, code) };
  }
}

/**
 * An exception of ajv's other than a `$ref` it cannot resolve: a stack overflow from `$ref`s that lead
 * only to each other, named with its loop at its place; else its words, at the top.
 */
function otherProblem(
  e: Error,
  schema: Record<string, unknown>,
  where: (pointer: string) => Position,
  code: EngineErrorCode,
): Problem[] {
  const loop = e instanceof RangeError ? refLoopProblem(schema, where, code) : undefined;
  return [loop ?? problem('error', code, `invalid schema: ${e.message}`, where(''))];
}

/**
 * Takes the key at `pointer` out of its object (an item of a list: the list's key, so that no other
 * pointer shifts); false at the root, where nothing can be taken out.
 */
function removeAt(schema: Record<string, unknown>, pointer: string): boolean {
  let node: unknown = schema;
  let owner: Record<string, unknown> | undefined;
  let ownerKey: string | undefined;
  for (const segment of parsePointer(pointer)) {
    if (typeof node !== 'object' || node === null) break;
    if (!Array.isArray(node)) {
      owner = node as Record<string, unknown>;
      ownerKey = segment;
    }
    node = (node as Record<string, unknown>)[segment];
  }
  if (owner === undefined || ownerKey === undefined) return false;
  delete owner[ownerKey];
  return true;
}

function inFileOrder(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
