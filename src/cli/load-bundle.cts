/**
 * Loads the command's bundles. A build (`npm run build`, scripts/bundle-cli.mjs) leaves the command line
 * (`main.cjs`) and `pantograph epp render` alone (`fast-epp-render.cjs`) bundled as CommonJS files, each
 * with a V8 code cache beside it made at build time after a warm-up run: compiling from the cache instead
 * of from source is much of what keeps start-up short on Node 20, which has no compile cache of its own
 * and loads ES modules one by one. Without a bundle (tests run the TypeScript sources) the plain module is
 * imported; a cache V8 rejects (another Node version) only costs the compile it would have saved.
 * CommonJS, as the entry that requires it (see bin.cts).
 */
import fs = require('node:fs');
import nodeModule = require('node:module');
import path = require('node:path');
import vm = require('node:vm');

type FastPath = typeof import('./fast-epp-render.js');
type FastAnswer = typeof import('./fast-answer.js');
type Main = typeof import('./main.js');

/** The `epp render` fast path: the bundle, or the module. */
async function loadFastPath(): Promise<FastPath> {
  return (loadBundle('fast-epp-render.cjs') as FastPath | undefined) ?? import('./fast-epp-render.js');
}

/** `status` and `apply` answered from their memo: the bundle, or the module. */
async function loadFastAnswer(): Promise<FastAnswer> {
  return (loadBundle('fast-answer.cjs') as FastAnswer | undefined) ?? import('./fast-answer.js');
}

/** The whole command line: the bundle, or the module. */
async function loadMain(): Promise<Main> {
  return (loadBundle('main.cjs') as Main | undefined) ?? import('./main.js');
}

/**
 * A bundle other code shares (`dist/lib/epp.cjs`, `dist/lib/pantograph.cjs`, the `yaml` package's
 * `dist/cli/yaml.cjs`) with its code cache: what the package's entries export. The second loads the first
 * through here too, so each runs once per process.
 */
function loadLibrary(file: string): unknown {
  let library = libraries.get(file);
  if (library === undefined) {
    const cache = `${file}.cache`;
    library = runBundle(file, fs.existsSync(cache) ? fs.readFileSync(cache) : undefined);
    libraries.set(file, library);
  }
  return library.exports;
}
/** Loaded once per process: both entries of the package must hand out the same classes and caches. */
const libraries = new Map<string, { exports: unknown; script: vm.Script }>();

/**
 * The code cache of a bundle {@link loadLibrary} loaded in this process, with what has run of it since
 * compiled: for the build, which warms a bundle up through another one that loads it.
 */
function codeCacheOfLoaded(file: string): Buffer {
  const library = libraries.get(file);
  if (library === undefined) throw new Error(`${file} was not loaded in this process`);
  return library.script.createCachedData();
}

/** A bundle of this directory with its code cache, or undefined when the build made none. */
function loadBundle(name: string): unknown {
  const bundle = path.join(__dirname, name);
  if (!fs.existsSync(bundle)) return undefined;
  const cache = `${bundle}.cache`;
  return runBundle(bundle, fs.existsSync(cache) ? fs.readFileSync(cache) : undefined).exports;
}

/**
 * What the build writes before a bundle's code (and `\n})` after it): the function Node's own loader wraps
 * a CommonJS module in. Written into the file, not added here, so that V8 compiles the string read from
 * disk as it is: adding it made a copy of the whole text on every load (~4 ms of a 750 KB bundle's start
 * on a machine where touching fresh memory is slow). The prefix shares the code's first line, so the
 * column offset below keeps positions on it (and in the source map) where they were.
 */
const BUNDLE_PREFIX = '(function (exports, require, module, __filename, __dirname) {';
const BUNDLE_SUFFIX = '\n})';

/** Compiles and runs a bundle the build wrapped (see BUNDLE_PREFIX). */
function runBundle(file: string, cachedData: Buffer | undefined): { exports: unknown; script: vm.Script } {
  // The build leaves bundles ASCII (scripts/bundle-cli.mjs), read as latin1, the same text as a one-byte
  // string: decoding 1.6 MB as UTF-8 took ~17 ms more.
  const source = fs.readFileSync(file, 'latin1');
  if (!source.startsWith(BUNDLE_PREFIX) || !source.endsWith(BUNDLE_SUFFIX)) {
    throw new Error(`${file} is not a bundle made by \`npm run build\`: run it again`);
  }
  const script = new vm.Script(source, {
    filename: file,
    columnOffset: -BUNDLE_PREFIX.length,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, nodeModule.createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, script };
}

export = {
  BUNDLE_PREFIX,
  BUNDLE_SUFFIX,
  codeCacheOfLoaded,
  loadFastPath,
  loadFastAnswer,
  loadLibrary,
  loadMain,
  runBundle,
};
