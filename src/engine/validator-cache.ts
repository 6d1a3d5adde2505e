/**
 * Compiled JSON Schema validators kept between runs. ajv compiles a schema by generating JavaScript, which
 * took ~60 ms of every `pantograph status` for the default templates' schemas (and loading ajv itself
 * ~20 ms more). A compiled validator is stored as ajv's standalone code under the cache root
 * (`schemas/<sha256>.cjs`, keyed by the schema's text, ajv's version and ours), and a later run loads it
 * instead of compiling. Only schemas that were valid are stored, so a hit also stands for that check.
 * The cache is best effort: a file that cannot be written, read or run is a miss.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
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
