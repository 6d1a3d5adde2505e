import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ReplaceValue } from '../../src/engine/model.js';
import { jsonPointer, parsePointer, parseYamlData } from '../../src/engine/yaml-data.js';

const sync = (text: string) =>
  parseYamlData(text, 'f.yml', { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });

describe('parseYamlData', () => {
  it('places a syntax error at the token to blame: a mis-indented key, the opening quote never closed', () => {
    const at = (text: string) => sync(text).problems.map((p) => [p.severity, p.line, p.column]);
    expect(at('---\nGemfile:\n  optional:\n    ":development":\n    - gem: foo\n   version: 1\n')).toEqual([
      ['error', 6, 4],
    ]);
    // As Ruby says it: "while scanning a quoted scalar at line 3 column 11".
    expect(at('---\nRakefile:\n  extras: "unclosed\n')).toEqual([['error', 3, 11]]);
    expect(at('a: "x\\"y"\nc: "open \\" still\n')).toEqual([['error', 2, 4]]);
    expect(at("a: 'it''s\nb: 1\n")).toEqual([['error', 1, 4]]);
  });

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

  it("reads every plain scalar as the system's Ruby (Psych) does, dates and symbols kept as strings", () => {
    // Psych is the oracle: Puppet reads a values file, and PDK a .sync.yml, with it.
    const scalars = [
      ...['yes', 'Yes', 'YES', 'yEs', 'on', 'ON', 'off', 'no', 'No', 'n', 'y', 'Y', 'true', 'tRUE', 'false'],
      ...['nulL', 'null', 'Null', 'NULL', '~', '~x', 'Off!', 'yes_please', 'onion', '123abc'],
      ...['010', '0o17', '0x1F', '-0x1F', '0b101', '1_000', '1,000', '12,3', '1__0', '0b', '0x', '0xG'],
      ...['1:30', '1:30:00', '-1:30', '1:30.5', '1:60', '1:5:30', '1:2:3:4'],
      ...[
        '1e3',
        '1.0e3',
        '1.0e+3',
        '1.e+3',
        '6e-1',
        '1.5E-3',
        '.5',
        '1.',
        '.',
        '+.',
        '-.inf',
        '+.inf',
        '.NaN',
      ],
      ...[
        '+1',
        '-0',
        '00',
        '09',
        '08.5',
        '2.50',
        '1_0.5',
        '1,0.5',
        '10.0.0.9',
        '1.2.3',
        '2001-12-14',
        ':sym',
      ],
    ];
    const text = scalars.map((s, i) => `k${i}: ${s}\n`).join('');
    const ruby = spawnSync(
      'ruby',
      [
        '-ryaml',
        '-rdate',
        '-rjson',
        '-e',
        'YAML.safe_load(STDIN.read, permitted_classes: [Symbol, Date]).each_value { |v| puts [v.class, v.is_a?(Float) ? v.to_s : v.inspect].join("\t") }',
      ],
      { input: text, encoding: 'utf8' },
    );
    expect(ruby.status, `ruby (npm test installs it): ${ruby.stderr}`).toBe(0);
    const psych = ruby.stdout.trim().split('\n');
    const ours = Object.values(sync(text).data as Record<string, unknown>).map((v) => {
      if (v === null) return 'NilClass\tnil';
      if (typeof v === 'boolean') return `${v ? 'TrueClass' : 'FalseClass'}\t${v}`;
      if (typeof v === 'bigint') return `Integer\t${v}`;
      if (typeof v === 'number')
        return `Float\t${Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? v : v > 0 ? 'Infinity' : '-Infinity'}`;
      return `String\t${JSON.stringify(v)}`;
    });
    // Psych makes a Date and a Symbol of these two; both stay strings here (Puppet's safe_load refuses a Date).
    const expected = psych.map((line, i) =>
      line.startsWith('Date\t') || line.startsWith('Symbol\t')
        ? `String\t${JSON.stringify(scalars[i])}`
        : line,
    );
    const rubyFloat = (line: string) => line.replace(/^Float\t(-?\d+)\.0$/, 'Float\t$1').replace(/e\+?/, 'e');
    expect(ours.map((line, i) => `${scalars[i]} -> ${rubyFloat(line)}`)).toEqual(
      expected.map((line, i) => `${scalars[i]} -> ${rubyFloat(line)}`),
    );
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

  it("hints at what is missing, by the parser's message: a key's colon is no closing quote", () => {
    const hint = (text: string) => sync(text).problems.map((p) => p.hint);
    // A key being typed under a template's section: there is no quote anywhere.
    expect(hint('ntp:\n  port: 80\n  se')).toEqual([
      "end the key with `:` (`key: value`, a space after the colon); a value alone goes on its key's line, or in a list as `- value`",
    ]);
    expect(hint('---\nRakefile:\n  extras: "unclosed\n')).toEqual([
      'close the quoted text with the quote that opened it, on this line or a later one',
    ]);
  });

  it('resolves aliases and merge keys, explicit keys winning', () => {
    const r = sync('base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n');
    expect(r.data).toEqual({ base: { x: 1n, y: 2n }, m: { y: 3n, x: 1n } });
  });

  it('refuses an alias to no anchor, and one inside its own anchor, at the alias with what to do', () => {
    expect(sync('a: &x\n  b: *y\n').problems).toEqual([
      {
        severity: 'error',
        code: 'SYNC_YAML',
        message: 'the alias *y names no anchor (&y) set before it',
        file: 'f.yml',
        line: 2,
        column: 6,
        hint: 'set the anchor on the value to repeat, above this line (key: &y value), or write the value out here',
      },
    ]);
    expect(sync('a: &x\n  b: [1, *x]\n').problems).toEqual([
      {
        severity: 'error',
        code: 'SYNC_YAML',
        message: 'the alias *x is inside the value its anchor names, which would contain itself without end',
        file: 'f.yml',
        line: 2,
        column: 10,
        hint: 'write the value out here, or move the anchor to a value that does not hold this alias',
      },
    ]);
  });

  it('finds positions by pointer, falling back to the nearest ancestor', () => {
    const r = sync('a:\n  list:\n    - one\n    - two\nempty:\n');
    expect(r.positions.positionOf('/a/list/1')).toEqual({ file: 'f.yml', line: 4, column: 7 });
    expect(r.positions.keyPositionOf('/a/list')).toEqual({ file: 'f.yml', line: 2, column: 3 });
    expect(r.positions.positionOf('/a/list/7/x')).toEqual({ file: 'f.yml', line: 3, column: 5 });
    expect(r.positions.positionOf('/empty')).toEqual({ file: 'f.yml', line: 5, column: 1 });
  });

  it('counts columns in characters, an emoji one, as every position Pantograph prints', () => {
    const r = sync('a: {"😀": 1, b: 2}\n');
    expect(r.positions.keyPositionOf('/a/b')).toEqual({ file: 'f.yml', line: 1, column: 13 });
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
