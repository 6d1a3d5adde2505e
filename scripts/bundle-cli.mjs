#!/usr/bin/env node
/**
 * Part of `npm run build`, after tsc: `pantograph epp render` is run once per template by scripts and CI,
 * so its start-up time is most of its run. Node 20 loads ES modules one by one and has no compile cache,
 * so the render path (src/cli/fast-epp-render.ts and what it imports; npm packages stay external) is
 * bundled into one CommonJS file, and a V8 code cache of it is made here, after warming it up, for
 * `src/cli/load-fast-path.cts` to use. Every other command, and the library, use tsc's modules as they are.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const outfile = resolve('dist/cli/fast-epp-render.cjs');
await build({
  entryPoints: ['src/cli/fast-epp-render.ts'],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // import() of an npm package becomes require(): a vm.Script has no module loader for import().
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
});

const { runBundle } = await import('../dist/cli/load-fast-path.cjs');
const { exports, script } = runBundle(outfile, undefined);
await exports.warmUp();
writeFileSync(`${outfile}.cache`, script.createCachedData());
