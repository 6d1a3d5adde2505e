/**
 * The one place the type modules import each other from, so that they load in this order: a module is
 * evaluated before the modules that extend its classes or use its values while loading (`class X extends
 * undefined` otherwise). This holds as long as the first import of any of them goes through here, so code
 * outside the folder imports `../types.js` only.
 *
 * Inside functions and methods the modules refer to each other freely: those run once all are loaded.
 * Code that runs while a module loads (its `extends`, its top-level `new X()` and the constructors these
 * call) may only use modules listed above it here, not values of its own module read back through this
 * hub: Vitest's module runner fills in a module's re-exports only once that module has finished loading.
 *
 * Keep this order; do not let a formatter sort these lines.
 */
// biome-ignore-all assist/source/organizeImports: the order of these exports is the load order
export * from './text.js';
export * from './helpers.js';
export * from './base.js';
export * from './special.js';
export * from './scalars.js';
export * from './string-types.js';
export * from './time-types.js';
export * from './collections.js';
export * from './abstract.js';
export * from './variant-merge.js';
export * from './catalog-types.js';
export * from './object-type.js';
export * from './object-initializer.js';
export * from './init-type.js';
export * from './names.js';
export * from './time-range.js';
export * from './parameterize.js';
export * from './infer.js';
export * from './mismatch.js';
