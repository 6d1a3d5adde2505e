/**
 * The compiled fast paths (each/map/filter/reduce with a plain lambda run as loops by the runtime, bound
 * parameters read without the unset check, literal case options, `$h['key']` through the hash's index,
 * length/size/empty/join in place, Integer operators on numbers, output appended in few statements)
 * behave as the ordinary calls do.
 */
import { describe, expect, it } from 'vitest';
import { newCallSite } from '../../src/epp/functions/registry.js';
import { compileEpp, defineFunction, EppError, FunctionRegistry, renderEpp } from '../../src/epp/index.js';
import { fromJs } from '../../src/epp/runtime/convert.js';
import { hashIndex } from '../../src/epp/runtime/hash-index.js';
import { float, type PHash } from '../../src/epp/runtime/values.js';

function renderError(source: string, options = {}): EppError {
  try {
    renderEpp(source, {}, { file: 't.epp', ...options });
  } catch (e) {
    expect(e).toBeInstanceOf(EppError);
    return e as EppError;
  }
  throw new Error('expected an error');
}

describe('iteration fast paths', () => {
  it('passes Integer indexes on arrays and key, value or pairs on hashes', () => {
    expect(renderEpp('<% [a, b].each |$i, $x| { %><%= $i + 1 %><%= $x %>,<% } %>')).toBe('1a,2b,');
    expect(renderEpp("<% {'a' => 1, 'b' => 2}.each |$k, $v| { %><%= $k %>=<%= $v %>;<% } %>")).toBe(
      'a=1;b=2;',
    );
    expect(renderEpp("<% {'a' => 1}.each |$pair| { %><%= $pair %><% } %>")).toBe('[a, 1]');
    expect(renderEpp("<%= {'a' => 1, 'b' => 2}.map |$k, $v| { \"${k}${v}\" } %>")).toBe('[a1, b2]');
    expect(renderEpp('<%= [x, y].map |$i, $v| { $i } %>')).toBe('[0, 1]');
  });

  it('returns what the core functions return, break() and next() included', () => {
    expect(renderEpp('<%= [1, 2, 3].each |$x| { if $x == 2 { break() } } %>')).toBe('[1, 2, 3]');
    const hashLoop =
      "<% {'a' => 1, 'b' => 2, 'c' => 3}.each |$k, $v| { if $v == 2 { break() } -%><%= $k %>=<%= $v %> <% } %>";
    expect(renderEpp(hashLoop)).toBe('a=1 ');
    expect(renderEpp('<%= [1, 2, 3].map |$x| { if $x == 3 { break() } $x * 10 } %>')).toBe('[10, 20]');
    expect(renderEpp('<%= [1, 2, 3].map |$x| { if $x == 2 { next(0) } $x } %>')).toBe('[1, 0, 3]');
    expect(renderEpp('<%= [1, 2, 3, 4].filter |$x| { if $x == 3 { break() } $x > 1 } %>')).toBe('[2]');
    expect(renderEpp('<%= [1, 2, 3].filter |$i, $x| { $i != 1 } %>')).toBe('[1, 3]');
    expect(renderEpp("<%= {'a' => 1, 'b' => 2}.filter |$k, $v| { $v > 1 } %>")).toBe('{b => 2}');
    expect(renderEpp('<%= [1, 2, 3].reduce |$m, $x| { $m + $x } %>')).toBe('6');
    expect(renderEpp('<%= [1, 2, 3].reduce(10) |$m, $x| { $m + $x } %>')).toBe('16');
    expect(renderEpp('<%= [1, 2, 3].reduce(0) |$m, $x| { if $x == 3 { break() } $m + $x } %>')).toBe('3');
    expect(renderEpp('<%= reduce([], 7) |$m, $x| { $m + $x } %>')).toBe('7');
    expect(renderEpp('<%= [].reduce |$m, $x| { $m + $x } =~ Undef %>')).toBe('true');
    expect(renderEpp('<%= [5].reduce |$m, $x| { $m + $x } %>')).toBe('5');
    expect(renderEpp('<%= [1, 2, 3].reduce |$m, $x| { if $x == 3 { break() } $m + $x } %>')).toBe('3');
  });

  it('makes map results sized to the array, cut at a break()', () => {
    expect(renderEpp('<%= [1, 2].map |$x| { break() } %>')).toBe('[]');
    expect(renderEpp('<%= [1, 2, 3].map |$i, $x| { if $i == 2 { break() } $x } %>')).toBe('[1, 2]');
    expect(renderEpp('<%= [].map |$x| { $x } %>')).toBe('[]');
    // The results are ordinary arrays: compared, typed, joined, iterated like any other.
    const uses =
      "<% $a = [1, 2, 3].map |$x| { $x } %><%= $a == [1, 2, 3] %> <%= $a =~ Array[Integer, 3, 3] %> <%= $a.join('-') %> <%= $a.length %> <% $a.reverse_each |$x| { %><%= $x %><% } %>";
    expect(renderEpp(uses)).toBe('true true 1-2-3 3 321');
  });

  it('leaves other receivers and lambdas to the ordinary call', () => {
    expect(renderEpp('<%= "ab".map |$c| { "${c}!" } %>')).toBe('[a!, b!]');
    expect(renderEpp('<%= 3.map |$i| { $i * 2 } %>')).toBe('[0, 2, 4]');
    expect(renderEpp('<%= [5, 6].map |$i, $x = 0| { $i } %>')).toBe('[0, 1]');
    const error = renderError('<% [1].each |$a, $b, $c| { } %>');
    expect(error.code).toBe('EPP_ARGUMENTS');
    expect(error.message).toContain("'each' block expects between 1 and 2 arguments, got 3");
    expect(renderError('<% [1].reduce |$m| { } %>').code).toBe('EPP_ARGUMENTS');
    expect(renderError('<% 1.5.each |$x| { } %>').message).toContain(
      "rejected: parameter 'enumerable' expects an Iterable value, got Float",
    );
  });

  it('uses a function that replaces the core one', () => {
    const each = defineFunction('each', 1, 1, () => 'replaced', 'required');
    const map = defineFunction('map', 1, 1, (_ctx, _args, block) => block?.(42), 'required');
    expect(renderEpp('<%= [1].each |$x| { 1 } %>', {}, { functions: [each] })).toBe('replaced');
    expect(renderEpp('<%= [1].map |$x| { $x + 1 } %>', {}, { functions: [map] })).toBe('43');
    // The same compiled template still takes the fast path without the replacement.
    expect(renderEpp('<%= [1].each |$x| { 1 } %>')).toBe('[1]');
  });

  it('calls lambdas as Puppet calls closures: a missing argument named, extra ones dropped', () => {
    // Puppet: "Parameter $b is required but no value was given" at `$b` (column 18).
    const source = '<%= with(1) |$a, $b| { $a } %>';
    const error = renderError(source);
    expect(error.code).toBe('EPP_MISSING_PARAMETER');
    expect(error.message).toBe('Parameter $b is required but no value was given');
    expect(error.location?.span).toEqual({ start: source.indexOf('$b'), end: source.indexOf('$b') + 2 });
    // The first parameter left without a value, whatever the lambda's form (typed, defaults, a rest), at
    // its name, as Puppet points.
    const typed = '<%= with() |Integer $a, $b = 2, *$r| { $a } %>';
    expect(renderError(typed).message).toBe('Parameter $a is required but no value was given');
    expect(renderError(typed).location?.span.start).toBe(typed.indexOf('$a'));
    // More arguments than parameters: the rest are dropped, as Puppet's closure call does.
    expect(renderEpp('<%= with(1, 2) |$a| { $a } %>')).toBe('1');
    expect(renderEpp('<%= with(1, 2, 3) |Integer $a, $b = 5| { $a + $b } %>')).toBe('3');
    expect(renderEpp('<%= with(1, 2, 3) |$a| { $x = 4; [$a, $x] } %>')).toBe('[1, 4]');
    expect(renderEpp('<%= 3.map |$i| { $i * 2 } %>|<%= [3, 1].sort |$a, $b| { compare($a, $b) } %>')).toBe(
      '[0, 2, 4]|[1, 3]',
    );
  });

  it('calls a lambda from a library function as Puppet calls a closure', () => {
    // A function of the caller's own calls the block with any count: the same rules as `with`.
    const call = defineFunction('call_with', 0, 9, (_ctx, args, block) => block?.(...args), 'required');
    const render = (source: string) => renderEpp(source, {}, { functions: [call] });
    expect(render('<%= call_with(1, 2, 3) |$a, $b| { $a + $b } %>')).toBe('3');
    expect(render('<%= call_with(1, 2, 3) |$a, *$r| { $r } %>')).toBe('[2, 3]');
    expect(render('<%= [7].map |$x| { call_with($x, 8) |$y| { $y } } %>')).toBe('[7]');
    const source = '<%= call_with(1) |$a, $b| { $a } %>';
    const error = renderError(source, { functions: [call] });
    expect(error.message).toBe('Parameter $b is required but no value was given');
    expect(error.location?.span.start).toBe(source.indexOf('$b'));
  });

  it('points errors raised in the lambda at their own position', () => {
    const source = '<% [1].each |$x| { $nope } %>';
    const error = renderError(source);
    expect(error.code).toBe('EPP_UNKNOWN_VARIABLE');
    expect(error.location?.span).toEqual({
      start: source.indexOf('$nope'),
      end: source.indexOf('$nope') + 5,
    });
  });
});

describe('call sites', () => {
  it('call the function of the registry of each render', () => {
    const template = compileEpp("<%= [b, a].join('-') %>");
    const join = defineFunction('join', 1, 2, () => 'mine');
    const functions = [join];
    expect(template.render({}, { functions })).toBe('mine');
    expect(template.render({})).toBe('b-a');
    expect(template.render({}, { functions })).toBe('mine');
  });

  it('see a function added to a registry after they resolved it', () => {
    const registry = new FunctionRegistry().add(defineFunction('f', 0, 0, () => 1));
    const site = newCallSite();
    expect(registry.resolve(site, 'f')?.call).toBe(registry.get('f')?.call);
    const replacement = defineFunction('f', 0, 0, () => 2);
    registry.add(replacement);
    expect(registry.resolve(site, 'f')).toBe(replacement);
    expect(new FunctionRegistry().resolve(site, 'f')).toBeUndefined();
  });
});

describe('parameters and case options', () => {
  it('reads a parameter bound before, and one bound after only when its value is given (as Puppet)', () => {
    expect(renderEpp('<%- | $a = 1, $b = $a | -%><%= $b %>')).toBe('1');
    expect(renderEpp('<%- | $a = $b, $b = 1 | -%><%= $a %>', { b: 'given' })).toBe('given');
    for (const strict of [true, false]) {
      const error = renderError('<%- | $a = $b, $b = 1 | -%><%= $a %>', { strict });
      expect(error.code).toBe('EPP_EVAL');
      expect(error.message).toBe('default expression for $a tries to illegally access not yet evaluated $b');
      expect(error.column).toBe(12); // the read of $b
    }
  });

  it('shares type expressions between templates, errors included at their own positions', () => {
    const one = compileEpp('<%- | Array[Integer[1, 3]] $xs | -%><%= $xs %>');
    const two = compileEpp('<%- | Array[ Integer[1,3] ] $ys | -%><%= $ys %>');
    expect(one.render({ xs: [1, 3] })).toBe('[1, 3]');
    expect(two.render({ ys: [2] })).toBe('[2]');
    expect(() => two.render({ ys: [4] })).toThrow(/parameter 'ys'/);
    for (const source of ["<%- | Integer['x'] $a | -%>", "<%- |  Integer['x'] $a | -%>"]) {
      const error = renderError(source);
      expect(error.location?.span.start).toBe(source.indexOf('Integer['));
    }
  });

  it('matches literal case options with ==', () => {
    const template = compileEpp(
      "<% case $x { 'WEB': { %>web<% } 2: { %>two<% } undef: { %>none<% } default: { %>other<% } } %>",
    );
    expect(template.render({ x: 'web' })).toBe('web');
    expect(template.render({ x: 2.0 })).toBe('two');
    expect(template.render({ x: null })).toBe('none');
    expect(template.render({ x: 'api' })).toBe('other');
  });
});

describe('hash reads through the index', () => {
  it('read what Map.get reads, for every string key, and undef for a missing one', () => {
    const h = fromJs({ name: 'a', 'a-b': 1, '0': 2, '': 3, nested: { x: [1] }, none: null }) as PHash;
    const index = hashIndex(h)!;
    for (const [k, v] of h) expect(index[k as string]).toBe(v);
    expect(hashIndex(h)).toBe(index); // built once, kept on the hash
    expect(index.missing).toBeUndefined();
    const source =
      "<%= $h['name'] %>|<%= $h['a-b'] %>|<%= $h['0'] %>|<%= $h[''] %>|<%= $h['nested']['x'] %>|" +
      "<%= $h['none'] == undef %>|<%= $h['missing'] == undef %>";
    expect(renderEpp(source, { h })).toBe('a|1|2|3|[1]|true|true');
  });

  it('treat toString, __proto__ and constructor as plain keys', () => {
    const h = new Map([
      ['toString', 'a'],
      ['__proto__', 'b'],
    ]);
    const source =
      "<%= $h['toString'] %>|<%= $h['__proto__'] %>|<%= $h['constructor'] == undef %>|<%= $h['hasOwnProperty'] == undef %>";
    expect(renderEpp(source, { h })).toBe('a|b|true|true');
    expect(hashIndex(h)!.valueOf).toBeUndefined();
  });

  it('leave other keys to Map.get: an Integer key is not its string', () => {
    const source = "<% $h = {1 => 'one', 'x' => 2} %><%= $h[1] %>|<%= $h['1'] == undef %>|<%= $h['x'] %>";
    expect(renderEpp(source)).toBe('one|true|2');
    expect(hashIndex(new Map<unknown, unknown>([[1, 'one']]) as PHash)).toEqual({});
  });

  it('read lambda and template parameters through one index per call, other values as before', () => {
    const source =
      "<%- | $h | -%><%= $h['a'] %><% [{'a' => 1}, {'a' => 2}].each |$x| { %>,<%= $x['a'] %><% } %>";
    expect(renderEpp(source, { h: { a: 0 } })).toBe('0,1,2');
    expect(renderEpp("<% [{'k' => 1}, {}].each |$x| { %><%= $x['k'] %>.<% } %>")).toBe('1..');
    expect(renderError("<% [undef].each |$x| { %><%= $x['k'] %><% } %>").code).toBe('EPP_ACCESS');
    expect(renderError("<% ['abc'].each |$x| { %><%= $x['b'] %><% } %>").message).toContain(
      'A substring operation does not accept a String as a character index. Expected an Integer',
    );
  });

  it('point errors of non-hash targets at the access', () => {
    const source = "<% [[1]].each |$x| { %><%= $x['k'] %><% } %>";
    const error = renderError(source);
    expect(error.code).toBe('EPP_ACCESS');
    expect(error.location?.span).toEqual({
      start: source.indexOf("$x['k']"),
      end: source.indexOf("$x['k']") + 7,
    });
    expect(renderError("<%= [1, 2]['x'] %>").location?.span).toEqual({ start: 4, end: 15 });
  });
});

describe('collection functions in place', () => {
  it('answer arrays, hashes and strings as the core functions do', () => {
    expect(
      renderEpp("<%= [a, b].length %>|<%= {a => 1}.size %>|<%= 'héé'.length %>|<%= '\u{1F600}'.length %>"),
    ).toBe('2|1|3|1');
    expect(
      renderEpp("<%= [].empty %>|<%= ''.empty %>|<%= {}.empty %>|<%= [1].empty %>|<%= undef.empty %>"),
    ).toBe('true|true|true|false|true');
    expect(
      renderEpp(
        "<%= [a, 1, b].join('-') %>|<%= [a, b].join %>|<%= [].join(',') %>|<%= [[a, b], c].join(',') %>",
      ),
    ).toBe('a-1-b|ab||a,b,c');
    expect(renderError('<%= 1.length %>').code).toBe('EPP_ARGUMENTS');
    expect(renderError('<%= [a].join(1) %>').code).toBe('EPP_ARGUMENTS');
  });

  it('honour functions that replace them', () => {
    const functions = [
      defineFunction('length', 1, 1, () => 'L'),
      defineFunction('size', 1, 1, () => 'S'),
      defineFunction('empty', 1, 1, () => 'E'),
      defineFunction('join', 1, 2, (_ctx, args) => `J${args.length}`),
    ];
    const template = compileEpp(
      "<%= [1].length %><%= {} .size %><%= [].empty %><%= [a].join %><%= [a].join('-') %>",
    );
    expect(template.render({}, { functions })).toBe('LSEJ1J2');
    expect(template.render({})).toBe('10truea' + 'a');
  });
});

describe('map then join in one loop', () => {
  // Each template is rendered three times: interpreted (map, then join), then compiled (rt.mapJoin).
  const thrice = (source: string, options = {}) => {
    const template = compileEpp(source);
    const outputs = [1, 2, 3].map(() => template.render({}, options));
    expect(new Set(outputs).size, source).toBe(1);
    return outputs[0];
  };

  it('gives what map then join give, as Puppet 7 prints them', () => {
    // Expected texts from puppet epp render.
    expect(thrice('<%= [a, b].map |$x| { "<${x}>" }.join(", ") %>')).toBe('<a>, <b>');
    expect(thrice('<%= [a, b].map |$i, $x| { "${i}${x}" }.join %>')).toBe('0a1b');
    expect(thrice('<%= [1, [2, 3], undef, 2.5].map |$x| { $x }.join("-") %>')).toBe('1-2-3--2.5');
    expect(thrice('<%= [1, 2].map |$x| { [$x, $x] }.join(",") %>')).toBe('1,1,2,2');
    expect(thrice('<%= [a, 1, b].map |$x| { $x }.join(",") %>')).toBe('a,1,b');
    expect(thrice('<%= {a => 1, b => 2}.map |$k, $v| { "${k}=${v}" }.join(\'&\') %>')).toBe('a=1&b=2');
    expect(thrice('<%= [].map |$x| { $x }.join(",") %>')).toBe('');
    expect(thrice('<%= map([x]) |$x| { "${x}!" }.join(",") %>')).toBe('x!');
  });

  it('ends at a break() with the results so far', () => {
    expect(thrice('<%= [1, 2, 3].map |$x| { if $x == 2 { break() } "${x}" }.join(",") %>')).toBe('1');
    expect(thrice('<%= [1, 2].map |$x| { break() }.join(",") %>')).toBe('');
    expect(thrice('<%= [1, 2, 3].map |$x| { if $x == 3 { break() } $x }.join(",") %>')).toBe('1,2');
  });

  it('honours functions that replace map or join', () => {
    const source = '<%= [1, 2].map |$x| { "${x}" }.join(",") %>';
    const join = defineFunction('join', 1, 2, (_ctx, args) => `J${args.length}`);
    const map = defineFunction('map', 1, 1, (_ctx, _args, block) => [block?.('m')], 'required');
    expect(thrice(source, { functions: [join] })).toBe('J2');
    expect(thrice(source, { functions: [map] })).toBe('m');
    expect(thrice(source)).toBe('1,2');
  });

  it('points errors in the lambda at their own position', () => {
    for (let i = 0; i < 2; i++) {
      const e = renderError('<%= [1].map |$x| { $x + a }.join(",") %>');
      expect([e.code, e.where]).toEqual(['EPP_OPERATOR', 't.epp:1:25']); // `a`, as Puppet
    }
  });
});

describe('Integers and Floats', () => {
  it('compute on numbers and go exact beyond 2^53', () => {
    expect(renderEpp('<% [a, b].each |$i, $x| { %><%= $i * 10 + 1 %>,<% } %>')).toBe('1,11,');
    expect(
      renderEpp('<%= 9007199254740991 + 2 %>|<%= 9007199254740993 %>|<%= -9007199254740991 - 2 %>'),
    ).toBe('9007199254740993|9007199254740993|-9007199254740993');
    expect(renderEpp('<%= 0 * -1 %>|<%= 3037000499 * 3037000499 %>|<%= 7 / 2 %>|<%= -7 / 2 %>')).toBe(
      '0|9223372030926249001|3|-4',
    );
    expect(renderError('<%= 9223372036854775807 + 1 %>').code).toBe('EPP_INTEGER_OVERFLOW');
  });

  it('keep Float literals Floats', () => {
    expect(
      renderEpp('<% $x = 1.0 %><%= 2.0 %>|<%= 1.5 + 1 %>|<%= 1.0 * 3 %>|<%= 2.0 == 2 %>|<%= "${x}" %>'),
    ).toBe('2.0|2.5|3.0|true|1.0');
    expect(renderEpp('<%- | Float $f = 2.0 | -%><%= $f %>')).toBe('2.0');
    expect(renderEpp('<%- | Float $f | -%><%= $f %>', { f: float(3) })).toBe('3.0');
    expect(renderError('<%- | Integer $i = 2.0 | -%>').code).toBe('EPP_TYPE_MISMATCH');
  });

  it('compare numbers natively and the rest as Puppet does', () => {
    expect(
      renderEpp("<%= 2 < 10 %>|<%= 'a' < 'B' %>|<%= 1 < 1.5 %>|<%= 10 >= 10 %>|<%= 3 <= 2 %>|<%= 5 > 4.5 %>"),
    ).toBe('true|true|true|true|false|true');
    expect(
      renderEpp(
        "<%= 'WEB' == 'web' %>|<%= 1 == '1' %>|<%= 'web' == 1 %>|<%= 'x' != 'X' %>|<%= 'ab' == 'abc' %>",
      ),
    ).toBe('true|false|false|false|false');
    expect(renderError("<%= 1 < 'a' %>").code).toBe('EPP_OPERATOR');
  });
});

describe('output and parameters', () => {
  it('keep the output made before a next() that ends the template', () => {
    expect(renderEpp('x<%= $a %>y<%= next(2) %>z', { a: 1 })).toBe('x1y');
  });

  it('refuse return() in the template a render starts with, as Puppet does, lambdas included', () => {
    for (const source of ['a<%= return(1) %>b', 'x<%= [1].each |$v| { return(2) } %>z']) {
      const error = renderError(source);
      expect(error.code).toBe('EPP_EVAL');
      expect(error.message).toBe('return() from context where this is illegal');
      expect(error.column).toBe(source.indexOf('return') + 1);
    }
  });

  it("give a nested template's return() value instead of its text", () => {
    expect(renderEpp(`<%= inline_epp("a<% [1].each |\\$v| { return('r') } %>b") %>|`)).toBe('r|');
    expect(renderEpp(`<%= inline_epp("a<% return() %>b") %>|`)).toBe('|');
    expect(renderEpp(`<%= inline_epp("a<% return(7) %>b") %>`)).toBe('7');
    // A next() that ends it must give text, return() anything.
    expect(renderError(`<%= inline_epp("a<% next(7) %>b") %>`).message).toContain(
      "value returned from function 'inline_epp' has wrong type, expects a value of type String or Sensitive[String], got Integer",
    );
  });

  it('bind template parameters: defaults, undef, code defaults, errors at the parameter', () => {
    const source =
      '<%- | $a = 1, $b = "${a}x", Optional[Integer] $c = 3, Array $d = [] | -%><%= [$a, $b, $c, $d] %>';
    expect(renderEpp(source)).toBe('[1, 1x, 3, []]');
    expect(renderEpp(source, { a: 2, b: null, c: null })).toBe('[2, 2x, 3, []]');
    const typed = '<%- | Integer $a | -%><%= $a %>';
    const mismatch = renderError(typed, {});
    expect(mismatch.code).toBe('EPP_MISSING_PARAMETER');
    expect(() => renderEpp(typed, { a: 'x' })).toThrow(/parameter 'a' expects an Integer value, got String/);
    const bad = '<%- | Integer $a = "${1}" | -%>';
    const error = renderError(bad);
    expect(error.code).toBe('EPP_TYPE_MISMATCH');
    expect(error.location?.span.start).toBe(bad.indexOf('Integer'));
    expect(renderError('<%- | $a | -%>', { strict: true }).code).toBe('EPP_MISSING_PARAMETER');
    expect(renderError('<%- | $a | -%>').location?.span).toEqual({ start: 6, end: 8 });
  });
});

describe('lambdas nested in lambdas', () => {
  it('read what the lambdas around them bind, whether made once per render or on every call', () => {
    // the enclosing lambda's parameter, a variable it assigns, its hash parameter read by key
    expect(
      renderEpp('<% [1, 2].each |$x| { %><%= [a, b].map |$y| { "${x}${y}" }.join(\',\') %>;<% } %>'),
    ).toBe('1a,1b;2a,2b;');
    expect(renderEpp('<% [1, 2].each |$x| { $z = $x * 10 %><%= [a].map |$y| { "${z}${y}" } %><% } %>')).toBe(
      '[10a][20a]',
    );
    expect(
      renderEpp("<% [{'k' => 1}, {'k' => 2}].each |$h| { %><%= [a].map |$y| { \"${h['k']}${y}\" } %><% } %>"),
    ).toBe('[1a][2a]');
    // the outermost lambda's parameter, read two lambdas down
    expect(
      renderEpp(
        '<% [1, 2].each |$x| { [a].each |$y| { [b].each |$w| { %><%= $x %><%= $y %><%= $w %> <% } } } %>',
      ),
    ).toBe('1ab 2ab ');
    // a function that looks variables up by name sees the enclosing lambda's
    expect(renderEpp("<% [1, 2].each |$x| { %><%= [a].map |$y| { getvar('x') } %><% } %>")).toBe('[1][2]');
    // only the template's parameters and variables: the same function for every call, still right
    expect(
      renderEpp(
        "<%- |$p = 'P'| -%><% $t = 'T' %><% [1, 2].each |$x| { %><%= [a].map |$y| { \"${p}${t}${y}\" } %><% } %>",
      ),
    ).toBe('[PTa][PTa]');
    // in a parameter's default, which runs before the template's body
    expect(renderEpp('<%- |$d = [[1, 2], [3]].map |$l| { $l.map |$v| { $v * 2 } }| -%><%= $d %>')).toBe(
      '[[2, 4], [6]]',
    );
  });

  it('are made once per render when they read no local of the lambdas around them', () => {
    const reads = (source: string) => compileEpp(source).javascript;
    const hoisted = reads('<% [[1], [2]].each |$l| { %><%= $l.map |$v| { $v * 2 } %><% } %>');
    expect(hoisted).toMatch(/const L0 = \(function/);
    expect(hoisted).toContain('rt.map(v0, L0,');
    // reads the enclosing lambda's parameter: made on every call, as before
    expect(reads('<% [1, 2].each |$x| { %><%= [a].map |$y| { "${x}${y}" } %><% } %>')).not.toContain(
      'const L0',
    );
  });
});
