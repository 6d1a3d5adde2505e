import { describe, expect, it } from 'vitest';
import { EppEvalError } from '../../src/epp/errors.js';
import { collectionFunctions, splitNavigation } from '../../src/epp/functions/collections.js';
import { iterationFunctions } from '../../src/epp/functions/iteration.js';
import { miscFunctions } from '../../src/epp/functions/misc.js';
import { orderingFunctions } from '../../src/epp/functions/ordering.js';
import {
  BreakSignal,
  type CallContext,
  FunctionRegistry,
  type Lambda,
  NextSignal,
  ReturnSignal,
} from '../../src/epp/functions/registry.js';
import { rubyToS } from '../../src/epp/functions/ruby-text.js';
import {
  compareForOperator,
  compareValues,
  hashLookup,
  puppetEquals,
  rubyEql,
} from '../../src/epp/runtime/compare.js';
import { type PType, parameterizeType, resolveTypeName } from '../../src/epp/runtime/types.js';
import { float, PFloat, PIterator, PRegexp, PSensitive, type Value } from '../../src/epp/runtime/values.js';
import { callFunction, fakeContext, hash, makeLambda } from './helpers.js';

const registry = new FunctionRegistry().add(
  ...iterationFunctions,
  ...collectionFunctions,
  ...orderingFunctions,
  ...miscFunctions,
);

function call(name: string, args: Value[], block?: Lambda, ctx: CallContext = fakeContext()): Value {
  return callFunction(registry, name, args, block, ctx);
}

/** Calls and returns the EppEvalError thrown (fails the test when nothing is thrown). */
function callError(name: string, args: Value[], block?: Lambda, ctx?: CallContext): EppEvalError {
  try {
    call(name, args, block, ctx);
  } catch (e) {
    if (e instanceof EppEvalError) return e;
    throw e;
  }
  throw new Error(`${name} did not fail`);
}

function type(name: string, ...params: Value[]): PType {
  const t = resolveTypeName(name);
  if (!t) throw new Error(`no type ${name}`);
  return params.length > 0 ? parameterizeType(t, params) : t;
}

const h = hash;
const nextFn = (v: Value) => call('next', [v]);
const breakFn = () => call('break', []);

/** The elements of the Iterator `reverse_each` and `step` give without a block (Puppet's lazy Iterator). */
function elementsOf(v: Value): Value[] {
  expect(v).toBeInstanceOf(PIterator);
  return [...(v as PIterator).elements()];
}

/** Puppet's refusal of `each` on a receiver of type `got` (puppet epp render, Puppet 7.23). */
function eachRefused(got: string): string {
  return [
    "The function 'each' was called with arguments it does not accept. It expects one of:",
    '  (Hash hash, Callable[2, 2] block)',
    `    rejected: parameter 'hash' expects a Hash value, got ${got}`,
    '  (Hash hash, Callable[1, 1] block)',
    `    rejected: parameter 'hash' expects a Hash value, got ${got}`,
    '  (Iterable enumerable, Callable[2, 2] block)',
    `    rejected: parameter 'enumerable' expects an Iterable value, got ${got}`,
    '  (Iterable enumerable, Callable[1, 1] block)',
    `    rejected: parameter 'enumerable' expects an Iterable value, got ${got}`,
  ].join('\n');
}

describe('each', () => {
  it('passes elements, or index and element, and returns the receiver', () => {
    const seen: Value[] = [];
    const arr = ['a', 'b'];
    expect(
      call(
        'each',
        [arr],
        makeLambda((x) => seen.push(x) && undefined, 1),
      ),
    ).toBe(arr);
    call(
      'each',
      [arr],
      makeLambda((i, x) => void seen.push([i, x]), 2),
    );
    expect(seen).toEqual(['a', 'b', [0, 'a'], [1, 'b']]);
  });

  it('passes key and value, or a [key, value] pair, on a hash', () => {
    const seen: Value[] = [];
    const hash = h(['k1', 'v1'], ['k2', 'v2']);
    call(
      'each',
      [hash],
      makeLambda((k, v) => void seen.push(`${k}=${v}`), 2),
    );
    call(
      'each',
      [hash],
      makeLambda((pair) => void seen.push(pair), 1),
    );
    expect(seen).toEqual(['k1=v1', 'k2=v2', ['k1', 'v1'], ['k2', 'v2']]);
  });

  it('iterates an Integer n as 0..n-1, an Integer range type, an Enum and the characters of a string', () => {
    const seen: Value[] = [];
    const push = makeLambda((x) => void seen.push(x), 1);
    call('each', [3], push);
    call('each', [type('Integer', 2, 4)], push);
    call('each', ['hé'], push);
    call('each', [type('Enum', 'b', 'a')], push);
    call('each', [0], push);
    expect(seen).toEqual([0, 1, 2, 2, 3, 4, 'h', 'é', 'a', 'b']);
  });

  it('stops at break() and still returns the receiver; next() skips (each_next_and_break)', () => {
    const seen: Value[] = [];
    const receiver = [1, 2, 3, 4, 5];
    const block = makeLambda((x) => {
      if (x === 2) nextFn(undefined);
      if (x === 4) breakFn();
      seen.push(x);
      return undefined;
    }, 1);
    expect(call('each', [receiver], block)).toBe(receiver);
    expect(seen).toEqual([1, 3]);
  });

  it('refuses what is not iterable, and lambdas of the wrong size, with Puppet wording', () => {
    const err = callError(
      'each',
      [true],
      makeLambda(() => undefined, 1),
    );
    expect(err.code).toBe('EPP_ARGUMENTS');
    // Puppet lists each's dispatches, each with why it refused (test/epp/not-iterable.test.ts has them all).
    expect(err.message).toBe(eachRefused('Boolean'));
    expect(callError('dig', ['x', 1]).message).toBe(
      "'dig' parameter 'data' expects a value of type Undef or Collection, got String",
    );
    expect(
      callError(
        'each',
        [-1],
        makeLambda(() => undefined, 1),
      ).message,
    ).toBe(
      // Puppet's (its describer finds an Integer's type Iterable: the last dispatch has no fault to name).
      "The function 'each' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Iterable enumerable, Callable[1, 1] block)",
    );
    expect(
      callError(
        'each',
        [type('Integer')],
        makeLambda(() => undefined, 1),
      ).message,
    ).toBe(eachRefused('Type[Integer]'));
    expect(
      callError(
        'each',
        [[1]],
        makeLambda(() => undefined, 3),
      ).message,
    ).toBe("'each' block expects between 1 and 2 arguments, got 3");
    expect(
      callError(
        'each',
        [[1]],
        makeLambda(() => undefined, 0),
      ).message,
    ).toBe("'each' block expects between 1 and 2 arguments, got none");
    expect(callError('each', [[1]]).message).toBe("'each' expects a block");
  });

  it('prefers the two-parameter form for a lambda that accepts one or two', () => {
    const seen: Value[] = [];
    call(
      'each',
      [['a']],
      makeLambda((...args) => void seen.push(args), 2, 1),
    );
    call(
      'each',
      [['a']],
      makeLambda((...args) => void seen.push(args), 1, 0, true),
    );
    expect(seen).toEqual([
      [0, 'a'],
      [0, 'a'],
    ]);
  });
});

describe('map, filter, reduce', () => {
  it('maps arrays with index and hashes to arrays (map_array_with_index, map_hash_to_array)', () => {
    expect(
      call(
        'map',
        [['a', 'b']],
        makeLambda((i, x) => `${i}${x}`, 2),
      ),
    ).toEqual(['0a', '1b']);
    expect(
      call(
        'map',
        [h(['a', 1], ['b', 2])],
        makeLambda((k, v) => `${k}=${v}`, 2),
      ),
    ).toEqual(['a=1', 'b=2']);
    expect(
      call(
        'map',
        [h(['a', 1])],
        makeLambda((pair) => pair, 1),
      ),
    ).toEqual([['a', 1]]);
    expect(
      call(
        'map',
        ['abc'],
        makeLambda((c) => `<${c}>`, 1),
      ),
    ).toEqual(['<a>', '<b>', '<c>']);
  });

  it('map returns what it collected before break(), and next(v) gives v', () => {
    const block = makeLambda((x) => {
      if (x === 3) breakFn();
      if (x === 1) nextFn('one');
      return x;
    }, 1);
    expect(call('map', [[1, 2, 3, 4]], block)).toEqual(['one', 2]);
  });

  it('filters hashes into hashes and arrays into arrays, by Puppet truthiness', () => {
    const hash = h(['a', 1], ['b', 2], ['c', 3]);
    expect(
      call(
        'filter',
        [hash],
        makeLambda((_k, v) => (v as number) > 1, 2),
      ),
    ).toEqual(h(['b', 2], ['c', 3]));
    expect(
      call(
        'filter',
        [hash],
        makeLambda((pair) => (pair as Value[])[0] === 'a', 1),
      ),
    ).toEqual(h(['a', 1]));
    // '' and 0 are true in Puppet, only undef and false are not.
    expect(
      call(
        'filter',
        [['', 0, undefined, false]],
        makeLambda((x) => x, 1),
      ),
    ).toEqual(['', 0]);
    expect(
      call(
        'filter',
        [[5, 6, 7]],
        makeLambda((i) => i !== 1, 2),
      ),
    ).toEqual([5, 7]);
  });

  it('filter on an array stops at break(); on a hash break() goes on to the caller (as in Puppet)', () => {
    const stopAt3 = makeLambda((x) => (x === 3 ? breakFn() : true), 1);
    expect(call('filter', [[1, 2, 3, 4]], stopAt3)).toEqual([1, 2]);
    expect(() =>
      call(
        'filter',
        [h(['a', 1])],
        makeLambda(() => breakFn(), 2),
      ),
    ).toThrow(BreakSignal);
  });

  it('reduces with and without a start value (reduce_sum, reduce_with_start_value)', () => {
    const add = makeLambda((m, x) => (m as number) + (x as number), 2);
    expect(call('reduce', [[1, 2, 3, 4]], add)).toBe(10);
    expect(call('reduce', [[1, 2, 3], 10], add)).toBe(16);
    expect(call('reduce', [[]], add)).toBeUndefined();
    expect(
      call(
        'reduce',
        [[7]],
        makeLambda(() => 'never', 2),
      ),
    ).toBe(7);
    expect(call('reduce', [3], add)).toBe(3);
  });

  it('reduces a hash as [key, value] pairs and returns the memo at break()', () => {
    const concat = makeLambda((m, x) => [...(m as Value[]), ...(x as Value[])], 2);
    expect(call('reduce', [h(['a', 1], ['b', 2])], concat)).toEqual(['a', 1, 'b', 2]);
    const stop = makeLambda((m, x) => (x === 3 ? breakFn() : (m as number) + (x as number)), 2);
    expect(call('reduce', [[1, 2, 3, 4]], stop)).toBe(3);
  });

  it('requires a two-parameter lambda for reduce', () => {
    expect(
      callError(
        'reduce',
        [[1]],
        makeLambda(() => 1, 1),
      ).message,
    ).toBe("'reduce' block expects 2 arguments, got 1");
    expect(
      callError(
        'reduce',
        [[1], 1, 2],
        makeLambda(() => 1, 2),
      ).message,
    ).toBe("'reduce' expects between 1 and 2 arguments, got 3");
  });
});

describe('reverse_each, step, slice', () => {
  it('iterates backwards and returns undef with a block; gives the elements without one', () => {
    const seen: Value[] = [];
    expect(
      call(
        'reverse_each',
        [[1, 2, 3]],
        makeLambda((x) => void seen.push(x), 1),
      ),
    ).toBeUndefined();
    expect(seen).toEqual([3, 2, 1]);
    expect(elementsOf(call('reverse_each', ['abc']))).toEqual(['c', 'b', 'a']);
    // An Iterator is walked anew each time, and prints as Puppet prints it.
    const iterator = call('reverse_each', [[1, 'a']]) as PIterator;
    expect([...iterator.elements()]).toEqual([...iterator.elements()]);
    expect(iterator.display()).toBe('Iterator[Variant[Integer, String]]-Value');
    expect(elementsOf(call('reverse_each', [3]))).toEqual([2, 1, 0]);
    expect(elementsOf(call('reverse_each', [h(['a', 1], ['b', 2])]))).toEqual([
      ['b', 2],
      ['a', 1],
    ]);
  });

  it('steps through ranges and arrays (step_function)', () => {
    const seen: Value[] = [];
    call(
      'step',
      [type('Integer', 0, 10), 3],
      makeLambda((x) => void seen.push(x), 1),
    );
    expect(seen).toEqual([0, 3, 6, 9]);
    expect(elementsOf(call('step', [type('Integer', 1, 10), 4]))).toEqual([1, 5, 9]);
    expect(elementsOf(call('step', [[1, 2, 3], 2]))).toEqual([1, 3]);
  });

  it('refuses a step below 1 naming the detailed type', () => {
    const err = callError(
      'step',
      [[1], 0],
      makeLambda(() => undefined, 1),
    );
    expect(err.message).toBe("'step' parameter 'step' expects an Integer[1] value, got Integer[0, 0]");
  });

  it('slices into chunks, spreading them over a lambda with several parameters', () => {
    expect(call('slice', [[1, 2, 3, 4, 5], 2])).toEqual([[1, 2], [3, 4], [5]]);
    expect(call('slice', [h(['a', 1], ['b', 2], ['c', 3]), 2])).toEqual([
      [
        ['a', 1],
        ['b', 2],
      ],
      [['c', 3]],
    ]);
    const seen: string[] = [];
    const receiver = [1, 2, 3];
    expect(
      call(
        'slice',
        [receiver, 2],
        makeLambda((a, b) => void seen.push(`${a}-${b ?? ''}`), 2),
      ),
    ).toBe(receiver);
    expect(seen).toEqual(['1-2', '3-']);
    const pairs: Value[] = [];
    call(
      'slice',
      [h(['a', 1], ['b', 2], ['c', 3]), 2],
      makeLambda((x, y) => void pairs.push([x, y]), 2),
    );
    expect(pairs).toEqual([
      [
        ['a', 1],
        ['b', 2],
      ],
      [['c', 3], []],
    ]);
    expect(
      callError(
        'slice',
        [receiver, 2],
        makeLambda(() => 1, 3),
      ).message,
    ).toMatch(
      /^slice\(\): block must define one parameter, or the same number of parameters as the given size of the slice \(2\)/,
    );
  });
});

describe('any, all, index, partition', () => {
  it('answers any and all (any_and_all)', () => {
    const gt2 = makeLambda((x) => (x as number) > 2, 1);
    expect(call('any', [[1, 2, 3]], gt2)).toBe(true);
    expect(call('all', [[1, 2, 3]], gt2)).toBe(false);
    expect(call('all', [[]], gt2)).toBe(true);
    expect(
      call(
        'any',
        [h(['a', 1])],
        makeLambda((k, v) => k === 'a' && v === 1, 2),
      ),
    ).toBe(true);
  });

  it('stops calling the lambda at the first answer', () => {
    let calls = 0;
    const block = makeLambda(() => {
      calls++;
      return true;
    }, 1);
    call('any', [[1, 2, 3]], block);
    expect(calls).toBe(1);
  });

  it('lets break() out of any and all, as Puppet does', () => {
    expect(() =>
      call(
        'any',
        [[1]],
        makeLambda(() => breakFn(), 1),
      ),
    ).toThrow(BreakSignal);
  });

  it('finds an index by lambda, by value, and in strings (index_function)', () => {
    expect(
      call(
        'index',
        [[5, 6, 7]],
        makeLambda((x) => x === 6, 1),
      ),
    ).toBe(1);
    expect(call('index', [['a', 'b'], 'b'])).toBe(1);
    expect(call('index', ['hello', 'l'])).toBe(2);
    expect(call('index', ['héllo', new PRegexp('l+')])).toBe(2);
    expect(call('index', [[1, 2], 3])).toBeUndefined();
    expect(call('index', [[1, float(2)], 2])).toBe(1);
    expect(call('index', [['a'], 'A'])).toBeUndefined();
  });

  it('gives the key on a hash; a one-parameter lambda gets the value there', () => {
    expect(
      call(
        'index',
        [h(['a', 1], ['b', 2])],
        makeLambda((v) => v === 2, 1),
      ),
    ).toBe('b');
    expect(
      call(
        'index',
        [h(['a', 1], ['b', 2])],
        makeLambda((k) => k === 'a', 2),
      ),
    ).toBe('a');
    expect(call('index', [h(['a', 1]), 1])).toBe('a');
  });

  it('partitions arrays and hashes', () => {
    expect(
      call(
        'partition',
        [[1, 2, 3]],
        makeLambda((x) => (x as number) > 1, 1),
      ),
    ).toEqual([[2, 3], [1]]);
    expect(
      call(
        'partition',
        [[5, 6]],
        makeLambda((i) => (i as number) > 0, 2),
      ),
    ).toEqual([[6], [5]]);
    expect(
      call(
        'partition',
        [h(['a', 1], ['b', 2])],
        makeLambda((_k, v) => (v as number) > 1, 2),
      ),
    ).toEqual([[['b', 2]], [['a', 1]]]);
    expect(
      callError(
        'partition',
        ['abc'],
        makeLambda(() => true, 1),
      ).message,
    ).toBe(
      "The function 'partition' was called with arguments it does not accept. It expects one of:\n" +
        "  (Collection collection, Callable[1, 1] block)\n    rejected: parameter 'collection' expects a Collection value, got String\n" +
        "  (Array array, Callable[2, 2] block)\n    rejected: parameter 'array' expects an Array value, got String\n" +
        "  (Collection collection, Callable[2, 2] block)\n    rejected: parameter 'collection' expects a Collection value, got String",
    );
  });
});

describe('with, then, lest, tree_each and the jumps', () => {
  it('calls with the arguments', () => {
    expect(
      call(
        'with',
        [1, 2],
        makeLambda((a, b) => (a as number) + (b as number), 2),
      ),
    ).toBe(3);
  });

  it('then skips undef, lest replaces it (fn_lest_and_then)', () => {
    expect(
      call(
        'then',
        [21],
        makeLambda((x) => (x as number) * 2, 1),
      ),
    ).toBe(42);
    expect(
      call(
        'then',
        [undefined],
        makeLambda(() => 'never', 1),
      ),
    ).toBeUndefined();
    expect(
      call(
        'lest',
        [undefined],
        makeLambda(() => 'fallback', 0),
      ),
    ).toBe('fallback');
    expect(
      call(
        'lest',
        [[1]],
        makeLambda(() => 'fallback', 0),
      ),
    ).toEqual([1]);
    expect(
      callError(
        'lest',
        [undefined],
        makeLambda(() => 1, 1),
      ).message,
    ).toBe("'lest' block expects no arguments, got 1");
    expect(
      callError(
        'then',
        [1],
        makeLambda(() => 1, 2),
      ).message,
    ).toBe("'then' block expects 1 argument, got 2");
  });

  it('walks trees depth first by default, breadth first on request', () => {
    const tree = [1, [2, h(['a', 3])]];
    const paths: string[] = [];
    const receiver = call(
      'tree_each',
      [tree],
      makeLambda((p, v) => void paths.push(`${rubyToS(p)}=${rubyToS(v)}`), 2),
    );
    expect(receiver).toBe(tree);
    expect(paths).toEqual([
      '[]=[1, [2, {"a"=>3}]]',
      '[0]=1',
      '[1]=[2, {"a"=>3}]',
      '[1, 0]=2',
      '[1, 1]={"a"=>3}',
      '[1, 1, "a"]=3',
    ]);
    const values: Value[] = [];
    call(
      'tree_each',
      [tree, h(['order', 'breadth_first'], ['include_containers', false])],
      makeLambda((v) => void values.push(v), 1),
    );
    expect(values).toEqual([1, 2, 3]);
  });

  it('break, next and return throw their signals', () => {
    expect(() => call('break', [])).toThrow(BreakSignal);
    try {
      call('next', [5]);
    } catch (e) {
      expect(e).toBeInstanceOf(NextSignal);
      expect((e as NextSignal).value).toBe(5);
    }
    expect(() => call('return', [])).toThrow(ReturnSignal);
  });
});

describe('keys, values, join, flatten', () => {
  it('lists keys and values (fn_keys_values)', () => {
    expect(call('keys', [h(['a', 1], ['b', 2])])).toEqual(['a', 'b']);
    expect(call('values', [h(['a', 1], ['b', 2])])).toEqual([1, 2]);
    expect(callError('keys', [[1]]).message).toBe("'keys' parameter 'hsh' expects a Hash value, got Tuple");
    expect(callError('join', [1]).message).toBe("'join' parameter 'arg' expects an Array value, got Integer");
  });

  it('joins as Ruby does: nested arrays flattened, undef empty (fn_join)', () => {
    expect(call('join', [['a', 'b', 'c'], ', '])).toBe('a, b, c');
    expect(call('join', [['x', 'y']])).toBe('xy');
    expect(callError('join', [['x'], undefined]).message).toBe(
      "'join' parameter 'delimiter' expects a String value, got Undef",
    );
    expect(call('join', [[1, [2, 3]], '-'])).toBe('1-2-3');
    expect(
      call('join', [
        [1, float(2.5), float(1e20), true, undefined, 's', h(['a', 1], [2, [3]]), new PRegexp('re')],
        ',',
      ]),
    ).toBe('1,2.5,1.0e+20,true,,s,{"a"=>1, 2=>[3]},(?-mix:re)');
    expect(call('join', [[new PSensitive('x'), type('Integer', 1, 2)], ','])).toBe(
      'Sensitive [value redacted],Integer[1, 2]',
    );
  });

  it('flattens its arguments deeply', () => {
    expect(call('flatten', [[1, [2, [3]]], 4])).toEqual([1, 2, 3, 4]);
  });
});

describe('unique and sort', () => {
  it('keeps first occurrences, case-sensitive, 1 and 1.0 apart (fn_unique)', () => {
    expect(call('unique', [[1, 2, 1, 3, 2]])).toEqual([1, 2, 3]);
    expect(call('unique', [['a', 'A', 'a']])).toEqual(['a', 'A']);
    expect(call('unique', [[1, float(1), [1], [1]]])).toEqual([1, float(1), [1]]);
    expect(call('unique', ['hello'])).toBe('helo');
    expect(
      call(
        'unique',
        [['a', 'A', 'b']],
        makeLambda((x) => (x as string).toLowerCase(), 1),
      ),
    ).toEqual(['a', 'b']);
  });

  it('merges hash entries with equal values under the array of their keys', () => {
    expect(call('unique', [h(['a', 1], ['b', 2], ['c', 1])])).toEqual(h([['a', 'c'], [1]], [['b'], [2]]));
  });

  it("refuses what is no String or Array with each of Puppet's signatures and why (puppet epp render)", () => {
    expect(callError('sort', [new Map()]).message).toBe(
      [
        "The function 'sort' was called with arguments it does not accept. It expects one of:",
        '  (String string_value, Callable[2, 2] block?)',
        "    rejected: parameter 'string_value' expects a String value, got Hash",
        '  (Array array_value, Callable[2, 2] block?)',
        "    rejected: parameter 'array_value' expects an Array value, got Hash",
      ].join('\n'),
    );
    expect(callError('call', [1]).message).toBe(
      [
        "The function 'call' was called with arguments it does not accept. It expects one of:",
        '  (String function_name, Any arguments*, Callable block?)',
        "    rejected: parameter 'function_name' expects a String value, got Integer",
        "  (Object[{name => 'Deferred', attributes => {'name' => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => {type => Optional[Array], value => undef}}}] deferred)",
        "    rejected: parameter 'deferred' expects a Deferred value, got Integer",
      ].join('\n'),
    );
  });

  it('sorts numbers and strings in byte order (fn_sort)', () => {
    expect(call('sort', [[3, 1, 2]])).toEqual([1, 2, 3]);
    expect(call('sort', [['b', 'A', 'a', 'C']])).toEqual(['A', 'C', 'a', 'b']);
    expect(call('sort', [['é', 'z', 'Z']])).toEqual(['Z', 'z', 'é']);
    expect(call('sort', [[2, float(1.5), 1]])).toEqual([1, float(1.5), 2]);
    expect(call('sort', [[[1, 2], [1], [0, 5]]])).toEqual([[0, 5], [1], [1, 2]]);
    expect(call('sort', ['cba'])).toBe('abc');
  });

  it('sorts with a comparator lambda (fn_sort_with_lambda)', () => {
    const desc = makeLambda((a, b) => call('compare', [b, a]), 2);
    expect(call('sort', [[3, 1, 2]], desc)).toEqual([3, 2, 1]);
    const seen: Value[] = [];
    const record = makeLambda((a, b) => {
      seen.push([a, b]);
      return -1;
    }, 2);
    call('sort', [[1, 2]], record);
    expect(seen).toEqual([[1, 2]]);
    expect(
      callError(
        'sort',
        [[1, 2]],
        makeLambda(() => 'x', 2),
      ).message,
    ).toBe('comparison of String with 0 failed');
  });

  it('refuses to order values of different kinds, as Ruby words it', () => {
    const err = callError('sort', [[1, 'a']]);
    expect(err.code).toBe('EPP_OPERATOR');
    expect(err.message).toBe('comparison of Integer with String failed');
  });

  it("compares in Ruby's order (glibc's merge sort), so an error names the pair Puppet's names", () => {
    // Puppet 7.23: `[3, 'a', 1].sort` and `[2, undef, 1].sort` (cases error_sort_*_ruby_merge_order).
    expect(callError('sort', [[3, 'a', 1]]).message).toBe('comparison of String with 1 failed');
    expect(callError('sort', [[2, undefined, 1]]).message).toBe('comparison of NilClass with 1 failed');
    const seen: Value[] = [];
    const record = makeLambda((a, b) => {
      seen.push([a, b]);
      return call('compare', [a, b]);
    }, 2);
    expect(call('sort', [[4, 3, 2, 1]], record)).toEqual([1, 2, 3, 4]);
    expect(seen).toEqual([
      [4, 3],
      [2, 1],
      [3, 1],
      [3, 2],
    ]);
  });
});

describe('length, size, empty', () => {
  it('counts characters, elements and entries (fn_size_length)', () => {
    expect(call('size', [[1, 2, 3]])).toBe(3);
    expect(call('length', ['hello'])).toBe(5);
    expect(call('length', ['héllo😀'])).toBe(6);
    expect(call('size', [h(['a', 1])])).toBe(1);
    expect(call('size', [''])).toBe(0);
    expect(callError('size', [undefined]).message).toBe(
      "'size' parameter 'arg' expects a value of type Collection, String, or Binary, got Undef",
    );
  });

  it('tells emptiness (fn_empty); numbers are never empty, with a deprecation warning', () => {
    expect([[''], [[]], [new Map()], ['a'], [[1]], [undefined]].map((a) => call('empty', a))).toEqual([
      true,
      true,
      true,
      false,
      false,
      true,
    ]);
    const ctx = fakeContext();
    expect(call('empty', [0], undefined, ctx)).toBe(false);
    expect(ctx.warnings).toEqual(['Calling function empty() with Numeric value is deprecated.']);
    expect(call('empty', [new PSensitive('')])).toBe(true);
  });
});

describe('dig and get', () => {
  const data = h(['a', h(['b', ['deep']])], ['list', [1, 2]]);

  it('digs through hashes and arrays; a missing step gives undef (fn_dig)', () => {
    expect(call('dig', [data, 'a', 'b', 0])).toBe('deep');
    expect(call('dig', [data, 'a', 'zz', 0])).toBeUndefined();
    expect(call('dig', [[1, 2], -1])).toBe(2);
    expect(call('dig', [[1, 2], 5])).toBeUndefined();
    expect(call('dig', [undefined, 'x'])).toBeUndefined();
  });

  it('reports what it cannot walk through with the walked path', () => {
    const err = callError('dig', [h(['a', 'hey']), 'a', 'x']);
    expect(err.code).toBe('EPP_ACCESS');
    expect(err.message).toBe(`The given data does not contain a Collection at ["a"], got 'String'`);
    expect(callError('dig', [h(['a', [1]]), 'a', 'x']).message).toBe(
      `The given data requires an Integer index at ["a", "x"], got 'String'`,
    );
  });

  it('gets by dotted path with a default (fn_get)', () => {
    const hx = h(['a', h(['b', 'x'])], ['list', [1, 2]]);
    expect(call('get', [hx, 'a.b'])).toBe('x');
    expect(call('get', [hx, 'a.c', 'dflt'])).toBe('dflt');
    expect(call('get', [hx, 'list.1'])).toBe(2);
    expect(call('get', [hx, 'list.-1'])).toBe(2);
    expect(call('get', [undefined, 'a', 5])).toBe(5);
    expect(call('get', [hx, ''])).toBe(hx);
    expect(call('get', [h(['a.b', 1]), '"a.b"'])).toBe(1);
    expect(call('get', [h(['1', 's'], [1, 'i']), '1'])).toBe('i');
  });

  it('passes slice errors to the lambda, and refuses bad paths', () => {
    const got = call(
      'get',
      [h(['a', [1]]), 'a.x'],
      makeLambda((e) => hashLookup(e as Map<Value, Value>, 'msg').value, 1),
    );
    expect(got).toBe(`The given data requires an Integer index at ["a", "x"], got 'String'`);
    expect(callError('get', [h(['a', [1]]), 'a..x']).message).toBe(
      'Syntax error in dotted-navigation string',
    );
    expect(splitNavigation(`a.'b.c'.0`)).toEqual(['a', 'b.c', 0]);
    expect(splitNavigation('a.')).toBeUndefined();
    expect(splitNavigation('7')).toEqual([7]);
  });
});

describe('min and max', () => {
  it('compares numbers (fn_min_max)', () => {
    expect(call('min', [3, 1, 2])).toBe(1);
    expect(call('max', [3, 1, 2])).toBe(3);
    expect(call('max', [[4, 9, 2]])).toBe(9);
    expect(call('min', [1, float(2.5)])).toBe(1);
  });

  it('compares numeric-looking strings as numbers, other strings by bytes', () => {
    expect(call('max', ['10', '9'])).toBe('10');
    expect(call('min', ['b', 'A', 'a'])).toBe('A');
    expect(call('max', [1, 'a'])).toBe('a');
    const ctx = fakeContext();
    expect(call('max', [true, 5], undefined, ctx)).toBe(true);
    expect(call('max', ['10', '9'], undefined, ctx)).toBe('10');
    expect(call('max', ['10', '9'], undefined, ctx)).toBe('10');
    expect(ctx.warnings).toEqual([
      "The max() function's auto conversion of Any to String is deprecated - change to convert input before calling, or use lambda",
      "The max() function's auto conversion of String to Numeric is deprecated - change to convert input before calling, or use lambda",
    ]);
  });

  it('uses a lambda comparator, and needs at least one value', () => {
    const byLength = makeLambda((a, b) => (a as string).length - (b as string).length, 2);
    expect(call('max', [['aa', 'b', 'ccc']], byLength)).toBe('ccc');
    expect(call('min', ['aa', 'b', 'ccc'], byLength)).toBe('b');
    expect(callError('max', []).message).toBe('max(): Wrong number of arguments need at least one');
  });
});

describe('group_by and the number functions', () => {
  it('groups (fn_group_by)', () => {
    expect(
      call(
        'group_by',
        [['apple', 'avocado', 'banana']],
        makeLambda((x) => (x as string)[0], 1),
      ),
    ).toEqual(h(['a', ['apple', 'avocado']], ['b', ['banana']]));
    expect(
      call(
        'group_by',
        [['x', 'y', 'z']],
        makeLambda((i) => (i as number) % 2, 2),
      ),
    ).toEqual(h([0, ['x', 'z']], [1, ['y']]));
    expect(
      call(
        'group_by',
        [h(['a', 1], ['b', 2])],
        makeLambda((_k, v) => (v as number) > 1, 2),
      ),
    ).toEqual(h([false, [['a', 1]]], [true, [['b', 2]]]));
  });

  it('rounds half away from zero, floors and ceils to Integers (fn_round_floor_ceiling)', () => {
    expect([2.5, -2.5, 2.4].map((x) => call('round', [float(x)]))).toEqual([3, -3, 2]);
    expect(call('floor', [float(3.7)])).toBe(3);
    expect(call('ceiling', [float(3.2)])).toBe(4);
    expect(call('floor', [float(-3.5)])).toBe(-4);
    expect(call('floor', [7])).toBe(7);
    expect(call('floor', ['3.7'])).toBe(3);
    expect(callError('ceiling', ['x']).message).toBe(
      'ceiling(): cannot convert given value to a floating point value.',
    );
    expect(
      callError(
        'max',
        [[1, 'a']],
        makeLambda(() => undefined, 2),
      ).message,
    ).toBe('comparison of String with 1 failed');
    expect(callError('round', ['1']).message).toBe(
      "'round' parameter 'val' expects a Numeric value, got String",
    );
  });

  it('takes absolute values of numbers and numeric strings', () => {
    expect(call('abs', [-3])).toBe(3);
    expect(call('abs', [float(-2.5)])).toBe(float(2.5));
    expect(call('abs', ['-4'])).toBe(4);
    expect(call('abs', ['-4.5'])).toBe(float(4.5));
    expect(callError('abs', ['x']).message).toBe(
      'abs(): Requires float or integer to work with - was given non decimal string',
    );
  });

  it('compares numbers, strings (ignoring case unless told) and refuses mixtures', () => {
    expect(call('compare', [1, float(2.5)])).toBe(-1);
    expect(call('compare', ['B', 'a'])).toBe(1);
    expect(call('compare', ['a', 'A'])).toBe(0);
    expect(call('compare', ['a', 'A', false])).toBe(1);
    expect(callError('compare', [1, 'a']).message).toBe(
      "'compare' compare(): Can only compare values of the same type (or for Timestamp/Timespan also against Numeric). Got Integer and String",
    );
    expect(callError('compare', [[1], [2]]).message).toBe(
      "'compare' compare(): Non comparable type. Only values of the types Numeric, String, Semver, Timestamp and Timestamp can be compared. Got Array and Array",
    );
  });
});

describe('misc functions', () => {
  it('fail() joins its arguments with Ruby to_s (error_fail_function)', () => {
    const err = callError('fail', ['boom']);
    expect(err.code).toBe('EPP_FAIL');
    expect(err.message).toBe('boom');
    expect(callError('fail', ['a', [1, 'b'], undefined, h(['k', undefined]), float(2)]).message).toBe(
      'a [1, "b"]  {"k"=>nil} 2.0',
    );
  });

  it('assert_type() returns the value, or fails with the mismatch (error_assert_type_mismatch)', () => {
    expect(call('assert_type', [type('Integer'), 1])).toBe(1);
    expect(call('assert_type', ['String', 'x'])).toBe('x');
    expect(call('assert_type', ['Array[String]', ['a']])).toEqual(['a']);
    expect(
      call('assert_type', ['Struct[{a => Integer[1, 2], b => Optional[Enum[x, "y"]]}]', h(['a', 2])]),
    ).toEqual(h(['a', 2]));
    expect(callError('assert_type', ['Array[String]', [1]]).message).toBe(
      'assert_type(): index 0 expects a String value, got Integer',
    );
    expect(callError('assert_type', ['Nope[1]', 1]).code).toBe('EPP_UNKNOWN_TYPE');
    expect(callError('assert_type', ['$x', 1]).code).toBe('EPP_UNKNOWN_TYPE');
    const err = callError('assert_type', [type('Integer'), 'x']);
    expect(err.code).toBe('EPP_TYPE_MISMATCH');
    expect(err.message).toBe('assert_type(): expects an Integer value, got String');
    const block = makeLambda((expected, actual) => `${expected} vs ${actual}`, 2);
    expect(call('assert_type', [type('Integer'), 'x'], block)).toBe('Integer vs String');
  });

  it('type() infers detailed, reduced and generalized types (fn_type)', () => {
    const show = (args: Value[]) => String(call('type', args));
    expect(show([1])).toBe('Integer[1, 1]');
    expect(show(['abc'])).toBe('String');
    expect(show([[1]])).toBe('Tuple[Integer[1, 1]]');
    expect(show([1, 'generalized'])).toBe('Integer');
    expect(show([h(['a', 1]), 'generalized'])).toBe('Hash[String, Integer]');
    expect(callError('type', [1, 'other']).code).toBe('EPP_ARGUMENTS');
  });

  it('unwrap() opens Sensitive values (fn_unwrap_sensitive)', () => {
    expect(call('unwrap', [new PSensitive('s3cret')])).toBe('s3cret');
    expect(call('unwrap', ['plain'])).toBe('plain');
    expect(
      call(
        'unwrap',
        [new PSensitive('s')],
        makeLambda((x) => `${x}!`, 1),
      ),
    ).toBe('s!');
  });

  it('getvar() and defined() see the caller variables (fn_getvar_and_defined)', () => {
    const ctx = fakeContext({ x: 1, u: undefined, h: h(['a', [5, 6]]) });
    expect(call('getvar', ['x'], undefined, ctx)).toBe(1);
    expect(call('getvar', ['::x'], undefined, ctx)).toBe(1);
    expect(call('getvar', ['h.a.1'], undefined, ctx)).toBe(6);
    expect(call('getvar', ['nope', 'dflt'], undefined, ctx)).toBe('dflt');
    expect(callError('getvar', ['1x'], undefined, ctx).message).toBe(
      "'getvar' The given string does not start with a valid variable name",
    );
    expect(callError('getvar', ['x-y'], undefined, ctx).code).toBe('EPP_ARGUMENTS');
    expect(call('defined', ['$x'], undefined, ctx)).toBe(true);
    expect(call('defined', ['$u'], undefined, ctx)).toBe(true);
    expect(call('defined', ['$nope'], undefined, ctx)).toBe(false);
    expect(call('defined', ['$nope', '$x'], undefined, ctx)).toBe(true);
    expect(call('defined', ['each'], undefined, ctx)).toBe(false);
    expect(callError('defined', [type('String')], undefined, ctx).message).toBe(
      "'defined' parameter 'vals' expects a value of type String, Type[CatalogEntry], or Type[Type], got Type[String]",
    );
  });

  it('epp() and inline_epp() hand over to the context, checking the parameters hash', () => {
    const ctx = fakeContext();
    expect(call('epp', ['x.epp', h(['a', 1])], undefined, ctx)).toBe('<x.epp>');
    expect(call('inline_epp', ['<%= 1 %>'], undefined, ctx)).toBe('<<%= 1 %>>');
    expect(ctx.rendered).toEqual(['file x.epp a', 'inline <%= 1 %> undefined']);
    expect(callError('epp', ['x.epp', 'nope'], undefined, ctx).message).toBe(
      "'epp' parameter 'parameters' expects a Hash value, got String",
    );
    expect(callError('inline_epp', ['t', h(['a-b', 1])], undefined, ctx).message).toBe(
      "'inline_epp' parameter 'parameters' key of entry 'a-b' expects a match for Pattern[/^\\w+$/], got 'a-b'",
    );
  });

  it('logging functions print as interpolation does and return undef', () => {
    const ctx = fakeContext();
    expect(
      call('notice', ['a', [1, 'b'], undefined, float(2), new PSensitive(1)], undefined, ctx),
    ).toBeUndefined();
    call('warning', ['careful'], undefined, ctx);
    expect(ctx.logs).toEqual(['notice: a [1, b]  2.0 Sensitive [value redacted]', 'warning: careful']);
  });

  it('provides no catalogue functions', () => {
    for (const name of ['include', 'contain', 'require', 'realize', 'create_resources', 'tag', 'lookup']) {
      expect(registry.has(name)).toBe(false);
    }
  });
});

describe('compare.ts', () => {
  it('puppetEquals ignores ASCII case and number kinds, deeply (cmp_*)', () => {
    expect(puppetEquals([1, 'A'], [1, 'a'])).toBe(true);
    expect(puppetEquals(h(['a', 1]), h(['a', float(1)]))).toBe(true);
    expect(puppetEquals([1, 2], [2, 1])).toBe(false);
    expect(puppetEquals('1', 1)).toBe(false);
    expect(puppetEquals(1, '1')).toBe(false);
    expect(puppetEquals('ABC', 'abc')).toBe(true);
    expect(puppetEquals('É', 'é')).toBe(false);
    expect(puppetEquals(h(['a', 1]), h(['A', 1]))).toBe(false);
    expect(puppetEquals(undefined, '')).toBe(false);
    expect(puppetEquals(undefined, undefined)).toBe(true);
    expect(puppetEquals(new PRegexp('a'), new PRegexp('a'))).toBe(true);
  });

  it('compareForOperator orders strings ignoring case and refuses mixtures (cmp_strings_ordering)', () => {
    expect(compareForOperator('a', 'b')).toBeLessThan(0);
    expect(compareForOperator('B', 'a')).toBeGreaterThan(0);
    expect(compareForOperator('10', '9')).toBeLessThan(0);
    expect(compareForOperator(1, float(1.5))).toBeLessThan(0);
    expect(compareForOperator(2, float(2))).toBe(0);
    let err: unknown;
    try {
      compareForOperator(1, 'a');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EppEvalError);
    expect((err as EppEvalError).code).toBe('EPP_OPERATOR');
    expect((err as EppEvalError).message).toBe(
      "Comparison of: Integer < String, is not possible. Caused by 'A Numeric is not comparable to non Numeric'.",
    );
    expect(() => compareForOperator('a', 1, '>=')).toThrow(
      "Comparison of: String >= Integer, is not possible. Caused by 'A String is not comparable to a non String'.",
    );
    expect(() => compareForOperator([1], [2])).toThrow(
      "Comparison of: Array < Array, is not possible. Caused by 'Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable'.",
    );
  });

  it('compareValues is Ruby <=>: case-sensitive, code point order', () => {
    expect(compareValues('B', 'a')).toBeLessThan(0);
    expect(compareValues('\u{ffff}', '\u{10000}')).toBeLessThan(0);
    expect(compareValues([1, 2], [1])).toBeGreaterThan(0);
    expect(() => compareValues(true, false)).toThrow('comparison of TrueClass with false failed');
  });

  it('rubyEql and hashLookup find structured keys by value', () => {
    expect(rubyEql(1, float(1))).toBe(false);
    expect(rubyEql([1, h(['a', 'b'])], [1, h(['a', 'b'])])).toBe(true);
    expect(rubyEql('a', 'A')).toBe(false);
    const hash = h([[1, 2], 'pair'], ['k', 'v']);
    expect(hashLookup(hash, [1, 2])).toEqual({ found: true, value: 'pair' });
    expect(hashLookup(hash, 'K')).toEqual({ found: false, value: undefined });
  });
});

describe('the registry of built-ins (index.ts)', () => {
  it('holds every function of this module and no catalogue function, with sorted names', async () => {
    const { coreFunctions, FUNCTION_NAMES } = await import('../../src/epp/functions/index.js');
    for (const def of [
      ...iterationFunctions,
      ...collectionFunctions,
      ...orderingFunctions,
      ...miscFunctions,
    ]) {
      expect(coreFunctions.get(def.name)).toBe(def);
    }
    for (const name of ['upcase', 'split', 'sprintf', 'to_json', 'new', 'convert_to']) {
      expect(FUNCTION_NAMES).toContain(name);
    }
    for (const name of ['include', 'lookup', 'create_resources', 'template']) {
      expect(coreFunctions.has(name)).toBe(false);
    }
    expect(FUNCTION_NAMES).toEqual([...FUNCTION_NAMES].sort());
    expect(new Set(FUNCTION_NAMES).size).toBe(FUNCTION_NAMES.length);
  });
});

describe('Integers and Floats in results (the value model)', () => {
  const collect = (into: Value[], arity = 1) =>
    makeLambda((...args) => void into.push(arity === 1 ? args[0] : args), arity);
  const BIG = 9007199254740993n; // 2^53 + 1: an Integer only a bigint holds exactly

  it('counts, lengths and indexes are Integers as plain numbers', () => {
    expect(call('length', [[1, 2, 3]])).toBe(3);
    expect(call('size', [h(['a', 1])])).toBe(1);
    expect(call('length', ['h\u{1F600}llo'])).toBe(5);
    const seen: Value[] = [];
    call('each', [['a', 'b']], collect(seen, 2));
    expect(seen).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
    expect(call('index', [['a', 'b'], 'b'])).toBe(1);
    expect(call('index', ['h\u{1F600}llo', 'l'])).toBe(2);
    expect(call('compare', [2, 1])).toBe(1);
    expect(call('tree_each', [[['a']]])).toEqual([
      [[], [['a']]],
      [[0], ['a']],
      [[0, 0], 'a'],
    ]);
    expect(splitNavigation('a.1')).toEqual(['a', 1]);
  });

  it('iterates Integers and Integer ranges as numbers, beyond 2^53 as exact bigints', () => {
    expect(elementsOf(call('reverse_each', [3]))).toEqual([2, 1, 0]);
    expect(elementsOf(call('step', [10, 3]))).toEqual([0, 3, 6, 9]);
    expect(elementsOf(call('reverse_each', [type('Integer', 1, 3)]))).toEqual([3, 2, 1]);
    expect(elementsOf(call('reverse_each', [type('Integer', 9007199254740990, BIG)]))).toEqual([
      BIG,
      9007199254740992n,
      9007199254740991,
      9007199254740990,
    ]);
    expect(elementsOf(call('step', [[1, 2, 3], BIG]))).toEqual([1]);
  });

  it('keeps Floats Floats and Integers Integers', () => {
    expect(call('abs', [-2])).toBe(2);
    const absFloat = call('abs', [float(-2)]);
    expect(absFloat).toBeInstanceOf(PFloat);
    expect(absFloat).toBe(float(2));
    expect(rubyToS(absFloat)).toBe('2.0');
    expect(call('abs', [-BIG])).toBe(BIG);
    expect(call('round', [float(2)])).toBe(2);
    expect(call('round', [float(1e20)])).toBe(100000000000000000000n);
    expect(call('floor', [BIG])).toBe(BIG);
    expect(call('max', [1, float(1.5)])).toBe(float(1.5));
    expect(call('min', [float(1), 2])).toBe(float(1));
    expect(call('unique', [[1, float(1), 1, float(1)]])).toEqual([1, float(1)]);
    expect(call('flatten', [[float(1), [2]]])).toEqual([float(1), 2]);
  });

  it('compares Integers and Floats as Ruby does', () => {
    expect(call('index', [[float(9007199254740992)], BIG])).toBeUndefined();
    expect(call('index', [[9007199254740992n], float(9007199254740992)])).toBe(0);
    expect(call('index', [[float(1), 1], 1])).toBe(0);
    expect(call('dig', [[1], BIG])).toBeUndefined();
    const byFloat = makeLambda((a, b) => float((a as number) - (b as number)), 2);
    expect(call('sort', [[3, 1, 2]], byFloat)).toEqual([1, 2, 3]);
  });

  it('prints Integers exactly and Floats with a fraction (join, fail)', () => {
    expect(call('join', [[1, float(1), BIG, float(-0)], ','])).toBe('1,1.0,9007199254740993,-0.0');
    expect(callError('fail', [BIG, float(3)]).message).toBe('9007199254740993 3.0');
  });

  it('reads Integer and Float literals of type expressions', () => {
    expect(call('assert_type', ['Integer[-5, 2]', -3])).toBe(-3);
    expect(call('assert_type', ['Float[1.5]', float(2)])).toBe(float(2));
    expect(callError('assert_type', ['Float[-1.5, -0.5]', float(0)]).code).toBe('EPP_TYPE_MISMATCH');
  });
});
