/**
 * The EPP facade: parse, compile (cached by content hash) and render Embedded Puppet templates.
 * CONTRACT STUB: signatures are final; the implementation lands with the compiler.
 */
import type { EppError } from './errors.js';
import type { FunctionDef } from './functions/registry.js';
import type { PType } from './runtime/types.js';
import type { PHash, Value } from './runtime/values.js';

export interface EppWarning {
  readonly code: string;
  readonly message: string;
  /** `file:line:col` when known. */
  readonly where: string;
}

export interface CompileOptions {
  /** File name used in errors (`<inline>` when absent). */
  readonly file?: string;
  /** Tag delimiters, default `['<%', '%>']`. Trim (`<%-`, `-%>`) and literal (`<%%`, `%%>`) forms follow. */
  readonly delimiters?: readonly [string, string];
}

export interface RenderOptions {
  /** Unknown variables are errors (default true). With false: a warning, and they render empty. */
  readonly strict?: boolean;
  /** Directory `epp('x.epp')` resolves against; files outside it are refused. Default: no file access. */
  readonly baseDir?: string;
  /** Extra functions, added to (or replacing) the built-ins. */
  readonly functions?: readonly FunctionDef[];
  /** Variables visible everywhere, also in templates that declare parameters (like `$facts`). */
  readonly topScope?: PHash | Readonly<Record<string, unknown>>;
  /** Receives warnings; default: collected nowhere. */
  readonly onWarning?: (warning: EppWarning) => void;
  /** Receives `notice()` and friends; default: ignored. */
  readonly onLog?: (level: string, message: string) => void;
}

/** A declared template parameter (`<%- | Type $name = default | -%>`). */
export interface TemplateParameter {
  readonly name: string;
  /** The type as written, e.g. `Optional[String]`; `Any` when omitted. */
  readonly typeText: string;
  readonly hasDefault: boolean;
  /** The default's source text, when there is one. */
  readonly defaultText: string | undefined;
  /** Span of the parameter in the source. */
  readonly span: { readonly start: number; readonly end: number };
}

export interface CompiledTemplate {
  readonly file: string;
  readonly source: string;
  /** Declared parameters, or undefined when the template declares none (then every value is a variable). */
  readonly parameters: readonly TemplateParameter[] | undefined;
  /** Renders with the given values (plain JavaScript data or a Puppet hash). Throws EppError. */
  render(values?: PHash | Readonly<Record<string, unknown>>, options?: RenderOptions): string;
}

export type { EppError, FunctionDef, PType, Value };
