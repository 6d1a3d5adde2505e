/**
 * Errors, warnings and values of operators as Puppet gives them: an index a string or an array refuses, an
 * operand `=~` refuses, a string taken as a number, a Timestamp plus or minus seconds, `sort` meeting
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
      outcome = `error: ${(e as EppError).message}`;
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
