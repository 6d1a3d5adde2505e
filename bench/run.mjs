#!/usr/bin/env node
/**
 * `npm run bench` (after `npm run build`): runs each benchmark as its own node process, so one cannot warm
 * or disturb another, prints their output, then one table of every target with its anchor from the same
 * run, its ratio and met/MISSED (issue 13: the rows users feel). Extra arguments are passed to each
 * benchmark (e.g. `npm run bench -- --json`). Exits 1 when any benchmark failed; a missed target is a
 * finding, printed, not a failure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const benches = [
  'epp.mjs',
  'commands.mjs',
  'sync.mjs',
  'engine.mjs',
  'fleet.mjs',
  'lsp.mjs',
  'playground.mjs',
].filter((name) => existsSync(join(here, name)));
const scratch = mkdtempSync(join(tmpdir(), 'pantograph-bench-run-'));
const targetsFile = join(scratch, 'targets.jsonl');

let failed = 0;
for (const name of benches) {
  console.log(`\n=== bench/${name} ===`);
  const child = spawnSync(
    process.execPath,
    [join(here, name), ...process.argv.slice(2), '--targets-file', targetsFile],
    { stdio: 'inherit' },
  );
  if (child.status !== 0) {
    failed++;
    console.error(`bench/${name} failed (${child.signal ?? `exit ${child.status}`})`);
  }
}

const rows = existsSync(targetsFile)
  ? readFileSync(targetsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
rmSync(scratch, { recursive: true, force: true });

/** `12,345 renders/s`, `123 ms`, or `18 µs` below a millisecond. */
const value = (x, unit) =>
  unit === 'renders/s'
    ? `${Math.round(x).toLocaleString('en-US')}/s`
    : x < 1
      ? `${Math.round(x * 1000)} µs`
      : `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`;

console.log('\n=== targets (each beside its anchor, measured in this run) ===');
for (const r of rows) {
  // A target in milliseconds or kilobytes, with no anchor to compare with (bench/lsp.mjs, playground.mjs).
  if (r.better === 'absolute') {
    const unit = r.unit ?? 'ms';
    const ours = unit === 'ms' ? value(r.pantographMs, 'ms') : `${Math.round(r.pantographMs)} ${unit}`;
    console.log(
      `${r.label.padEnd(44)} ${ours.padStart(11)}  ${''.padEnd(48)} ${''.padStart(12)}  ${`< ${r.targetMs} ${unit}`.padEnd(15)} ${r.met ? 'met' : 'MISSED'}`,
    );
    continue;
  }
  const unit = r.unit ?? 'ms';
  const ours = value(r.pantograph ?? r.pantographMs, unit);
  const anchor = `${r.anchorLabel} ${value(r.anchor ?? r.anchorMs, unit)}`;
  const ratio = r.better === 'faster' ? `${r.ratio.toFixed(1)}x faster` : `${r.ratio.toFixed(2)}x`;
  const target =
    r.better === 'faster'
      ? `>= ${r.target}x faster`
      : r.better === 'higher'
        ? `>= ${r.target}x`
        : `<= ${r.target}x`;
  console.log(
    `${r.label.padEnd(44)} ${ours.padStart(11)}  ${anchor.padEnd(48)} ${ratio.padStart(12)}  ${target.padEnd(15)} ${r.met ? 'met' : 'MISSED'}`,
  );
}
if (failed > 0) process.exitCode = 1;
