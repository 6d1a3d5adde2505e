/**
 * Every built-in function and type name has what an editor shows (src/epp/catalog.ts): a function added
 * to the registry without its line here fails this test.
 */
import { describe, expect, it } from 'vitest';
import { FUNCTION_DOCS, FUNCTION_NAMES, TYPE_DOCS, TYPE_NAME_LIST } from '../../src/index.js';

describe('the catalog of functions and types', () => {
  it('describes every built-in function, with a signature naming it', () => {
    const missing = FUNCTION_NAMES.filter((name) => !Object.hasOwn(FUNCTION_DOCS, name));
    expect(missing).toEqual([]);
    for (const name of FUNCTION_NAMES)
      expect(FUNCTION_DOCS[name]!.signature.startsWith(`${name}(`)).toBe(true);
    expect(Object.keys(FUNCTION_DOCS).filter((name) => !FUNCTION_NAMES.includes(name))).toEqual([]);
  });

  it('describes every type name', () => {
    expect(TYPE_NAME_LIST.filter((name) => !Object.hasOwn(TYPE_DOCS, name))).toEqual([]);
  });
});
