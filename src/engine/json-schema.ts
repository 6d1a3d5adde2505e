/**
 * JSON Schema validation with ajv: the schemas Pantograph ships (`schemas/*.json`) and the templates'
 * `template_schema.json` files (draft-06, draft-07, 2019-09 or 2020-12, picked by `$schema`).
 * Violations come back as JSON pointers into the validated data, so callers map them to file positions;
 * an unknown property gets a did-you-mean from the properties the schema declares.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type AjvDraft07 from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { packagePath } from '../package-root.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { EngineError, type EngineErrorCode, problem } from './errors.js';
import type { Data, Position, PositionLookup, SyncData } from './model.js';
import type { Problem } from './render-plan.js';
import type { SandboxLimits } from './sandbox.js';
import { narrowAnyOf } from './schema-any-of.js';
import { compileWithEveryMistake } from './schema-mistakes.js';
import { validateWithinLimits } from './schema-sandbox.js';
import {
  dataKey,
  hasValidator,
  knownValid,
  loadValidator,
  rememberValid,
  storeValidator,
  textKey,
  validatorKey,
} from './validator-cache.js';
import { escapePointerSegment, toJson } from './yaml-data.js';

type AjvInstance = InstanceType<typeof AjvDraft07.default>;

export interface SchemaViolation {
  /** JSON pointer of the offending value (for an unknown property: of that property). */
  readonly pointer: string;
  /** What is wrong, e.g. `must be true or false` (ajv's message, or ours where its words are JSON Schema's). */
  readonly message: string;
  /** The failing keyword: `type`, `additionalProperties`, `required`, `enum`... */
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** For an unknown property, the closest declared one; for a wrong enum/const string, the closest allowed. */
  readonly suggestion?: string;
  /** The schema's own advice for this rule (`x-hint`), shown when there is no closer suggestion. */
  readonly hint?: string;
}

export interface CompiledSchema {
  readonly schema: Readonly<Record<string, unknown>>;
  /** `draft-07` (also draft-06 and no `$schema`), `2019-09` or `2020-12`. */
  readonly draft: SchemaDraft;
  /**
   * Every violation at once; `[]` when valid. Integers may be bigint: they are converted. `sourceText`:
   * the JSON text `data` was read from, whose hash is then the key of the remembered verdict (cheaper than
   * converting the data and serializing it again: ~7 ms of every command for the default templates).
   * `limits`: the schema is an untrusted template's, checked under them (schema-sandbox.ts), which throws
   * a SchemaLimitError past them.
   */
  validate(data: Data | SyncData | undefined, sourceText?: string, limits?: SandboxLimits): SchemaViolation[];
}

export type SchemaDraft = 'draft-07' | '2019-09' | '2020-12';

const require = createRequire(import.meta.url);
const ajvs = new Map<SchemaDraft, AjvInstance>();

function ajvFor(draft: SchemaDraft): AjvInstance {
  let ajv = ajvs.get(draft);
  if (ajv) return ajv;
  ajv = newAjv(draft);
  ajvs.set(draft, ajv);
  return ajv;
}

/**
 * A new ajv for `draft` with Pantograph's options; `regExp`, the engine of the schemas' patterns (the
 * bounded validation's worker notes which one runs).
 */
function newAjv(draft: SchemaDraft, regExp?: RegExpEngine): AjvInstance {
  // No format validation: authors' schemas may use formats ajv does not know. Unknown keywords are logged
  // (`strictSchema: 'log'`) to `unknownKeywords`, which compileValidator turns into errors: a misspelt
  // `tpye` silently disabled the check it was meant to make. The rest of strict mode stays off.
  const options = {
    allErrors: true,
    strict: false,
    strictSchema: 'log',
    validateFormats: false,
    verbose: true,
    logger: {
      log() {},
      warn(message: unknown) {
        const keyword = /unknown keyword: "([^"]*)"/.exec(String(message))?.[1];
        if (keyword !== undefined) unknownKeywords.push(keyword);
      },
      error() {},
    },
    // The generated source is kept for the validator cache (standalone code).
    code: regExp ? { source: true, regExp } : { source: true },
  } as const;
  // Loaded here, not imported: a run whose validators all come from the cache never loads ajv.
  const module =
    draft === '2019-09' ? 'ajv/dist/2019' : draft === '2020-12' ? 'ajv/dist/2020' : 'ajv/dist/ajv';
  const Ajv = (require(module) as { default: typeof AjvDraft07.default }).default;
  return new Ajv(options);
}

/** A new ajv for a schema of `draft` (its `$schema`: `schemaUri`), its patterns run by `regExp`. */
export function createAjv(draft: SchemaDraft, schemaUri: unknown, regExp: RegExpEngine): AjvInstance {
  const ajv = newAjv(draft, regExp);
  withDraft06(ajv, schemaUri);
  return ajv;
}

/** Unknown keywords ajv logged while compiling the current schema (see `ajvFor`). */
const unknownKeywords: string[] = [];

const DRAFT_06 = 'http://json-schema.org/draft-06/schema';

/**
 * Adds the draft-06 meta-schema to the draft-07 ajv when a schema names it, not before: adding it makes
 * ajv compile the draft-07 meta-schema's validator at once (~25 ms of every run, for a draft few use).
 */
function withDraft06(ajv: AjvInstance, schemaUri: unknown): void {
  if (typeof schemaUri !== 'string' || !schemaUri.replace(/^https:/, 'http:').startsWith(DRAFT_06)) return;
  if (withDraft06Added.has(ajv)) return;
  ajv.addMetaSchema(require('ajv/lib/refs/json-schema-draft-06.json') as object);
  withDraft06Added.add(ajv);
}

const withDraft06Added = new WeakSet<AjvInstance>();

/** The draft a `$schema` names, or undefined when Pantograph does not support it. */
export function draftOf(schemaUri: unknown): SchemaDraft | undefined {
  if (schemaUri === undefined) return 'draft-07';
  if (typeof schemaUri !== 'string') return undefined;
  const uri = schemaUri.replace(/^https:/, 'http:').replace(/#$/, '');
  if (uri === 'http://json-schema.org/draft-06/schema' || uri === 'http://json-schema.org/draft-07/schema') {
    return 'draft-07';
  }
  if (uri === 'http://json-schema.org/draft/2019-09/schema') return '2019-09';
  if (uri === 'http://json-schema.org/draft/2020-12/schema') return '2020-12';
  return undefined;
}

/**
 * Compiles a template's settings schema. Throws an EngineError (code `code`, default `TEMPLATE_SCHEMA`)
 * when the schema is not an object, names an unsupported draft, or is invalid against its meta-schema
 * (with the position of the offending part when `positions` is given).
 */
export function compileSettingsSchema(
  schema: unknown,
  file: string,
  positions?: PositionLookup,
  code: EngineErrorCode = 'TEMPLATE_SCHEMA',
): CompiledSchema {
  const cached = typeof schema === 'object' && schema !== null ? compiledCache.get(schema) : undefined;
  if (cached) return cached;
  const where = (pointer: string) => positions?.positionOf(pointer) ?? { file, line: 1, column: 1 };
  const json = toJson(schema as SyncData);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new EngineError(code, `${file}: a JSON Schema must be an object`, { position: where('') });
  }
  const obj = json as Record<string, unknown>;
  const draft = draftOf(obj.$schema);
  if (!draft) {
    throw new EngineError(code, `unsupported $schema ${JSON.stringify(obj.$schema)}`, {
      position: where('/$schema'),
      hint: 'use draft-06, draft-07, 2019-09 or 2020-12',
    });
  }
  const key = validatorKey(draft, obj);
  // A stored validator stands for a valid schema: it is loaded only when data must really be checked.
  let fn = hasValidator(key) ? undefined : compileValidator(obj, draft, key, where, code);
  const compiled: CompiledSchema = {
    schema: obj,
    draft,
    validate(data, sourceText, limits) {
      // A text's key spares converting the data, which only ajv needs.
      const converted = sourceText === undefined ? toJson(data) : undefined;
      const known = sourceText === undefined ? dataKey(converted) : textKey(sourceText);
      if (known !== undefined && knownValid(key, known)) return [];
      const json = converted ?? toJson(data);
      let found: SchemaViolation[];
      if (limits !== undefined) {
        found = validateWithinLimits(obj, draft, json, limits);
      } else {
        fn ??= loadValidator(key) ?? compileValidator(obj, draft, key, where, code);
        found = fn(json) ? [] : violations(fn.errors ?? []);
      }
      if (found.length === 0 && known !== undefined) rememberValid(key, known);
      return found;
    },
  };
  compiledCache.set(schema as object, compiled);
  compiledCache.set(obj, compiled);
  return compiled;
}

/**
 * Checks a schema against its meta-schema and compiles it with ajv, storing the validator in the cache;
 * throws with every mistake of the schema at once (schema-mistakes.ts).
 */
function compileValidator(
  obj: Record<string, unknown>,
  draft: SchemaDraft,
  key: string,
  where: (pointer: string) => Position,
  code: EngineErrorCode,
): ValidateFunction {
  const ajv = ajvFor(draft);
  withDraft06(ajv, obj.$schema);
  const { fn, problems } = compileWithEveryMistake(
    obj,
    {
      metaErrors: (schema) => (ajv.validateSchema(schema) ? [] : (ajv.errors ?? [])),
      compile: (schema) => {
        unknownKeywords.length = 0;
        // Compiled without caching by `$id`: two templates may share an `$id`.
        const { $id: _id, ...rest } = schema;
        return { fn: ajv.compile(rest), unknownKeywords: [...unknownKeywords] };
      },
    },
    where,
    code,
  );
  if (fn === undefined) {
    // Not stored in the cache: only valid schemas are, so the problems are found on every run.
    const first = problems[0];
    throw new EngineError(code, first?.message ?? 'invalid schema', {
      position: first !== undefined ? problemPosition(first) : where(''),
      ...(first?.hint !== undefined ? { hint: first.hint } : {}),
      problems,
    });
  }
  const standalone = require('ajv/dist/standalone') as {
    default: (a: AjvInstance, v: ValidateFunction) => string;
  };
  storeValidator(key, standalone.default(ajv, fn));
  return fn;
}

function problemPosition(p: Problem): Position | undefined {
  return p.file === undefined ? undefined : { file: p.file, line: p.line ?? 1, column: p.column ?? 1 };
}

/** Compiled schemas by the object given (and the JSON object made of it), so compiling twice is free. */
const compiledCache = new WeakMap<object, CompiledSchema>();

/** ajv errors -> violations, one per problem (ajv repeats `if`/`anyOf` wrappers; those are dropped). */
export function violations(errors: readonly ErrorObject[]): SchemaViolation[] {
  const out: SchemaViolation[] = [];
  const seen = new Set<string>();
  for (const e of narrowAnyOf(errors)) {
    if (e.keyword === 'if') continue;
    let pointer = e.instancePath;
    let suggestion: string | undefined;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
      const prop = String(e.params.additionalProperty ?? e.params.unevaluatedProperty);
      pointer = `${pointer}/${escapePointerSegment(prop)}`;
      const declared = Object.keys((e.parentSchema?.properties as object | undefined) ?? {});
      suggestion = didYouMean(prop, declared);
      message = `unknown key '${prop}'`;
    } else if (e.keyword === 'required') {
      // ajv says "must have required property 'version'".
      message = `has no '${String(e.params.missingProperty)}', which is required`;
    } else if (e.keyword in COUNT_WORDS) {
      message = countWords(e.keyword, Number(e.params.limit));
    } else if (e.keyword === 'uniqueItems') {
      // ajv: "must NOT have duplicate items (items ## 0 and 1 are identical)", counting from 0, in either order.
      const [first, second] = [Number(e.params.i), Number(e.params.j)].sort((a, b) => a - b);
      message = `has a duplicate: items ${first! + 1} and ${second! + 1} are the same`;
    } else if (e.keyword === 'multipleOf') {
      message = `must be a multiple of ${String(e.params.multipleOf)}`;
    } else if (e.keyword === 'type') {
      message = `must be ${typeWords(e.params.type)}`;
    } else if (e.keyword === 'enum' || e.keyword === 'const') {
      const allowed = (e.keyword === 'enum' ? e.params.allowedValues : [e.params.allowedValue]) as unknown[];
      const shown = allowed.map((v) => JSON.stringify(v)).join(', ');
      message = allowed.length === 1 ? `must be ${shown}` : `must be one of ${shown}`;
      // A misspelt word: suggest the allowed one it is closest to.
      if (typeof e.data === 'string')
        suggestion = didYouMean(
          e.data,
          allowed.filter((v) => typeof v === 'string'),
        );
    }
    // A schema may word its own message (`x-message`), for rules a keyword says badly (patterns).
    // And its own advice (`x-hint`): what to write instead.
    const custom = e.parentSchema?.['x-message'];
    if (typeof custom === 'string' && e.keyword !== 'additionalProperties') message = custom;
    const advice = e.parentSchema?.['x-hint'];
    const hint = typeof advice === 'string' && e.keyword !== 'additionalProperties' ? advice : undefined;
    const key = `${pointer}\0${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      pointer,
      message,
      keyword: e.keyword,
      params: e.params,
      ...(suggestion !== undefined ? { suggestion } : {}),
      ...(hint !== undefined ? { hint } : {}),
    });
  }
  return out;
}

/** The keywords that count, in words: ajv says "must NOT have fewer than 1 items". */
const COUNT_WORDS: Readonly<Record<string, readonly [string, string, string]>> = {
  minItems: ['must have at least', 'item', 'items'],
  maxItems: ['must have at most', 'item', 'items'],
  minLength: ['must be at least', 'character long', 'characters long'],
  maxLength: ['must be at most', 'character long', 'characters long'],
  minProperties: ['must have at least', 'key', 'keys'],
  maxProperties: ['must have at most', 'key', 'keys'],
};

function countWords(keyword: string, limit: number): string {
  const [bound, one, many] = COUNT_WORDS[keyword]!;
  return `${bound} ${limit} ${limit === 1 ? one : many}`;
}

/** JSON Schema's type names in the words of a YAML file's reader: ajv says `must be object,null`. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  object: 'a mapping (key: value)',
  array: 'a list',
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty (null)',
};

/** `object,null` (ajv's list of a `type` array) -> `a mapping (key: value) or empty (null)`. */
function typeWords(types: unknown): string {
  const words = String(types)
    .split(',')
    .map((t) => TYPE_WORDS[t] ?? t);
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** Violations -> Problems positioned through `positions` (unknown keys at the key itself). */
export function violationProblems(
  list: readonly SchemaViolation[],
  positions: PositionLookup,
  code: EngineErrorCode,
  label: (pointer: string) => string = (p) => p || '/',
): Problem[] {
  const problems = list.map((v) => {
    const unknown = v.keyword === 'additionalProperties' || v.keyword === 'unevaluatedProperties';
    const position = unknown ? positions.keyPositionOf(v.pointer) : positions.positionOf(v.pointer);
    const message = unknown
      ? `${v.message} in ${label(parentOf(v.pointer))}`
      : `${label(v.pointer)} ${v.message}`;
    const hint = v.suggestion !== undefined ? `did you mean '${v.suggestion}'?` : v.hint;
    return problem('error', code, message, position, hint);
  });
  // In file order, as a reader goes through the file.
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

function parentOf(pointer: string): string {
  const i = pointer.lastIndexOf('/');
  return i <= 0 ? '' : pointer.slice(0, i);
}

const shipped = new Map<string, CompiledSchema>();

/** One of the schemas Pantograph ships in `schemas/`. */
export function shippedSchema(name: 'template' | 'sync' | 'fleet'): CompiledSchema {
  let compiled = shipped.get(name);
  if (!compiled) {
    const file = packagePath('schemas', `${name}.schema.json`);
    const schema = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    compiled = compileSettingsSchema(schema, file);
    shipped.set(name, compiled);
  }
  return compiled;
}
