/**
 * Real templates (issue 12, item 4): every `.epp` of the public modules in test/fixtures/epp-corpus,
 * rendered with values synthesised from its parameter types, against what Puppet 7 rendered for the same
 * values (with puppetlabs-stdlib and the module on the modulepath; scripts/epp-corpus/build.mjs).
 *
 * A template Pantograph does not yet render as Puppet does is listed, with the reason, in
 * known-differences.json; this test fails when a template outside that list differs and when a listed one
 * no longer does, so every fix and every regression shows (scripts/epp-corpus/compare.mjs --write-known
 * records the list after a fix).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, compareCase, compareCorpus, corpusCases } from '../../scripts/epp-corpus/corpus.mjs';
import * as lib from '../../src/index.js';

const knownFile = join(CORPUS, 'known-differences.json');
const known: Record<string, string> = existsSync(knownFile)
  ? JSON.parse(readFileSync(knownFile, 'utf8'))
  : {};

describe('EPP corpus of real templates (Puppet 7 output)', () => {
  const cases = corpusCases();

  it('has the corpus', () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const result = compareCase(lib, c);
    const agrees = result.outcome === 'identical' || result.outcome === 'both-error';
    if (known[name] !== undefined) {
      expect(agrees, `${name} renders as Puppet does now: remove it from known-differences.json`).toBe(false);
    } else {
      expect(result).toMatchObject({ outcome: expect.stringMatching(/^(identical|both-error)$/) });
    }
  });

  it('prints the figure', async () => {
    const { figure } = await compareCorpus(lib);
    console.log(figure);
    expect(figure).toMatch(/^EPP corpus: \d+ renders of real templates/);
  });
});
