#!/usr/bin/env node
/**
 * Renders every template of the corpus (test/fixtures/epp-corpus) with Pantograph, the built library, and
 * compares with what Puppet 7 rendered. Prints one line per template that differs, and the figure:
 * identical / differing / Pantograph error (Puppet rendered) / Puppet error (both fail: counted as agreeing
 * when Pantograph fails too). `--write-known` records the current differences in known-differences.json
 * (the corpus test fails on any change to that list, so a fix or a regression is always seen).
 * `--messages` also compares the error messages where both fail (Puppet's first line, without its
 * `Evaluation Error: Error while evaluating a Function Call, ` wrapping and its position), printing those
 * that differ: the conformance suites take any error for an error case, this shows how close our words are.
 *
 *   npm run build && node scripts/epp-corpus/compare.mjs [--write-known] [--messages]
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compareCorpus } from './corpus.mjs';

const root = resolve(import.meta.dirname, '../..');
const { results, figure } = await compareCorpus(await import(join(root, 'dist/index.js')));
for (const r of results)
  if (r.outcome !== 'identical' && r.outcome !== 'both-error')
    console.log(`${r.outcome.padEnd(18)} ${r.name}: ${r.detail}`);
console.log(figure);
if (process.argv.includes('--messages')) {
  const puppetWords = (line) =>
    line
      .replace(
        /^Error: (Evaluation Error: )?(Error while evaluating a (Function Call|Method call), )?(lambda: )?/,
        '',
      )
      .replace(/ \((file|line): .*$/, '');
  const bothFail = results.filter((r) => r.outcome === 'both-error');
  const differ = bothFail.filter((r) => puppetWords(r.detail) !== r.ours);
  for (const r of differ)
    console.log(`${r.name}\n  Puppet:     ${puppetWords(r.detail)}\n  Pantograph: ${r.ours}`);
  console.log(
    `error messages where both fail: ${bothFail.length - differ.length} of ${bothFail.length} identical`,
  );
}
if (process.argv.includes('--write-known')) {
  const known = Object.fromEntries(
    results
      .filter((r) => r.outcome !== 'identical' && r.outcome !== 'both-error')
      .map((r) => [r.name, `${r.outcome}: ${r.detail}`]),
  );
  writeFileSync(
    join(root, 'test/fixtures/epp-corpus/known-differences.json'),
    `${JSON.stringify(known, null, 2)}\n`,
  );
}
