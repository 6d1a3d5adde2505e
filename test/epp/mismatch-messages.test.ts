/**
 * Type mismatch messages worded as Puppet words them, for parameters typed with stdlib's aliases (printed
 * with their definitions, looked into where they are structures, named where a variant of them fails as a
 * whole). The conformance suites take any error for an error case; these messages were recorded from
 * `puppet epp render` (see the fixture's `about`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileEpp, EppError, renderEpp } from '../../src/epp/index.js';

interface Case {
  readonly type: string;
  readonly value: unknown;
  readonly puppet: string;
}

const fixture = join(import.meta.dirname, '../fixtures/puppet-messages/stdlib-alias-mismatches.json');
const { cases } = JSON.parse(readFileSync(fixture, 'utf8')) as { cases: Case[] };

describe("mismatch messages for stdlib's aliases, as Puppet's", () => {
  it('has the recorded cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((c) => [c.type, c] as const))('%s', (_type, c) => {
    let error: unknown;
    try {
      renderEpp(`<%- | ${c.type} $p | -%><%= $p %>`, { p: c.value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EppError);
    expect((error as EppError).message).toBe(c.puppet);
  });
});

describe('every problem of the values for the parameters, in one message, as Puppet lists them', () => {
  const template = '<%- | Integer $a, Integer $b, String $c = "x", Integer $d = 1 | -%>ok';
  // Puppet's messages (puppet epp render): several problems under its `lambda:` line, a lone one without
  // it; but for the unknown key, which Pantograph words as it always does. The first problem's position.
  const cases: [string, Record<string, unknown>, string, number][] = [
    [
      'two missing',
      {},
      "lambda:\n  expects a value for parameter 'a'\n  expects a value for parameter 'b'",
      7,
    ],
    [
      'missing and mismatched',
      { b: 'x' },
      "lambda:\n  expects a value for parameter 'a'\n  parameter 'b' expects an Integer value, got String",
      7,
    ],
    [
      'two defaults overridden wrongly',
      { a: 1, b: 2, c: 3, d: 'z' },
      "lambda:\n  parameter 'c' expects a String value, got Integer\n  parameter 'd' expects an Integer value, got String",
      31,
    ],
    [
      'an unknown key first',
      { a: 1, b: 'x', zz: 1 },
      "lambda:\n  The template has no parameter named 'zz'\n  parameter 'b' expects an Integer value, got String",
      7,
    ],
    [
      'one problem: one line',
      { a: 'x', b: 2, c: undefined },
      "parameter 'a' expects an Integer value, got String",
      7,
    ],
  ];

  it("gives two problems of one parameter's value a line each, indented as the others (as Puppet)", () => {
    // Found in puppet-bacula's templates (session 18); Puppet's lines under its `lambda:` (session 30).
    let error: unknown;
    try {
      renderEpp('<%- | Array[Integer] $x, Integer $y | -%>ok', { x: ['p', 'q'], y: 's' });
    } catch (e) {
      error = e;
    }
    expect((error as EppError).message).toBe(
      [
        'lambda:',
        "  parameter 'x' index 0 expects an Integer value, got String",
        "  parameter 'x' index 1 expects an Integer value, got String",
        "  parameter 'y' expects an Integer value, got String",
      ].join('\n'),
    );
  });

  it.each(cases)('%s', (_name, values, message, column) => {
    let error: unknown;
    try {
      renderEpp(template, values, { file: 't.epp' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EppError);
    expect((error as EppError).message).toBe(message);
    expect([(error as EppError).line, (error as EppError).column]).toEqual([1, column]);
  });

  it('the same in both tiers: a template rendered many times lists them alike', () => {
    const compiled = compileEpp(template);
    for (let i = 0; i < 4; i++) {
      expect(() => compiled.render({ b: 'x' })).toThrow(
        "lambda:\n  expects a value for parameter 'a'\n  parameter 'b' expects an Integer value, got String",
      );
      expect(compiled.render({ a: 1, b: 2 })).toBe('ok');
    }
  });
});

describe("a lambda parameter's several mismatches, as Puppet words them", () => {
  // Puppet's describer for the lambda's one signature (puppet epp render, session 30): a lone problem after
  // `block`, several under the whole lambda's signature, `rejected:` each.
  const cases: [string, string][] = [
    [
      '<% [{a=>"p", b=>"q"}].each |Hash[String, Integer] $x| { } %>',
      [
        'Error while evaluating a Method call, block expects (Hash[String, Integer] x)',
        "  rejected: parameter 'x' entry 'a' expects an Integer value, got String",
        "  rejected: parameter 'x' entry 'b' expects an Integer value, got String",
      ].join('\n'),
    ],
    [
      '<% with(1, {a=>"p", b=>"q"}) |Integer $y, Struct[{a=>Integer, b=>Integer}] $x| { } %>',
      [
        "Error while evaluating a Function Call, block expects (Integer y, Struct[{'a' => Integer, 'b' => Integer}] x)",
        "  rejected: parameter 'x' entry 'a' expects an Integer value, got String",
        "  rejected: parameter 'x' entry 'b' expects an Integer value, got String",
      ].join('\n'),
    ],
    [
      '<% with(["p", "q"]) |Array[Integer] $x| { } %>',
      [
        'Error while evaluating a Function Call, block expects (Array[Integer] x)',
        "  rejected: parameter 'x' index 0 expects an Integer value, got String",
        "  rejected: parameter 'x' index 1 expects an Integer value, got String",
      ].join('\n'),
    ],
    [
      '<% [{a=>"p"}].each |Hash[String, Integer] $x| { } %>',
      "Error while evaluating a Method call, block parameter 'x' entry 'a' expects an Integer value, got String",
    ],
  ];

  it.each(cases)('%s', (template, message) => {
    expect(() => renderEpp(template, {})).toThrow(expect.objectContaining({ message }) as unknown as Error);
  });
});
