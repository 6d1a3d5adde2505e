/**
 * The interpreter's calls and lambdas: a call takes the runtime's fast path when the compiled code would
 * (each/map/filter/reduce with a plain lambda, length/size/empty/join), else the runtime's general call;
 * a lambda is a closure over its scope whose call checks the arity, binds the parameters and runs the body.
 */
import type { LambdaNode, Node, ParameterNode } from '../ast.js';
import { callSpan, parameterNameSpan } from '../ast-walk.js';
import { COLLECTION_FAST_PATHS, hasSplat, ITERATION_FAST_PATHS, isSplat, SCOPE_FUNCTIONS } from '../calls.js';
import type { Lambda } from '../functions/registry.js';
import type { LambdaSignature } from '../runtime/block-signature.js';
import type { Value } from '../runtime/values.js';
import { ExpressionEvaluation } from './expressions.js';
import type { LambdaFacts } from './interpreter.js';
import { defaultScope, Scope } from './scope.js';

/** Calls and lambdas of a render (see `EvaluationState` for the layers). */
export abstract class CallEvaluation extends ExpressionEvaluation {
  protected call(
    name: string,
    receiver: Node | undefined,
    argNodes: readonly Node[],
    lambdaNode: LambdaNode | undefined,
    node: Node,
    scope: Scope,
  ): Value {
    const fast = this.fastCall(name, receiver, argNodes, lambdaNode, node, scope);
    if (fast !== NO_FAST_PATH) return fast;
    const args = this.elements(argNodes, scope, receiver);
    const view = SCOPE_FUNCTIONS.has(name) ? () => this.view(scope) : undefined;
    return this.rt.call(name, args, this.lambda(lambdaNode, scope), this.t.pos(callSpan(node)), view);
  }

  /**
   * The runtime's fast paths the compiled code takes (see the compiler's `iterationCall` and
   * `collectionCall`), under the same conditions: each/map/filter/reduce with a lambda of required
   * parameters only, length/size/empty/join without one; no splats. NO_FAST_PATH for any other call.
   */
  private fastCall(
    name: string,
    receiver: Node | undefined,
    argNodes: readonly Node[],
    lambdaNode: LambdaNode | undefined,
    node: Node,
    scope: Scope,
  ): Value | typeof NO_FAST_PATH {
    const fast = lambdaNode
      ? ITERATION_FAST_PATHS.has(name)
      : COLLECTION_FAST_PATHS.has(name) || name === 'join';
    if (!fast) return NO_FAST_PATH;
    const count = argNodes.length + (receiver ? 1 : 0);
    if (hasSplat(argNodes) || (receiver && isSplat(receiver))) return NO_FAST_PATH;
    const rt = this.rt;
    if (lambdaNode) {
      const facts = this.t.lambda(lambdaNode);
      const n = lambdaNode.params.length;
      if (facts.required !== n || count < 1 || count > (name === 'reduce' ? 2 : 1)) return NO_FAST_PATH;
      const args = this.elements(argNodes, scope, receiver);
      const fn = (...given: Value[]) => this.invoke(lambdaNode, facts, scope, given);
      const p = this.t.pos(callSpan(node));
      const site = this.t.site(node);
      switch (name) {
        case 'each':
          return rt.each(args[0], fn, n, p, site);
        case 'map':
          return rt.map(args[0], fn, n, p, site);
        case 'filter':
          return rt.filter(args[0], fn, n, p, site);
        default:
          return rt.reduce(args, fn, n, p, site);
      }
    }
    if (name === 'join') {
      if (count !== 1 && count !== 2) return NO_FAST_PATH;
      const args = this.elements(argNodes, scope, receiver);
      return rt.join(
        args[0],
        count === 2 ? args[1] : rt.UNSET,
        this.t.pos(callSpan(node)),
        this.t.site(node),
      );
    }
    if (count !== 1) return NO_FAST_PATH;
    const value = this.expr(receiver ?? argNodes[0]!, scope);
    const p = this.t.pos(callSpan(node));
    const site = this.t.site(node);
    return name === 'length'
      ? rt.length(value, p, site)
      : name === 'size'
        ? rt.size(value, p, site)
        : rt.empty(value, p, site);
  }

  /** The visible variables for functions that look them up by name (innermost set name wins). */
  private view(scope: Scope): object {
    const entries: unknown[] = [];
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      // The parameters a default may not read yet are not visible, as the compiled tier's unset locals.
      if (s.pending) continue;
      for (let i = 0; i < s.names.length; i++) entries.push(s.names[i], s.values[i]);
    }
    return this.rt.view(this.S0, entries);
  }

  protected lambda(node: LambdaNode | undefined, scope: Scope): Lambda | undefined {
    if (!node) return undefined;
    const facts = this.t.lambda(node);
    const fn = (...args: Value[]) => this.invoke(node, facts, scope, args);
    return this.rt.lambda(fn, node.params.length, facts.required, facts.rest);
  }

  /** A lambda's call: a missing argument, parameters (defaults, types), then its body, which next() may end. */
  private invoke(node: LambdaNode, facts: LambdaFacts, outer: Scope, args: Value[]): Value {
    const rt = this.rt;
    const params = node.params;
    const n = params.length;
    if (args.length < facts.required) {
      const missing = params[args.length]!;
      rt.missingBlockArgument(missing.name, this.t.pos(parameterNameSpan(missing)));
    }
    if (facts.reserved) rt.reservedParameter(facts.reserved.name, this.t.pos(facts.reserved), true);
    if (facts.plain) {
      // Distinct names, no defaults or types: `args` (made for this call) are the values, but those beyond
      // the parameters, which Puppet's closures drop; the names are shared when the body assigns no
      // variable (nothing is ever added to them).
      const names = facts.assigns ? facts.names.slice() : (facts.names as string[]);
      const values = args.length > n ? args.slice(0, n) : args;
      return this.lambdaBody(node, new Scope(outer, facts.declared, names, values));
    }
    const scope = new Scope(outer, facts.declared);
    for (let i = 0; i < n; i++) {
      const param = params[i]!;
      if (i < facts.firstOptional && !param.valueType) {
        scope.bind(param.name, args[i]);
        continue;
      }
      if (param.captureRest) {
        // `*$rest`: its default stands for no arguments, its type for each one (see Runtime.restDefault).
        let rest: Value[] = args.slice(i);
        if (rest.length === 0 && param.defaultValue) {
          rest = rt.restDefault(this.expr(param.defaultValue, defaultScope(scope, params, i, false)));
        }
        if (param.valueType) {
          const type = this.expr(param.valueType, scope);
          rt.checkRestParameter(type, rest, param.name, this.t.pos(param), this.signature(params, scope));
        }
        scope.bind(param.name, rest);
        continue;
      }
      let value: Value | typeof rt.MISSING =
        i < facts.firstOptional || args.length > i ? args[i] : rt.MISSING;
      if (param.defaultValue) {
        if (value === rt.MISSING || value === undefined) {
          value = this.expr(param.defaultValue, defaultScope(scope, params, i, false));
        }
      } else if (value === rt.MISSING) {
        value = rt.missingParameter(param.name, this.t.pos(param));
      }
      if (param.valueType) {
        const type = this.expr(param.valueType, scope);
        rt.checkParameter(type, value, param.name, this.t.pos(param), this.signature(params, scope));
      }
      scope.bind(param.name, value);
    }
    return this.lambdaBody(node, scope);
  }

  /** A lambda's signature, its types evaluated only if a mismatch needs it printed (see block-signature.ts). */
  private signature(params: readonly ParameterNode[], scope: Scope): LambdaSignature {
    return {
      parameters: () =>
        params.map((param) => ({
          type: param.valueType && this.expr(param.valueType, scope),
          name: param.name,
          indicator: param.captureRest ? '*' : param.defaultValue ? '?' : '',
        })),
    };
  }

  /** A lambda's body, which next() may end; match captures it sets are gone after the call, as a Puppet closure's are. */
  private lambdaBody(node: LambdaNode, scope: Scope): Value {
    const saved = this.rt.m;
    try {
      return this.valueBlock(node.body, scope);
    } catch (e) {
      return this.rt.nextValue(e);
    } finally {
      this.rt.m = saved;
    }
  }
}

/** What `fastCall` answers for a call without a fast path. */
const NO_FAST_PATH = Symbol('no fast path');
