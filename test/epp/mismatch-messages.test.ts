/**
 * Type mismatch messages worded as Puppet words them, for parameters typed with stdlib's aliases (printed
 * with their definitions, looked into where they are structures, named where a variant of them fails as a
 * whole). The conformance suites take any error for an error case; these messages were recorded from
 * `puppet epp render` (see the fixture's `about`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EppError, renderEpp } from '../../src/epp/index.js';

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
