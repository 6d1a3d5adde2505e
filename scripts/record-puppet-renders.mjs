#!/usr/bin/env node
/**
 * Records what real Puppet renders for each case of a fixture: `{ "cases": [{ "template": "<%= ... %>" }] }`.
 * Each template is rendered by `puppet epp render` (four at a time) and the case gets `puppet`, the standard
 * output, or `puppetError`, the first `Error:` line without its colours and its `(file: ...)` suffix. The
 * fixture is written back; tests compare Pantograph with what it holds (test/epp/ruby-regexps.test.ts).
 *
 *   node scripts/record-puppet-renders.mjs test/fixtures/puppet-messages/regexps.json
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** Puppet's terminal colours (escape sequences). */
const COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const fixturePath = process.argv[2];
if (!fixturePath) {
  console.error('usage: node scripts/record-puppet-renders.mjs FIXTURE.json');
  process.exit(2);
}
const fixture = JSON.parse(readFileSync(fixturePath, 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'puppet-renders-'));

async function record(c, index) {
  const file = join(dir, `${index}.epp`);
  writeFileSync(file, c.template);
  delete c.puppet;
  delete c.puppetError;
  try {
    const { stdout } = await run('puppet', ['epp', 'render', file], { timeout: 120_000 });
    c.puppet = stdout;
  } catch (e) {
    const line = String(e.stderr ?? e.message)
      .split('\n')
      .map((l) => l.replace(COLOURS, ''))
      .find((l) => l.startsWith('Error:') && !l.includes('Facter'));
    c.puppetError = (line ?? String(e.message)).replace(/ \(file: .*\)$/, '');
  }
}

const queue = fixture.cases.map((c, i) => [c, i]);
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await record(...next);
  }),
);
rmSync(dir, { recursive: true, force: true });
writeFileSync(fixturePath, `${JSON.stringify(fixture, null, 2)}\n`);
console.log(`${fixture.cases.length} cases recorded in ${fixturePath}`);
