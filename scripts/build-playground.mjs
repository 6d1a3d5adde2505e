#!/usr/bin/env node
/**
 * `npm run build:playground`: the EPP playground as a static folder one can host anywhere
 * (dist/playground: index.html, playground.js, playground.css), and the page of `pantograph ui` (dist/ui). The engine is bundled for the browser
 * (platform browser: a `node:` import would fail the build, which is the check that it has none).
 */
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'web', 'playground');
const out = join(root, 'dist', 'playground');
mkdirSync(out, { recursive: true });
// The page of `pantograph ui` (web/ui), served by src/ui/server.ts from dist/ui.
const uiOut = join(root, 'dist', 'ui');
mkdirSync(uiOut, { recursive: true });
await build({
  entryPoints: [join(root, 'web', 'ui', 'main.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  outfile: join(uiOut, 'ui.js'),
  logLevel: 'warning',
});
for (const f of ['index.html', 'ui.css', 'favicon.svg'])
  copyFileSync(join(root, 'web', 'ui', f), join(uiOut, f));
// The engine runs in a Web Worker (web/playground/render-worker.ts), bundled first and put in the page's
// script as text: a worker started from a Blob also runs when the page is opened from disk.
const worker = await build({
  entryPoints: [join(source, 'render-worker.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  write: false,
  legalComments: 'none',
  logLevel: 'warning',
});
await build({
  entryPoints: [join(source, 'main.ts')],
  define: { __RENDER_WORKER__: JSON.stringify(worker.outputFiles[0].text) },
  bundle: true,
  // A classic script: the page also works opened from disk (file:// refuses module scripts).
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'linked',
  outfile: join(out, 'playground.js'),
  logLevel: 'warning',
});
for (const f of ['index.html', 'playground.css']) copyFileSync(join(source, f), join(out, f));
const js = readFileSync(join(out, 'playground.js'));
const gzipped = gzipSync(js).length;
// The budget (bench/playground.mjs reports it too): the build fails past it.
if (gzipped >= 300 * 1024) {
  console.error(
    `dist/playground/playground.js is ${(gzipped / 1024).toFixed(0)} KB gzipped: over the 300 KB budget`,
  );
  process.exit(1);
}
if (process.argv.includes('--report')) {
  console.log(
    `dist/playground/playground.js: ${(statSync(join(out, 'playground.js')).size / 1024).toFixed(0)} KB, ${(gzipped / 1024).toFixed(0)} KB gzipped`,
  );
}
