/**
 * Compiled JSON Schema validators kept between runs. ajv compiles a schema by generating JavaScript, which
 * took ~60 ms of every `pantograph status` for the default templates' schemas (and loading ajv itself
 * ~20 ms more). A compiled validator is stored as ajv's standalone code under the cache root
 * (`schemas/<sha256>.cjs`, keyed by the schema's text, ajv's version and ours), and a later run loads it
 * instead of compiling. Only schemas that were valid are stored, so a hit also stands for that check.
 * The cache is best effort: a file that cannot be written, read or run is a miss.
 *
 * Beside each validator, the data it found valid (`schemas/<sha256>.valid`, a hash of each): validation
 * is a function of the schema and the data alone, so the same settings checked against the same schema
 * on the next `status` need no validator at all. Loading and running the default templates' validators
 * in a fresh process (V8 compiles their generated code anew each time) was ~15% of a `status`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { isSha256Hex } from '../sync/hash.js';
import { engineVersion } from '../version.js';
import { cacheRoot } from './sources/git.js';

const require = createRequire(import.meta.url);

/** Changes when what Pantograph asks of ajv changes (its options), so older files are not used. */
/** 2: schemas with unknown keywords are refused (issue 11), so validators cached before are checked again. */
const FORMAT = 2;

/** The key of a schema (its JSON text, with the draft) and of the code that compiled it. */
export function validatorKey(draft: string, schema: object): string {
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  return createHash('sha256')
    .update(`${FORMAT}\0${ajvVersion}\0${draft}\0${JSON.stringify(schema)}`)
    .digest('hex');
}

function fileOf(key: string): string {
  return join(cacheRoot(), 'schemas', `${key}.cjs`);
}

/** The validator stored under `key`, or undefined. */
export function loadValidator(key: string): ValidateFunction | undefined {
  let code: string;
  try {
    code = readFileSync(fileOf(key), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const module = { exports: {} as { default?: ValidateFunction } };
    // Standalone code requires ajv's runtime helpers: resolved from this package, not the cache.
    new Function('module', 'exports', 'require', code)(module, module.exports, require);
    const validate = module.exports.default;
    return typeof validate === 'function' ? validate : undefined;
  } catch {
    return undefined;
  }
}

/** Stores a validator's standalone code (`code` from ajv's `standaloneCode`) under `key`. */
export function storeValidator(key: string, code: string): void {
  const file = fileOf(key);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(join(cacheRoot(), 'schemas'), { recursive: true });
    writeFileSync(temp, code);
    renameSync(temp, file);
  } catch {
    // A read-only or full cache only costs the next run a compile.
  }
}

/** Whether a validator is stored under `key` (so its schema was found valid). */
export function hasValidator(key: string): boolean {
  return existsSync(fileOf(key));
}

/** At most this many valid data are remembered per schema: the newest first. */
const MAX_VERDICTS = 64;
const verdicts = new Map<string, string[]>();

/**
 * The key of `json` (what ajv is given) for the verdicts, or undefined when JSON text would not tell it
 * apart from other data (undefined, NaN or an infinity inside): such data is always validated.
 */
export function dataKey(json: unknown): string | undefined {
  let exact = true;
  const text = JSON.stringify(json, (_key, value: unknown) => {
    if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) exact = false;
    return value;
  });
  return exact && text !== undefined ? createHash('sha256').update(text).digest('hex') : undefined;
}

/**
 * The key of the data read from a JSON text, for the verdicts: the text's hash, with the engine's version
 * (a later reader might read the same text otherwise) and a prefix no `dataKey` input can have.
 */
export function textKey(text: string): string {
  return createHash('sha256').update(`\0json-text\0${engineVersion()}\0${text}`).digest('hex');
}

function verdictFile(key: string): string {
  return join(cacheRoot(), 'schemas', `${key}.valid`);
}

/** The verdicts of `key`, read once per process (by file: the cache root may change, in tests). */
function verdictsOf(key: string): string[] {
  const file = verdictFile(key);
  let known = verdicts.get(file);
  if (known === undefined) {
    try {
      known = readFileSync(file, 'utf8').split('\n').filter(isSha256Hex);
    } catch {
      known = [];
    }
    verdicts.set(file, known);
  }
  return known;
}

/** Whether the data of `data` (a `dataKey`) was found valid against the schema of `key` before. */
export function knownValid(key: string, data: string): boolean {
  return verdictsOf(key).includes(data);
}

/** Remembers that the data of `data` is valid against the schema of `key`. */
export function rememberValid(key: string, data: string): void {
  const known = [data, ...verdictsOf(key).filter((d) => d !== data)].slice(0, MAX_VERDICTS);
  const file = verdictFile(key);
  verdicts.set(file, known);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(join(cacheRoot(), 'schemas'), { recursive: true });
    writeFileSync(temp, `${known.join('\n')}\n`);
    renameSync(temp, file);
  } catch {
    // A read-only or full cache only costs the next run a validation.
  }
}
