/**
 * The entry of the library's bundle (dist/lib/pantograph.cjs, made by scripts/bundle-cli.mjs): the public
 * API, and the warm-up the build runs before it writes the bundle's code cache. Not part of the API.
 */

export { warmUpRenders } from './epp/warm-up.js';
export * from './index.js';
