/**
 * Parameter lists: the template's `<%- | String $x = 'a', *$rest | -%>` and a lambda's `|$k, $v| {...}`.
 *
 * Both are `[Type] [*]$name [= default], ...` up to `|`, read by one rule, with Puppet 7's checks: a
 * parameter that captures the rest comes last; the template's list must not name a parameter twice (a
 * lambda's may) nor capture the rest (parser.ts); a lambda's required parameters come before its optional
 * ones (a template's may mix them).
 */
import type { LambdaNode, Node, ParameterNode } from '../ast.js';
import { forEachChild, type WalkNode } from '../node-children.js';
import { StatementParser } from './statements.js';

/**
 * What a template or lambda parameter may be called (Puppet's naming rule, `/^[a-z_]\w*$/`), tested by
 * char codes: a regular expression is compiled on its first use, again to machine code on its second, and
 * both were in a fresh process's first parse.
 */
function isParameterName(name: string): boolean {
  const first = name.charCodeAt(0);
  if (!((first >= 97 && first <= 122) || first === 95)) return false;
  for (let i = 1; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95)) return false;
  }
  return true;
}

export abstract class ParameterListParser extends StatementParser {
  protected duplicateCheck(params: readonly ParameterNode[]): void {
    // Parameter lists are short: compare with the earlier names rather than build a Set each time.
    if (params.length > 16) {
      this.duplicateCheckLarge(params);
      return;
    }
    for (let i = 1; i < params.length; i++) {
      const p = params[i]!;
      for (let j = 0; j < i; j++) {
        if (params[j]!.name === p.name)
          throw this.error(
            `The parameter '${p.name}' is declared more than once in the parameter list`,
            p.start,
            p.end,
          );
      }
    }
  }

  protected duplicateCheckLarge(params: readonly ParameterNode[]): void {
    const seen = new Set<string>();
    for (const p of params) {
      if (seen.has(p.name))
        throw this.error(
          `The parameter '${p.name}' is declared more than once in the parameter list`,
          p.start,
          p.end,
        );
      seen.add(p.name);
    }
  }

  /** Parses `[Type] [*]$name [= default], ...` up to and including the closing `|`. */
  protected parameterList(): ParameterNode[] {
    const params: ParameterNode[] = [];
    while (!this.isPunct('|')) {
      const start = this.tokens[this.i]!.start;
      let valueType: Node | undefined;
      if (this.tokens[this.i]!.kind === 'TYPE') valueType = this.postfix(this.primary());
      let captureRest = false;
      if (this.isPunct('*')) {
        this.next();
        captureRest = true;
      }
      const v = this.tokens[this.i]!;
      if (v.kind !== 'VARIABLE') throw this.unexpected(v);
      // Puppet's rule: no `::` scopes, no match numbers, no capitals (they could not be bound as locals).
      if (!isParameterName(v.value))
        throw this.error(
          `Illegal parameter name. The given name '${v.value}' does not conform to the naming rule /^[a-z_]\\w*$/`,
          v.start,
          v.end,
        );
      this.next();
      let defaultValue: Node | undefined;
      if (this.isPunct('=')) {
        this.next();
        defaultValue = this.expression();
        const assignment = assignmentIn(defaultValue);
        // Puppet's validator: a default may not assign (a lambda inside it may, to its own names).
        if (assignment) {
          // At its `=`, where Puppet places an assignment.
          const at = assignment.type === 'Assignment' ? assignment.operatorStart : assignment.start;
          throw this.error('Assignment not allowed here', at, assignment.end);
        }
      }
      params.push({
        type: 'Parameter',
        name: v.value,
        nameStart: v.start,
        valueType,
        defaultValue,
        captureRest,
        start,
        end: this.lastEnd(),
      });
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct('|')) throw this.unexpected(this.tokens[this.i]!);
    }
    this.next();
    for (let i = 0; i < params.length - 1; i++) {
      const p = params[i]!;
      if (p.captureRest)
        // At its `$`, after the `*`, as Puppet places a parameter.
        throw this.error(`Parameter $${p.name} is not last, and has 'captures rest'`, p.nameStart, p.end);
    }
    return params;
  }

  /** Puppet's rule for a lambda (a template's parameters may mix them): required ones come first. */
  private requiredFirstCheck(params: readonly ParameterNode[]): void {
    let optional = false;
    for (const p of params) {
      if (p.defaultValue || p.captureRest) optional = true;
      else if (optional)
        throw this.error(
          `Parameter $${p.name} is required but appears after optional parameters`,
          p.start,
          p.end,
        );
    }
  }

  protected override optionalLambda(): LambdaNode | undefined {
    if (!this.isPunct('|')) return undefined;
    const start = this.next().start;
    // A lambda may declare a name twice (Puppet 7 accepts it; the last parameter's value wins).
    const params = this.parameterList();
    this.requiredFirstCheck(params);
    this.expectPunct('{');
    const body = this.block();
    return { type: 'Lambda', params, body, start, end: this.lastEnd() };
  }
}

/** The first assignment in an expression, not looking into lambdas (whose bodies may assign). */
function assignmentIn(node: WalkNode): WalkNode | undefined {
  let found: WalkNode | undefined;
  const visit = (child: WalkNode): number => {
    if (found || child.type === 'Lambda') return 0;
    if (child.type === 'Assignment') found = child;
    else forEachChild(child, visit);
    return 0;
  };
  visit(node);
  return found;
}
