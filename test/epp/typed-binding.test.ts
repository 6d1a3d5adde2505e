/**
 * A template's declared parameters bind from the caller's plain object, each value converted as its type
 * expects and checked in the same walk (runtime/typed-conversion.ts, runtime/plain-values.ts). What a
 * template sees, and every error it reports, must be what it saw when the values were converted first and
 * checked after: asserted here over a matrix of types and values, and against fromJs's Maps.
 */
import { describe, expect, it } from 'vitest';
import { compileEpp, evaluatePuppet } from '../../src/epp/index.js';
import { rubyEql } from '../../src/epp/runtime/compare.js';
import { fromJs, valuesFromJs } from '../../src/epp/runtime/convert.js';
import { RecordHash } from '../../src/epp/runtime/record-hash.js';
import { convertAs, NO_FIT } from '../../src/epp/runtime/typed-conversion.js';
import type { PType } from '../../src/epp/runtime/types.js';
import type { PHash, Value } from '../../src/epp/runtime/values.js';

const TYPES = [
  'Any',
  'Data',
  'String',
  'String[1]',
  'Integer[1, 5]',
  'Float',
  'Numeric',
  'Boolean',
  "Enum['a', 'b']",
  'Pattern[/^a/]',
  'Optional[String]',
  'Optional',
  'NotUndef[Integer]',
  'Scalar',
  'Array',
  'Array[String]',
  'Array[String, 2]',
  'Array[Integer, 1, 2]',
  'Array[Optional[String]]',
  'Array[Data]',
  'Array[Array[String]]',
  'Array[Hash[String, Data]]',
  'Array[Hash[Any, Data]]',
  'Array[Hash[String, Data, 1, 2]]',
  "Array[Hash[Enum['a', 'b'], Data]]",
  'Array[Hash[String, String]]',
  'Hash',
  'Hash[String, Integer]',
  'Hash[String, String, 1, 2]',
  'Hash[Pattern[/^a/], Any]',
  "Hash[Enum['a'], Data]",
  'Hash[String, Array[String]]',
  'Hash[String, Hash[String, Data]]',
  'Hash[String, Optional[Integer]]',
  'Variant[String, Array[String]]',
  'Variant[Integer, Hash[String, String]]',
  'Struct[{a => Integer, Optional[b] => String}]',
  'Tuple[String, Integer]',
  'Collection[1]',
  'RichData',
];

const VALUES: unknown[] = [
  'a',
  '',
  'abc',
  true,
  0,
  -0,
  3,
  1.5,
  2 ** 60,
  Number.NaN,
  10n,
  null,
  [],
  ['a'],
  ['a', 'b'],
  ['a', null],
  ['a', 1],
  [1.5, -0],
  [['a'], ['b', 'c']],
  [
    { name: 'x', port: 1, tags: ['t'] },
    { name: 'y', weight: 2.5, on: null },
  ],
  // Lists of records, each walked by the loop of its own (typed-conversion.ts `hashesAs`).
  [
    { a: 'x', b: ['y'] },
    { a: 'z', b: [] },
  ],
  [{ a: 'x', b: [1, -0] }],
  [{ a: -0 }],
  [{ a: 2 ** 60 }],
  [{ a: 'x' }, 'a'],
  [{}],
  [{ a: 'x' }, { a: { b: 'y' } }],
  {},
  { a: 1 },
  { a: 'x', b: 'y' },
  { a: 'x', b: 'y', c: 'z' },
  { b: 'x' },
  { a: ['x', 'y'], b: [] },
  { a: { n: 1, m: [true] }, b: {} },
  { a: null },
  { a: 1.5, b: -0 },
  { a: 1, b: 'x' },
  new Map([['a', 1]]),
  { a: new Map([[1, 'x']]) },
];

const show = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x instanceof Map ? [...x] : x));

describe('converting as a type expects (convertAs)', () => {
  it('gives what converting first and checking after gives, for every type and value', () => {
    for (const text of TYPES) {
      const type = evaluatePuppet(text) as PType;
      for (const data of VALUES) {
        const converted = valuesFromJs(data);
        const expected = type.isInstance(converted) ? converted : NO_FIT;
        const actual = convertAs(type, data);
        const where = `${text} of ${show(data)}`;
        if (expected === NO_FIT) expect(actual, where).toBe(NO_FIT);
        else {
          expect(actual, where).not.toBe(NO_FIT);
          expect(rubyEql(actual as Value, expected), where).toBe(true);
        }
      }
    }
  });

  it("keeps the caller's arrays and objects where nothing in them converts, and copies where -0 does", () => {
    const list = ['a', 'b'];
    expect(convertAs(evaluatePuppet('Array[String]') as PType, list)).toBe(list);
    const zero = [1, -0];
    const out = convertAs(evaluatePuppet('Array[Integer]') as PType, zero) as number[];
    expect(out).not.toBe(zero);
    expect(Object.is(out[1], 0)).toBe(true);
    const record = { a: 'x', b: 1 };
    const hash = convertAs(evaluatePuppet('Hash[String, Data]') as PType, record) as RecordHash;
    expect(hash).toBeInstanceOf(RecordHash);
    expect(hash.allData).toBe(true);
    expect(hash.get('b')).toBe(1);
    const records = [{ a: 'x', n: -0 }];
    const listed = convertAs(evaluatePuppet('Array[Hash[String, Data]]') as PType, records) as RecordHash[];
    expect(Object.is(listed[0]!.get('n'), 0)).toBe(true);
    expect(Object.is(records[0]!.n, -0)).toBe(true);
    const floats = convertAs(evaluatePuppet('Hash[String, Float]') as PType, { f: 1.5 }) as RecordHash;
    expect(floats.allData).toBe(false);
    expect(rubyEql(floats, valuesFromJs({ f: 1.5 }))).toBe(true);
  });
});

describe('a template binding its parameters from plain values', () => {
  /** Output or error of a render with the plain object and with fromJs's Maps, in both tiers. */
  function outcomes(source: string, values: Record<string, unknown>): Set<string> {
    const template = compileEpp(source, { file: 't.epp' });
    const seen = new Set<string>();
    const attempt = (given: Record<string, unknown> | PHash) => {
      try {
        seen.add(`ok: ${template.render(given)}`);
      } catch (e) {
        seen.add(`error: ${(e as Error).message}`);
      }
    };
    // The first two renders are interpreted, the later ones compiled: each kind of values in each tier.
    for (let i = 0; i < 3; i++) {
      attempt(values);
      attempt(fromJs(values) as PHash);
    }
    return seen;
  }

  it('sees and reports what it did with the values converted first, for every type and value', () => {
    for (const text of TYPES) {
      const source = `<%- | ${text} $x | -%><%= $x %> <%= type($x) %>`;
      // A default that is code before another parameter: the parameters bind one by one (Runtime.param).
      const oneByOne = `<%- | ${text} $x, String $d = "\${x}", Integer $n = 1 | -%><%= $x %> <%= type($x) %> <%= $d %>`;
      for (const data of VALUES) {
        if (data instanceof Map || (typeof data === 'object' && data && 'a' in data && data.a instanceof Map))
          continue;
        const seen = outcomes(source, { x: data });
        expect(seen.size, `${text} of ${show(data)}: ${[...seen].join(' | ')}`).toBe(1);
        const seenOneByOne = outcomes(oneByOne, { x: data, n: 2 });
        expect(seenOneByOne.size, `${text} of ${show(data)}: ${[...seenOneByOne].join(' | ')}`).toBe(1);
      }
    }
  });

  it('takes defaults, reports missing, undef and unknown values, and lists every problem as before', () => {
    const source = [
      '<%- | String $name, Integer $port = 80, Optional[String] $note = undef, Array[String] $tags = [],',
      '      String $dir = "/srv/${name}" | -%>',
      '<%= $name %>:<%= $port %> <%= $note %> <%= $dir %> <%= $tags %>',
    ].join('\n');
    const cases: Record<string, unknown>[] = [
      { name: 'a' },
      { name: 'a', port: null, note: null, tags: undefined },
      { name: 'a', port: 8080, note: 'n', dir: '/x', tags: ['t'] },
      {},
      { name: null },
      { name: 'a', other: 1 },
      { name: 1, port: 'x', tags: [1] },
      { port: 1.5, stray: true },
    ];
    const expected = [
      'ok: a:80  /srv/a []',
      'ok: a:80  /srv/a []',
      'ok: a:8080 n /x [t]',
      "error: expects a value for parameter 'name'",
      "error: parameter 'name' expects a String value, got Undef",
      "error: The template has no parameter named 'other'",
      [
        'error: lambda:',
        "  parameter 'name' expects a String value, got Integer",
        "  parameter 'port' expects an Integer value, got String",
        "  parameter 'tags' index 0 expects a String value, got Integer",
      ].join('\n'),
      [
        'error: lambda:',
        "  The template has no parameter named 'stray'",
        "  expects a value for parameter 'name'",
        "  parameter 'port' expects an Integer value, got Float",
      ].join('\n'),
    ];
    cases.forEach((values, i) => {
      expect([...outcomes(source, values)]).toEqual([expected[i]]);
    });
  });

  it('binds a default of the wrong type and a default that reads a later given value as before', () => {
    expect([...outcomes('<%- | Integer $a = "x" | -%><%= $a %>', {})]).toEqual([
      "error: parameter 'a' expects an Integer value, got String",
    ]);
    expect([...outcomes('<%- | String $a = $b, String $b | -%><%= $a %>', { b: 'given' })]).toEqual([
      'ok: given',
    ]);
  });

  it('reads the values as they are at each render', () => {
    const template = compileEpp('<%- | Array[Hash[String, Data]] $list | -%><%= $list %>');
    const data = { list: [{ a: 1 }] as Record<string, unknown>[] };
    expect(template.render(data)).toBe('[{a => 1}]');
    data.list[0]!.b = ['x'];
    expect(template.render(data)).toBe('[{a => 1, b => [x]}]');
    data.list[0]!.c = () => 1;
    expect(() => template.render(data)).toThrow('cannot convert a JavaScript function to a Puppet value');
  });
});
