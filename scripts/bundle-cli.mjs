#!/usr/bin/env node
/**
 * Part of `npm run build`, after tsc. Node 20 loads ES modules one by one and has no compile cache, so the
 * command's code is also bundled (esbuild; npm packages stay external) into CommonJS files, each with a V8
 * code cache made here after a warm-up run, for `src/cli/load-bundle.cts` to load:
 * - `dist/cli/main.cjs`: the whole command line (~100 modules loaded one by one, and compiled, were a
 *   third of a `pantograph status`); warmed up by a `status` of an empty project on the default templates;
 * - `dist/cli/fast-epp-render.cjs`: `pantograph epp render` alone (run once per template by scripts and
 *   CI, where start-up is most of the run); warmed up by rendering a small template.
 * The library (`dist/index.js`) is tsc's modules as they are.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

/** What both bundles are built with. */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // import() becomes require(): commands still load lazily, and a vm.Script has no loader for import().
  supported: { 'dynamic-import': false },
  // A CommonJS file has no import.meta: its URL is the bundle's own (src/package-root.ts finds the
  // package's files from there).
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
};

const { runBundle } = await import('../dist/cli/load-bundle.cjs');

/** Bundles `entry` into `outfile`, runs `warmUp` on its exports, then writes the code cache. */
async function bundle(entry, outfile, warmUp) {
  await build({ ...common, entryPoints: [entry], outfile });
  const { exports, script } = runBundle(outfile, undefined);
  await warmUp(exports);
  writeFileSync(`${outfile}.cache`, script.createCachedData());
}

await bundle('src/cli/main.ts', resolve('dist/cli/main.cjs'), async ({ main }) => {
  const project = mkdtempSync(join(tmpdir(), 'pantograph-build-'));
  const cwd = process.cwd();
  const write = process.stdout.write;
  try {
    writeFileSync(join(project, '.sync.yml'), 'pdk_template:\n  version: 2\n  templates: []\n');
    process.chdir(project);
    process.stdout.write = () => true; // the status report is not wanted here
    const code = await main(['status']);
    if (code !== 0) throw new Error(`the warm-up status exited ${code}`);
  } finally {
    process.stdout.write = write;
    process.chdir(cwd);
    rmSync(project, { recursive: true, force: true });
  }
});

await bundle('src/cli/fast-epp-render.ts', resolve('dist/cli/fast-epp-render.cjs'), (exports) =>
  exports.warmUp(),
);
