/**
 * The iteration functions: each, map, filter, reduce, reverse_each, step, any, all, index, slice,
 * partition, with, then, lest, and the jumps break, next and return (tree_each: tree-each.ts).
 *
 * Puppet picks a function's variant from the number of parameters the lambda declares: on a hash, two
 * parameters get the key and the value and one gets a `[key, value]` pair; on anything else two get the
 * index and the element. `break()` ends an iteration; what the function returns then is Puppet's answer for
 * each (each returns its receiver, map what it collected so far, reduce the memo so far). A few functions
 * (filter on a hash, any, all, index) do not stop on `break()` in Puppet: it reaches the enclosing iteration,
 * or is an error at template level. Those let the signal through here too.
 *
 * The loops of each, map, filter and reduce are loops.ts (the runtime's direct calls use them too); what
 * Puppet iterates is sequences.ts; argument and lambda checks shared with other modules are arguments.ts.
 */
import { EppEvalError, PlacedEvalError } from '../errors.js';
import { characterCount } from '../runtime/characters.js';
import { rubyEql } from '../runtime/compare.js';
import { describeMismatch } from '../runtime/types.js';
import {
  isInteger,
  isTruthy,
  PFloat,
  type PHash,
  type PInteger,
  PRegexp,
  type Value,
} from '../runtime/values.js';
import { argumentMismatch, puppetType, untilBreak } from './arguments.js';
import { blockArity } from './block-arity.js';
import {
  eachLoop,
  filterHashLoop,
  filterLoop,
  type LoopArity,
  type Loopable,
  mapLoop,
  reduceLoop,
} from './loops.js';
import { notIterable, refusedCall, sliceSizeRefused } from './not-iterable.js';
import {
  BreakSignal,
  defineFunction,
  type FunctionDef,
  type Lambda,
  NextSignal,
  ReturnSignal,
} from './registry.js';
import { hashPairs, iteratorOver, sequenceOf, visit } from './sequences.js';
import { treeEach } from './tree-each.js';

// ---------------------------------------------------------------------------------------------------------
// The functions

function first(args: Value[]): Value {
  return args[0];
}

/**
 * An iterating function whose dispatches Puppet lists when its block is left out and its receiver is
 * refused too (`each(true)`), as when the block is given; with a receiver it takes, `expects a block`.
 */
export function withDispatches(def: FunctionDef): FunctionDef {
  return {
    ...def,
    blockLeftOut: (args) => {
      // sequenceOf throws Puppet's listing for what cannot be iterated at all.
      sequenceOf(def.name, args[0], args.length);
      return refusedCall(def.name, args[0], args.length);
    },
  };
}

function requireBlock(block: Lambda | undefined): Lambda {
  // The registry already refuses a missing block for functions declared 'required'.
  if (!block) throw new EppEvalError('EPP_ARGUMENTS', 'expects a block');
  return block;
}

/**
 * The receiver of each, map, filter and reduce as their loops take it (loops.ts): an Array or a Hash as it
 * is, any other Iterable as its elements.
 */
function loopable(name: string, receiver: Value, block: Lambda | undefined, argCount = 1): Loopable {
  return Array.isArray(receiver) || receiver instanceof Map
    ? receiver
    : sequenceOf(name, receiver, argCount, block).forward();
}

/** The arity a 1- or 2-parameter lambda is called with (Puppet tries the 2-parameter variant first). */
function loopArity(name: string, block: Lambda): LoopArity {
  return blockArity(name, block, 2, 1) as LoopArity;
}

const each = withDispatches(
  defineFunction(
    'each',
    1,
    1,
    (_ctx, args, block) => {
      const receiver = first(args);
      const lambda = requireBlock(block);
      // The receiver is checked before the lambda, as Puppet's dispatch checks its parameters in order.
      const items = loopable('each', receiver, lambda);
      eachLoop(items, lambda, loopArity('each', lambda));
      return receiver;
    },
    'required',
  ),
);

const map = withDispatches(
  defineFunction(
    'map',
    1,
    1,
    (_ctx, args, block) => {
      const lambda = requireBlock(block);
      const items = loopable('map', first(args), lambda);
      return mapLoop(items, lambda, loopArity('map', lambda));
    },
    'required',
  ),
);

const filter = withDispatches(
  defineFunction(
    'filter',
    1,
    1,
    (_ctx, args, block) => {
      const lambda = requireBlock(block);
      const receiver = loopable('filter', first(args), lambda);
      const arity = loopArity('filter', lambda);
      return receiver instanceof Map
        ? filterHashLoop(receiver, lambda, arity)
        : filterLoop(receiver, lambda, arity);
    },
    'required',
  ),
);

const reduce = withDispatches(
  defineFunction(
    'reduce',
    1,
    2,
    (_ctx, args, block) => {
      const lambda = requireBlock(block);
      const receiver = first(args);
      // A hash reduces over its [key, value] pairs.
      const items =
        receiver instanceof Map ? hashPairs(receiver) : loopable('reduce', receiver, lambda, args.length);
      blockArity('reduce', lambda, 2);
      return reduceLoop(items as Iterable<Value>, lambda, args.length === 2, args[1]);
    },
    'required',
  ),
);

const reverseEach = defineFunction(
  'reverse_each',
  1,
  1,
  (_ctx, args, block) => {
    const seq = sequenceOf('reverse_each', first(args), 1, block);
    // Without a block, Puppet's Iterator: lazy, no Array (it prints as `Iterator[Integer]-Value`).
    if (!block) return iteratorOver(first(args), () => seq.backward());
    blockArity('reverse_each', block, 1);
    untilBreak(() => {
      for (const item of seq.backward()) block(item);
    });
    return undefined;
  },
  'optional',
);

function stepSize(v: Value): number {
  if (typeof v === 'number' && v >= 1) return v;
  // A step beyond 2^53 leaves only the first element of anything that can be iterated.
  if (typeof v === 'bigint' && v > 0n) return Number.POSITIVE_INFINITY;
  throw argumentMismatch('step', 'step', puppetType('Integer', 1), v);
}

function* everyNth(items: Iterable<Value>, n: number): Generator<Value> {
  let i = 0;
  for (const item of items) {
    if (i % n === 0) yield item;
    i++;
  }
}

const step = defineFunction(
  'step',
  2,
  2,
  (_ctx, args, block) => {
    const seq = sequenceOf('step', first(args), 2, block);
    const n = stepSize(args[1]);
    if (!block) return iteratorOver(first(args), () => everyNth(seq.forward(), n));
    const items = everyNth(seq.forward(), n);
    blockArity('step', block, 1);
    untilBreak(() => {
      for (const item of items) block(item);
    });
    return undefined;
  },
  'optional',
);

function anyOrAll(name: 'any' | 'all'): FunctionDef {
  const wanted = name === 'any';
  return withDispatches(
    defineFunction(
      name,
      1,
      1,
      (_ctx, args, block) => {
        // No break handling: Puppet lets break() out of any/all.
        let answer = !wanted;
        visit(name, first(args), requireBlock(block), (result) => {
          if (isTruthy(result) !== wanted) return undefined;
          answer = wanted;
          return false;
        });
        return answer;
      },
      'required',
    ),
  );
}

/** Ruby's `==` as `index(value)` uses it: numbers by value (`1 == 1.0`), everything else as {@link rubyEql}. */
function rubyEquals(a: Value, b: Value): boolean {
  if (a instanceof PFloat)
    return b instanceof PFloat ? a.value === b.value : isInteger(b) && floatEqualsInteger(a.value, b);
  if (b instanceof PFloat) return isInteger(a) && floatEqualsInteger(b.value, a);
  // Integers are canonical: equal Integers are ===.
  if (isInteger(a) && isInteger(b)) return a === b;
  return rubyEql(a, b);
}

/** Exact, as Ruby compares a Float with an Integer (2^53 + 1 is not 2.0**53). */
function floatEqualsInteger(f: number, i: PInteger): boolean {
  if (typeof i === 'number') return f === i;
  return Number.isInteger(f) && BigInt(f) === i;
}

/** Ruby's `String#index`: the character (not UTF-16 unit) offset of a substring or regexp match. */
function stringIndex(s: string, match: string | PRegexp): Value {
  const unitIndex = typeof match === 'string' ? s.indexOf(match) : s.search(match.regex);
  if (unitIndex < 0) return undefined;
  return characterCount(s.slice(0, unitIndex));
}

const index = defineFunction(
  'index',
  1,
  2,
  (_ctx, args, block) => {
    const receiver = first(args);
    if (block) {
      if (args.length > 1) {
        throw refusedCall('index', receiver, args.length, block);
      }
      let found: Value;
      if (receiver instanceof Map) {
        // Puppet's quirk: with one parameter the lambda gets the value (not a pair) on a hash.
        const arity = blockArity('index', block, 2, 1);
        for (const [k, v] of receiver) {
          if (isTruthy(arity === 2 ? block(k, v) : block(v))) return k;
        }
        return undefined;
      }
      visit('index', receiver, block, (result, _item, key) => {
        if (!isTruthy(result)) return undefined;
        found = key;
        return false;
      });
      return found;
    }
    if (args.length < 2) {
      throw refusedCall('index', receiver, args.length);
    }
    const match = args[1];
    if (typeof receiver === 'string' && (typeof match === 'string' || match instanceof PRegexp)) {
      return stringIndex(receiver, match);
    }
    if (receiver instanceof Map) {
      for (const [k, v] of receiver) if (rubyEquals(v, match)) return k;
      return undefined;
    }
    let i = 0;
    for (const item of sequenceOf('index', receiver, 2).forward()) {
      if (rubyEquals(item, match)) return i;
      i++;
    }
    return undefined;
  },
  'optional',
);

function sliceSize(receiver: Value, v: Value): number {
  // A bigint size (beyond 2^53) is refused as before: no slice that large can be built.
  if (typeof v === 'number' && v >= 1) return v;
  throw sliceSizeRefused(receiver, describeMismatch(puppetType('Integer', 1), v, "parameter 'slice_size'"));
}

const slice = defineFunction(
  'slice',
  2,
  2,
  (_ctx, args, block) => {
    const receiver = first(args);
    const items = sequenceOf('slice', receiver, 2, block);
    const size = sliceSize(receiver, args[1]);
    const chunks: Value[][] = [];
    let chunk: Value[] = [];
    for (const item of items.forward()) {
      chunk.push(item);
      if (chunk.length === size) {
        chunks.push(chunk);
        chunk = [];
      }
    }
    if (chunk.length > 0) chunks.push(chunk);
    if (!block) return chunks;
    // Ruby's block arity: a lambda with optional or rest parameters takes the whole slice spread.
    const serving = block.hasRest || block.requiredCount !== block.paramCount ? size : block.paramCount;
    if (serving === 0) {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        'slice(): block must define at least one parameter. Block has 0.',
      );
    }
    if (serving !== 1 && serving !== size) {
      // The message slice.rb means; Puppet 7.23 crashes before it (its list of the block's parameter names
      // calls a method its block lacks), and its dispatch takes a block of any size, so it has no listing.
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `slice(): block must define one parameter, or the same number of parameters as the given size of the slice (${size}). Block has ${serving}`,
        undefined,
        `give the block 1 parameter (each slice as an array) or ${size} (one for each element of a slice)`,
      );
    }
    untilBreak(() => {
      for (const c of chunks) {
        if (serving === 1) block(c);
        // Puppet pads a short last slice with undef, or with empty arrays when slicing a hash.
        else
          block(
            ...c,
            ...Array.from({ length: size - c.length }, () => (receiver instanceof Map ? [] : undefined)),
          );
      }
    });
    return receiver;
  },
  'optional',
);

/** Arrays and hashes (Puppet's Collection); anything else is an `EPP_ARGUMENTS` error. */
export function assertCollection(name: string, v: Value, block?: Lambda): Value[] | PHash {
  if (Array.isArray(v) || v instanceof Map) return v;
  throw notIterable(name, v, 1, block);
}

/**
 * Calls the lambda for each element of an Array or Hash the way partition and group_by do: (element),
 * (index, element), ([key, value]) or (key, value). `emit` gets the lambda's answer and the element
 * (a pair for hashes).
 */
export function visitCollection(
  name: string,
  v: Value,
  block: Lambda,
  emit: (result: Value, item: Value) => void,
): void {
  const coll = assertCollection(name, v, block);
  const arity = blockArity(name, block, 1, 2);
  if (coll instanceof Map) {
    for (const [k, val] of coll) emit(arity === 2 ? block(k, val) : block([k, val]), [k, val]);
    return;
  }
  coll.forEach((item, i) => {
    emit(arity === 2 ? block(i, item) : block(item), item);
  });
}

const partition = withDispatches(
  defineFunction(
    'partition',
    1,
    1,
    (_ctx, args, block) => {
      const yes: Value[] = [];
      const no: Value[] = [];
      visitCollection('partition', first(args), requireBlock(block), (result, item) => {
        (isTruthy(result) ? yes : no).push(item);
      });
      return [yes, no];
    },
    'required',
  ),
);

const withFn = defineFunction(
  'with',
  0,
  Number.POSITIVE_INFINITY,
  (_ctx, args, block) => {
    // The block drops arguments beyond its parameters (`with(1, 2) |$a|`), as Puppet's closures do.
    return requireBlock(block)(...args);
  },
  'required',
);

const thenFn = defineFunction(
  'then',
  1,
  1,
  (_ctx, args, block) => {
    const lambda = requireBlock(block);
    blockArity('then', lambda, 1);
    return args[0] === undefined ? undefined : lambda(args[0]);
  },
  'required',
);

const lest = defineFunction(
  'lest',
  1,
  1,
  (_ctx, args, block) => {
    const lambda = requireBlock(block);
    blockArity('lest', lambda, 0);
    return args[0] === undefined ? lambda() : args[0];
  },
  'required',
);

const breakFn = defineFunction('break', 0, 0, () => {
  throw new BreakSignal();
});

const nextFn = defineFunction('next', 0, 1, (_ctx, args) => {
  throw new NextSignal(args[0]);
});

const returnFn = defineFunction('return', 0, 1, (ctx, args) => {
  // Puppet refuses return() in the template `epp render` starts with, lambdas included.
  if (!ctx.returnAllowed)
    throw new PlacedEvalError('EPP_EVAL', 'return() from context where this is illegal');
  throw new ReturnSignal(args[0]);
});

/** The core definitions compiled templates loop over directly while a render's registry still has them. */
export const coreIteration = { each, map, filter, reduce } as const;

export const iterationFunctions: readonly FunctionDef[] = [
  each,
  map,
  filter,
  reduce,
  reverseEach,
  step,
  anyOrAll('any'),
  anyOrAll('all'),
  index,
  slice,
  partition,
  withFn,
  thenFn,
  lest,
  breakFn,
  nextFn,
  returnFn,
  treeEach,
];
