/**
 * The compiler's pre-pass: what the generator asks about subtrees (may they call a function, set match
 * captures, call next()), and the names each scope assigns, found in one walk of the template.
 */
import type { LambdaNode, Node, TemplateNode } from '../ast.js';
import { pushAssigned } from '../ast-walk.js';
import { forEachChild, visitAll, type WalkNode } from '../node-children.js';

const NO_NAMES: readonly string[] = [];

/** The subtree may call a function (which may end the template with return()). */
export const CALLS = 1;
/** The subtree may set match captures (`=~`, `in` with a regexp, case and selector options). */
export const CAPTURES = 2;
/** The subtree calls next() outside nested lambdas. */
const NEXT = 4;
/** On a lambda: its body calls next() outside nested lambdas (it must catch it). */
export const BODY_NEXT = 8;
/** A lambda whose body may set match captures (gone after each call, as a Puppet closure's). */
export const BODY_CAPTURES = 16;

/**
 * What the generator asks about subtrees, found in one walk before it starts (walks per question were
 * most of a cold compile): the flags of `if`, `case`, `<%= %>` and lambda nodes, and the names each scope
 * (the template, or a lambda body, not descending into nested lambdas) assigns, in source order.
 */
export class Facts {
  /**
   * The asked-about flag of the nodes that have it (captures of an if or case, calls of a `<%= %>`,
   * BODY_NEXT of a lambda): most nodes have none and are not stored (no identity hash to make for them).
   */
  private readonly flags = new Map<WalkNode, number>();
  /** Names assigned by each scope that assigns any. */
  private readonly names = new Map<TemplateNode | LambdaNode, string[]>();
  /** The assigned names of the scope being walked; undefined in parameters (their own lists have none). */
  private scopeNames: string[] | undefined;

  constructor(ast: TemplateNode) {
    if (ast.params) visitAll(ast.params, this.visit);
    this.scopeNames = [];
    this.names.set(ast, this.scopeNames);
    visitAll(ast.body, this.visit);
  }

  /** Whether `node` (an if, case, `<%= %>` or lambda: the constructor walked them all) has `flag`. */
  has(node: WalkNode, flag: number): boolean {
    return ((this.flags.get(node) ?? 0) & flag) !== 0;
  }

  assigned(owner: TemplateNode | LambdaNode): readonly string[] {
    return this.names.get(owner) ?? NO_NAMES;
  }

  /** The facts of a subtree (an arrow: the visitor of `forEachChild` itself, one call per node less). */
  private readonly visit = (node: WalkNode): number => {
    // The commonest kinds first (a switch on strings tests its cases in order in unoptimised code).
    switch (node.type) {
      case 'Text':
      case 'Variable':
      case 'Literal':
      case 'TypeRef':
      case 'Default':
      case 'BareWord':
      case 'Regex':
        return 0;
      case 'Render':
        return this.keep(node, forEachChild(node, this.visit), CALLS);
      case 'Call':
      case 'MethodCall':
        return (node.name === 'next' ? CALLS | NEXT : CALLS) | forEachChild(node, this.visit);
      case 'If':
        return this.keep(node, forEachChild(node, this.visit), CAPTURES);
      case 'Lambda':
        return this.lambda(node);
      case 'Binary': {
        const op = node.operator;
        return (op === '=~' || op === '!~' || op === 'in' ? CAPTURES : 0) | forEachChild(node, this.visit);
      }
      case 'Assignment':
        if (this.scopeNames) pushAssigned(node, this.scopeNames);
        return forEachChild(node, this.visit);
      case 'New':
        return CALLS | forEachChild(node, this.visit);
      case 'Case': {
        // An option other than a literal may be a regexp (or a type, an array...) and set captures when
        // it matches; literal options compare with `==`.
        const own = node.options.every((o) => o.values.every(isLiteralOption)) ? 0 : CAPTURES;
        return this.keep(node, own | forEachChild(node, this.visit), CAPTURES);
      }
      case 'Selector': {
        const own = node.entries.every((e) => isLiteralOption(e.key)) ? 0 : CAPTURES;
        return this.keep(node, own | forEachChild(node, this.visit), CAPTURES);
      }
      default:
        return forEachChild(node, this.visit);
    }
  };

  /** Stores the flag (`asked`) the generator asks `node` about, when it has it. */
  private keep(node: WalkNode, flags: number, asked: number): number {
    if (flags & asked) this.flags.set(node, asked);
    return flags;
  }

  /** A lambda is a scope of its own: its assignments and next() calls stay inside. */
  private lambda(node: LambdaNode): number {
    const outer = this.scopeNames;
    this.scopeNames = undefined;
    const params = visitAll(node.params, this.visit);
    const names: string[] = [];
    this.scopeNames = names;
    const body = visitAll(node.body, this.visit);
    this.scopeNames = outer;
    if (names.length > 0) this.names.set(node, names);
    const flags = (body & NEXT ? BODY_NEXT : 0) | (body & CAPTURES ? BODY_CAPTURES : 0);
    if (flags) this.flags.set(node, flags);
    return (params | body) & (CALLS | CAPTURES);
  }
}

function isLiteralOption(node: Node): boolean {
  return node.type === 'Literal' || node.type === 'Default';
}
