/**
 * The compiled fast paths (each/map/filter/reduce with a plain lambda run as loops by the runtime, bound
 * parameters read without the unset check, literal case options) behave as the ordinary calls do.
 */
import { describe, expect, it } from 'vitest';
import { newCallSite } from '../../src/epp/functions/registry.js';
import { compileEpp, defineFunction, EppError, FunctionRegistry, renderEpp } from '../../src/epp/index.js';

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
    expect(renderEpp('<%= [1, 2, 3].map |$x| { if $x == 3 { break() } $x * 10 } %>')).toBe('[10, 20]');
    expect(renderEpp('<%= [1, 2, 3].map |$x| { if $x == 2 { next(0) } $x } %>')).toBe('[1, 0, 3]');
    expect(renderEpp('<%= [1, 2, 3, 4].filter |$x| { if $x == 3 { break() } $x > 1 } %>')).toBe('[2]');
    expect(renderEpp('<%= [1, 2, 3].filter |$i, $x| { $i != 1 } %>')).toBe('[1, 3]');
    expect(renderEpp("<%= {'a' => 1, 'b' => 2}.filter |$k, $v| { $v > 1 } %>")).toBe('{b => 2}');
    expect(renderEpp('<%= [1, 2, 3].reduce |$m, $x| { $m + $x } %>')).toBe('6');
    expect(renderEpp('<%= [1, 2, 3].reduce(10) |$m, $x| { $m + $x } %>')).toBe('16');
    expect(renderEpp('<%= [1, 2, 3].reduce(0) |$m, $x| { if $x == 3 { break() } $m + $x } %>')).toBe('3');
    expect(renderEpp('<%= reduce([], 7) |$m, $x| { $m + $x } %>')).toBe('7');
  });

  it('leaves other receivers and lambdas to the ordinary call', () => {
    expect(renderEpp('<%= "ab".map |$c| { "${c}!" } %>')).toBe('[a!, b!]');
    expect(renderEpp('<%= 3.map |$i| { $i * 2 } %>')).toBe('[0, 2, 4]');
    expect(renderEpp('<%= [5, 6].map |$i, $x = 0| { $i } %>')).toBe('[0, 1]');
    const error = renderError('<% [1].each |$a, $b, $c| { } %>');
    expect(error.code).toBe('EPP_ARGUMENTS');
    expect(error.message).toContain("'each' block expects between 1 and 2 arguments, got 3");
    expect(renderError('<% [1].reduce |$m| { } %>').code).toBe('EPP_ARGUMENTS');
    expect(renderError('<% 1.5.each |$x| { } %>').message).toContain("'each' expects an Iterable value");
  });

  it('uses a function that replaces the core one', () => {
    const each = defineFunction('each', 1, 1, () => 'replaced', 'required');
    const map = defineFunction('map', 1, 1, (_ctx, _args, block) => block?.(42n), 'required');
    expect(renderEpp('<%= [1].each |$x| { 1 } %>', {}, { functions: [each] })).toBe('replaced');
    expect(renderEpp('<%= [1].map |$x| { $x + 1 } %>', {}, { functions: [map] })).toBe('43');
    // The same compiled template still takes the fast path without the replacement.
    expect(renderEpp('<%= [1].each |$x| { 1 } %>')).toBe('[1]');
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
    const registry = new FunctionRegistry().add(defineFunction('f', 0, 0, () => 1n));
    const site = newCallSite();
    expect(registry.resolve(site, 'f')?.call).toBe(registry.get('f')?.call);
    const replacement = defineFunction('f', 0, 0, () => 2n);
    registry.add(replacement);
    expect(registry.resolve(site, 'f')).toBe(replacement);
    expect(new FunctionRegistry().resolve(site, 'f')).toBeUndefined();
  });
});

describe('parameters and case options', () => {
  it('reads a parameter bound before, not one bound after', () => {
    expect(renderEpp('<%- | $a = 1, $b = $a | -%><%= $b %>')).toBe('1');
    expect(renderError('<%- | $a = $b, $b = 1 | -%><%= $a %>').code).toBe('EPP_UNKNOWN_VARIABLE');
    expect(renderEpp('<%- | $a = $b, $b = 1 | -%><%= $a %>', {}, { strict: false })).toBe('');
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
