#!/usr/bin/env node
/**
 * `npm run bench` (after `npm run build`): runs each benchmark as its own node process, so one cannot warm
 * or disturb another, and prints their output: bench/epp.mjs always, bench/sync.mjs and bench/engine.mjs
 * when present. Extra arguments are passed to each (e.g. `npm run bench -- --json`). Exits 1 when any failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const benches = ['epp.mjs', 'sync.mjs', 'engine.mjs'].filter((name) => existsSync(join(here, name)));

let failed = 0;
for (const name of benches) {
  console.log(`\n=== bench/${name} ===`);
  const child = spawnSync(process.execPath, [join(here, name), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  if (child.status !== 0) {
    failed++;
    console.error(`bench/${name} failed (${child.signal ?? `exit ${child.status}`})`);
  }
}
if (failed > 0) process.exitCode = 1;
