/**
 * Finding one's way in a parsed template, for editors: what is at an offset (a variable, a function
 * call, a type), where a variable is declared, and which names a place can see. Scopes follow the
 * compiler (as static-analysis.ts does): the template and each lambda are scopes; a name is declared by a
 * parameter or by its first assignment in the scope (not in nested lambdas); a read looks outwards.
 */
import type { LambdaNode, Node, ParameterNode, TemplateNode, VariableNode } from './ast.js';
import { assignedVariables, children, parameterNameSpan, type WalkNode } from './ast-walk.js';

export type ReferenceKind = 'variable' | 'function' | 'type' | 'template-path';

/** Something an editor can hover or follow, with the span of its name. */
export interface Reference {
  readonly kind: ReferenceKind;
  /** Without `$` for variables; the path for `epp('path')`. */
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

export interface Declaration {
  readonly name: string;
  readonly kind: 'parameter' | 'assignment' | 'block-parameter';
  /** The span of the `$name` that declares it. */
  readonly start: number;
  readonly end: number;
  /** For parameters, the declaration itself (type and default). */
  readonly parameter?: ParameterNode;
  /** For assignments, the assigned expression. */
  readonly value?: Node;
}

interface Scope {
  readonly start: number;
  readonly end: number;
  readonly declarations: Map<string, Declaration>;
}

/** The variable, function, type or `epp()` path whose name covers `offset`, if any. */
export function referenceAt(ast: TemplateNode, offset: number): Reference | undefined {
  let found: Reference | undefined;
  const within = (start: number, end: number) => offset >= start && offset <= end;
  const visit = (node: WalkNode): void => {
    if (!within(node.start, node.end)) return;
    switch (node.type) {
      case 'Variable':
        found = { kind: 'variable', name: node.name, start: node.start, end: node.end };
        return;
      case 'TypeRef':
        found = { kind: 'type', name: node.name, start: node.start, end: node.end };
        return;
      case 'Parameter': {
        const at = parameterNameSpan(node);
        if (within(at.start, at.end)) found = { kind: 'variable', name: node.name, ...at };
        break;
      }
      case 'Call':
      case 'MethodCall': {
        const at = callNameSpan(node);
        if (within(at.start, at.end)) found = { kind: 'function', name: node.name, ...at };
        const path =
          node.name === 'epp' ? eppPath(node.type === 'Call' ? node.args[0] : node.receiver) : undefined;
        if (path && within(path.start, path.end)) found = path;
        break;
      }
    }
    for (const child of children(node)) visit(child);
  };
  for (const p of ast.params ?? []) visit(p);
  for (const n of ast.body) visit(n);
  return found;
}

/** Where the variable `name` read at `offset` is declared; undefined for names from outside. */
export function declarationAt(ast: TemplateNode, name: string, offset: number): Declaration | undefined {
  for (const scope of scopesAt(ast, offset)) {
    const d = scope.declarations.get(name);
    if (d) return d;
  }
  return undefined;
}

/** Every name visible at `offset`, innermost scope first (a name shadowed further out is left out). */
export function visibleDeclarations(ast: TemplateNode, offset: number): Declaration[] {
  const seen = new Map<string, Declaration>();
  for (const scope of scopesAt(ast, offset)) {
    for (const [name, d] of scope.declarations) if (!seen.has(name)) seen.set(name, d);
  }
  return [...seen.values()];
}

/** The scopes that contain `offset`, innermost first. */
function scopesAt(ast: TemplateNode, offset: number): Scope[] {
  const scopes: Scope[] = [scopeOf(ast.start, ast.end, ast.params ?? [], ast.body, 'parameter')];
  const visit = (node: WalkNode): void => {
    if (offset < node.start || offset > node.end) return;
    if (node.type === 'Lambda') scopes.push(lambdaScope(node));
    for (const child of children(node)) visit(child);
  };
  for (const n of ast.body) visit(n);
  return scopes.reverse();
}

function lambdaScope(lambda: LambdaNode): Scope {
  return scopeOf(lambda.start, lambda.end, lambda.params, lambda.body, 'block-parameter');
}

function scopeOf(
  start: number,
  end: number,
  params: readonly ParameterNode[],
  body: readonly Node[],
  kind: 'parameter' | 'block-parameter',
): Scope {
  const declarations = new Map<string, Declaration>();
  for (const p of params) {
    // The `$name` of a lambda parameter: its span is the parameter's own when it has no type.
    declarations.set(p.name, { name: p.name, kind, start: p.start, end: p.end, parameter: p });
  }
  const walk = (node: WalkNode): void => {
    if (node.type === 'Lambda') return;
    if (node.type === 'Assignment') {
      const targets: VariableNode[] = assignedVariables(node.target);
      for (const t of targets) {
        if (!declarations.has(t.name)) {
          declarations.set(t.name, {
            name: t.name,
            kind: 'assignment',
            start: t.start,
            end: t.end,
            value: node.value,
          });
        }
      }
    }
    for (const child of children(node)) walk(child);
  };
  for (const n of body) walk(n);
  return { start, end, declarations };
}

/** The span of a call's function name: a call starts with it; a method call has it after the dot. */
function callNameSpan(node: Node & { type: 'Call' | 'MethodCall' }): { start: number; end: number } {
  const start = node.type === 'Call' ? node.start : node.nameStart;
  return { start, end: start + node.name.length };
}

/** `epp('partials/x.epp')`: the literal path and the span of its string. */
function eppPath(node: Node | undefined): Reference | undefined {
  if (!node) return undefined;
  let name: string | undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') name = node.value;
  if (node.type === 'Interpolated' && node.parts.every((p) => typeof p === 'string'))
    name = node.parts.join('');
  return name === undefined ? undefined : { kind: 'template-path', name, start: node.start, end: node.end };
}
