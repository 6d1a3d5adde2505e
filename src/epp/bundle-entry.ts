/**
 * The entry of the EPP bundle (dist/lib/epp.cjs, made by scripts/bundle-cli.mjs): what `pantograph/epp`
 * loads, alone, and what the library's bundle (dist/lib/pantograph.cjs) loads for every module of
 * `src/epp` it imports, so that the two entries share one EPP (its classes, caches and registry). Hence
 * the internal modules the engine imports are exported here too; the build fails, naming the module,
 * when the library imports one that is not. Not part of the API: the package's entries export only the
 * names of `src/epp/index.ts` and `src/index.ts`.
 */

export * from '../shared/position.js';
export * from './ast-walk.js';
export * from './errors.js';
export * from './functions/index.js';
export * from './index.js';
export * from './json-values.js';
export * from './lexer/delimiters.js';
export * from './lexer/lexer.js';
export * from './lexer/tokens.js';
export * from './module-path.js';
export * from './node-files.js';
export * from './parameter-checks.js';
export * from './parser/parser.js';
export * from './runtime/convert.js';
export * from './runtime/text-size.js';
export * from './runtime/values.js';
export * from './validate.js';
export { warmUpRenders } from './warm-up.js';
