/**
 * Loads the `epp render` fast path. A build (`npm run build`) leaves it bundled as one CommonJS file with a
 * V8 code cache beside it, made at build time: compiling the bundle from the cache instead of from source
 * is most of what keeps `pantograph epp render` close to a bare `node` start on Node 20, which has no
 * compile cache of its own. Without the bundle (tests run the TypeScript sources) the plain module is
 * imported; a cache V8 rejects (another Node version) only costs the compile it would have saved.
 * CommonJS, as the entry that requires it (see bin.cts).
 */
import fs = require('node:fs');
import nodeModule = require('node:module');
import path = require('node:path');
import vm = require('node:vm');

type FastPath = typeof import('./fast-epp-render.js');

async function loadFastPath(): Promise<FastPath> {
  const bundle = path.join(__dirname, 'fast-epp-render.cjs');
  if (!fs.existsSync(bundle)) return import('./fast-epp-render.js');
  const cache = `${bundle}.cache`;
  return runBundle(bundle, fs.existsSync(cache) ? fs.readFileSync(cache) : undefined).exports;
}

/** Compiles and runs the CommonJS bundle the way Node's own loader wraps a module. */
function runBundle(file: string, cachedData: Buffer | undefined): { exports: FastPath; script: vm.Script } {
  const source = fs.readFileSync(file, 'utf8');
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapper, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as FastPath };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, nodeModule.createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, script };
}

export = { loadFastPath, runBundle };
