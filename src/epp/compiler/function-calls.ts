/**
 * The generator's function calls: `rt.call` with its call site (and a view of the scope for the functions
 * that read variables by name), and the fast paths: each/map/filter/reduce with a plain lambda as runtime
 * loops, length/size/empty/join answered in place, and a map joined in one call.
 */
import type { LambdaNode, Node } from '../ast.js';
import { callSpan } from '../ast-walk.js';
import {
  COLLECTION_FAST_PATHS,
  hasSplat,
  ITERATION_FAST_PATHS,
  requiredCount,
  SCOPE_FUNCTIONS,
} from '../calls.js';
import { arityArgument, isString, str } from './helpers.js';
import { LambdaGenerator } from './lambdas.js';

export abstract class CallGenerator extends LambdaGenerator {
  protected override call(
    name: string,
    argNodes: readonly Node[],
    lambda: LambdaNode | undefined,
    node: Node,
  ): string {
    const fast =
      this.iterationCall(name, argNodes, lambda, node) ?? this.collectionCall(name, argNodes, lambda, node);
    if (fast) return fast;
    const args = this.elements(argNodes);
    const view = SCOPE_FUNCTIONS.has(name) ? this.scopeView() : 'undefined';
    const block = this.lambda(lambda);
    return `rt.call(${str(name)}, [${args}], ${block}, ${this.pos(callSpan(node))}, ${view}, ${this.site()})`;
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
      return `rt.reduce([${args}], ${fn.code}, ${n}, ${this.pos(callSpan(node))}, ${this.site()}${arityArgument(fn)})`;
    }
    const receiver = this.expr(argNodes[0]!);
    const fn = this.plainLambda(lambda);
    return `rt.${name}(${receiver}, ${fn.code}, ${n}, ${this.pos(callSpan(node))}, ${this.site()}${arityArgument(fn)})`;
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
      return `rt.${name}(${this.expr(argNodes[0]!)}, ${this.pos(callSpan(node))}, ${this.site()})`;
    if (name === 'join' && (n === 1 || n === 2)) {
      const fused = this.mapJoinCall(argNodes[0]!, argNodes[1], node);
      if (fused) return fused;
      // `U` (unset) stands for an absent delimiter.
      const delimiter = n === 2 ? this.expr(argNodes[1]!) : 'U';
      return `rt.join(${this.expr(argNodes[0]!)}, ${delimiter}, ${this.pos(callSpan(node))}, ${this.site()})`;
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
    const map = `${this.pos(callSpan(mapNode))}, ${this.site()}`;
    const join = `${this.pos(callSpan(node))}, ${this.site()}`;
    return `rt.mapJoin(${receiver}, ${fn.code}, ${lambda.params.length}, ${delimiter}, ${map}, ${join}${arityArgument(fn)})`;
  }
}
