/**
 * The compiler's one pass of facts (captures, calls, next(), assigned names per scope), the allocation-free
 * child walk, and the first-render paths made cheaper for cold compiles (fromJs, the Data/Hash/Array
 * instance checks): each must answer what the generic code answered.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../src/epp/ast.js';
import { assignedNames } from '../../src/epp/ast-walk.js';
import { compileEpp, fromJs, parseEpp, renderEpp } from '../../src/epp/index.js';
import { forEachChild, nodeChildren, type WalkNode } from '../../src/epp/node-children.js';
import { resolveTypeName } from '../../src/epp/runtime/types.js';
import { float, type Value } from '../../src/epp/runtime/values.js';

const render = (source: string, values: Record<string, unknown> = {}) =>
  renderEpp(source, values, { file: 't.epp' });
const js = (source: string) => compileEpp(source, { file: 't.epp' }).javascript;

describe('forEachChild', () => {
  const template = `<%- | Array[Hash[String, Data]] $xs, Integer $n = 1 + 2 | -%>
<% $xs.each |$i, $x| { -%>
<%= $x['a'] %> <%= "q\${x['b']}" %> <%= [1, *$n] %> <%= { 'k' => $n } %> <%= -$n %> <%= ($n) %>
<% case $x['c'] { /a(b)/, 'z': { $m = 1 } default: { } } -%>
<% if $n > 1 and !($n < 0) { $y = $n ? { 1 => 2, default => 3 } } else { $z = Integer.new('3') } -%>
<% [$p, $q] = [1, 2] -%>
<%- } -%>`;

  it('visits the children nodeChildren lists, in the same order', () => {
    const ast = parseEpp(template);
    const all: WalkNode[] = [...(ast.params ?? []), ...ast.body];
    let visited = 0;
    const check = (node: WalkNode): number => {
      const seen: WalkNode[] = [];
      forEachChild(node, (child) => {
        seen.push(child);
        return 0;
      });
      expect(seen).toEqual(nodeChildren(node));
      visited++;
      for (const child of seen) check(child);
      return 0;
    };
    for (const node of all) check(node);
    expect(visited).toBeGreaterThan(60);
  });

  it('answers the OR of the callback', () => {
    const [node] = parseEpp('<%= [1, 2, 3] %>').body;
    let n = 0;
    expect(forEachChild(node!, () => 1 << n++)).toBe(1);
    const array = (node as Node & { type: 'Render' }).expr;
    n = 0;
    expect(forEachChild(array, () => 1 << n++)).toBe(0b111);
  });

  it('finds assigned names without descending into lambdas', () => {
    const ast = parseEpp('<% $a = 1; [$b, $c] = [2, 3]; [1].each |$x| { $d = $x }; if true { $e = 1 } %>');
    expect(assignedNames(ast.body)).toEqual(['a', 'b', 'c', 'e']);
  });
});

describe('compiler facts', () => {
  it('saves and restores captures only around an if or case that may set them', () => {
    expect(js('<% if $x =~ /a/ { %>y<% } %>')).toContain('rt.m = ');
    expect(js('<% if [1].any |$v| { $v =~ /a/ } { %>y<% } %>')).toContain('rt.m = ');
    expect(js('<% case $x { /a/: { %>y<% } } %>')).toContain('rt.m = ');
    expect(js('<% case $x { 1: { } $y ? { /a/ => 1, default => 2 }: { %>y<% } } %>')).toContain('rt.m = ');
    expect(js('<% if $x == 1 { %>y<% } %>')).not.toContain('rt.m');
    expect(js("<% case $x { 'a', 1: { %>y<% } default: { } } %>")).not.toContain('rt.m');
  });

  it('restores captures set inside an if once it is done', () => {
    expect(render("<% if 'abc' =~ /(b)/ { %><%= $1 %><% } %>[<%= $1 %>]")).toBe('b[]');
    expect(render("<% case 'abc' { /(c)/: { %><%= $1 %><% } } %>[<%= $1 %>]")).toBe('c[]');
  });

  it('catches next() only in the lambda bodies that call it', () => {
    expect(js('<% [1].each |$x| { next() } %>')).toContain('rt.nextValue');
    expect(js('<% [1].each |$x| { $x.next } %>')).toContain('rt.nextValue');
    // next() of an inner lambda is caught there, not by the outer one.
    const nested = js('<% [1].each |$x| { [2].each |$y| { next() } } %>');
    expect(nested.split('rt.nextValue').length - 1).toBe(1);
    expect(js('<% [1].each |$x| { } %>')).not.toContain('rt.nextValue');
    expect(render('<% [1, 2, 3].each |$x| { if $x == 2 { next() } %><%= $x %><% } %>')).toBe('13');
    expect(render('<%= [1, 2].map |$x| { [$x].map |$y| { next($y * 10) } } %>')).toBe('[[10], [20]]');
  });

  it('starts a new output statement before an expression that makes a call', () => {
    // Output made before a next() that ends the template must stay: the call is not part of the text's
    // statement.
    expect(render('a<%= $x %>b<%= next() %>c', { x: 1 })).toBe('a1b');
    expect(js('a<%= $x %>b<%= [1].length %>')).toMatch(/out \+= "a" \+ S\(.*\) \+ "b";\nout \+= S\(/);
  });

  it('gives each scope the names it assigns, lambdas their own', () => {
    expect(render('<% $a = 1 %><% [2].each |$x| { $a = $x %><%= $a %><% } %><%= $a %>')).toBe('21');
    expect(render('<% [1].each |$x| { [$p, $q] = [$x, 2] %><%= $p %><%= $q %><% } %>')).toBe('12');
    expect(render('<%- |$v = [1].map |$x| { $w = $x + 1 }| -%><%= $v %>')).toBe('[2]');
  });

  it('compiles lambdas whose parameters are optional, typed, repeated or a rest', () => {
    expect(render('<%= [[1, 2]].map |$a, $b = 5| { "${a}-${b}" } %>')).toBe('[0-[1, 2]]');
    expect(render('<%= with(1) |$a, $b = 5| { "${a}-${b}" } %>')).toBe('1-5');
    expect(render('<%= [1, 2].map |Integer $a| { $a * 2 } %>')).toBe('[2, 4]');
    expect(render('<%= [1, 2].reduce |$m, *$r| { $m + $r[0] } %>')).toBe('3');
    expect(render('<%= with(1, 2) |$a, $b| { $a + $b } %>')).toBe('3');
  });
});

describe('constants', () => {
  it('plans a constant on first use, with the positions of its errors', () => {
    const source = '<%- | String $a,\n  Foo[1] $x = 1 | -%>\n<%= $x %>';
    for (let i = 0; i < 2; i++) {
      try {
        renderEpp(`${source}<%# ${i} %>`, { a: 'q' }, { file: 't.epp' });
        throw new Error('expected an error');
      } catch (e) {
        expect((e as { code?: string }).code).toBe('EPP_UNKNOWN_TYPE');
        expect([(e as { line?: number }).line, (e as { column?: number }).column]).toEqual([2, 3]);
      }
    }
  });

  it('shares constant values between templates by key', () => {
    const a = render('<%- | Enum[a, b] $x | -%><%= $x %>', { x: 'a' });
    const b = render('<%- | Enum[ a,b ] $y | -%><%= $y %>', { y: 'b' });
    expect(a + b).toBe('ab');
  });
});

describe('first-render paths', () => {
  it('converts plain JavaScript data as before', () => {
    const nullProto = Object.assign(Object.create(null) as object, { k: 'v' });
    const v = fromJs({ a: 1, b: 2.5, c: [1, null, 'x'], d: -0, e: 2 ** 53, f: 5n, g: nullProto });
    expect(v).toEqual(
      new Map<Value, Value>([
        ['a', 1],
        ['b', float(2.5)],
        ['c', [1, undefined, 'x']],
        ['d', 0],
        ['e', float(2 ** 53)],
        ['f', 5],
        ['g', new Map([['k', 'v']])],
      ]),
    );
    expect(Object.is((v as Map<string, Value>).get('d'), 0)).toBe(true);
    expect((v as Map<string, Value>).get('b')).toBe(float(2.5));
    expect(fromJs(new Map<unknown, unknown>([[1, { x: 2 }]]))).toEqual(new Map([[1, new Map([['x', 2]])]]));
    expect(fromJs({ n: 1 }, { numbers: 'float' })).toEqual(new Map([['n', float(1)]]));
    expect(fromJs(float(1.5))).toBe(float(1.5));
  });

  it('checks Data, Hash and Array instances as the generic types do', () => {
    const data = resolveTypeName('Data')!;
    const generic = (data as unknown as { resolved(): { isInstance(v: Value): boolean } }).resolved();
    const samples: Value[] = [
      undefined,
      'a',
      1,
      2n ** 60n,
      float(1.5),
      true,
      [],
      [1, ['a', [undefined]]],
      [1, /x/ as unknown as Value],
      new Map(),
      new Map<Value, Value>([['a', [1, new Map([['b', float(2)]])]]]),
      new Map<Value, Value>([[1, 'a']]),
      new Map<Value, Value>([['a', new Map<Value, Value>([[1, 2]])]]),
      resolveTypeName('String')!,
    ];
    for (const v of samples) expect(data.isInstance(v), String(v)).toBe(generic.isInstance(v));
    expect(data.isInstance(fromJs({ xs: [{ a: 1, b: [true, null] }] }))).toBe(true);
    expect(
      render('<%- |Array[Hash[String, Data]] $xs| -%><%= $xs.length %>', { xs: [{ a: 1 }, { b: [2] }] }),
    ).toBe('2');
  });
});
