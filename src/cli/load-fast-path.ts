/**
 * Loads the `epp render` fast path. A build (`npm run build`) leaves it bundled as one CommonJS file with a
 * V8 code cache beside it, made at build time: compiling the bundle from the cache instead of from source
 * is most of what keeps `pantograph epp render` close to a bare `node` start on Node 20, which has no
 * compile cache of its own. Without the bundle (tests run the TypeScript sources) the plain module is
 * imported; a cache V8 rejects (another Node version) only costs the compile it would have saved.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

type FastPath = typeof import('./fast-epp-render.js');

export async function loadFastPath(): Promise<FastPath> {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundle = join(here, 'fast-epp-render.cjs');
  if (!existsSync(bundle)) return import('./fast-epp-render.js');
  const cache = `${bundle}.cache`;
  return runBundle(bundle, existsSync(cache) ? readFileSync(cache) : undefined).exports;
}

/** Compiles and runs the CommonJS bundle the way Node's own loader wraps a module. */
export function runBundle(
  file: string,
  cachedData: Buffer | undefined,
): { exports: FastPath; script: Script } {
  const source = readFileSync(file, 'utf8');
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapper, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as FastPath };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script };
}
