import { describe, expect, it } from 'vitest';
import { ReplaceValue } from '../../src/engine/model.js';
import { jsonPointer, parsePointer, parseYamlData } from '../../src/engine/yaml-data.js';

const sync = (text: string) =>
  parseYamlData(text, 'f.yml', { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });

describe('parseYamlData', () => {
  it('reads YAML 1.1 as Psych does and keeps Integer/Float apart', () => {
    const r = sync('a: yes\nb: y\nc: On\nd: 0777\ne: 1.0\nf: 2001-12-14\nh:\ni: ~\nj: 3\n');
    expect(r.data).toEqual({
      a: true,
      b: 'y',
      c: true,
      d: 511n,
      e: 1,
      f: '2001-12-14',
      h: null,
      i: null,
      j: 3n,
    });
    expect(r.problems.map((p) => [p.code, p.severity, p.line])).toEqual([
      ['SYNC_AMBIGUOUS_SCALAR', 'warning', 1],
      ['SYNC_AMBIGUOUS_SCALAR', 'warning', 3],
      ['SYNC_AMBIGUOUS_SCALAR', 'warning', 4],
    ]);
  });

  it('wraps !replace collections, only the outermost', () => {
    const r = sync('g: !replace [1, 2]\nk: [1, {z: !replace {q: !replace [x]}}]\n');
    expect(r.problems).toEqual([]);
    const data = r.data as { g: unknown; k: unknown[] };
    expect(data.g).toEqual(new ReplaceValue([1n, 2n]));
    expect(data.k[1]).toEqual({ z: new ReplaceValue({ q: ['x'] }) });
  });

  it('refuses !replace on a scalar with a position', () => {
    const r = sync('a: 1\nb: !replace x\n');
    expect(r.problems).toMatchObject([{ code: 'SYNC_YAML', severity: 'error', line: 2, column: 13 }]);
  });

  it('resolves aliases and merge keys, explicit keys winning', () => {
    const r = sync('base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n');
    expect(r.data).toEqual({ base: { x: 1n, y: 2n }, m: { y: 3n, x: 1n } });
  });

  it('finds positions by pointer, falling back to the nearest ancestor', () => {
    const r = sync('a:\n  list:\n    - one\n    - two\nempty:\n');
    expect(r.positions.positionOf('/a/list/1')).toEqual({ file: 'f.yml', line: 4, column: 7 });
    expect(r.positions.keyPositionOf('/a/list')).toEqual({ file: 'f.yml', line: 2, column: 3 });
    expect(r.positions.positionOf('/a/list/7/x')).toEqual({ file: 'f.yml', line: 3, column: 5 });
    expect(r.positions.positionOf('/empty')).toEqual({ file: 'f.yml', line: 5, column: 1 });
  });

  it('reports syntax errors with positions and no data', () => {
    const r = sync('a: [1, 2\nb: 3\n');
    expect(r.data).toBeUndefined();
    expect(r.problems[0]).toMatchObject({ code: 'SYNC_YAML', severity: 'error', line: expect.any(Number) });
  });

  it('reports duplicate keys', () => {
    const r = sync('a: 1\na: 2\n');
    expect(r.problems).toMatchObject([{ code: 'SYNC_YAML', line: 2, column: 1 }]);
  });

  it('parses JSON with bigints for integers', () => {
    const j = parseYamlData('{"a": 1, "b": 1.5, "c": [1e3], "d": 123456789012345678901}', 'x.json', {
      version: '1.2',
      errorCode: 'TEMPLATE_JSON',
    });
    expect(j.data).toEqual({ a: 1n, b: 1.5, c: [1000], d: 123456789012345678901n });
    expect(j.positions.positionOf('/c/0')).toEqual({ file: 'x.json', line: 1, column: 26 });
  });

  it('escapes pointers', () => {
    expect(jsonPointer(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
    expect(parsePointer('/a~1b/c~0d/0')).toEqual(['a/b', 'c~d', '0']);
  });
});
