/**
 * The interpreter's statements and control flow: text and `<%= %>` output, blocks whose value is their
 * last statement's, `if`, `case` (as statement and as value) and selectors, with the match captures each
 * keeps or drops as the compiled code does.
 */
import type { CaseNode, IfNode, Node, SelectorNode } from '../ast.js';
import { renderText, truthy } from '../runtime/runtime.js';
import type { Value } from '../runtime/values.js';
import { EvaluationState } from './evaluation-state.js';
import type { Scope } from './scope.js';

/** Statements and control flow of a render (see `EvaluationState` for the layers). */
export abstract class StatementEvaluation extends EvaluationState {
  /** An expression's value (expressions.ts). */
  protected abstract expr(node: Node, scope: Scope): Value;

  protected statements(nodes: readonly Node[], scope: Scope): void {
    for (let i = 0; i < nodes.length; i++) this.statement(nodes[i]!, scope);
  }

  /** Statements whose value is the last one's (undef when it is text or output). */
  protected valueBlock(nodes: readonly Node[], scope: Scope): Value {
    const n = nodes.length;
    const last = nodes[n - 1];
    if (!last || last.type === 'Text' || last.type === 'Render') {
      this.statements(nodes, scope);
      return undefined;
    }
    for (let i = 0; i < n - 1; i++) this.statement(nodes[i]!, scope);
    return this.expr(last, scope);
  }

  protected statement(node: Node, scope: Scope): void {
    switch (node.type) {
      case 'Text':
        this.out += node.value;
        return;
      case 'Render': {
        const text = renderText(this.expr(node.expr, scope));
        this.out += text;
        return;
      }
      case 'If':
        this.ifStatement(node, scope);
        return;
      case 'Case':
        this.caseBody(node, scope, false);
        return;
      default:
        this.expr(node, scope);
    }
  }

  /** Match captures set inside an `if` (its test included) are gone after it. */
  private ifStatement(node: IfNode, scope: Scope): void {
    const rt = this.rt;
    const saved = rt.m;
    try {
      if (this.test(node, scope)) this.statements(node.then, scope);
      else if (node.otherwise) this.statements(node.otherwise, scope);
    } finally {
      rt.m = saved;
    }
  }

  protected test(node: IfNode, scope: Scope): boolean {
    const result = truthy(this.expr(node.test, scope));
    return node.negate ? !result : result;
  }

  /**
   * `case` as statement and as value (`asValue`: the chosen body's value). Captures set by the test or
   * while choosing an option are gone after it, as in Puppet.
   */
  protected caseBody(node: CaseNode, scope: Scope, asValue: boolean): Value {
    const rt = this.rt;
    const saved = rt.m;
    const p = this.t.pos(node);
    try {
      const value = this.expr(node.test, scope);
      // The body of the last option with `default` runs when no other value matches.
      let fallback: readonly Node[] | undefined;
      // Indexed loops here and below: a first render runs in V8's interpreter, where `for of` allocates
      // an iterator and a result object per step.
      const options = node.options;
      for (let i = 0; i < options.length; i++) {
        const option = options[i]!;
        for (let j = 0; j < option.values.length; j++) {
          const candidate = option.values[j]!;
          if (candidate.type === 'Default') fallback = option.body;
          else if (this.optionMatches(value, candidate, p, scope))
            return this.body(option.body, scope, asValue);
        }
      }
      return fallback ? this.body(fallback, scope, asValue) : undefined;
    } finally {
      rt.m = saved;
    }
  }

  private body(nodes: readonly Node[], scope: Scope, asValue: boolean): Value {
    if (asValue) return this.valueBlock(nodes, scope);
    this.statements(nodes, scope);
    return undefined;
  }

  /** Whether a case or selector option matches: `*` splats, a literal compares with `==`. */
  private optionMatches(value: Value, option: Node, p: number, scope: Scope): boolean {
    const rt = this.rt;
    if (option.type === 'Unary' && option.operator === '*') {
      return rt.matchesAny(value, this.expr(option.operand, scope), p);
    }
    if (option.type === 'Literal') return rt.equals(value, this.expr(option, scope));
    return rt.matchesOption(value, this.expr(option, scope), p);
  }

  /** A selector; as `case`, captures set by its test or its options are gone after it. */
  protected selector(node: SelectorNode, scope: Scope): Value {
    const rt = this.rt;
    const saved = rt.m;
    try {
      const value = this.expr(node.test, scope);
      const p = this.t.pos(node);
      let fallback: Node | undefined;
      for (let i = 0; i < node.entries.length; i++) {
        const entry = node.entries[i]!;
        if (entry.key.type === 'Default') {
          fallback = entry.value;
          continue;
        }
        if (this.optionMatches(value, entry.key, p, scope)) return this.expr(entry.value, scope);
      }
      return fallback ? this.expr(fallback, scope) : rt.noSelectorMatch(value, p);
    } finally {
      rt.m = saved;
    }
  }
}
