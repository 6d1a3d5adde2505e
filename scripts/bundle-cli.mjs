#!/usr/bin/env node
/**
 * Part of `npm run build`, after tsc. Node 20 loads ES modules one by one and has no compile cache, so the
 * command's code is also bundled (esbuild, with the npm packages it uses but ajv) into CommonJS files,
 * each with a V8 code cache made here after a warm-up run, for `src/cli/load-bundle.cts` to load:
 * - `dist/cli/main.cjs`: the whole command line (~100 modules loaded one by one, and compiled, were a
 *   third of a `pantograph status`), with the npm packages it uses but ajv; warmed up by `init` and
 *   `status` of a module on the default templates;
 * - `dist/cli/fast-epp-render.cjs`: `pantograph epp render` alone (run once per template by scripts and
 *   CI, where start-up is most of the run); warmed up by rendering the warm-up templates and reading small
 *   values files. The `yaml` package, which only a values file the simple reader does not take needs, is
 *   `dist/cli/yaml.cjs` beside it, loaded then (from node_modules and compiled on first use it was ~100 ms
 *   of a ~300 ms run; inside the bundle, ~4 ms of every run's start for the ~160 KB read and deserialised);
 * - `dist/cli/fast-answer.cjs`: `pantograph status` and `apply` answered from their memo
 *   (src/engine/answer-memo.ts);
 * - `dist/lib/epp.cjs` and `dist/lib/pantograph.cjs`: the library, behind the package's entries (see the
 *   end of this file).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * commander requires `node:child_process` when loaded, for the executable subcommands Pantograph does not
 * use; loading it (with `node:net` and the streams) was ~8 ms of every command's start-up. Its require is
 * answered with an object that loads the module when a property is first read.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy-builtin' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

/** What both bundles are built with. */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // npm packages are bundled too, so that the code cache covers them (loaded one by one they were ~150
  // CommonJS files resolved and compiled on every run); ajv stays outside, as the cached schema validators
  // (src/engine/validator-cache.ts) require its runtime modules by name.
  external: ['ajv', 'ajv/*', 'ajv-formats'],
  // import() becomes require(): commands still load lazily, and a vm.Script has no loader for import().
  supported: { 'dynamic-import': false },
  // A CommonJS file has no import.meta: its URL is the bundle's own (src/package-root.ts finds the
  // package's files from there), made when first asked for (~0.5 ms of a load; the EPP bundles never ask).
  define: { 'import.meta.url': '__bundleMeta.url' },
  // "use strict" first: esbuild writes it for the ES modules' code, but after the banner, where it is no
  // directive (the bundles ran as sloppy code, unlike the modules the tests run).
  banner: {
    js: '"use strict";\nvar __bundleMeta = { get url() { return require(\'node:url\').pathToFileURL(__filename).href; } };',
  },
  logLevel: 'warning',
  plugins: [lazyChildProcessForCommander],
};

const { BUNDLE_PREFIX, BUNDLE_SUFFIX, codeCacheOfLoaded, runBundle } = await import(
  '../dist/cli/load-bundle.cjs'
);

/**
 * The command line's two bundles are also minified (whitespace and syntax only: names are kept): read and
 * deserialised at every start, their size is time (~7 ms of each command's start-up for the ~35% saved).
 * Their source map goes beside them, without the sources, for `src/cli/stack.ts` to print an internal
 * error's stack at the TypeScript sources' lines. The library's bundle stays as it is: its users read it.
 */
const minified = {
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'external',
  sourcesContent: false,
};

/** Bundles `entry` into `outfile`, runs `warmUp` on its exports, then writes the code cache. */
async function bundle(entry, outfile, warmUp, options = {}) {
  await build({ ...common, ...options, entryPoints: [entry], outfile });
  wrapBundle(outfile, options);
  const { exports, script } = runBundle(outfile, undefined);
  await warmUp(exports);
  writeFileSync(`${outfile}.cache`, script.createCachedData());
}

/**
 * Leaves a bundle as load-bundle.cjs runs it: ASCII, strict, inside the function a CommonJS module runs in
 * (written into the file: see BUNDLE_PREFIX in load-bundle.cts).
 */
function wrapBundle(outfile, options) {
  if (asciiOnly(outfile) && options.sourcemap) {
    // An escape is longer than its character: the map's columns after it would be wrong.
    throw new Error(`${outfile}: non-ASCII text left in a bundle with a source map`);
  }
  const code = readFileSync(outfile, 'latin1');
  if (!code.startsWith('"use strict";\n')) {
    throw new Error(`${outfile}: the bundle must start with "use strict" (the modules' own semantics)`);
  }
  writeFileSync(outfile, `${BUNDLE_PREFIX}${code}${BUNDLE_SUFFIX}`, 'latin1');
}

/**
 * Leaves the bundle pure ASCII, as load-bundle.cts reads it (as latin1), and says whether it had to
 * change it: esbuild escapes non-ASCII text in strings but keeps the comments it keeps as they are, and
 * one `∞` in one comment made Node decode the whole file as UTF-8 into a two-byte string, ~17 ms of every
 * command's start-up instead of ~1 ms. What is left is in comments (or identifiers), where a \u escape
 * means the same.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const escaped = text.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (escaped === text) return false;
  writeFileSync(file, escaped);
  return true;
}

// Warmed up on what users run most: `status` of the module `init` makes from the default templates (the
// code cache holds only the functions the warm-up compiled; the rest compile lazily as before).
await bundle(
  'src/cli/main.ts',
  resolve('dist/cli/main.cjs'),
  async ({ main }) => {
    const scratch = mkdtempSync(join(tmpdir(), 'pantograph-build-'));
    const project = join(scratch, 'module');
    const cwd = process.cwd();
    const write = process.stdout.write;
    const cache = process.env.PANTOGRAPH_CACHE_DIR;
    try {
      process.env.PANTOGRAPH_CACHE_DIR = join(scratch, 'cache'); // the user's schema cache is not touched
      process.stdout.write = () => true; // the reports are not wanted here
      const created = await main(['init', project, '--name', 'example-warmup', '--yes']);
      if (created !== 0) throw new Error(`the warm-up init exited ${created}`);
      process.chdir(project);
      const code = await main(['status']);
      if (code !== 0) throw new Error(`the warm-up status exited ${code}`);
    } finally {
      process.stdout.write = write;
      process.chdir(cwd);
      if (cache === undefined) delete process.env.PANTOGRAPH_CACHE_DIR;
      else process.env.PANTOGRAPH_CACHE_DIR = cache;
      rmSync(scratch, { recursive: true, force: true });
    }
  },
  minified,
);

/**
 * In the `epp render` bundle, `yaml` is `dist/cli/yaml.cjs`, loaded (with its code cache) by load-bundle.cjs
 * when a module that imports it first runs: only the full reading of a values file does.
 */
const yamlFromItsBundle = {
  name: 'yaml-from-its-bundle',
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: 'yaml', namespace: 'yaml-bundle' }));
    build.onResolve({ filter: /^\.\/(load-bundle|yaml)\.cjs$/ }, (args) =>
      args.namespace === 'yaml-bundle' ? { path: args.path, external: true } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'yaml-bundle' }, () => ({
      contents: "module.exports = require('./load-bundle.cjs').loadLibrary(require.resolve('./yaml.cjs'));",
      loader: 'js',
    }));
  },
};

// The yaml package alone: its code cache is written after the `epp render` bundle's warm-up has used it.
const yamlBundle = resolve('dist/cli/yaml.cjs');
await build({
  ...common,
  ...minified,
  stdin: { contents: "export * from 'yaml';", resolveDir: resolve('.'), loader: 'js' },
  outfile: yamlBundle,
});
wrapBundle(yamlBundle, minified);

await bundle(
  'src/cli/fast-epp-render.ts',
  resolve('dist/cli/fast-epp-render.cjs'),
  async (exports) => {
    await exports.warmUp();
    writeFileSync(`${yamlBundle}.cache`, codeCacheOfLoaded(yamlBundle));
  },
  { ...minified, plugins: [...common.plugins, yamlFromItsBundle] },
);

// `status` and `apply` answered from their memo (src/cli/fast-answer.ts): a few small modules, nothing to warm up.
await bundle('src/cli/fast-answer.ts', resolve('dist/cli/fast-answer.cjs'), () => {}, minified);

/**
 * The library, as users import it: the package's `.` (dist/index.js, in place of tsc's) and `./epp`
 * (dist/epp.js) are small ES modules over CommonJS bundles with their code caches. Imported as tsc's
 * modules, `import 'pantograph'` loaded ~200 files one by one (~190 ms before anything ran).
 * - `dist/lib/epp.cjs`: EPP alone (src/epp/bundle-entry.ts), all that `pantograph/epp` loads: its import
 *   ~30 ms, where the whole library (with node:crypto, node:child_process, semver, yaml) took ~65;
 * - `dist/lib/pantograph.cjs`: the rest of the library, which takes every module of `src/epp` from the
 *   EPP bundle (see `eppFromItsBundle`), so that both entries share one EPP: values made through one (a
 *   Float, a hash) are the other's too, and there is one compile cache.
 * tsc's other modules stay as they are, dist/epp/index.js included: the engine's modules (and the sandbox
 * worker, which runs them) import it, and must get the classes their neighbours use. The wrappers export
 * the names of tsc's modules, read here first.
 */
const entries = {
  'dist/index.js': { namesOf: 'dist/index.js', bundle: './lib/pantograph.cjs' },
  'dist/epp.js': { namesOf: 'dist/epp/index.js', bundle: './lib/epp.cjs' },
};
const exported = {};
for (const [entry, { namesOf }] of Object.entries(entries)) {
  exported[entry] = Object.keys(await import(pathToFileURL(resolve(namesOf)).href)).sort();
}

const eppSources = resolve('src/epp');
const inEpp = (file) => file.startsWith(`${eppSources}/`);
/** The modules of `src/epp` the library's bundle imports (paths relative to src/epp, as `.js`). */
const eppModulesImported = new Set();

/** The names the EPP bundle exports (it is run once for them, here in the build). */
let eppNames;
function eppBundleNames() {
  eppNames ??= new Set(Object.keys(runBundle(resolve('dist/lib/epp.cjs'), undefined).exports));
  return eppNames;
}

/**
 * In the library's bundle, an import of a module of `src/epp` from outside it is answered by the EPP
 * bundle, loaded (once per process, with its code cache) by load-bundle.cjs. esbuild fails the build when
 * such an import asks for a name the EPP bundle does not export; `checkEppBundleExports` checks the rest.
 */
const eppFromItsBundle = {
  name: 'epp-from-its-bundle',
  setup(build) {
    build.onResolve({ filter: /^(\.\.\/cli\/load-bundle|\.\/epp)\.cjs$/ }, (args) =>
      args.namespace === 'epp-bundle' ? { path: args.path, external: true } : undefined,
    );
    build.onResolve({ filter: /^\./ }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (!inEpp(target) || inEpp(args.importer)) return undefined;
      eppModulesImported.add(target.slice(eppSources.length + 1));
      return { path: 'epp', namespace: 'epp-bundle' };
    });
    // An ES module with one binding per name (esbuild would copy a CommonJS module's properties into a
    // namespace object for every module that imports it: ~3 ms of each load); a name the bundle lacks is
    // then an error of this build.
    build.onLoad({ filter: /.*/, namespace: 'epp-bundle' }, () => {
      const names = [...eppBundleNames()];
      return {
        contents:
          "const epp = require('../cli/load-bundle.cjs').loadLibrary(require.resolve('./epp.cjs'));\n" +
          `export const { ${names.join(', ')} } = epp;\n`,
        loader: 'js',
      };
    });
  },
};

/**
 * The library's warm-up, what a script using the API does first: plan a new module on the default
 * templates (every default template rendered), then its status. Its schema cache is a scratch one.
 */
async function warmUpLibrary(lib) {
  const scratch = mkdtempSync(join(tmpdir(), 'pantograph-build-'));
  const cache = process.env.PANTOGRAPH_CACHE_DIR;
  try {
    process.env.PANTOGRAPH_CACHE_DIR = join(scratch, 'cache');
    const project = join(scratch, 'module');
    mkdirSync(project);
    const metadata = { name: 'example-warmup', version: '0.1.0', author: 'example', license: 'Apache-2.0' };
    writeFileSync(join(project, 'metadata.json'), JSON.stringify({ ...metadata, dependencies: [] }));
    writeFileSync(join(project, '.sync.yml'), 'pdk_template:\n  version: 2\n  templates: []\n');
    const planned = await lib.planProjectAt(project);
    const errors = planned.plan.problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) throw new Error(`the library's warm-up plan failed: ${errors[0].message}`);
    lib.status(planned.plan);
  } finally {
    if (cache === undefined) delete process.env.PANTOGRAPH_CACHE_DIR;
    else process.env.PANTOGRAPH_CACHE_DIR = cache;
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Fails the build when the EPP bundle lacks a name of a module the library takes from it, or when two
 * such modules export one name for different things (the bundle could export only one of them).
 */
async function checkEppBundleExports() {
  const bundleExports = eppBundleNames();
  const owner = new Map();
  for (const module of eppModulesImported) {
    const tscModule = await import(pathToFileURL(resolve('dist/epp', module)).href);
    for (const [name, value] of Object.entries(tscModule)) {
      if (!bundleExports.has(name)) {
        throw new Error(
          `src/epp/bundle-entry.ts does not export '${name}' of src/epp/${module}, which the library imports: add the module there`,
        );
      }
      const first = owner.get(name);
      if (first && first.value !== value) {
        throw new Error(`src/epp/${module} and src/epp/${first.module} both export '${name}': rename one`);
      }
      owner.set(name, { module, value });
    }
  }
}

await bundle('src/epp/bundle-entry.ts', resolve('dist/lib/epp.cjs'), (epp) => epp.warmUpRenders());
await bundle('src/index.ts', resolve('dist/lib/pantograph.cjs'), warmUpLibrary, {
  plugins: [...common.plugins, eppFromItsBundle],
});
await checkEppBundleExports();
for (const [entry, { bundle: file }] of Object.entries(entries)) {
  const names = exported[entry];
  writeFileSync(
    resolve(entry),
    `// Generated by scripts/bundle-cli.mjs: the library's bundle, loaded with its V8 code cache.\n` +
      `import { createRequire } from 'node:module';\n` +
      `const require = createRequire(import.meta.url);\n` +
      `const { loadLibrary } = require('./cli/load-bundle.cjs');\n` +
      `const lib = loadLibrary(require.resolve('${file}'));\n` +
      `export const { ${names.join(', ')} } = lib;\n`,
  );
  rmSync(resolve(`${entry}.map`), { force: true });
}

// The worker in which untrusted templates render (src/engine/sandbox.ts): one file, so that starting it
// does not load the engine's modules one by one (~0.3 s per run before, ~0.1 s with the bundle).
await build({
  ...common,
  entryPoints: ['src/engine/sandbox-worker.ts'],
  outfile: resolve('dist/engine/sandbox-worker.cjs'),
});
asciiOnly(resolve('dist/engine/sandbox-worker.cjs'));
// The worker that checks settings against untrusted templates' schemas (src/engine/schema-sandbox.ts).
await build({
  ...common,
  entryPoints: ['src/engine/schema-sandbox-worker.ts'],
  outfile: resolve('dist/engine/schema-sandbox-worker.cjs'),
});
asciiOnly(resolve('dist/engine/schema-sandbox-worker.cjs'));
// The worker in which the language server checks documents under its limits (src/lsp/checker.ts).
await build({
  ...common,
  entryPoints: ['src/lsp/check-worker.ts'],
  outfile: resolve('dist/lsp/check-worker.cjs'),
});
asciiOnly(resolve('dist/lsp/check-worker.cjs'));
