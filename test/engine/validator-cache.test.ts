/**
 * Compiled settings validators kept between runs (src/engine/validator-cache.ts): a validator loaded from
 * the cache must report exactly what a freshly compiled one reports, and a cache that is damaged or cannot
 * be written must cost nothing but a compile.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compileSettingsSchema } from '../../src/engine/json-schema.js';
import { loadValidator, textKey, validatorKey } from '../../src/engine/validator-cache.js';
import { removeTempDirs, tempDir } from '../helpers/fs.js';

let cache: string;
beforeEach(() => {
  cache = tempDir('pantograph-cache-');
  vi.stubEnv('PANTOGRAPH_CACHE_DIR', cache);
});
afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

/** A schema using what the violations read from ajv's errors: parent schemas, the data, x-message. */
const schema = () => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[a-z]+$', 'x-message': 'must be lowercase letters' },
    mode: { enum: ['strict', 'lenient'] },
    count: { type: 'integer', minimum: 1 },
    list: { type: 'array', items: { $ref: '#/definitions/item' } },
  },
  definitions: { item: { type: 'string' } },
});
const bad = { nmae: 'x', name: 'X1', mode: 'strikt', count: 0n, list: ['a', 2n] };
const files = () => readdirSync(join(cache, 'schemas'));

describe('the validator cache', () => {
  it('stores a compiled validator, and one loaded from it reports exactly what a compiled one does', () => {
    const compiled = compileSettingsSchema(schema(), 'x.json');
    const fresh = compiled.validate(bad);
    expect(fresh.map((v) => v.message)).toEqual([
      "unknown key 'nmae'",
      'must be lowercase letters',
      'must be one of "strict", "lenient"',
      'must be >= 1',
      'must be a string',
    ]);
    expect(files()).toEqual([`${validatorKey('draft-07', schema())}.cjs`]);
    // A new but equal schema object: not the in-memory cache, the file.
    expect(loadValidator(validatorKey('draft-07', schema()))).toBeTypeOf('function');
    expect(compileSettingsSchema(schema(), 'x.json').validate(bad)).toEqual(fresh);
    expect(compileSettingsSchema(schema(), 'x.json').validate({ name: 'ok', list: [] })).toEqual([]);
  });

  it('keys a validator by the schema text: a changed schema is compiled anew', () => {
    compileSettingsSchema(schema(), 'x.json');
    const changed = { ...schema(), additionalProperties: true };
    expect(compileSettingsSchema(changed, 'x.json').validate({ other: 1n })).toEqual([]);
    expect(files().filter((f) => f.endsWith('.cjs'))).toHaveLength(2);
  });

  it('compiles again over a damaged file, and replaces it', () => {
    compileSettingsSchema(schema(), 'x.json');
    const file = join(cache, 'schemas', files()[0]!);
    writeFileSync(file, 'this is not JavaScript (');
    expect(compileSettingsSchema(schema(), 'x.json').validate(bad)).toHaveLength(5);
    expect(readFileSync(file, 'utf8')).toMatch(/^"use strict";/);
  });

  it('still validates when the cache cannot be written', () => {
    // A file where the cache's directory should be: no directory can be made, not even by root.
    writeFileSync(join(cache, 'schemas'), 'in the way');
    expect(compileSettingsSchema(schema(), 'x.json').validate(bad)).toHaveLength(5);
    expect(readFileSync(join(cache, 'schemas'), 'utf8')).toBe('in the way');
  });

  it('remembers data found valid: the same settings need no validator on the next run, others do', () => {
    const good = { name: 'ok', mode: 'strict', count: 2n, list: ['a'] };
    expect(compileSettingsSchema(schema(), 'x.json').validate(good)).toEqual([]);
    const key = validatorKey('draft-07', schema());
    expect(files().sort()).toEqual([`${key}.cjs`, `${key}.valid`]);
    // Were the validator loaded, the damaged file would be compiled again and replaced.
    writeFileSync(join(cache, 'schemas', `${key}.cjs`), 'damaged (');
    expect(compileSettingsSchema(schema(), 'x.json').validate({ ...good })).toEqual([]);
    expect(readFileSync(join(cache, 'schemas', `${key}.cjs`), 'utf8')).toBe('damaged (');
    // Other data is validated: the bad one fails as before, a changed good one is checked and remembered.
    expect(compileSettingsSchema(schema(), 'x.json').validate(bad)).toHaveLength(5);
    expect(compileSettingsSchema(schema(), 'x.json').validate({ ...good, count: 3n })).toEqual([]);
    expect(
      readFileSync(join(cache, 'schemas', `${key}.valid`), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(2);
  });

  it('keys the verdict of data read from a JSON text by that text: the same text needs no validator', () => {
    const text = '{"name": "ok", "count": 2}';
    const data = { name: 'ok', count: 2n };
    expect(compileSettingsSchema(schema(), 'x.json').validate(data, text)).toEqual([]);
    const key = validatorKey('draft-07', schema());
    expect(readFileSync(join(cache, 'schemas', `${key}.valid`), 'utf8')).toBe(`${textKey(text)}\n`);
    writeFileSync(join(cache, 'schemas', `${key}.cjs`), 'damaged (');
    // The same text: answered from the verdict (the damaged validator is not loaded, so not replaced).
    expect(compileSettingsSchema(schema(), 'x.json').validate({ ...data }, text)).toEqual([]);
    expect(readFileSync(join(cache, 'schemas', `${key}.cjs`), 'utf8')).toBe('damaged (');
    // Another text is validated, whatever it says: a bad one fails and is not remembered.
    const badText = '{"name": "X1"}';
    expect(compileSettingsSchema(schema(), 'x.json').validate({ name: 'X1' }, badText)).toHaveLength(1);
    expect(compileSettingsSchema(schema(), 'x.json').validate({ name: 'X1' }, badText)).toHaveLength(1);
    expect(
      readFileSync(join(cache, 'schemas', `${key}.valid`), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(1);
  });

  it('always validates data JSON text cannot tell apart (NaN, infinities)', () => {
    const numbers = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { x: { type: ['null', 'number'], maximum: 10 } },
    };
    expect(compileSettingsSchema(numbers, 'x.json').validate({ x: null })).toEqual([]);
    expect(compileSettingsSchema(numbers, 'x.json').validate({ x: Number.POSITIVE_INFINITY })).toHaveLength(
      1,
    );
  });

  it('refuses an invalid schema every time: only valid schemas are stored', () => {
    const invalid = { type: 'object', properties: { a: { type: 'no-such-type' } } };
    expect(() => compileSettingsSchema(invalid, 'x.json')).toThrow(/invalid schema/);
    expect(() => compileSettingsSchema({ ...invalid }, 'x.json')).toThrow(/invalid schema/);
    expect(existsSync(join(cache, 'schemas'))).toBe(false);
  });
});
