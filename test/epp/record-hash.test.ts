/**
 * Plain JavaScript values passed to a render become RecordHashes (hashes kept as objects, see
 * runtime/record-hash.ts): a template sees exactly what it sees with the same values converted by fromJs.
 */
import { describe, expect, it } from 'vitest';
import { compileEpp, renderEpp } from '../../src/epp/index.js';
import { fromJs, valuesFromJs } from '../../src/epp/runtime/convert.js';
import { RecordHash } from '../../src/epp/runtime/record-hash.js';
import { float, type PHash, PRegexp } from '../../src/epp/runtime/values.js';

/** Renders with the plain values and with fromJs's Maps; both must agree. */
function both(source: string, values: Record<string, unknown>): string {
  const template = compileEpp(source, { file: 't.epp' });
  const results = new Set<string>();
  // Twice each: the first two renders are interpreted (one with each kind of values), the others compiled.
  for (let i = 0; i < 2; i++) {
    results.add(template.render(values));
    results.add(template.render(fromJs(values) as PHash));
  }
  expect(results.size).toBe(1);
  return [...results][0]!;
}

describe('values given as plain JavaScript objects', () => {
  it('are RecordHashes, with Data known as they are made', () => {
    const h = valuesFromJs({ a: 1, b: ['x'], c: { d: null } }) as RecordHash;
    expect(h).toBeInstanceOf(RecordHash);
    expect(h.allData).toBe(false); // a nested hash is checked when asked
    expect((valuesFromJs({ a: 1, b: ['x', true] }) as RecordHash).allData).toBe(true);
    expect([...h.keys()]).toEqual(['a', 'b', 'c']);
    expect(h.get('b')).toEqual(['x']);
    expect((h.get('c') as PHash).get('d')).toBeUndefined();
    expect((h.get('c') as PHash).has('d')).toBe(true);
    expect(h.size).toBe(3);
  });

  it('are read as they are at each render: nothing is remembered of the last one', () => {
    const template = compileEpp(
      '<%- | Array[String] $list, Hash[String, Integer] $h | -%><%= $list %> <%= $h %>',
    );
    const data = { list: ['a'], h: { n: 1 } as Record<string, unknown> };
    for (let i = 0; i < 3; i++) expect(template.render(data)).toBe('[a] {n => 1}');
    data.list.push('b');
    data.h.m = 2;
    for (let i = 0; i < 3; i++) expect(template.render(data)).toBe('[a, b] {n => 1, m => 2}');
    (data.list as unknown[]).push(3);
    expect(() => template.render(data)).toThrow(
      "parameter 'list' index 2 expects a String value, got Integer",
    );
    (data.list as unknown[]).pop();
    data.h.m = 'x';
    expect(() => template.render(data)).toThrow(
      "parameter 'h' entry 'm' expects an Integer value, got String",
    );
  });

  it('fromJs makes a snapshot', () => {
    const data = { list: ['a'], nested: { n: 1.5 } };
    const h = fromJs(data) as PHash;
    data.list.push('b');
    expect(h.get('list')).toEqual(['a']);
    expect((h.get('nested') as PHash).get('n')).toBe(float(1.5));
  });

  it('cannot be changed', () => {
    const h = valuesFromJs({ a: 1 }) as PHash;
    expect(() => h.set('b', 2)).toThrow(TypeError);
    expect(() => h.delete('a')).toThrow(TypeError);
  });

  it("read keys that Object.prototype has as ordinary keys, and miss them when they're absent", () => {
    const source =
      "<%= $h['toString'] %>|<%= $h['constructor'] =~ Undef %>|<%= $h['__proto__'] %>|<%= $h.keys %>|<%= 'valueOf' in $h %>";
    const h = JSON.parse('{"toString": "t", "__proto__": "p"}');
    expect(both(source, { h })).toBe('t|true|p|[toString, __proto__]|false');
  });

  it('convert numbers as fromJs does (whole numbers Integers, -0 is 0, others Floats), null to undef', () => {
    const source = '<% $v.each |$k, $x| { %><%= $k %>=<%= type($x, generalized) %>:<%= $x %> <% } %>';
    expect(both(source, { v: { a: 1, b: 1.5, c: -0, d: null, e: 2 ** 60, f: [1, null] } })).toBe(
      'a=Integer:1 b=Float:1.5 c=Integer:0 d=Undef: e=Float:1.152921504606847e+18 f=Array[Integer]:[1, ] ',
    );
  });

  it('keep the key order of the JavaScript object', () => {
    const source = "<%= $h.map |$k, $v| { \"${k}=${v}\" }.join(',') %> <%= $h['2'] %>";
    expect(both(source, { h: { b: 1, 2: 'two', a: 3 } })).toBe('2=two,b=1,a=3 two');
  });

  it('are checked against parameter types as Maps are', () => {
    const source = '<%- | Hash[String, Data] $h, Hash[String, Integer] $i | -%><%= $h %> <%= $i %>';
    expect(both(source, { h: { a: [1, 'x'], b: { c: null } }, i: { n: 1 } })).toBe(
      '{a => [1, x], b => {c => }} {n => 1}', // as Puppet 7 prints them
    );
    expect(() => renderEpp(source, { h: { a: 1 }, i: { n: 'x' } })).toThrow(
      "parameter 'i' entry 'n' expects an Integer value, got String",
    );
    for (const h of [{ a: new PRegexp('x') }, { a: { b: [new PRegexp('x')] } }]) {
      expect(() => renderEpp('<%- | Hash[String, Data] $h | -%>', { h })).toThrow(/expects/);
    }
  });

  it('take objects without a prototype as plain objects, and class instances by their own keys', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [2.5] });
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
      get sum(): number {
        return this.x + this.y;
      }
    }
    const source = '<%= $bare %> <%= $p %> <%= $p.keys %>';
    expect(both(source, { bare, p: new Point(1, 2) })).toBe('{a => 1, b => [2.5]} {x => 1, y => 2} [x, y]');
  });

  it('compare equal to the same hash made in the template', () => {
    expect(both("<%= $h == { 'a' => 1, 'b' => [2] } %>", { h: { a: 1, b: [2] } })).toBe('true');
  });
});
