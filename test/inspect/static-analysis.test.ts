import { describe, expect, it } from 'vitest';
import {
  analyzeEpp,
  literalValue,
  unknownFunctionProblems,
  unknownVariableProblems,
} from '../../src/engine/static-analysis.js';
import { parseEpp } from '../../src/epp/index.js';
import { parsePuppet } from '../../src/epp/parser/parser.js';

const analyze = (source: string) => analyzeEpp(parseEpp(source), source);
const reads = (source: string) => analyze(source).freeReads.map((r) => r.name);

describe('free variable reads', () => {
  it('finds reads in every branch, taken or not', () => {
    expect(
      reads(
        '<% if $a { %><%= $b %><% } else { %><%= $c %><% } %><% case $d { 1: { %><%= $e %><% } default: {} } %>',
      ),
    ).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('knows parameters, assignments anywhere in the scope, lambda parameters and captures', () => {
    const source = `<%- | $p, $q = $p | -%>
<% $x = 1 -%>
<%= $p %><%= $x %><%= $y %>
<% [1].each |$i| { $z = $i %><%= $z %><%= $x %><% } -%>
<%= $z %><% if 'a' =~ /(a)/ { %><%= $1 %><% } %>
<% [$w] = [1] %><%= $w %>`;
    expect(reads(source)).toEqual(['y', 'z']);
  });

  it('keeps top-scope reads and points at each read', () => {
    const source = '<%= $::settings %> <%= $missing %>';
    const r = analyze(source).freeReads;
    expect(r).toEqual([
      { name: '::settings', start: 4, end: 15 },
      { name: 'missing', start: 23, end: 31 },
    ]);
  });

  it('treats a lambda parameter as known only inside its lambda', () => {
    expect(reads('<% [1].map |$v| { $v } %><%= $v %>')).toEqual(['v']);
  });
});

describe('function calls and epp() call sites', () => {
  it('lists every call, including method calls and statement calls in branches not taken', () => {
    const a = analyze("<% if false { notice('x') } %><%= [1].mapp |$x| { $x } %><%= upcase('a') %>");
    expect(a.calls.map((c) => c.name)).toEqual(['notice', 'mapp', 'upcase']);
  });

  it('reads literal paths and argument hashes, and marks values known only at render time', () => {
    const source =
      "<%= epp('partials/x.epp', { 'a' => 1, b => [true, 'x'], 'c' => $v, 'd' => undef, 'e' => -2.5 }) %>";
    const [call] = analyze(source).eppCalls;
    expect(call?.path).toBe('partials/x.epp');
    expect(call?.start).toBe(4);
    expect([...(call?.args ?? new Map())].map(([k, v]) => [k, v.value, v.text])).toEqual([
      ['a', 1n, '1'],
      ['b', [true, 'x'], "[true, 'x']"],
      ['c', undefined, '$v'],
      ['d', null, 'undef'],
      ['e', -2.5, '-2.5'],
    ]);
  });

  it('leaves paths and argument hashes computed at render time undefined', () => {
    const [a, b, c] = analyze('<%= epp($p) %><%= epp(\'x.epp\', $args) %><%= epp("p/${n}.epp") %>').eppCalls;
    expect(a).toMatchObject({ path: undefined, pathText: '$p', argsText: undefined });
    expect(a?.args?.size).toBe(0);
    expect(b).toMatchObject({ path: 'x.epp', args: undefined, argsText: '$args' });
    expect(c?.path).toBeUndefined();
  });

  it('analyses Puppet programs (hooks) too', () => {
    const source = "$s = $state\n$s + { 'x' => frobnicate(1) }";
    const a = analyzeEpp(parsePuppet(source), source);
    expect(a.freeReads.map((r) => r.name)).toEqual(['state']);
    expect(a.calls.map((c) => c.name)).toEqual(['frobnicate']);
  });
});

describe('literalValue', () => {
  it('gives the value of literal expressions only', () => {
    const value = (expr: string) => {
      const ast = parseEpp(`<%= ${expr} %>`);
      const node = ast.body[0];
      return node?.type === 'Render' ? literalValue(node.expr) : 'not a render';
    };
    expect(value('{ \'a\' => [1, 2.0, "s"], b => undef }')).toEqual({ a: [1n, 2, 's'], b: null });
    expect(value('(-3)')).toBe(-3n);
    expect(value('"x${y}"')).toBeUndefined();
    expect(value('[1, $x]')).toBeUndefined();
    expect(value('1 + 1')).toBeUndefined();
  });
});

describe('problems of one file', () => {
  it('reports unknown functions as rendering would, with a did-you-mean', () => {
    const source = "<%= upcase('a') %>\n<%= upcasee('b') %>";
    expect(unknownFunctionProblems(analyze(source), '/t/f.epp', source)).toEqual([
      {
        severity: 'error',
        code: 'EPP_UNKNOWN_FUNCTION',
        message: "Unknown function: 'upcasee'.",
        file: '/t/f.epp',
        line: 2,
        column: 5,
        hint: "did you mean 'upcase'?",
      },
    ]);
  });

  it('warns on variables that are neither visible nor top-scope names', () => {
    const source = '<%= $settings %><%= $::project %>\n<%= $rubyversion %> <%= $ok %> <%= $::ok %>';
    const problems = unknownVariableProblems(analyze(source), '/t/f.epp', source, {
      visible: new Set(['ok']),
      candidates: ['ok', 'ruby_version'],
      what: "a setting of template 't'",
    });
    expect(problems.map((p) => [p.code, p.severity, p.line, p.column, p.hint])).toEqual([
      ['ANALYSIS_UNKNOWN_VARIABLE', 'warning', 2, 5, "did you mean 'ruby_version'?"],
      ['ANALYSIS_UNKNOWN_VARIABLE', 'warning', 2, 36, "did you mean 'ok'?"],
    ]);
    expect(problems[0]?.message).toBe(
      "'$rubyversion' is neither a setting of template 't' nor a top-scope name ($settings, $metadata, $project, $template)",
    );
  });
});
