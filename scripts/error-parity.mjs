#!/usr/bin/env node
/**
 * Error parity with Puppet: runs the built CLI over every error case of the shared EPP conformance suite
 * and of the project's own (test/conformance/*cases*), and compares our first error with Puppet's
 * expected_error.txt, both reduced to "line:col message".
 *
 *   node scripts/error-parity.mjs [--filter REGEX] [-j N] [--all]
 *
 * Puppet's framing is dropped from its side (`Error: `, `Evaluation Error: `, `epp(): Invalid EPP: `,
 * `lambda: `, the `(file: ..., line: L, column: C)` tail); ours is the CLI's `file:L:C: error: message
 * [CODE]` line. A Puppet error with no position (a parameter binding, `Syntax error at end of input`) is
 * compared by its message alone: we give a position where Puppet gives none, on purpose
 * (docs/decisions.md, "Error messages that differ from Puppet's on purpose"). A message Puppet prints
 * over several lines is compared up to its first line break (the expected file holds one line).
 * Prints each differing case as `P:` (Puppet) and `O:` (ours) lines, then the count; `--all` prints
 * the matching ones too. Exits 0 either way: this is a report, the conformance test holds the gate.
 * Needs `npm run build`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const suite = resolve(process.env.EPP_CONFORMANCE_DIR ?? join(root, '..', 'shared', 'epp-conformance'));
const bin = resolve(process.env.PANTOGRAPH_BIN ?? join(root, 'dist', 'cli', 'bin.cjs'));

/** Puppet's first error line as { pos, message } (pos '' when Puppet gives none). */
export function normalisePuppet(text) {
  let line = text.split('\n')[0];
  line = line.replace(/^Error: /, '').replace(/^Evaluation Error: /, '');
  line = line.replace(/^epp\(\): Invalid EPP: /, '').replace(/^lambda: /, '');
  let pos = '';
  const m = /^(.*) \((?:file: [^,()]*)?(?:, )?(?:line: (\d+))?(?:, column: (\d+))?\)$/.exec(line);
  if (m && (m[2] || /\(file: [^,()]*\)$/.test(line))) {
    line = m[1];
    pos = m[2] ? (m[3] ? `${m[2]}:${m[3]}` : m[2]) : '';
  }
  return { pos, message: line };
}

/** Our first error from the CLI's stderr as { pos, message }. */
export function normaliseOurs(stderr) {
  for (const line of stderr.split('\n')) {
    const m = /^[^\s:]*(?::(\d+):(\d+))?: error: (.*?)(?: \[[A-Z0-9_]+\])?$/.exec(line);
    if (m) return { pos: m[1] ? `${m[1]}:${m[2]}` : '', message: m[3] };
  }
  return { pos: '', message: `(no error line) ${stderr.split('\n')[0]}` };
}

/** Whether Pantograph's error (`{ pos, message }`) says what Puppet's does, where Puppet says it. */
export function sameError(p, o) {
  // Puppet's line alone (no column) is compared by line; no position at all, by message.
  const oPos = p.pos === '' ? '' : p.pos.includes(':') ? o.pos : o.pos.split(':')[0];
  return p.message === o.message && p.pos === oPos;
}

// Run as a script (not imported by the conformance test for its functions).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

async function main() {
  const args = process.argv.slice(2);
  const option = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const filter = new RegExp(option('--filter') ?? '');
  const jobs = Number(option('-j') ?? 2);
  const showAll = args.includes('--all');

  const caseFolders = [
    join(suite, 'cases'),
    ...readdirSync(join(root, 'test', 'conformance'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name.includes('cases'))
      .map((d) => join(root, 'test', 'conformance', d.name)),
  ];
  const cases = caseFolders
    .filter((d) => existsSync(d))
    .flatMap((d) => readdirSync(d).map((name) => ({ name, dir: join(d, name) })))
    .filter((c) => existsSync(join(c.dir, 'expected_error.txt')) && filter.test(c.name));

  function runCase(c) {
    return new Promise((done) => {
      const child = spawn(
        process.execPath,
        [bin, 'epp', 'render', 'template.epp', '--values-file', 'values.json'],
        { cwd: c.dir, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
      });
      child.on('close', (code) => done({ code, err }));
    });
  }

  const results = [];
  let next = 0;
  async function worker() {
    while (next < cases.length) {
      const c = cases[next++];
      const { code, err } = await runCase(c);
      const p = normalisePuppet(readFileSync(join(c.dir, 'expected_error.txt'), 'utf8'));
      const o = code === 0 ? { pos: '', message: '(rendered, no error)' } : normaliseOurs(err);
      const same = sameError(p, o);
      results.push({ name: c.name, same, p, o });
    }
  }
  await Promise.all(Array.from({ length: jobs }, worker));
  results.sort((a, b) => a.name.localeCompare(b.name));
  const show = (r) => `  ${r.pos === '' ? '-' : r.pos} ${r.message}`;
  let differing = 0;
  for (const r of results) {
    if (!r.same) differing++;
    if (r.same && !showAll) continue;
    console.log(`${r.same ? 'SAME' : 'DIFF'} ${r.name}\n  P:${show(r.p)}\n  O:${show(r.o)}`);
  }
  console.log(`${differing} of ${results.length} error cases differ from Puppet's expected_error.txt`);
}
