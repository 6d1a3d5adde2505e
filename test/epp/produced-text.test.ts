/**
 * A heredoc that declares a syntax (`@(END:json)`) has its text checked as Puppet 7 checks it: when parsed
 * if it has no interpolation (even in a branch never taken), when evaluated if it has; JSON by Ruby's
 * parser's verdict and message, Base64 by Ruby's strict decoding, EPP by the template parser. Ruby itself
 * is the oracle of the first two (`npm test` installs it), over texts generated to reach every failure.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EppError, EppEvalError, EppSyntaxError, findSyntaxErrors, renderEpp } from '../../src/epp/index.js';
import { rubyJsonParseError } from '../../src/epp/produced-text/ruby-json.js';
import { base64Problem } from '../../src/epp/produced-text/strict-base64.js';

/** A deterministic generator, so that a failure names a text that stays the same from run to run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function texts(fragments: readonly string[], count: number, seed: number): string[] {
  const random = generator(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    const n = 1 + Math.floor(random() * 8);
    for (let j = 0; j < n; j++) text += fragments[Math.floor(random() * fragments.length)];
    out.push(text);
  }
  return out;
}

/** Runs `script` in Ruby over `inputs` (a JSON array on stdin); one JSON line back per input. */
function ruby(script: string, inputs: readonly string[]): unknown[] {
  const run = spawnSync('ruby', ['-rjson', '-rbase64', '-e', script], {
    input: JSON.stringify(inputs),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(run.status, `ruby (npm test installs it): ${run.stderr}`).toBe(0);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

const JSON_FRAGMENTS = [
  '[',
  ']',
  '{',
  '}',
  '"',
  '"a"',
  ':',
  ',',
  ' ',
  '\n',
  '\t',
  '\r',
  '0',
  '1',
  '12',
  '-',
  '.',
  'e',
  'E',
  '+',
  '1.5',
  '0.',
  '1e',
  '1e+',
  '-0',
  '00',
  '.5',
  '1.5e3',
  '2.',
  'null',
  'nul',
  'true',
  'false',
  'NaN',
  'Infinity',
  '-Infinity',
  '/*',
  '*/',
  '//',
  '/',
  '/**/',
  '// c\n',
  '\\',
  '\\u',
  '\\ud800',
  '\\udc00',
  '\\u0041',
  '\\n',
  '\\x',
  'x',
  'é',
  '😀',
  '\u0001',
];

/** One valid document with every kind of value, damaged in every place: a character dropped, added, cut. */
function damaged(valid: string): string[] {
  const out: string[] = [];
  for (let i = 0; i <= valid.length; i++) {
    out.push(valid.slice(0, i) + valid.slice(i + 1), `${valid.slice(0, i)},${valid.slice(i)}`);
    out.push(valid.slice(0, i), `${valid.slice(0, i)}/x${valid.slice(i)}`);
  }
  return out;
}

describe('the JSON check', () => {
  it("gives Ruby's verdict and message (line of its parser, text from where it failed) on 7,000 texts", () => {
    const inputs = [
      ...texts(JSON_FRAGMENTS, 6000, 777),
      ...damaged('{"a": [1, 2.5, -3e2, "x\\u00e9", true], "b": {"c": null}, "d": "\\ud83d\\ude00"}'),
      '['.repeat(100) + ']'.repeat(100),
      '['.repeat(101) + ']'.repeat(101),
      `${'{"a":'.repeat(101)}1${'}'.repeat(101)}`,
      'Infinity',
      ' NaN',
      '"\\ud800\\u0041xxxx"',
      '"ab\\ud800"',
      '"\\/\\ud800 "',
    ];
    const expected = ruby(
      'JSON.parse(STDIN.read).each { |s| begin; JSON.parse(s); puts "null"; rescue JSON::ParserError => e; puts JSON.generate(e.message); end }',
      inputs,
    );
    const mismatches = inputs
      .map((text, i) => ({ text, ruby: expected[i], ours: rubyJsonParseError(text) ?? null }))
      .filter((r) => r.ruby !== r.ours);
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The texts reach the parser's every way of failing, not only the common one.
    const lines = new Set(expected.map((m) => (typeof m === 'string' ? m.split(':')[0] : 'ok')));
    expect([...lines].sort()).toEqual([
      '225',
      '232',
      '249',
      '451',
      '521',
      '859',
      'nesting of 101 is too deep',
      'ok',
    ]);
  });
});

describe('the Base64 check', () => {
  it("gives Ruby's strict decoding's verdict and Puppet's message on 5,000 texts", () => {
    const fragments = [
      'A',
      'Q',
      'YQ',
      'YR',
      'aGVs',
      'bG8=',
      '=',
      '==',
      ' ',
      '\n',
      '\r\n',
      '\t',
      '?',
      '+',
      '/',
    ];
    const inputs = ['', ...texts([...fragments, '-', '_', 'é', '\u00a0', 'x', 'aGVsbG8='], 5000, 99)];
    // Puppet's checker (puppet/syntax_checkers/base64.rb), its message chosen by the length.
    const expected = ruby(
      `JSON.parse(STDIN.read).each do |text|
         cleaned = text.gsub(/[\\r?\\n[:blank:]]/, '')
         begin
           Base64.strict_decode64(cleaned); puts 'null'
         rescue ArgumentError
           puts JSON.generate((cleaned.bytes.to_a.size * 8) % 6 != 0 ? 'padding is not correct' : 'contains letters outside strict base 64 range (or whitespace)')
         end
       end`,
      inputs,
    );
    const ours = inputs.map((text) => base64Problem(text)?.replace(/^.* - /, '') ?? null);
    const mismatches = inputs.map((text, i) => [text, expected[i], ours[i]]).filter(([, a, b]) => a !== b);
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(new Set(expected).size).toBe(3);
  });
});

const catchError = (render: () => unknown): EppError => {
  try {
    render();
  } catch (e) {
    if (e instanceof EppError) return e;
    throw e;
  }
  throw new Error('expected an EPP error');
};

const where = (e: EppError) => `${e.line}:${e.column}`;

describe('a heredoc that declares a syntax', () => {
  it('without interpolation is refused when parsed, even in a branch never taken, at its text (Puppet: line 3, column 1)', () => {
    const source = 'a\n<% if false { $x = @(END:json)\n  {"a": 1,}\n  | END\n} -%>\nb\n';
    const e = catchError(() => renderEpp(source, {}));
    expect(e).toBeInstanceOf(EppSyntaxError);
    expect(e.code).toBe('EPP_HEREDOC_SYNTAX');
    expect(e.message).toBe(
      `Invalid produced text having syntax: 'json'. JSON syntax checker: Cannot parse invalid JSON string. "859: unexpected token at '{"a": 1,}\\n'"`,
    );
    expect(where(e)).toBe('3:1');
    expect(e.hint).toBe(
      "the heredoc declares ':json': make its text valid in that syntax, or remove ':json' from its @(...) tag to leave it unchecked",
    );
    // `epp validate` and the editor see it without rendering.
    expect(findSyntaxErrors(source).map((s) => [s.code, where(s)])).toEqual([['EPP_HEREDOC_SYNTAX', '3:1']]);
  });

  it('with interpolation is checked each time it is made, in both tiers, at its text', () => {
    const source = '<%- | $v | -%>\nx <%= @("END":json)\n    {"a": ${v}}\n    | END\n%>\n';
    for (let i = 0; i < 3; i++) {
      expect(renderEpp(source, { v: '[1, 2]' })).toBe('x {"a": [1, 2]}\n\n');
      const e = catchError(() => renderEpp(source, { v: '1,' }));
      expect(e).toBeInstanceOf(EppEvalError);
      expect([e.code, e.message, where(e)]).toEqual([
        'EPP_HEREDOC_SYNTAX',
        `Invalid produced text having syntax: 'json'. JSON syntax checker: Cannot parse invalid JSON string. "859: unexpected token at '{"a": 1,}\\n'"`,
        '3:1',
      ]);
    }
  });

  it('is checked by the checker of its last part (`data+json` as JSON); other syntaxes, and `pp`, are not checked', () => {
    const e = catchError(() => renderEpp('<%= @(END:data+json) %>\n[1,]\nEND\n', {}));
    expect(e.message).toBe(
      `Invalid produced text having syntax: 'data+json'. JSON syntax checker: Cannot parse invalid JSON string. "451: unexpected token at ']\\n'"`,
    );
    expect(renderEpp('<% $x = @(END:json+foo)\n[1,]\nEND\n-%><%= $x %>', {})).toBe('[1,]\n');
    expect(renderEpp('<% $x = @(END:yaml)\na: [1\nEND\n-%><%= $x %>', {})).toBe('a: [1\n');
    // A manifest Puppet's own checker accepts, which the template parser would refuse.
    expect(renderEpp('<% $x = @(END:pp)\nclass foo { file { "/x": } }\nEND\n-%><%= $x %>', {})).toBe(
      'class foo { file { "/x": } }\n',
    );
  });

  it("of Base64 and of EPP is checked with Puppet messages (the inner position is the text's own)", () => {
    expect(renderEpp('<% $x = @(END:base64)\n  aGVs\n  bG8=\n  | END\n-%><%= $x %>', {})).toBe(
      'aGVs\nbG8=\n',
    );
    const base64 = catchError(() => renderEpp('<%= @(END:base64) %>\naGVsbG8=x\nEND\n', {}));
    expect([base64.message, where(base64)]).toEqual([
      "Invalid produced text having syntax: 'base64'. Base64 syntax checker: Cannot parse invalid Base64 string - contains letters outside strict base 64 range (or whitespace)",
      '2:1',
    ]);
    const epp = catchError(() =>
      renderEpp('<% $x = @(END:epp)\n  a <%= $a %> <% } %>\n  | END\n-%><%= $x %>', {}),
    );
    expect(epp.message).toBe(
      `Invalid produced text having syntax: 'epp'. EPP syntax checker: "Syntax error at '}' (line: 1, column: 16)"`,
    );
    const unclosed = catchError(() => renderEpp('<% $x = @(END:epp)\n  <%= $a \n  | END\n-%>', {}));
    expect(unclosed.message).toContain(
      `EPP syntax checker: "Unbalanced epp tag, reached <eof> without closing tag. (line: 2, column: 1)"`,
    );
    expect(renderEpp('<% $x = @(END:epp)\n<% file { "/x": } %>\nEND\n-%><%= $x %>', {})).toBe(
      '<% file { "/x": } %>\n',
    );
  });
});
