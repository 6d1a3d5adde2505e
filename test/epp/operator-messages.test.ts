/**
 * Errors, warnings and values of operators as Puppet gives them: an index a string or an array refuses, an
 * operand `=~` refuses, a string taken as a number, Timestamp and Timespan arithmetic, `sort` meeting
 * undef. The conformance suites take any error for an error case; these were recorded from
 * `puppet epp render` (see the fixture's `about`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileEpp, EppError } from '../../src/epp/index.js';

interface Fixture {
  readonly errors: readonly { readonly expr: string; readonly puppet: string }[];
  readonly warnings: readonly {
    readonly expr: string;
    readonly output: string;
    readonly warnings: string[];
  }[];
}

const fixture = join(import.meta.dirname, '../fixtures/puppet-messages/operator-messages.json');
const { errors, warnings } = JSON.parse(readFileSync(fixture, 'utf8')) as Fixture;

/** Renders `<%= expr %>` in both tiers (the first two renders are interpreted, the third compiled). */
function renders(expr: string): { outcome: string; warnings: string[] }[] {
  const template = compileEpp(`<%= ${expr} %>`, { file: 't.epp' });
  return [0, 1, 2].map(() => {
    const seen: string[] = [];
    let outcome: string;
    try {
      outcome = template.render({}, { onWarning: (w) => seen.push(w.message) });
    } catch (e) {
      expect(e).toBeInstanceOf(EppError);
      // The fixture was recorded without Puppet's `Error while evaluating a ..., ` (see its `about`).
      outcome = `error: ${(e as EppError).message.replace(/^Error while evaluating an? (?:Function Call|Method call|'[^']+' expression), /, '')}`;
    }
    return { outcome, warnings: seen };
  });
}

describe("operators' errors, as Puppet's", () => {
  it('has the recorded cases', () => {
    expect(errors.length).toBeGreaterThanOrEqual(40);
  });

  it.each(errors.map((c) => [c.expr, c] as const))('%s', (_expr, c) => {
    for (const render of renders(c.expr)) expect(render.outcome).toBe(`error: ${c.puppet}`);
  });
});

describe('values and warnings (a string taken as a number, a Timestamp and seconds), as Puppet gives them', () => {
  it.each(warnings.map((c) => [c.expr, c] as const))('%s', (_expr, c) => {
    for (const render of renders(c.expr)) {
      expect(render.outcome).toBe(c.output);
      expect(render.warnings).toEqual(c.warnings);
    }
  });
});

describe('errors of destructuring and Timestamp arithmetic, with their positions', () => {
  /** The message and `file:line:col` of a render's error, in both tiers. */
  function failure(source: string): { message: string; where: string | undefined }[] {
    const template = compileEpp(source, { file: 't.epp' });
    return [0, 1, 2].map(() => {
      try {
        template.render({});
      } catch (e) {
        expect(e).toBeInstanceOf(EppError);
        return { message: (e as EppError).message, where: (e as EppError).where };
      }
      throw new Error(`no error for ${source}`);
    });
  }

  it('points a destructuring mismatch at the assignment, in Puppet words', () => {
    for (const f of failure('<% [$a, [$b, $c]] = [1, [2]] %>')) {
      expect(f).toEqual({
        message: 'Mismatched number of assignable entries and values, expected 2, got 1',
        where: 't.epp:1:19', // its `=`, as Puppet places an assignment
      });
    }
    for (const f of failure('x\n<% [$a, [$b]] = {"a" => 1} %>')) {
      expect(f).toEqual({
        message: `No value for required key '["b"]' in assignment to variables from hash`,
        where: 't.epp:2:15',
      });
    }
  });

  it('makes a Timespan of a Timestamp minus a Timestamp, and points its errors at the operator', () => {
    for (const f of failure("<%= Timespan(3) - Timestamp('2020-01-01') %>")) {
      // Ruby's error of Puppet's Timespan, which its evaluator words as the expression's.
      expect(f.message).toBe(
        "Error while evaluating a '-' expression, A Timestamp cannot be subtracted from a Timespan",
      );
      expect(f.where).toBe('t.epp:1:17'); // the operator's position, as Puppet's
    }
  });
});
