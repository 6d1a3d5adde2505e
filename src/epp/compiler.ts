/**
 * The EPP compiler: AST -> JavaScript source -> a render function, the second tier of rendering (a
 * template's first render is interpreted, see `interpreter.ts`, which must do exactly what this code does).
 *
 * Templates are compiled once into straight-line JavaScript (as eta and ejs do) and the function is cached
 * by the caller. The generated code appends to a local `out` string; Puppet semantics live in the runtime
 * object `rt` (see `runtime/runtime.ts`), which the code calls for anything beyond string concatenation.
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
 * The generator's parts: the pre-pass of facts (compile-facts.ts), scopes, locals, variables and `K`
 * (compile-scope.ts, which `Generator` extends), small text and node helpers (compile-helpers.ts).
 */
import type {
  AccessNode,
  CaseNode,
  IfNode,
  LambdaNode,
  Node,
  ParameterNode,
  SelectorNode,
  TemplateNode,
} from './ast.js';
import {
  COLLECTION_FAST_PATHS,
  hasRest,
  hasSplat,
  ITERATION_FAST_PATHS,
  requiredCount,
  SCOPE_FUNCTIONS,
} from './calls.js';
import { BODY_NEXT, CALLS, CAPTURES, Facts } from './compile-facts.js';
import {
  arityArgument,
  concat,
  isBoolean,
  isString,
  isUniqueName,
  OPERATOR_METHODS,
  propertyAccess,
  str,
} from './compile-helpers.js';
import { ScopeGenerator } from './compile-scope.js';
import { constantKey, isConstant, LazyConstantSlot, literal, parameterLayout } from './constants.js';
import type { Span } from './errors.js';
import {
  type ConstantSlot,
  compiledHelpers,
  type ParameterSet,
  type ParameterSpec,
} from './runtime/runtime.js';
import { float } from './runtime/values.js';

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

/** Generates a template's JavaScript: statements, expressions, calls and lambdas. */
class Generator extends ScopeGenerator {
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
    if (ast.params) {
      lines.push(this.templateParameters(ast.params));
    } else {
      lines.push('rt.bindArguments(S0);');
    }
    scope.indexes = new Map();
    const body = value ? this.valueBlock(ast.body) : this.statements(ast.body);
    lines.push(`${this.declareIndexes(scope)}try {`);
    lines.push(body);
    lines.push(`} catch (e) { ${value ? 'return ' : ''}rt.returnValue(e); }`);
    if (!value) lines.push('return out;');
    this.closeScope();
    lines.push('});');
    return concat(lines, '\n');
  }

  /**
   * Binds the template's parameters. When every type is a constant (or absent) and the defaults that are
   * code come last, as data: `const P = rt.params(K[n]);` (see `Runtime.params`: the values of a hash are
   * bound once), then each local from `P`, a default that is code evaluated when its entry is unset.
   * Otherwise one parameter after the other, in order.
   */
  private templateParameters(params: readonly ParameterNode[]): string {
    const n = params.length;
    const names = params.map((param) => param.name);
    const { codeDefaults, asData } = parameterLayout(params);
    const p = this.pos(params[0] ?? { start: 0, end: 0 });
    const lines: string[] = [];
    if (asData) {
      const specs: ParameterSpec[] = [];
      for (let i = 0; i < n; i++) specs.push(this.parameterSpec(params[i]!, codeDefaults[i]!));
      lines.push(`const P = rt.params(${this.fixed({ names, p, specs } satisfies ParameterSet)});`);
      for (let i = 0; i < n; i++) lines.push(this.bindFrom(params[i]!, specs[i]!, `P[${i}]`));
    } else {
      lines.push(`rt.checkArguments(${this.fixed(names)}, ${p});`);
      for (let i = 0; i < n; i++) {
        const param = params[i]!;
        if (param.valueType && !isConstant(param.valueType)) {
          lines.push(this.bindParameter(param, `rt.argument(${str(param.name)})`));
          continue;
        }
        const spec = this.parameterSpec(param, codeDefaults[i]!);
        lines.push(this.bindFrom(param, spec, `rt.param(${this.fixed(spec)})`));
      }
    }
    return concat(lines, '\n');
  }

  /**
   * A template parameter whose type is a constant (or absent), as data for `Runtime.param`; `defaultCode`:
   * its default is no constant (evaluated by the code, see `bindFrom`).
   */
  private parameterSpec(param: ParameterNode, defaultCode: boolean): ParameterSpec {
    const valueType = param.valueType;
    const defaultValue = param.defaultValue;
    return {
      name: param.name,
      p: this.pos(param),
      type: valueType ? this.constantSlot(valueType) : undefined,
      defaultValue: defaultValue !== undefined && !defaultCode ? this.constantSlot(defaultValue) : undefined,
      defaultCode,
    };
  }

  /** Sets a parameter's local from `Runtime.param`'s answer `given` (unset: evaluate the default). */
  private bindFrom(param: ParameterNode, spec: ParameterSpec, given: string): string {
    const local = this.current.locals.get(param.name)!;
    const code = spec.defaultCode
      ? `${local} = (t = ${given}) === U ? rt.checked(${this.fixed(spec)}, ${this.expr(param.defaultValue!)}) : t;`
      : `${local} = ${given};`;
    this.current.bound.add(param.name);
    return code;
  }

  /**
   * Binds one parameter: the given value (`rt.MISSING` when absent), else its default (undef also takes the
   * default, as in Puppet), else a missing-parameter error; then the type check. `block`: a lambda's.
   */
  private bindParameter(param: ParameterNode, given: string, present = false, block = false): string {
    const local = this.current.locals.get(param.name)!;
    if (present && !param.defaultValue && !param.valueType) {
      // A lambda's required argument, already counted by the arity check: nothing to decide.
      this.current.bound.add(param.name);
      return `${local} = ${given};`;
    }
    const p = this.pos(param);
    const name = str(param.name);
    const v = this.temp();
    let code = `{ let ${v} = ${given};\n`;
    if (param.defaultValue) {
      code += `if (${v} === rt.MISSING || ${v} === undefined) ${v} = ${this.expr(param.defaultValue)};\n`;
    } else if (!present) {
      code += `if (${v} === rt.MISSING) ${v} = rt.missingParameter(${name}, ${p});\n`;
    }
    if (param.valueType) {
      code += `rt.checkParameter(${this.expr(param.valueType)}, ${v}, ${name}, ${p}${block ? ', true' : ''});\n`;
    }
    code += `${local} = ${v}; }`;
    this.current.bound.add(param.name);
    return code;
  }

  /**
   * Statements. Output appends in as few statements as it can (less code to compile):
   * `out += "a" + S($x) + "b" + S($y);`. An expression that makes a call only starts a statement: output
   * made before a call that ends the template with return() must stay.
   */
  private statements(nodes: readonly Node[]): string {
    const code: string[] = [];
    for (let i = 0; i < nodes.length; ) {
      const node = nodes[i]!;
      if (node.type !== 'Text' && node.type !== 'Render') {
        code.push(this.statement(node));
        i++;
        continue;
      }
      const parts: string[] = [];
      let text = '';
      for (let next = nodes[i]; next?.type === 'Text' || next?.type === 'Render'; next = nodes[++i]) {
        if (next.type === 'Text') {
          text += next.value;
          continue;
        }
        if (text) parts.push(str(text));
        text = '';
        if (parts.length > 0 && this.facts.has(next, CALLS)) break;
        parts.push(`S(${this.expr(next.expr)})`);
      }
      if (text) parts.push(str(text));
      code.push(`out += ${concat(parts, ' + ')};`);
    }
    return concat(code, '\n');
  }

  /** Statements whose value is the last one: emits `return <last>;` (a function without one gives undef). */
  private valueBlock(nodes: readonly Node[]): string {
    const last = nodes[nodes.length - 1];
    if (!last || last.type === 'Text' || last.type === 'Render') return this.statements(nodes);
    return `${this.statements(nodes.slice(0, -1))}\nreturn ${this.expr(last)};`;
  }

  private statement(node: Node): string {
    switch (node.type) {
      case 'Text':
        return `out += ${str(node.value)};`;
      case 'Render':
        return `out += S(${this.expr(node.expr)});`;
      case 'If':
        return this.ifStatement(node);
      case 'Case':
        return this.caseStatement(node);
      default:
        return `${this.expr(node)};`;
    }
  }

  /** Match captures set inside an `if` are gone after it: saved and restored when it may set any. */
  private ifStatement(node: IfNode): string {
    const test = this.test(node.test);
    let code = `if (${node.negate ? `!${test}` : test}) {\n${this.statements(node.then)}\n}`;
    if (node.otherwise) code += ` else {\n${this.statements(node.otherwise)}\n}`;
    if (!this.facts.has(node, CAPTURES)) return code;
    const m = this.temp();
    return `{ const ${m} = rt.m; try { ${code} } finally { rt.m = ${m}; } }`;
  }

  private caseStatement(node: CaseNode): string {
    return `{ ${this.caseBody(node, false)} }`;
  }

  /** The shared code of `case` as statement and as value (`asValue` returns the option's value). */
  private caseBody(node: CaseNode, asValue: boolean): string {
    const v = this.temp();
    const m = this.temp();
    const p = this.pos(node);
    const body = (nodes: readonly Node[]) => (asValue ? this.valueBlock(nodes) : this.statements(nodes));
    // Captures set while choosing an option are gone after the case: saved and restored when any may be.
    const captures = this.facts.has(node, CAPTURES);
    let code = captures
      ? `const ${v} = ${this.expr(node.test)}; const ${m} = rt.m; try {\n`
      : `const ${v} = ${this.expr(node.test)};\n`;
    let defaultBody: readonly Node[] | undefined;
    let first = true;
    for (const option of node.options) {
      const tests = option.values
        .filter((value) => value.type !== 'Default')
        .map((value) => this.caseTest(v, value, p));
      if (tests.length < option.values.length) defaultBody = option.body;
      if (tests.length === 0) continue;
      code += `${first ? '' : 'else '}if (${tests.join(' || ')}) {\n${body(option.body)}\n}\n`;
      first = false;
    }
    if (defaultBody) code += `${first ? '' : 'else '}{\n${body(defaultBody)}\n}\n`;
    if (captures) code += `} finally { rt.m = ${m}; }`;
    if (asValue) code += '\nreturn undefined;';
    return code;
  }

  private caseTest(value: string, option: Node, p: number): string {
    if (option.type === 'Unary' && option.operator === '*') {
      return `rt.matchesAny(${value}, ${this.expr(option.operand)}, ${p})`;
    }
    // A literal option (string, number, boolean, undef) matches as `==` does: no need to test for regexps,
    // types or arrays at run time.
    if (option.type === 'Literal')
      return `rt.${isString(option) ? 'eqs' : 'equals'}(${value}, ${this.expr(option)})`;
    return `rt.matchesOption(${value}, ${this.expr(option)}, ${p})`;
  }

  // ---------------------------------------------------------------- expressions

  private expr(node: Node): string {
    switch (node.type) {
      // The commonest kinds first (a switch on strings tests its cases in order in unoptimised code).
      case 'Variable':
        return this.variable(node.name, this.pos(node));
      case 'Literal':
        // A Float is a PFloat made once, at compile time (a bare number would be an Integer).
        return typeof node.value === 'number' ? this.fixed(float(node.value)) : literal(node.value);
      case 'Access':
        return this.access(node);
      case 'MethodCall':
        // `concat`, not a spread: no iterator protocol in unoptimised code.
        return this.call(node.name, [node.receiver].concat(node.args), node.lambda, node);
      case 'Call':
        return this.call(node.name, node.args, node.lambda, node);
      case 'Binary':
        return this.binary(node);
      case 'Interpolated':
        return this.interpolated(node.parts);
      case 'TypeRef':
        return this.sharedConstant(node);
      case 'Logical':
        return node.operator === 'and'
          ? `(${this.test(node.left)} && ${this.test(node.right)})`
          : `(${this.test(node.left)} || ${this.test(node.right)})`;
      case 'Unary':
        if (node.operator === '!') return `!${this.test(node.operand)}`;
        if (node.operator === '-') return `rt.negate(${this.expr(node.operand)}, ${this.pos(node)})`;
        // A splat as a value (not spliced into a list) is an Array, as in Puppet: `*3` is `[3]`.
        return `rt.splat(${this.expr(node.operand)})`;
      case 'Array':
        return `[${this.elements(node.elements)}]`;
      case 'Hash':
        return `rt.hash([${node.entries.map((e) => `${this.expr(e.key)}, ${this.expr(e.value)}`).join(', ')}])`;
      case 'If': {
        const m = this.temp();
        const test = this.test(node.test);
        const otherwise = node.otherwise ? this.valueBlock(node.otherwise) : 'return undefined;';
        return `(() => { const ${m} = rt.m; try { if (${node.negate ? `!${test}` : test}) {\n${this.valueBlock(node.then)}\n} else {\n${otherwise}\n} } finally { rt.m = ${m}; } })()`;
      }
      case 'Lambda':
        return this.lambda(node);
      case 'Assignment':
        return this.assignment(node.target, node.value);
      case 'Paren':
        return `(${this.expr(node.expr)})`;
      case 'Default':
        return 'rt.DEFAULT';
      case 'BareWord':
        return str(node.name);
      case 'Regex':
        return this.constant(`rt.regexp(${str(node.source)}, ${this.pos(node)})`);
      case 'New':
        return `rt.newValue(${this.expr(node.typeExpr)}, [${this.elements(node.args)}], ${this.lambda(node.lambda)}, ${this.pos(node)})`;
      case 'Case':
        return `(() => {\n${this.caseBody(node, true)}\n})()`;
      case 'Selector':
        return this.selector(node);
      case 'Block':
        return `(() => {\n${this.valueBlock(node.body)}\n})()`;
      case 'Text':
      case 'Render':
        return `(() => { ${this.statement(node)} return undefined; })()`;
    }
  }

  /** `"a${x}b"`: `("a" + I(x) + "b")`. */
  private interpolated(parts: readonly (string | Node)[]): string {
    let code = '(';
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i > 0) code += ' + ';
      code += typeof part === 'string' ? str(part) : `I(${this.expr(part)})`;
    }
    return `${code})`;
  }

  /** A condition: Puppet truthiness (`T`), left out when the expression is a boolean already. */
  private test(node: Node): string {
    return isBoolean(node) ? this.expr(node) : `T(${this.expr(node)})`;
  }

  /** Array elements or call arguments, `, ` between them. */
  private elements(nodes: readonly Node[]): string {
    let code = '';
    for (let i = 0; i < nodes.length; i++)
      code += i === 0 ? this.element(nodes[i]!) : `, ${this.element(nodes[i]!)}`;
    return code;
  }

  /** An array element or call argument: `*x` splats. */
  private element(node: Node): string {
    if (node.type === 'Unary' && node.operator === '*') return `...rt.splat(${this.expr(node.operand)})`;
    return this.expr(node);
  }

  private assignment(target: Node, valueNode: Node): string {
    const value = this.expr(valueNode);
    const p = this.pos(target);
    if (target.type === 'Variable') return this.assignLocal(target.name, value, p);
    const names = (target as { elements: readonly { name: string }[] }).elements.map((e) => e.name);
    const assigns = names.map((name, i) => `${this.assignLocal(name, `a[${i}]`, p)};`);
    return `((v) => { const a = rt.destructure([${names.map(str).join(', ')}], v, ${p}); ${assigns.join(' ')} return v; })(${value})`;
  }

  private call(name: string, argNodes: readonly Node[], lambda: LambdaNode | undefined, node: Node): string {
    const fast =
      this.iterationCall(name, argNodes, lambda, node) ?? this.collectionCall(name, argNodes, lambda, node);
    if (fast) return fast;
    const args = this.elements(argNodes);
    const view = SCOPE_FUNCTIONS.has(name) ? this.scopeView() : 'undefined';
    const block = this.lambda(lambda);
    return `rt.call(${str(name)}, [${args}], ${block}, ${this.pos(node)}, ${view}, ${this.site()})`;
  }

  /**
   * each/map/filter/reduce with a plain lambda (required parameters only) call the runtime's loops
   * (`rt.each(receiver, fn, n, p)`), which check at run time that the core function is in use.
   */
  private iterationCall(
    name: string,
    argNodes: readonly Node[],
    lambda: LambdaNode | undefined,
    node: Node,
  ): string | undefined {
    if (!lambda || !ITERATION_FAST_PATHS.has(name)) return undefined;
    if (requiredCount(lambda.params) !== lambda.params.length || hasSplat(argNodes)) return undefined;
    const max = name === 'reduce' ? 2 : 1;
    if (argNodes.length < 1 || argNodes.length > max) return undefined;
    const n = lambda.params.length;
    if (name === 'reduce') {
      const args = argNodes.map((a) => this.expr(a)).join(', ');
      const fn = this.plainLambda(lambda);
      return `rt.reduce([${args}], ${fn.code}, ${n}, ${this.pos(node)}, ${this.site()}${arityArgument(fn)})`;
    }
    const receiver = this.expr(argNodes[0]!);
    const fn = this.plainLambda(lambda);
    return `rt.${name}(${receiver}, ${fn.code}, ${n}, ${this.pos(node)}, ${this.site()}${arityArgument(fn)})`;
  }

  /**
   * length/size/empty(x) and join(x[, d]) call runtime methods that answer arrays, hashes (and strings of
   * arrays for join) in place when the core function is in use, else make the ordinary call.
   */
  private collectionCall(
    name: string,
    argNodes: readonly Node[],
    lambda: LambdaNode | undefined,
    node: Node,
  ): string | undefined {
    if (lambda || hasSplat(argNodes)) return undefined;
    const n = argNodes.length;
    if (COLLECTION_FAST_PATHS.has(name) && n === 1)
      return `rt.${name}(${this.expr(argNodes[0]!)}, ${this.pos(node)}, ${this.site()})`;
    if (name === 'join' && (n === 1 || n === 2)) {
      const fused = this.mapJoinCall(argNodes[0]!, argNodes[1], node);
      if (fused) return fused;
      // `U` (unset) stands for an absent delimiter.
      const delimiter = n === 2 ? this.expr(argNodes[1]!) : 'U';
      return `rt.join(${this.expr(argNodes[0]!)}, ${delimiter}, ${this.pos(node)}, ${this.site()})`;
    }
    return undefined;
  }

  /**
   * `$xs.map |$x| { ... }.join(', ')`: one runtime call that builds the text in the loop (`Runtime.mapJoin`),
   * for a map the iteration fast path takes and a delimiter that is absent or a string literal (evaluated
   * before the map, which only a literal makes no difference to).
   */
  private mapJoinCall(mapNode: Node, delimiterNode: Node | undefined, node: Node): string | undefined {
    if ((mapNode.type !== 'MethodCall' && mapNode.type !== 'Call') || mapNode.name !== 'map')
      return undefined;
    if (delimiterNode && !isString(delimiterNode)) return undefined;
    const lambda = mapNode.lambda;
    const mapArgs = mapNode.type === 'MethodCall' ? [mapNode.receiver].concat(mapNode.args) : mapNode.args;
    if (!lambda || requiredCount(lambda.params) !== lambda.params.length) return undefined;
    if (mapArgs.length !== 1 || hasSplat(mapArgs)) return undefined;
    const receiver = this.expr(mapArgs[0]!);
    const fn = this.plainLambda(lambda);
    const delimiter = delimiterNode ? this.expr(delimiterNode) : 'U';
    const map = `${this.pos(mapNode)}, ${this.site()}`;
    const join = `${this.pos(node)}, ${this.site()}`;
    return `rt.mapJoin(${receiver}, ${fn.code}, ${lambda.params.length}, ${delimiter}, ${map}, ${join}${arityArgument(fn)})`;
  }

  private access(node: AccessNode): string {
    // A type expression such as `Array[Hash[String, Data]]` means the same in every template: its value is
    // shared by all compiles (no re-parameterizing per compile; the instance memo of checkParameter hits).
    if (isConstant(node)) return this.sharedConstant(node);
    const [only] = node.keys;
    // A single key avoids building an array of keys.
    let code: string;
    if (node.keys.length !== 1 || !only || (only.type === 'Unary' && only.operator === '*')) {
      code = `rt.access(${this.expr(node.target)}, [${this.elements(node.keys)}], ${this.pos(node)})`;
    } else if (
      only.type === 'Literal' &&
      typeof only.value === 'string' &&
      !(only.value in Object.prototype)
    ) {
      // `$h['key']`, the commonest access: a hash is read through its index of string keys, a plain
      // property read (`H`, see `hashIndex`; undefined for anything but a hash, which `rt.keyed` reads
      // as an object of that one key). The scratch `t` is used at once. Not for a key that
      // `Object.prototype` has (`toString`): the index of a hash made from a JavaScript object inherits it.
      const key = str(only.value);
      const hoisted = node.target.type === 'Variable' ? this.indexOf(node.target.name) : undefined;
      code = hoisted
        ? `(${hoisted.index} ?? rt.keyed(${hoisted.local}, ${key}, ${this.pos(node)}))`
        : `(H(t = ${this.expr(node.target)}) ?? rt.keyed(t, ${key}, ${this.pos(node)}))`;
      code += propertyAccess(only.value);
    } else {
      code = `rt.access1(${this.expr(node.target)}, ${this.expr(only)}, ${this.pos(node)})`;
    }
    return code;
  }

  /**
   * A constant expression (see {@link isConstant}) as data, `rt.constant(K[n])`: the runtime computes it
   * once (shared by key with every template) and keeps it in the slot. Data is cheaper to compile than code.
   */
  private sharedConstant(node: Node): string {
    return `rt.constant(${this.fixed(this.constantSlot(node))})`;
  }

  private constantSlot(node: Node): ConstantSlot {
    return new LazyConstantSlot(constantKey(node), node, this.spanIndex);
  }

  private binary(node: Node & { type: 'Binary' }): string {
    const op = node.operator;
    if (op === '==' || op === '!=') return (op === '!=' ? '!' : '') + this.equals(node.left, node.right);
    const left = this.expr(node.left);
    const right = this.expr(node.right);
    const p = this.pos({ start: node.operatorStart, end: node.end });
    switch (op) {
      case '<':
      case '<=':
      case '>':
      case '>=':
      case '+':
      case '-':
      case '*':
        // Runtime methods with a fast path for two Integers (JavaScript numbers).
        return `rt.${OPERATOR_METHODS[op]}(${left}, ${right}, ${p})`;
      case '=~':
        return `rt.match(${left}, ${right}, ${p})`;
      case '!~':
        return `!rt.match(${left}, ${right}, ${p})`;
      case 'in':
        return `rt.isIn(${left}, ${right}, ${p})`;
      default:
        return `rt.arithmetic(${str(op)}, ${left}, ${right}, ${p})`;
    }
  }

  /** `a == b`; against a string literal, `rt.eqs` (case-insensitive string compare, no type dispatch). */
  private equals(left: Node, right: Node): string {
    if (isString(right)) return `rt.eqs(${this.expr(left)}, ${this.expr(right)})`;
    // The literal has no side effects: evaluating it first changes nothing.
    if (isString(left)) return `rt.eqs(${this.expr(right)}, ${this.expr(left)})`;
    return `rt.equals(${this.expr(left)}, ${this.expr(right)})`;
  }

  private selector(node: SelectorNode): string {
    const v = this.temp();
    const p = this.pos(node);
    let code = `(() => { const ${v} = ${this.expr(node.test)};\n`;
    let fallback: Node | undefined;
    for (const entry of node.entries) {
      if (entry.key.type === 'Default') {
        fallback = entry.value;
        continue;
      }
      code += `if (${this.caseTest(v, entry.key, p)}) return ${this.expr(entry.value)};\n`;
    }
    code += fallback ? `return ${this.expr(fallback)};` : `return rt.noSelectorMatch(${v}, ${p});`;
    return `${code} })()`;
  }

  private lambda(node: LambdaNode | undefined): string {
    if (!node) return 'undefined';
    const params = node.params;
    const fn = this.plainLambda(node);
    return `rt.lambda(${fn.code}, ${params.length}, ${requiredCount(params)}, ${hasRest(params)}${arityArgument(fn)})`;
  }

  /**
   * The lambda's JavaScript function, without the metadata `rt.lambda` adds. A lambda whose parameters
   * are all required and untyped does not check its arity itself (the runtime loops call it right):
   * `unchecked` is then its span, for `rt.lambda` to wrap it with the check when a function calls it.
   * Plain loops, no callbacks: this runs for every lambda of every compile, mostly in unoptimised code.
   */
  private plainLambda(node: LambdaNode): { code: string; unchecked: number | undefined } {
    const params = node.params;
    const n = params.length;
    const scope = this.openScope(params, node);
    const required = requiredCount(params);
    const rest = hasRest(params);
    // Parameters before the first optional one are present once the arity check has passed.
    let firstOptional = n;
    for (let i = 0; i < n; i++) {
      if (params[i]!.defaultValue || params[i]!.captureRest) {
        firstOptional = i;
        break;
      }
    }
    // A present, untyped parameter is the JavaScript parameter itself (its local): nothing to bind.
    const direct: boolean[] = [];
    const own = new Set<string>();
    let args = '';
    let allDirect = true;
    for (let i = 0; i < n; i++) {
      const param = params[i]!;
      const local = scope.locals.get(param.name);
      const isDirect =
        i < firstOptional && !param.valueType && local !== undefined && isUniqueName(params, i);
      direct.push(isDirect);
      if (isDirect) own.add(local);
      else allDirect = false;
      args += `${i > 0 ? ', ' : ''}${isDirect ? local : `a${i}`}`;
    }
    // In parentheses: compiled at once, see `template`.
    let code = `(function (${args}) { let t; ${this.declareLocals(scope, own)}\n`;
    const p = this.pos(node);
    const unchecked = allDirect ? p : undefined;
    const max = rest ? 'Infinity' : n;
    if (unchecked === undefined) {
      const outside = rest
        ? `arguments.length < ${required}`
        : required === n
          ? `arguments.length !== ${required}`
          : `arguments.length < ${required} || arguments.length > ${max}`;
      code += `if (${outside}) rt.checkLambdaArity(arguments.length, ${required}, ${max}, ${p});\n`;
    }
    for (let i = 0; i < n; i++) {
      const param = params[i]!;
      if (direct[i]) {
        scope.bound.add(param.name);
        continue;
      }
      const present = i < firstOptional;
      const given = param.captureRest
        ? `Array.prototype.slice.call(arguments, ${i})`
        : present
          ? `a${i}`
          : `(arguments.length > ${i} ? a${i} : rt.MISSING)`;
      code += `${this.bindParameter(param, given, present, true)}\n`;
    }
    scope.indexes = new Map();
    // Only a body that calls next() needs to catch it (nested lambdas catch their own).
    const body = this.facts.has(node, BODY_NEXT)
      ? `try {\n${this.valueBlock(node.body)}\n} catch (e) { return rt.nextValue(e); }\n`
      : `${this.valueBlock(node.body)}\n`;
    code += `${this.declareIndexes(scope)}${body}})`;
    this.closeScope();
    return { code, unchecked };
  }
}
