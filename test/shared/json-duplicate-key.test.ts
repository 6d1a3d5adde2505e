/**
 * The lock's check for a key given twice (a hand merge that kept both sides): `JSON.parse` keeps the
 * last silently. The check counts first and scans only when the count says a key may repeat, so both
 * ways are asserted, with texts that make the count over-estimate (a `":` inside a string).
 */
import { describe, expect, it } from 'vitest';
import { findDuplicateKey } from '../../src/shared/json-duplicate-key.js';

const check = (text: string) => findDuplicateKey(text, JSON.parse(text));

describe('findDuplicateKey', () => {
  it('finds none in a text whose keys are each given once, however it is spaced or escaped', () => {
    expect(check('{"a": 1, "b": {"a": [1, {"a": 2}]}}')).toBeUndefined();
    expect(check('{ "a" : "x\\": y", "b\\"": {"c" :1} }')).toBeUndefined();
    expect(check('[{"a": 1}, {"a": 1}]')).toBeUndefined(); // equal keys in two objects of an array
    expect(check('"a\\": b"')).toBeUndefined(); // a string alone, holding a quote and a colon
  });

  it('names the key path and both offsets: at the top, nested, spaced before the colon, escaped', () => {
    const top = '{"files": {}, "files": {}}';
    expect(check(top)).toEqual({ path: ['files'], first: 1, second: top.lastIndexOf('"files"') });
    const nested = '{"files": {"x": {"mode": "0644"}, "y": {}, "x": {}}}';
    expect(check(nested)).toMatchObject({ path: ['files', 'x'], second: nested.lastIndexOf('"x"') });
    expect(check('{"a" : 1, "a"\n: 2}')).toMatchObject({ path: ['a'], first: 1, second: 10 });
    expect(check('{"v": "\\":", "k\\"": 1, "k\\"": 2}')).toMatchObject({ path: ['k"'] });
    expect(check('{"l": [{"a": 1, "a": 2}]}')).toMatchObject({ path: ['l', 'a'] });
  });
});
