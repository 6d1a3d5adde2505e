/**
 * The EPP compiler: AST -> JavaScript source -> a render function.
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
 * - `K[n]` caches constant values (type expressions, regexps, call sites) across renders.
 * - `t` is a scratch local of every function: an expression assigns and reads it at once.
 * - Fast paths, each with a comment: each/map/filter/reduce with a plain lambda become runtime loops
 *   (`rt.each`, ...), `$h['key']` reads a hash in place, literal case options compare with `==`.
 * - Numbers passed to `rt` index the span table, so runtime errors can point at the source.
 * - The code is strict mode JavaScript (V8 runs it faster: `arguments` is not mapped to the parameters).
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
import { assignedNames } from './ast-walk.js';
import type { Span } from './errors.js';
import { nodeChildren, type WalkNode } from './node-children.js';

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

export function compileTemplate(ast: TemplateNode, options: CompileTemplateOptions = {}): CompiledCode {
  const generator = new Generator();
  const code = generator.template(ast, options.value ?? false);
  const constants: unknown[] = [];
  const factory = new Function('K', code) as (k: unknown[]) => (rt: unknown, scope: object) => string;
  return { render: factory(constants), spans: generator.spans, code };
}

const str = (s: string) => JSON.stringify(s);

/** A compile-time scope: the Puppet names it declares, each with its JavaScript local. */
interface StaticScope {
  readonly parent: StaticScope | undefined;
  readonly locals: Map<string, string>;
  /** Parameters bound so far: their locals are always set, so reads skip the `!== U` chain. */
  readonly bound: Set<string>;
}

/** Functions that read variables by name: they get a view of the scope at the call site. */
const SCOPE_FUNCTIONS = new Set(['getvar', 'defined', 'inline_epp']);

/** Iteration functions the runtime runs as plain loops (see `Runtime.each`). */
const ITERATION_FAST_PATHS = new Set(['each', 'map', 'filter', 'reduce']);

class Generator {
  readonly spans: Span[] = [];
  private constantCount = 0;
  private tempCount = 0;
  private localCount = 0;
  private current: StaticScope = { parent: undefined, locals: new Map(), bound: new Set() };

  /** Registers a span and returns its index for the generated code. */
  private pos(node: { start: number; end: number }): number {
    this.spans.push({ start: node.start, end: node.end });
    return this.spans.length - 1;
  }

  /** Declares the names a scope assigns (not those of nested lambdas) and its parameters. */
  private openScope(params: readonly ParameterNode[], body: readonly Node[]): StaticScope {
    const locals = new Map<string, string>();
    const declare = (name: string) => {
      if (!locals.has(name) && !name.includes('::') && !/^\d+$/.test(name))
        locals.set(name, `v${this.localCount++}`);
    };
    for (const p of params) declare(p.name);
    for (const name of assignedNames(body)) declare(name);
    this.current = { parent: this.current, locals, bound: new Set() };
    return this.current;
  }

  private closeScope(): void {
    this.current = this.current.parent!;
  }

  /** `let v1 = U, v2 = U;` for a scope's locals. */
  private declareLocals(scope: StaticScope): string {
    if (scope.locals.size === 0) return '';
    return `let ${[...scope.locals.values()].map((id) => `${id} = U`).join(', ')};`;
  }

  /** A view of every visible local for functions that look variables up by name. */
  private scopeView(): string {
    // Innermost first; the view lets an inner local that is set win over an outer one.
    const entries: string[] = [];
    for (let scope: StaticScope | undefined = this.current; scope; scope = scope.parent) {
      for (const [name, id] of scope.locals) entries.push(`${str(name)}, ${id}`);
    }
    return `() => rt.view(S0, [${entries.join(', ')}])`;
  }

  private temp(): string {
    return `t${this.tempCount++}`;
  }

  template(ast: TemplateNode, value: boolean): string {
    const lines: string[] = [];
    lines.push('"use strict";');
    lines.push('return function render(rt, S0) {');
    lines.push('let out = "";');
    lines.push('let t;');
    lines.push('const U = rt.UNSET;');
    // The template's own scope (depth 1); the root scope of the generator stands for the dynamic S0.
    lines.push(this.declareLocals(this.openScope(ast.params ?? [], ast.body)));
    if (ast.params) {
      lines.push(
        `rt.checkArguments([${ast.params.map((p) => str(p.name)).join(', ')}], ${this.pos(ast.params[0] ?? { start: 0, end: 0 })});`,
      );
      for (const param of ast.params)
        lines.push(this.bindParameter(param, `rt.argument(${str(param.name)})`));
    } else {
      lines.push('rt.bindArguments(S0);');
    }
    lines.push('try {');
    lines.push(value ? this.valueBlock(ast.body) : this.statements(ast.body));
    lines.push(`} catch (e) { ${value ? 'return ' : ''}rt.returnValue(e); }`);
    if (!value) lines.push('return out;');
    this.closeScope();
    lines.push('};');
    return lines.join('\n');
  }

  /**
   * Binds one parameter: the given value (`rt.MISSING` when absent), else its default (undef also takes the
   * default, as in Puppet), else a missing-parameter error; then the type check.
   */
  private bindParameter(param: ParameterNode, given: string, present = false): string {
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
      code += `rt.checkParameter(${this.expr(param.valueType)}, ${v}, ${name}, ${p});\n`;
    }
    code += `${local} = ${v}; }`;
    this.current.bound.add(param.name);
    return code;
  }

  private statements(nodes: readonly Node[]): string {
    return nodes.map((n) => this.statement(n)).join('\n');
  }

  /** Statements whose value is the last one: emits `return <last>;`. */
  private valueBlock(nodes: readonly Node[]): string {
    if (nodes.length === 0) return 'return undefined;';
    const head = nodes.slice(0, -1).map((n) => this.statement(n));
    const last = nodes[nodes.length - 1]!;
    if (last.type === 'Text' || last.type === 'Render')
      return `${[...head, this.statement(last)].join('\n')}\nreturn undefined;`;
    return `${head.join('\n')}\nreturn ${this.expr(last)};`;
  }

  private statement(node: Node): string {
    switch (node.type) {
      case 'Text':
        return `out += ${str(node.value)};`;
      case 'Render':
        return `t = ${this.expr(node.expr)}; out += typeof t === "string" ? t : rt.render(t);`;
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
    const test = `rt.truthy(${this.expr(node.test)})`;
    let code = `if (${node.negate ? `!${test}` : test}) {\n${this.statements(node.then)}\n}`;
    if (node.otherwise) code += ` else {\n${this.statements(node.otherwise)}\n}`;
    if (!mayCapture(node)) return code;
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
    let code = `const ${v} = ${this.expr(node.test)}; const ${m} = rt.m; try {\n`;
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
    code += `} finally { rt.m = ${m}; }`;
    if (asValue) code += '\nreturn undefined;';
    return code;
  }

  private caseTest(value: string, option: Node, p: number): string {
    if (option.type === 'Unary' && option.operator === '*') {
      return `rt.matchesAny(${value}, ${this.expr(option.operand)}, ${p})`;
    }
    // A literal option (string, number, boolean, undef) matches as `==` does: no need to test for regexps,
    // types or arrays at run time.
    if (option.type === 'Literal') return `rt.equals(${value}, ${this.expr(option)})`;
    return `rt.matchesOption(${value}, ${this.expr(option)}, ${p})`;
  }

  // ---------------------------------------------------------------- expressions

  private expr(node: Node): string {
    switch (node.type) {
      case 'Literal':
        return literal(node.value);
      case 'Default':
        return 'rt.DEFAULT';
      case 'BareWord':
        return str(node.name);
      case 'TypeRef':
        return this.constant(`rt.type(${str(node.name)}, ${this.pos(node)})`);
      case 'Regex':
        return this.constant(`rt.regexp(${str(node.source)}, ${this.pos(node)})`);
      case 'Interpolated':
        return `(${node.parts.map((part) => (typeof part === 'string' ? str(part) : `rt.interpolate(${this.expr(part)})`)).join(' + ')})`;
      case 'Variable':
        return this.variable(node.name, this.pos(node));
      case 'Array':
        return `[${node.elements.map((e) => this.element(e)).join(', ')}]`;
      case 'Hash':
        return `rt.hash([${node.entries.map((e) => `${this.expr(e.key)}, ${this.expr(e.value)}`).join(', ')}])`;
      case 'Access':
        return this.access(node);
      case 'Binary':
        return this.binary(
          node.operator,
          this.expr(node.left),
          this.expr(node.right),
          this.pos({ start: node.operatorStart, end: node.end }),
        );
      case 'Logical':
        return node.operator === 'and'
          ? `(rt.truthy(${this.expr(node.left)}) && rt.truthy(${this.expr(node.right)}))`
          : `(rt.truthy(${this.expr(node.left)}) || rt.truthy(${this.expr(node.right)}))`;
      case 'Unary':
        if (node.operator === '!') return `!rt.truthy(${this.expr(node.operand)})`;
        if (node.operator === '-') return `rt.negate(${this.expr(node.operand)}, ${this.pos(node)})`;
        return this.expr(node.operand);
      case 'Assignment':
        return this.assignment(node.target, node.value);
      case 'Call':
        return this.call(node.name, node.args, node.lambda, node);
      case 'MethodCall':
        return this.call(node.name, [node.receiver, ...node.args], node.lambda, node);
      case 'New':
        return `rt.newValue(${this.expr(node.typeExpr)}, [${node.args.map((a) => this.element(a)).join(', ')}], ${this.lambda(node.lambda)}, ${this.pos(node)})`;
      case 'If': {
        const m = this.temp();
        const test = `rt.truthy(${this.expr(node.test)})`;
        const otherwise = node.otherwise ? this.valueBlock(node.otherwise) : 'return undefined;';
        return `(() => { const ${m} = rt.m; try { if (${node.negate ? `!${test}` : test}) {\n${this.valueBlock(node.then)}\n} else {\n${otherwise}\n} } finally { rt.m = ${m}; } })()`;
      }
      case 'Case':
        return `(() => {\n${this.caseBody(node, true)}\n})()`;
      case 'Selector':
        return this.selector(node);
      case 'Paren':
        return `(${this.expr(node.expr)})`;
      case 'Block':
        return `(() => {\n${this.valueBlock(node.body)}\n})()`;
      case 'Lambda':
        return this.lambda(node);
      case 'Text':
      case 'Render':
        return `(() => { ${this.statement(node)} return undefined; })()`;
    }
  }

  /** An array element or call argument: `*x` splats. */
  private element(node: Node): string {
    if (node.type === 'Unary' && node.operator === '*') return `...rt.splat(${this.expr(node.operand)})`;
    return this.expr(node);
  }

  /** A call site's memory of the function it calls, kept across renders. */
  private site(): string {
    return this.constant('rt.site()');
  }

  /** Caches a constant value in `K` on first evaluation. */
  private constant(code: string): string {
    const k = this.constantCount++;
    return `(K[${k}] ?? (K[${k}] = ${code}))`;
  }

  private variable(name: string, p: number): string {
    if (/^\d+$/.test(name)) return `rt.capture(${Number(name)})`;
    if (name.startsWith('::')) return `rt.topVariable(${str(name.slice(2))}, ${p})`;
    const chain: string[] = [];
    let alwaysSet: string | undefined;
    for (let scope: StaticScope | undefined = this.current; scope; scope = scope.parent) {
      const id = scope.locals.get(name);
      if (!id) continue;
      // A bound parameter is set for good: the chain ends there, without the dynamic lookup.
      if (scope.bound.has(name)) {
        alwaysSet = id;
        break;
      }
      chain.push(id);
    }
    let code = alwaysSet ?? `rt.lookup(S0, ${str(name)}, ${p})`;
    for (const id of chain.reverse()) code = `${id} !== U ? ${id} : ${code}`;
    return chain.length > 0 ? `(${code})` : code;
  }

  private assignment(target: Node, valueNode: Node): string {
    const value = this.expr(valueNode);
    const p = this.pos(target);
    if (target.type === 'Variable') return this.assignLocal(target.name, value, p);
    const names = (target as { elements: readonly { name: string }[] }).elements.map((e) => e.name);
    const assigns = names.map((name, i) => `${this.assignLocal(name, `a[${i}]`, p)};`);
    return `((v) => { const a = rt.destructure([${names.map(str).join(', ')}], v, ${p}); ${assigns.join(' ')} return v; })(${value})`;
  }

  /** Assigns a local once: Puppet variables cannot be reassigned in their scope. */
  private assignLocal(name: string, value: string, p: number): string {
    const id = this.current.locals.get(name);
    if (!id) return `rt.assignInvalid(${str(name)}, ${p})`;
    return `(${id} !== U ? rt.reassigned(${str(name)}, ${p}) : (${id} = ${value}))`;
  }

  private call(name: string, argNodes: readonly Node[], lambda: LambdaNode | undefined, node: Node): string {
    const fast = this.iterationCall(name, argNodes, lambda, node);
    if (fast) return fast;
    const args = argNodes.map((a) => this.element(a));
    const view = SCOPE_FUNCTIONS.has(name) ? this.scopeView() : 'undefined';
    const block = this.lambda(lambda);
    return `rt.call(${str(name)}, [${args.join(', ')}], ${block}, ${this.pos(node)}, ${view}, ${this.site()})`;
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
    if (lambda.params.some((p) => p.defaultValue || p.captureRest)) return undefined;
    if (argNodes.some((a) => a.type === 'Unary' && a.operator === '*')) return undefined;
    const max = name === 'reduce' ? 2 : 1;
    if (argNodes.length < 1 || argNodes.length > max) return undefined;
    const n = lambda.params.length;
    if (name === 'reduce') {
      const args = argNodes.map((a) => this.expr(a)).join(', ');
      return `rt.reduce([${args}], ${this.plainLambda(lambda)}, ${n}, ${this.pos(node)}, ${this.site()})`;
    }
    const receiver = this.expr(argNodes[0]!);
    return `rt.${name}(${receiver}, ${this.plainLambda(lambda)}, ${n}, ${this.pos(node)}, ${this.site()})`;
  }

  private access(node: AccessNode): string {
    const [only] = node.keys;
    // A single key avoids building an array of keys.
    let code: string;
    if (node.keys.length !== 1 || !only || (only.type === 'Unary' && only.operator === '*')) {
      code = `rt.access(${this.expr(node.target)}, [${node.keys.map((k) => this.element(k)).join(', ')}], ${this.pos(node)})`;
    } else if (only.type === 'Literal' && typeof only.value === 'string') {
      // `$h['key']`, the commonest access: a hash is read in place (the scratch `t` is used at once).
      const key = str(only.value);
      code = `((t = ${this.expr(node.target)}) instanceof Map ? t.get(${key}) : rt.access1(t, ${key}, ${this.pos(node)}))`;
    } else {
      code = `rt.access1(${this.expr(node.target)}, ${this.expr(only)}, ${this.pos(node)})`;
    }
    if (!isConstant(node)) return code;
    // A type expression such as `Array[Hash[String, Data]]` means the same in every template: its value is
    // shared by all compiles (no re-parameterizing per compile; the instance memo of checkParameter hits).
    const key = str(constantKey(node));
    return this.constant(`rt.sharedConstant(${key}) ?? rt.shareConstant(${key}, ${code})`);
  }

  private binary(op: string, left: string, right: string, p: number): string {
    switch (op) {
      case '==':
        return `rt.equals(${left}, ${right})`;
      case '!=':
        return `!rt.equals(${left}, ${right})`;
      case '<':
      case '<=':
      case '>':
      case '>=':
        return `(rt.compare(${left}, ${right}, ${str(op)}, ${p}) ${op} 0)`;
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
    const required = params.filter((p) => !p.defaultValue && !p.captureRest).length;
    const hasRest = params.some((p) => p.captureRest);
    return `rt.lambda(${this.plainLambda(node)}, ${params.length}, ${required}, ${hasRest})`;
  }

  /** The lambda's JavaScript function, without the metadata `rt.lambda` adds. */
  private plainLambda(node: LambdaNode): string {
    const params = node.params;
    const scope = this.openScope(params, node.body);
    const required = params.filter((p) => !p.defaultValue && !p.captureRest).length;
    const hasRest = params.some((p) => p.captureRest);
    const args = params.map((_, i) => `a${i}`).join(', ');
    let code = `function (${args}) { let t; ${this.declareLocals(scope)}\n`;
    const max = hasRest ? 'Infinity' : params.length;
    const outside = hasRest
      ? `arguments.length < ${required}`
      : required === params.length
        ? `arguments.length !== ${required}`
        : `arguments.length < ${required} || arguments.length > ${max}`;
    code += `if (${outside}) rt.checkLambdaArity(arguments.length, ${required}, ${max}, ${this.pos(node)});\n`;
    // Parameters before the first optional one are present once the arity check has passed.
    const firstOptional = params.findIndex((p) => p.defaultValue || p.captureRest);
    params.forEach((param, i) => {
      const present = firstOptional < 0 || i < firstOptional;
      const given = param.captureRest
        ? `Array.prototype.slice.call(arguments, ${i})`
        : present
          ? `a${i}`
          : `(arguments.length > ${i} ? a${i} : rt.MISSING)`;
      code += `${this.bindParameter(param, given, present)}\n`;
    });
    // Only a body that calls next() needs to catch it (nested lambdas catch their own).
    code += callsNext(node.body)
      ? `try {\n${this.valueBlock(node.body)}\n} catch (e) { return rt.nextValue(e); }\n`
      : `${this.valueBlock(node.body)}\n`;
    code += '}';
    this.closeScope();
    return code;
  }
}

function literal(value: string | boolean | bigint | number | undefined): string {
  switch (typeof value) {
    case 'string':
      return str(value);
    case 'bigint':
      return `${value}n`;
    case 'number':
      return Object.is(value, -0)
        ? '-0'
        : Number.isFinite(value)
          ? String(value)
          : value > 0
            ? 'Infinity'
            : '-Infinity';
    case 'boolean':
      return String(value);
    default:
      return 'undefined';
  }
}

/** Whether an expression's value can be computed once and reused (type expressions mostly). */
function isConstant(node: Node): boolean {
  switch (node.type) {
    case 'Literal':
    case 'TypeRef':
    case 'Regex':
    case 'Default':
    case 'BareWord':
      return true;
    case 'Array':
      return node.elements.every(isConstant);
    case 'Hash':
      return node.entries.every((e) => isConstant(e.key) && isConstant(e.value));
    case 'Access':
      return node.target.type === 'TypeRef' || (node.target.type === 'Access' && isConstant(node.target))
        ? node.keys.every(isConstant)
        : false;
    default:
      return false;
  }
}

/** A text that identifies a constant expression's value (see {@link isConstant}), whatever its spacing. */
function constantKey(node: Node): string {
  switch (node.type) {
    case 'Literal':
      return `${typeof node.value}:${typeof node.value === 'string' ? JSON.stringify(node.value) : literal(node.value)}`;
    case 'TypeRef':
      return `T:${node.name}`;
    case 'Regex':
      return `R:${JSON.stringify(node.source)}`;
    case 'Default':
      return 'default';
    case 'BareWord':
      return `W:${node.name}`;
    case 'Array':
      return `[${node.elements.map(constantKey).join(',')}]`;
    case 'Hash':
      return `{${node.entries.map((e) => `${constantKey(e.key)}=>${constantKey(e.value)}`).join(',')}}`;
    case 'Access':
      return `${constantKey(node.target)}[${node.keys.map(constantKey).join(',')}]`;
    default:
      throw new Error(`not a constant: ${node.type}`);
  }
}

/** Whether a lambda body calls next() outside nested lambdas. */
function callsNext(body: readonly Node[]): boolean {
  const walk = (node: WalkNode): boolean => {
    if (node.type === 'Lambda') return false;
    if ((node.type === 'Call' || node.type === 'MethodCall') && node.name === 'next') return true;
    return nodeChildren(node).some(walk);
  };
  return body.some(walk);
}

/** Whether evaluating a node may set match captures (`=~`, `in` with a regexp, case and selector options). */
function mayCapture(node: WalkNode): boolean {
  if (node.type === 'Binary' && (node.operator === '=~' || node.operator === '!~' || node.operator === 'in'))
    return true;
  if (node.type === 'Case' || node.type === 'Selector') return true;
  return nodeChildren(node).some(mayCapture);
}
