/**
 * EPP, Embedded Puppet templates: the public surface of `src/epp`.
 */
export type * from './ast.js';
export {
  CompiledTemplate,
  type CompileOptions,
  clearCompileCache,
  compileEpp,
  type EppWarning,
  evaluatePuppet,
  parseEpp,
  type RenderOptions,
  renderEpp,
  type TemplateParameter,
  type Values,
} from './epp.js';
export {
  EppError,
  type EppErrorCode,
  EppEvalError,
  EppSyntaxError,
  type SourceLocation,
  type Span,
} from './errors.js';
export {
  BreakSignal,
  type CallContext,
  defineFunction,
  type FunctionDef,
  FunctionRegistry,
  type Lambda,
  NextSignal,
} from './functions/registry.js';
export { lineColumn } from './position.js';
export { PType } from './runtime/types.js';
// Integers are JavaScript numbers (bigint beyond 2^53); a Float is made with `float(n)`.
export {
  float,
  fromJs,
  integer,
  isFloat,
  isInteger,
  PFloat,
  type PHash,
  type PInteger,
  toJs,
  type Value,
} from './runtime/values.js';
export { findSyntaxErrors } from './validate.js';
