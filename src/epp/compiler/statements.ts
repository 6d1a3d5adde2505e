/**
 * The generator's statements and control flow: a template's or a block's statements (output appended in few
 * statements), `if`, `case` (as statement and as value) and selectors, saving and restoring the match
 * captures they may set.
 */
import type { CaseNode, IfNode, Node, SelectorNode } from '../ast.js';
import { ExpressionGenerator } from './expressions.js';
import { CALLS, CAPTURES } from './facts.js';
import { concat, isString, str } from './helpers.js';

export abstract class StatementGenerator extends ExpressionGenerator {
  /**
   * Statements. Output appends in as few statements as it can (less code to compile):
   * `out += "a" + S($x) + "b" + S($y);`. An expression that makes a call only starts a statement: output
   * made before a call that ends the template with return() must stay.
   */
  protected statements(nodes: readonly Node[]): string {
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
  protected override valueBlock(nodes: readonly Node[]): string {
    const last = nodes[nodes.length - 1];
    if (!last || last.type === 'Text' || last.type === 'Render') return this.statements(nodes);
    return `${this.statements(nodes.slice(0, -1))}\nreturn ${this.expr(last)};`;
  }

  protected override statement(node: Node): string {
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
  protected override caseBody(node: CaseNode, asValue: boolean): string {
    const v = this.temp();
    const m = this.temp();
    const p = this.pos(node);
    const body = (nodes: readonly Node[]) => (asValue ? this.valueBlock(nodes) : this.statements(nodes));
    // Captures set by the test or while choosing an option are gone after the case, as in Puppet: saved
    // and restored when any may be.
    const captures = this.facts.has(node, CAPTURES);
    let code = captures
      ? `const ${m} = rt.m; try { const ${v} = ${this.expr(node.test)};\n`
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

  /** A selector; as `case`, captures set by its test or its options are gone after it. */
  protected override selector(node: SelectorNode): string {
    const v = this.temp();
    const p = this.pos(node);
    const captures = this.facts.has(node, CAPTURES);
    const m = captures ? this.temp() : '';
    let code = `(() => { ${captures ? `const ${m} = rt.m; try { ` : ''}const ${v} = ${this.expr(node.test)};\n`;
    let fallback: Node | undefined;
    for (const entry of node.entries) {
      if (entry.key.type === 'Default') {
        fallback = entry.value;
        continue;
      }
      code += `if (${this.caseTest(v, entry.key, p)}) return ${this.expr(entry.value)};\n`;
    }
    code += fallback ? `return ${this.expr(fallback)};` : `return rt.noSelectorMatch(${v}, ${p});`;
    if (captures) code += ` } finally { rt.m = ${m}; }`;
    return `${code} })()`;
  }
}
