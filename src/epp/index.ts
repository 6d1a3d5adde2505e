/**
 * EPP, Embedded Puppet templates: the public surface of `src/epp`.
 */

export { lineColumn } from '../shared/position.js';
export type * from './ast.js';
export { parameterNameSpan } from './ast-walk.js';
// For editors (the language server): what functions and types are, and finding one's way in a template.
export { FUNCTION_DOCS, type FunctionDoc, TYPE_DOCS } from './catalog.js';
export {
  CompiledTemplate,
  type CompileOptions,
  clearCompileCache,
  compileEpp,
  type EppWarning,
  evaluatePuppet,
  type LogSource,
  parseEpp,
  type RenderOptions,
  renderEpp,
  reportSyntaxWarnings,
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
export { FUNCTION_NAMES } from './functions/index.js';
export { logLabel } from './functions/misc.js';
export {
  BreakSignal,
  type CallContext,
  defineFunction,
  type FunctionDef,
  FunctionRegistry,
  type Lambda,
  NextSignal,
} from './functions/registry.js';
export type { ModulePathEntry, NamedModule } from './module-path.js';
export {
  type Declaration,
  declarationAt,
  type Reference,
  type ReferenceKind,
  referenceAt,
  visibleDeclarations,
} from './navigation.js';
export { parameterProblems } from './parameter-checks.js';
// Integers are JavaScript numbers (bigint beyond 2^53); a Float is made with `float(n)`.
export { type FromJsOptions, fromJs, toJs } from './runtime/convert.js';
export { PType, TYPE_NAME_LIST } from './runtime/types.js';
export {
  float,
  integer,
  isFloat,
  isInteger,
  PFloat,
  type PHash,
  type PInteger,
  type Value,
} from './runtime/values.js';
export { findSyntaxErrors } from './validate.js';
