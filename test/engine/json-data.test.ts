/**
 * template.json and template_schema.json: strict JSON with the position of every value. The data and the
 * positions must be what the YAML reader gives the same text (the engine read JSON files with it before).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonData } from '../../src/engine/json-data.js';
import type { Data } from '../../src/engine/model.js';
import { escapePointerSegment, parseYamlData } from '../../src/engine/yaml-data.js';

const json = (text: string) => parseJsonData(text, 'f.json', 'TEMPLATE_JSON');

/** Every pointer of a value, depth first. */
function pointers(data: Data, pointer = ''): string[] {
  const out = [pointer];
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) out.push(...pointers(data[i] as Data, `${pointer}/${i}`));
  } else if (data !== null && typeof data === 'object') {
    for (const [k, v] of Object.entries(data))
      out.push(...pointers(v, `${pointer}/${escapePointerSegment(k)}`));
  }
  return out;
}

/** The JSON files of the default templates, and edge cases of the grammar. */
function texts(): [string, string][] {
  const root = resolve(import.meta.dirname, '../../templates');
  const files: [string, string][] = [];
  for (const dir of readdirSync(root)) {
    for (const name of ['template.json', 'template_schema.json']) {
      try {
        files.push([`${dir}/${name}`, readFileSync(join(root, dir, name), 'utf8')]);
      } catch {
        // not every template has a schema file
      }
    }
  }
  return [
    ...files,
    ['numbers', '{"a": [1.0, 2, -0, -0.0, 1e3, 2E-2, 12345678901234567890, 9007199254740993]}'],
    ['strings', '["", "x\\n\\u00e9\\"\\\\\\/", "ü"]'],
    ['keys', '{"__proto__": {"x": 1}, "a/b": {"c~d": true}, "": null}'],
    ['nesting and lines', '\ufeff\n  {\r\n "a": {\n   "b": [ [], {}, [ {"c": false} ] ]\n }\n}\n'],
    ['scalar root', '  "s"  '],
    ['floats among integers', '{"a": [1.0, 2, -0.0, 1e3, 2E-2, {"b": 0.5}], "c": "1.5", "d": -7}'],
    [
      'numbers inside strings beside floats',
      '{"v1.5": 2.5, "e": ["3e2", 3e2, "\\"4.0", -4.0], "1.0": {"x": "1e1"}}',
    ],
    // Strings that look like keys, for the scan that counts keys beside JSON.parse.
    ['colons inside strings', '{"a": "b\\": c", "d": ["e:", "\\"f\\":", {"g\\"": ":"}], "h": "\\\\"}'],
  ];
}

describe('parseJsonData', () => {
  it.each(texts())('reads %s as the YAML reader does: same data, same positions', (_name, text) => {
    const fast = json(text);
    const yaml = parseYamlData(text, 'f.json', { version: '1.2', errorCode: 'TEMPLATE_JSON' });
    expect(fast.problems).toEqual([]);
    expect(fast.data).toEqual(yaml.data);
    for (const p of pointers(yaml.data as Data)) {
      expect(fast.positions.positionOf(p), p).toEqual(yaml.positions.positionOf(p));
      expect(fast.positions.keyPositionOf(p), p).toEqual(yaml.positions.keyPositionOf(p));
    }
  });

  it('keeps Integer and Float apart: integers are bigint, exactly', () => {
    expect(json('[1, 1.0, 12345678901234567890, 1e2]').data).toEqual([1n, 1, 12345678901234567890n, 100]);
  });

  it('refuses a key given twice deep inside, or beside a key that only looks the same', () => {
    const r = json('[{"x": {"a": 1}}, {"b": [{"a": 1, "a": 2}]}]');
    expect(r.data).toBeUndefined();
    expect(r.problems.map((p) => [p.message, p.line, p.column])).toEqual([
      ['Map keys must be unique', 1, 35],
    ]);
    expect(json('{"a": 1, "a\\u0062": 2, "\\u0061": 3}').problems.map((p) => p.column)).toEqual([24]);
  });

  it('refuses a key given twice, at the second one, as the YAML reader does', () => {
    const r = json('{"a": 1,\n "a": 2}');
    expect(r.data).toBeUndefined();
    expect(r.problems.map((p) => [p.message, p.line, p.column])).toEqual([['Map keys must be unique', 2, 2]]);
  });

  it.each([
    ['{"a": 1,}', 'expected a property name in double quotes', 1, 9],
    ['[1, 2', "expected ']', found the end of the file", 1, 6],
    ["{'a': 1}", 'expected a property name in double quotes', 1, 2],
    ['[01]', "expected ',' or ']' after element 0 of the array", 1, 3],
    ['{\n  "name": "t"\n  "always_apply": true\n}', "expected ',' or '}' after the value of \"name\"", 3, 3],
    ['[1 2]', "expected ',' or ']' after element 0 of the array", 1, 4],
    ['["\\x"]', 'bad escape', 1, 4],
    ['["\\u12"]', 'bad \\u escape', 1, 4],
    ['["a\tb"]', 'control character in a string', 1, 4],
    ['["abc', 'unterminated string', 1, 6],
    ['{} {}', "unexpected '{' after the JSON value", 1, 4],
    ['// comment\n{}', "unexpected '/'", 1, 1],
    ['', 'unexpected end of the file', 1, 1],
    ['{\n  "a": tru\n}', "unexpected 't'", 2, 8],
  ])('reports %j as one positioned problem and no data', (text, message, line, column) => {
    const r = parseJsonData(text, 'x.json', 'TEMPLATE_JSON');
    expect(r.data).toBeUndefined();
    expect(r.problems).toEqual([
      {
        severity: 'error',
        code: 'TEMPLATE_JSON',
        message: `invalid JSON: ${message}`,
        file: 'x.json',
        line,
        column,
      },
    ]);
  });
});
