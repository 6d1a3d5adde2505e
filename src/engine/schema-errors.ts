/**
 * A template schema's own mistakes, worded for its author. ajv reports a misspelt `"type": "strng"` as
 * three errors of the meta-schema's `anyOf` (enum, must be array, anyOf) at one spot, a `$ref` it
 * cannot resolve as an exception without a place, and an unknown keyword as a log line: here they become
 * one problem each, at the value.
 */
import type { ErrorObject } from 'ajv';
import { didYouMean, didYouMeanHint } from '../shared/did-you-mean.js';
import { type EngineErrorCode, problem } from './errors.js';
import type { Position } from './model.js';
import type { Problem } from './render-plan.js';
import { escapePointerSegment } from './yaml-data.js';

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** The meta-schema's errors as problems: one per unknown `type` name, then the others as ajv words them. */
export function metaSchemaProblems(
  errors: readonly ErrorObject[],
  schema: unknown,
  where: (pointer: string) => Position,
  code: EngineErrorCode,
): Problem[] {
  const typePointers = new Set<string>();
  // One problem per misspelt name of one `type`, at the item when `type` is a list.
  const unknown = new Map<string, { name: string; pointer: string }>();
  for (const e of errors) {
    const found = unknownTypeAt(schema, e.instancePath);
    if (found === undefined) continue;
    typePointers.add(found.typePointer).add(e.instancePath);
    const key = `${found.typePointer}\0${found.name}`;
    const seen = unknown.get(key);
    if (seen === undefined || e.instancePath.length > seen.pointer.length) {
      unknown.set(key, { name: found.name, pointer: e.instancePath });
    }
  }
  const problems: Problem[] = [];
  for (const { name, pointer } of unknown.values()) {
    const guess = didYouMean(name, TYPES);
    problems.push(
      problem(
        'error',
        code,
        `invalid schema: unknown type '${name}'${guess !== undefined ? `; did you mean '${guess}'?` : ''}`,
        where(pointer),
        `the JSON Schema types are ${TYPES.map((t) => `'${t}'`).join(', ')}`,
      ),
    );
  }
  for (const e of errors) {
    if (typePointers.has(e.instancePath)) continue;
    problems.push(
      problem(
        'error',
        code,
        `invalid schema: ${e.instancePath || '/'} ${e.message ?? ''}`.trim(),
        where(e.instancePath),
      ),
    );
  }
  return problems;
}

/** When `pointer` is a `type` (or an item of one) naming no JSON Schema type: that name. */
function unknownTypeAt(schema: unknown, pointer: string): { name: string; typePointer: string } | undefined {
  const segments = pointer.split('/').slice(1);
  const last = segments.at(-1);
  const typePointer =
    last === 'type'
      ? pointer
      : segments.at(-2) === 'type'
        ? pointer.slice(0, pointer.lastIndexOf('/'))
        : undefined;
  if (typePointer === undefined) return undefined;
  const value = valueAt(schema, pointer);
  if (typeof value === 'string' && !TYPES.includes(value)) {
    return { name: value, typePointer };
  }
  if (Array.isArray(value)) {
    const bad = value.find((v) => typeof v === 'string' && !TYPES.includes(v));
    if (typeof bad === 'string') return { name: bad, typePointer };
  }
  return undefined;
}

function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * A `$ref` ajv could not resolve (from its exception), at the first `$ref` of `schema` that names it, with
 * that `$ref`'s pointer ('' when none names it as written).
 */
export function missingRefProblem(
  error: Error,
  schema: unknown,
  where: (pointer: string) => Position,
  code: EngineErrorCode,
): { problem: Problem; pointer: string } | undefined {
  const ref = /can't resolve reference (\S+)/.exec(error.message)?.[1];
  if (ref === undefined) return undefined;
  const pointer = pointerOfRef(schema, ref) ?? '';
  const found = problem(
    'error',
    code,
    `invalid schema: $ref '${ref}' does not resolve${pointer ? ` (at ${pointer})` : ''}`,
    where(pointer),
    ref.startsWith('#')
      ? 'point it at a part of this schema, e.g. #/definitions/name (or #/$defs/name), and check that part exists'
      : 'a template schema is read alone: Pantograph fetches no other schema; copy it into definitions and use #/definitions/name',
  );
  return { problem: found, pointer };
}

/** The pointer of the first `$ref` whose value is `ref` (depth first). */
function pointerOfRef(value: unknown, ref: string, at = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [k, v] of Object.entries(value)) {
    const here = `${at}/${escapePointerSegment(k)}`;
    if (k === '$ref' && v === ref) return here;
    const inner = pointerOfRef(v, ref, here);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * Unknown keywords of a schema as problems, at the first place each appears. A keyword starting with `x-`
 * is an extension by convention (ours: `x-message`) and is fine.
 */
export function unknownKeywordProblems(
  obj: Record<string, unknown>,
  found: readonly string[],
  where: (pointer: string) => Position,
  code: EngineErrorCode,
): Problem[] {
  const problems: Problem[] = [];
  for (const keyword of new Set(found)) {
    if (keyword.startsWith('x-')) continue;
    const pointer = pointerOfKey(obj, keyword) ?? '';
    problems.push(
      problem(
        'error',
        code,
        `unknown keyword '${keyword}' in the schema${pointer ? ` at ${pointer}` : ''}`,
        where(pointer),
        didYouMeanHint(keyword, SCHEMA_KEYWORDS) ??
          'an extension keyword must start with `x-` (e.g. `x-note`), or it is a typo',
      ),
    );
  }
  return problems;
}

/** The JSON pointer of the first object key named `key` in `value` (depth first), or undefined. */
function pointerOfKey(value: unknown, key: string, at = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [k, v] of Object.entries(value)) {
    const here = `${at}/${escapePointerSegment(k)}`;
    if (k === key) return here;
    const inner = pointerOfKey(v, key, here);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** Keywords a typo is most likely meant to be. */
const SCHEMA_KEYWORDS = [
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'default',
  'description',
  'title',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'additionalProperties',
  'patternProperties',
  'minItems',
  'maxItems',
  'uniqueItems',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'examples',
  'definitions',
  '$defs',
  '$ref',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'propertyNames',
  'dependencies',
  'if',
  'then',
  'else',
  'contains',
];

/**
 * A `$ref` that leads only to other `$ref`s and back to itself (`a` → `b` → `a`): ajv recurses on it until
 * the stack overflows. The first such `$ref` (depth first), with the loop it makes; undefined when none.
 */
export function refLoopProblem(
  schema: unknown,
  where: (pointer: string) => Position,
  code: EngineErrorCode,
): Problem | undefined {
  for (const [pointer, ref] of localRefs(schema)) {
    const chain = [ref];
    let target = ref;
    for (;;) {
      const next = valueAt(schema, target.slice(1)) as { $ref?: unknown } | undefined;
      const nextRef = typeof next === 'object' && next !== null ? next.$ref : undefined;
      if (typeof nextRef !== 'string' || !nextRef.startsWith('#')) break;
      if (chain.includes(nextRef)) {
        const loop = [...chain.slice(chain.indexOf(nextRef)), nextRef];
        const shown = loop.length > 6 ? [...loop.slice(0, 3), '...', ...loop.slice(-2)] : loop;
        return problem(
          'error',
          code,
          `invalid schema: $ref '${ref}' (at ${pointer}) leads only to $refs, in a loop: ${shown.join(' -> ')}`,
          where(pointer),
          'a $ref must end at a schema: give one of them a type or properties instead of a $ref',
        );
      }
      chain.push(nextRef);
      target = nextRef;
    }
  }
  return undefined;
}

/** Every local `$ref` (`#...`) of `value` with its pointer, depth first. */
function* localRefs(value: unknown, at = ''): Generator<[string, string]> {
  if (typeof value !== 'object' || value === null) return;
  for (const [k, v] of Object.entries(value)) {
    const here = `${at}/${escapePointerSegment(k)}`;
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#')) yield [here, v];
    else yield* localRefs(v, here);
  }
}
