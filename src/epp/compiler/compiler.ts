/**
 * The EPP compiler: AST -> JavaScript source -> a render function, the second tier of rendering (a
 * template's first render is interpreted, see `../interpreter/`, which must do exactly what this code does).
 *
 * Templates are compiled once into straight-line JavaScript (as eta and ejs do) and the function is cached
 * by the caller. The generated code appends to a local `out` string; Puppet semantics live in the runtime
 * object `rt` (see `../runtime/runtime.ts`), which the code calls for anything beyond string concatenation.
 *
 * Conventions in the generated code:
 * - Variables are resolved at compile time. Every name a scope (the template, or a lambda body) assigns or
 *   declares as a parameter becomes a JavaScript local `v<n>`, initialised to `U` (unset). Puppet lets a
 *   scope read a name from an outer scope until it assigns its own, so a read is a chain:
 *   `(v3 !== U ? v3 : v1 !== U ? v1 : rt.lookup("x", p))`, ending in the dynamic scope `S0` (the values of
 *   a template without parameters, then the top scope) or an unknown-variable error. A parameter is set
 *   for good once bound, so the chain of a read after its binding ends at its bare local.
 * - The few functions that look at variables by name (`getvar`, `defined`, `inline_epp`) receive a view of
 *   the visible locals, built only at those call sites.
 * - `K[n]`: values made at compile time (call sites, Floats, parameter and constant descriptions) and
 *   constants computed on first use (regexps). Constant expressions (type expressions mostly) are data
 *   (`rt.constant(K[n])`), as are the template's parameters (`rt.params(K[n])`): less code to compile.
 * - `S`, `I`, `T`, `H` are small module-level helpers passed to the factory (see `compiledHelpers` in the
 *   runtime): text of `<%= %>`, of `"${}"`, truthiness, a hash's index of string keys.
 * - Values follow runtime/values.ts: an Integer literal is a number (a bigint beyond 2^53), a Float a PFloat.
 * - `t` is a scratch local of every function: an expression assigns and reads it at once.
 * - Fast paths, each with a comment: each/map/filter/reduce with a plain lambda become runtime loops
 *   (`rt.each`, ...), length/size/empty/join answer in place, `$h['key']` reads the hash's index (hoisted
 *   once per call for a parameter), operators on two Integers use JavaScript's, string literals compare
 *   with `rt.eqs`, and output appends in few statements.
 * - Numbers passed to `rt` index the span table, so runtime errors can point at the source.
 * - The code is strict mode JavaScript (V8 runs it faster: `arguments` is not mapped to the parameters).
 *
 * The generator is a chain of classes, each in its own file and extending the one before: scopes, locals,
 * variables and `K` (scope.ts), expressions and operators (expressions.ts), statements and control flow
 * (statements.ts), parameters (parameters.ts), lambdas (lambdas.ts), calls and their fast paths
 * (function-calls.ts), and last the template itself (`Generator`, here). Beside them: the pre-pass of
 * facts (facts.ts), small text and node helpers (helpers.ts).
 */
import type { TemplateNode } from '../ast.js';
import type { Span } from '../errors.js';
import { compiledHelpers } from '../runtime/runtime.js';
import { Facts } from './facts.js';
import { CallGenerator } from './function-calls.js';
import { concat } from './helpers.js';

export interface CompiledCode {
  /** `(rt, S0) => string`: renders the template into a string. */
  readonly render: (rt: unknown, scope: object) => string;
  readonly spans: readonly Span[];
  /** The generated JavaScript, for debugging (`pantograph epp dump --js`). */
  readonly code: string;
}

export interface CompileTemplateOptions {
  /** Compile a program whose value is its last expression (hooks, `--values`), not a text render. */
  readonly value?: boolean;
}

/** The names the generated code knows the {@link compiledHelpers} by (parameters of its factory). */
const HELPER_NAMES = Object.keys(compiledHelpers);
const HELPERS = Object.values(compiledHelpers);

export function compileTemplate(ast: TemplateNode, options: CompileTemplateOptions = {}): CompiledCode {
  const generator = new Generator(new Facts(ast));
  const code = generator.template(ast, options.value ?? false);
  // Small module-level helpers (V8 inlines them) keep the generated code short: cheaper to compile.
  const factory = new Function('K', ...HELPER_NAMES, code) as (
    k: unknown[],
    ...helpers: unknown[]
  ) => (rt: unknown, scope: object) => string;
  return { render: factory(generator.constants, ...HELPERS), spans: generator.spans, code };
}

/** Generates a template's JavaScript; the generators it extends make its statements, expressions, calls and lambdas. */
class Generator extends CallGenerator {
  template(ast: TemplateNode, value: boolean): string {
    const lines: string[] = [];
    lines.push('"use strict";');
    // In parentheses, V8 compiles a function at once instead of pre-parsing it now and parsing it again
    // on its first call (the whole template, and each lambda: all run on the first render).
    lines.push('return (function render(rt, S0) {');
    // `var`, not `let`: lambdas append to `out` from their closures, and a `let` read from a closure is
    // checked for its temporal dead zone on every access (measured: ~2% of a render of the bench template).
    lines.push('var out = "";');
    lines.push('let t;');
    lines.push('const U = rt.UNSET;');
    // The template's own scope (depth 1); the root scope of the generator stands for the dynamic S0.
    const scope = this.openScope(ast.params ?? [], ast);
    lines.push(this.declareLocals(scope));
    // The hoisted lambdas, known once the code is made, go here: before the parameters' defaults run.
    const hoistedAt = lines.push('') - 1;
    if (ast.params) {
      lines.push(this.templateParameters(ast.params));
    } else {
      lines.push('rt.bindArguments(S0);');
    }
    scope.indexes = new Map();
    const body = value ? this.valueBlock(ast.body) : this.statements(ast.body);
    lines.push(`${this.declareIndexes(scope)}try {`);
    lines.push(body);
    lines.push(`} catch (e) { return ${value ? 'rt.returnValue(e)' : 'rt.templateEnded(e, out)'}; }`);
    if (!value) lines.push('return out;');
    this.closeScope();
    lines[hoistedAt] = this.hoisted.join('\n');
    lines.push('});');
    return concat(lines, '\n');
  }
}
