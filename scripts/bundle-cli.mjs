#!/usr/bin/env node
/**
 * Part of `npm run build`, after tsc: `pantograph epp render` is run once per template by scripts and CI,
 * so its start-up time is most of its run. Loading its ~30 ES modules one by one cost Node 20 about 20 ms;
 * this replaces tsc's `dist/cli/fast-epp-render.js` with one bundled module of the same code (npm
 * packages stay external). Every other command, and the library, use tsc's modules as they are.
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/fast-epp-render.ts'],
  outfile: 'dist/cli/fast-epp-render.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  allowOverwrite: true,
  logLevel: 'warning',
});
