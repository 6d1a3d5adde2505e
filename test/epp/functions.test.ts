import { describe, expect, it } from 'vitest';
import { EppEvalError } from '../../src/epp/errors.js';
import { collectionFunctions, rubyToS, splitNavigation } from '../../src/epp/functions/collections.js';
import { iterationFunctions } from '../../src/epp/functions/iteration.js';
import { miscFunctions } from '../../src/epp/functions/misc.js';
import {
  BreakSignal,
  type CallContext,
  FunctionRegistry,
  type Lambda,
  NextSignal,
  ReturnSignal,
} from '../../src/epp/functions/registry.js';
import {
  compareForOperator,
  compareValues,
  hashLookup,
  puppetEquals,
  rubyEql,
} from '../../src/epp/runtime/compare.js';
import { type PType, parameterizeType, resolveTypeName } from '../../src/epp/runtime/types.js';
import { PRegexp, PSensitive, type Value } from '../../src/epp/runtime/values.js';
import { callFunction, fakeContext, hash, makeLambda } from './helpers.js';

const registry = new FunctionRegistry().add(...iterationFunctions, ...collectionFunctions, ...miscFunctions);

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
    expect(seen).toEqual(['a', 'b', [0n, 'a'], [1n, 'b']]);
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
    call('each', [3n], push);
    call('each', [type('Integer', 2n, 4n)], push);
    call('each', ['hé'], push);
    call('each', [type('Enum', 'b', 'a')], push);
    call('each', [0n], push);
    expect(seen).toEqual([0n, 1n, 2n, 2n, 3n, 4n, 'h', 'é', 'a', 'b']);
  });

  it('stops at break() and still returns the receiver; next() skips (each_next_and_break)', () => {
    const seen: Value[] = [];
    const receiver = [1n, 2n, 3n, 4n, 5n];
    const block = makeLambda((x) => {
      if (x === 2n) nextFn(undefined);
      if (x === 4n) breakFn();
      seen.push(x);
      return undefined;
    }, 1);
    expect(call('each', [receiver], block)).toBe(receiver);
    expect(seen).toEqual([1n, 3n]);
  });

  it('refuses what is not iterable, and lambdas of the wrong size, with Puppet wording', () => {
    const err = callError(
      'each',
      [true],
      makeLambda(() => undefined, 1),
    );
    expect(err.code).toBe('EPP_ARGUMENTS');
    expect(err.message).toBe("'each' expects an Iterable value, got Boolean");
    expect(callError('dig', ['x', 1n]).message).toBe(
      "'dig' parameter 'data' expects a value of type Undef or Collection, got String",
    );
    expect(
      callError(
        'each',
        [-1n],
        makeLambda(() => undefined, 1),
      ).message,
    ).toBe("'each' expects an Iterable value, got Integer");
    expect(
      callError(
        'each',
        [type('Integer')],
        makeLambda(() => undefined, 1),
      ).message,
    ).toBe("'each' expects an Iterable value, got Type[Integer]");
    expect(
      callError(
        'each',
        [[1n]],
        makeLambda(() => undefined, 3),
      ).message,
    ).toBe("'each' block expects between 1 and 2 arguments, got 3");
    expect(
      callError(
        'each',
        [[1n]],
        makeLambda(() => undefined, 0),
      ).message,
    ).toBe("'each' block expects between 1 and 2 arguments, got none");
    expect(callError('each', [[1n]]).message).toBe("'each' expects a block (lambda)");
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
      [0n, 'a'],
      [0n, 'a'],
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
        [h(['a', 1n], ['b', 2n])],
        makeLambda((k, v) => `${k}=${v}`, 2),
      ),
    ).toEqual(['a=1', 'b=2']);
    expect(
      call(
        'map',
        [h(['a', 1n])],
        makeLambda((pair) => pair, 1),
      ),
    ).toEqual([['a', 1n]]);
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
      if (x === 3n) breakFn();
      if (x === 1n) nextFn('one');
      return x;
    }, 1);
    expect(call('map', [[1n, 2n, 3n, 4n]], block)).toEqual(['one', 2n]);
  });

  it('filters hashes into hashes and arrays into arrays, by Puppet truthiness', () => {
    const hash = h(['a', 1n], ['b', 2n], ['c', 3n]);
    expect(
      call(
        'filter',
        [hash],
        makeLambda((_k, v) => (v as bigint) > 1n, 2),
      ),
    ).toEqual(h(['b', 2n], ['c', 3n]));
    expect(
      call(
        'filter',
        [hash],
        makeLambda((pair) => (pair as Value[])[0] === 'a', 1),
      ),
    ).toEqual(h(['a', 1n]));
    // '' and 0 are true in Puppet, only undef and false are not.
    expect(
      call(
        'filter',
        [['', 0n, undefined, false]],
        makeLambda((x) => x, 1),
      ),
    ).toEqual(['', 0n]);
    expect(
      call(
        'filter',
        [[5n, 6n, 7n]],
        makeLambda((i) => i !== 1n, 2),
      ),
    ).toEqual([5n, 7n]);
  });

  it('filter on an array stops at break(); on a hash break() goes on to the caller (as in Puppet)', () => {
    const stopAt3 = makeLambda((x) => (x === 3n ? breakFn() : true), 1);
    expect(call('filter', [[1n, 2n, 3n, 4n]], stopAt3)).toEqual([1n, 2n]);
    expect(() =>
      call(
        'filter',
        [h(['a', 1n])],
        makeLambda(() => breakFn(), 2),
      ),
    ).toThrow(BreakSignal);
  });

  it('reduces with and without a start value (reduce_sum, reduce_with_start_value)', () => {
    const add = makeLambda((m, x) => (m as bigint) + (x as bigint), 2);
    expect(call('reduce', [[1n, 2n, 3n, 4n]], add)).toBe(10n);
    expect(call('reduce', [[1n, 2n, 3n], 10n], add)).toBe(16n);
    expect(call('reduce', [[]], add)).toBeUndefined();
    expect(
      call(
        'reduce',
        [[7n]],
        makeLambda(() => 'never', 2),
      ),
    ).toBe(7n);
    expect(call('reduce', [3n], add)).toBe(3n);
  });

  it('reduces a hash as [key, value] pairs and returns the memo at break()', () => {
    const concat = makeLambda((m, x) => [...(m as Value[]), ...(x as Value[])], 2);
    expect(call('reduce', [h(['a', 1n], ['b', 2n])], concat)).toEqual(['a', 1n, 'b', 2n]);
    const stop = makeLambda((m, x) => (x === 3n ? breakFn() : (m as bigint) + (x as bigint)), 2);
    expect(call('reduce', [[1n, 2n, 3n, 4n]], stop)).toBe(3n);
  });

  it('requires a two-parameter lambda for reduce', () => {
    expect(
      callError(
        'reduce',
        [[1n]],
        makeLambda(() => 1n, 1),
      ).message,
    ).toBe("'reduce' block expects 2 arguments, got 1");
    expect(
      callError(
        'reduce',
        [[1n], 1n, 2n],
        makeLambda(() => 1n, 2),
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
        [[1n, 2n, 3n]],
        makeLambda((x) => void seen.push(x), 1),
      ),
    ).toBeUndefined();
    expect(seen).toEqual([3n, 2n, 1n]);
    expect(call('reverse_each', ['abc'])).toEqual(['c', 'b', 'a']);
    expect(call('reverse_each', [3n])).toEqual([2n, 1n, 0n]);
    expect(call('reverse_each', [h(['a', 1n], ['b', 2n])])).toEqual([
      ['b', 2n],
      ['a', 1n],
    ]);
  });

  it('steps through ranges and arrays (step_function)', () => {
    const seen: Value[] = [];
    call(
      'step',
      [type('Integer', 0n, 10n), 3n],
      makeLambda((x) => void seen.push(x), 1),
    );
    expect(seen).toEqual([0n, 3n, 6n, 9n]);
    expect(call('step', [type('Integer', 1n, 10n), 4n])).toEqual([1n, 5n, 9n]);
    expect(call('step', [[1n, 2n, 3n], 2n])).toEqual([1n, 3n]);
  });

  it('refuses a step below 1 naming the detailed type', () => {
    const err = callError(
      'step',
      [[1n], 0n],
      makeLambda(() => undefined, 1),
    );
    expect(err.message).toBe("'step' parameter 'step' expects an Integer[1] value, got Integer[0, 0]");
  });

  it('slices into chunks, spreading them over a lambda with several parameters', () => {
    expect(call('slice', [[1n, 2n, 3n, 4n, 5n], 2n])).toEqual([[1n, 2n], [3n, 4n], [5n]]);
    expect(call('slice', [h(['a', 1n], ['b', 2n], ['c', 3n]), 2n])).toEqual([
      [
        ['a', 1n],
        ['b', 2n],
      ],
      [['c', 3n]],
    ]);
    const seen: string[] = [];
    const receiver = [1n, 2n, 3n];
    expect(
      call(
        'slice',
        [receiver, 2n],
        makeLambda((a, b) => void seen.push(`${a}-${b ?? ''}`), 2),
      ),
    ).toBe(receiver);
    expect(seen).toEqual(['1-2', '3-']);
    const pairs: Value[] = [];
    call(
      'slice',
      [h(['a', 1n], ['b', 2n], ['c', 3n]), 2n],
      makeLambda((x, y) => void pairs.push([x, y]), 2),
    );
    expect(pairs).toEqual([
      [
        ['a', 1n],
        ['b', 2n],
      ],
      [['c', 3n], []],
    ]);
    expect(
      callError(
        'slice',
        [receiver, 2n],
        makeLambda(() => 1n, 3),
      ).message,
    ).toMatch(
      /^slice\(\): block must define one parameter, or the same number of parameters as the given size of the slice \(2\)/,
    );
  });
});

describe('any, all, index, partition', () => {
  it('answers any and all (any_and_all)', () => {
    const gt2 = makeLambda((x) => (x as bigint) > 2n, 1);
    expect(call('any', [[1n, 2n, 3n]], gt2)).toBe(true);
    expect(call('all', [[1n, 2n, 3n]], gt2)).toBe(false);
    expect(call('all', [[]], gt2)).toBe(true);
    expect(
      call(
        'any',
        [h(['a', 1n])],
        makeLambda((k, v) => k === 'a' && v === 1n, 2),
      ),
    ).toBe(true);
  });

  it('stops calling the lambda at the first answer', () => {
    let calls = 0;
    const block = makeLambda(() => {
      calls++;
      return true;
    }, 1);
    call('any', [[1n, 2n, 3n]], block);
    expect(calls).toBe(1);
  });

  it('lets break() out of any and all, as Puppet does', () => {
    expect(() =>
      call(
        'any',
        [[1n]],
        makeLambda(() => breakFn(), 1),
      ),
    ).toThrow(BreakSignal);
  });

  it('finds an index by lambda, by value, and in strings (index_function)', () => {
    expect(
      call(
        'index',
        [[5n, 6n, 7n]],
        makeLambda((x) => x === 6n, 1),
      ),
    ).toBe(1n);
    expect(call('index', [['a', 'b'], 'b'])).toBe(1n);
    expect(call('index', ['hello', 'l'])).toBe(2n);
    expect(call('index', ['héllo', new PRegexp('l+')])).toBe(2n);
    expect(call('index', [[1n, 2n], 3n])).toBeUndefined();
    expect(call('index', [[1n, 2.0], 2n])).toBe(1n);
    expect(call('index', [['a'], 'A'])).toBeUndefined();
  });

  it('gives the key on a hash; a one-parameter lambda gets the value there', () => {
    expect(
      call(
        'index',
        [h(['a', 1n], ['b', 2n])],
        makeLambda((v) => v === 2n, 1),
      ),
    ).toBe('b');
    expect(
      call(
        'index',
        [h(['a', 1n], ['b', 2n])],
        makeLambda((k) => k === 'a', 2),
      ),
    ).toBe('a');
    expect(call('index', [h(['a', 1n]), 1n])).toBe('a');
  });

  it('partitions arrays and hashes', () => {
    expect(
      call(
        'partition',
        [[1n, 2n, 3n]],
        makeLambda((x) => (x as bigint) > 1n, 1),
      ),
    ).toEqual([[2n, 3n], [1n]]);
    expect(
      call(
        'partition',
        [[5n, 6n]],
        makeLambda((i) => (i as bigint) > 0n, 2),
      ),
    ).toEqual([[6n], [5n]]);
    expect(
      call(
        'partition',
        [h(['a', 1n], ['b', 2n])],
        makeLambda((_k, v) => (v as bigint) > 1n, 2),
      ),
    ).toEqual([[['b', 2n]], [['a', 1n]]]);
    expect(
      callError(
        'partition',
        ['abc'],
        makeLambda(() => true, 1),
      ).message,
    ).toBe("'partition' parameter 'collection' expects a Collection value, got String");
  });
});

describe('with, then, lest, tree_each and the jumps', () => {
  it('calls with the arguments', () => {
    expect(
      call(
        'with',
        [1n, 2n],
        makeLambda((a, b) => (a as bigint) + (b as bigint), 2),
      ),
    ).toBe(3n);
  });

  it('then skips undef, lest replaces it (fn_lest_and_then)', () => {
    expect(
      call(
        'then',
        [21n],
        makeLambda((x) => (x as bigint) * 2n, 1),
      ),
    ).toBe(42n);
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
        [[1n]],
        makeLambda(() => 'fallback', 0),
      ),
    ).toEqual([1n]);
    expect(
      callError(
        'lest',
        [undefined],
        makeLambda(() => 1n, 1),
      ).message,
    ).toBe("'lest' block expects no arguments, got 1");
    expect(
      callError(
        'then',
        [1n],
        makeLambda(() => 1n, 2),
      ).message,
    ).toBe("'then' block expects 1 argument, got 2");
  });

  it('walks trees depth first by default, breadth first on request', () => {
    const tree = [1n, [2n, h(['a', 3n])]];
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
    expect(values).toEqual([1n, 2n, 3n]);
  });

  it('break, next and return throw their signals', () => {
    expect(() => call('break', [])).toThrow(BreakSignal);
    try {
      call('next', [5n]);
    } catch (e) {
      expect(e).toBeInstanceOf(NextSignal);
      expect((e as NextSignal).value).toBe(5n);
    }
    expect(() => call('return', [])).toThrow(ReturnSignal);
  });
});

describe('keys, values, join, flatten', () => {
  it('lists keys and values (fn_keys_values)', () => {
    expect(call('keys', [h(['a', 1n], ['b', 2n])])).toEqual(['a', 'b']);
    expect(call('values', [h(['a', 1n], ['b', 2n])])).toEqual([1n, 2n]);
    expect(callError('keys', [[1n]]).message).toBe("'keys' parameter 'hsh' expects a Hash value, got Tuple");
    expect(callError('join', [1n]).message).toBe(
      "'join' parameter 'arg' expects an Array value, got Integer",
    );
  });

  it('joins as Ruby does: nested arrays flattened, undef empty (fn_join)', () => {
    expect(call('join', [['a', 'b', 'c'], ', '])).toBe('a, b, c');
    expect(call('join', [['x', 'y']])).toBe('xy');
    expect(callError('join', [['x'], undefined]).message).toBe(
      "'join' parameter 'delimiter' expects a String value, got Undef",
    );
    expect(call('join', [[1n, [2n, 3n]], '-'])).toBe('1-2-3');
    expect(
      call('join', [[1n, 2.5, 1e20, true, undefined, 's', h(['a', 1n], [2n, [3n]]), new PRegexp('re')], ',']),
    ).toBe('1,2.5,1.0e+20,true,,s,{"a"=>1, 2=>[3]},(?-mix:re)');
    expect(call('join', [[new PSensitive('x'), type('Integer', 1n, 2n)], ','])).toBe(
      'Sensitive [value redacted],Integer[1, 2]',
    );
  });

  it('flattens its arguments deeply', () => {
    expect(call('flatten', [[1n, [2n, [3n]]], 4n])).toEqual([1n, 2n, 3n, 4n]);
  });
});

describe('unique and sort', () => {
  it('keeps first occurrences, case-sensitive, 1 and 1.0 apart (fn_unique)', () => {
    expect(call('unique', [[1n, 2n, 1n, 3n, 2n]])).toEqual([1n, 2n, 3n]);
    expect(call('unique', [['a', 'A', 'a']])).toEqual(['a', 'A']);
    expect(call('unique', [[1n, 1.0, [1n], [1n]]])).toEqual([1n, 1.0, [1n]]);
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
    expect(call('unique', [h(['a', 1n], ['b', 2n], ['c', 1n])])).toEqual(
      h([['a', 'c'], [1n]], [['b'], [2n]]),
    );
  });

  it('sorts numbers and strings in byte order (fn_sort)', () => {
    expect(call('sort', [[3n, 1n, 2n]])).toEqual([1n, 2n, 3n]);
    expect(call('sort', [['b', 'A', 'a', 'C']])).toEqual(['A', 'C', 'a', 'b']);
    expect(call('sort', [['é', 'z', 'Z']])).toEqual(['Z', 'z', 'é']);
    expect(call('sort', [[2n, 1.5, 1n]])).toEqual([1n, 1.5, 2n]);
    expect(call('sort', [[[1n, 2n], [1n], [0n, 5n]]])).toEqual([[0n, 5n], [1n], [1n, 2n]]);
    expect(call('sort', ['cba'])).toBe('abc');
  });

  it('sorts with a comparator lambda (fn_sort_with_lambda)', () => {
    const desc = makeLambda((a, b) => call('compare', [b, a]), 2);
    expect(call('sort', [[3n, 1n, 2n]], desc)).toEqual([3n, 2n, 1n]);
    const seen: Value[] = [];
    const record = makeLambda((a, b) => {
      seen.push([a, b]);
      return -1n;
    }, 2);
    call('sort', [[1n, 2n]], record);
    expect(seen).toEqual([[1n, 2n]]);
    expect(
      callError(
        'sort',
        [[1n, 2n]],
        makeLambda(() => 'x', 2),
      ).message,
    ).toBe('comparison of String with 0 failed');
  });

  it('refuses to order values of different kinds, as Ruby words it', () => {
    const err = callError('sort', [[1n, 'a']]);
    expect(err.code).toBe('EPP_OPERATOR');
    expect(err.message).toBe('comparison of Integer with String failed');
  });
});

describe('length, size, empty', () => {
  it('counts characters, elements and entries (fn_size_length)', () => {
    expect(call('size', [[1n, 2n, 3n]])).toBe(3n);
    expect(call('length', ['hello'])).toBe(5n);
    expect(call('length', ['héllo😀'])).toBe(6n);
    expect(call('size', [h(['a', 1n])])).toBe(1n);
    expect(call('size', [''])).toBe(0n);
    expect(callError('size', [undefined]).message).toBe(
      "'size' parameter 'arg' expects a value of type Collection, String, or Binary, got Undef",
    );
  });

  it('tells emptiness (fn_empty); numbers are never empty, with a deprecation warning', () => {
    expect([[''], [[]], [new Map()], ['a'], [[1n]], [undefined]].map((a) => call('empty', a))).toEqual([
      true,
      true,
      true,
      false,
      false,
      true,
    ]);
    const ctx = fakeContext();
    expect(call('empty', [0n], undefined, ctx)).toBe(false);
    expect(ctx.warnings).toEqual(['Calling function empty() with Numeric value is deprecated.']);
    expect(call('empty', [new PSensitive('')])).toBe(true);
  });
});

describe('dig and get', () => {
  const data = h(['a', h(['b', ['deep']])], ['list', [1n, 2n]]);

  it('digs through hashes and arrays; a missing step gives undef (fn_dig)', () => {
    expect(call('dig', [data, 'a', 'b', 0n])).toBe('deep');
    expect(call('dig', [data, 'a', 'zz', 0n])).toBeUndefined();
    expect(call('dig', [[1n, 2n], -1n])).toBe(2n);
    expect(call('dig', [[1n, 2n], 5n])).toBeUndefined();
    expect(call('dig', [undefined, 'x'])).toBeUndefined();
  });

  it('reports what it cannot walk through with the walked path', () => {
    const err = callError('dig', [h(['a', 'hey']), 'a', 'x']);
    expect(err.code).toBe('EPP_ACCESS');
    expect(err.message).toBe(`The given data does not contain a Collection at ["a"], got 'String'`);
    expect(callError('dig', [h(['a', [1n]]), 'a', 'x']).message).toBe(
      `The given data requires an Integer index at ["a", "x"], got 'String'`,
    );
  });

  it('gets by dotted path with a default (fn_get)', () => {
    const hx = h(['a', h(['b', 'x'])], ['list', [1n, 2n]]);
    expect(call('get', [hx, 'a.b'])).toBe('x');
    expect(call('get', [hx, 'a.c', 'dflt'])).toBe('dflt');
    expect(call('get', [hx, 'list.1'])).toBe(2n);
    expect(call('get', [hx, 'list.-1'])).toBe(2n);
    expect(call('get', [undefined, 'a', 5n])).toBe(5n);
    expect(call('get', [hx, ''])).toBe(hx);
    expect(call('get', [h(['a.b', 1n]), '"a.b"'])).toBe(1n);
    expect(call('get', [h(['1', 's'], [1n, 'i']), '1'])).toBe('i');
  });

  it('passes slice errors to the lambda, and refuses bad paths', () => {
    const got = call(
      'get',
      [h(['a', [1n]]), 'a.x'],
      makeLambda((e) => hashLookup(e as Map<Value, Value>, 'msg').value, 1),
    );
    expect(got).toBe(`The given data requires an Integer index at ["a", "x"], got 'String'`);
    expect(callError('get', [h(['a', [1n]]), 'a..x']).message).toBe(
      'Syntax error in dotted-navigation string',
    );
    expect(splitNavigation(`a.'b.c'.0`)).toEqual(['a', 'b.c', 0n]);
    expect(splitNavigation('a.')).toBeUndefined();
    expect(splitNavigation('7')).toEqual([7n]);
  });
});

describe('min and max', () => {
  it('compares numbers (fn_min_max)', () => {
    expect(call('min', [3n, 1n, 2n])).toBe(1n);
    expect(call('max', [3n, 1n, 2n])).toBe(3n);
    expect(call('max', [[4n, 9n, 2n]])).toBe(9n);
    expect(call('min', [1n, 2.5])).toBe(1n);
  });

  it('compares numeric-looking strings as numbers, other strings by bytes', () => {
    expect(call('max', ['10', '9'])).toBe('10');
    expect(call('min', ['b', 'A', 'a'])).toBe('A');
    expect(call('max', [1n, 'a'])).toBe('a');
    const ctx = fakeContext();
    expect(call('max', [true, 5n], undefined, ctx)).toBe(true);
    expect(call('max', ['10', '9'], undefined, ctx)).toBe('10');
    expect(call('max', ['10', '9'], undefined, ctx)).toBe('10');
    expect(ctx.warnings).toEqual([
      "The max() function's auto conversion of Any to String is deprecated - change to convert input before calling, or use lambda",
      "The max() function's auto conversion of String to Numeric is deprecated - change to convert input before calling, or use lambda",
    ]);
  });

  it('uses a lambda comparator, and needs at least one value', () => {
    const byLength = makeLambda((a, b) => BigInt((a as string).length - (b as string).length), 2);
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
        makeLambda((i) => (i as bigint) % 2n, 2),
      ),
    ).toEqual(h([0n, ['x', 'z']], [1n, ['y']]));
    expect(
      call(
        'group_by',
        [h(['a', 1n], ['b', 2n])],
        makeLambda((_k, v) => (v as bigint) > 1n, 2),
      ),
    ).toEqual(h([false, [['a', 1n]]], [true, [['b', 2n]]]));
  });

  it('rounds half away from zero, floors and ceils to Integers (fn_round_floor_ceiling)', () => {
    expect([2.5, -2.5, 2.4].map((x) => call('round', [x]))).toEqual([3n, -3n, 2n]);
    expect(call('floor', [3.7])).toBe(3n);
    expect(call('ceiling', [3.2])).toBe(4n);
    expect(call('floor', [-3.5])).toBe(-4n);
    expect(call('floor', [7n])).toBe(7n);
    expect(call('floor', ['3.7'])).toBe(3n);
    expect(callError('ceiling', ['x']).message).toBe(
      'ceiling(): cannot convert given value to a floating point value.',
    );
    expect(
      callError(
        'max',
        [[1n, 'a']],
        makeLambda(() => undefined, 2),
      ).message,
    ).toBe('comparison of String with 1 failed');
    expect(callError('round', ['1']).message).toBe(
      "'round' parameter 'val' expects a Numeric value, got String",
    );
  });

  it('takes absolute values of numbers and numeric strings', () => {
    expect(call('abs', [-3n])).toBe(3n);
    expect(call('abs', [-2.5])).toBe(2.5);
    expect(call('abs', ['-4'])).toBe(4n);
    expect(call('abs', ['-4.5'])).toBe(4.5);
    expect(callError('abs', ['x']).message).toBe(
      'abs(): Requires float or integer to work with - was given non decimal string',
    );
  });

  it('compares numbers, strings (ignoring case unless told) and refuses mixtures', () => {
    expect(call('compare', [1n, 2.5])).toBe(-1n);
    expect(call('compare', ['B', 'a'])).toBe(1n);
    expect(call('compare', ['a', 'A'])).toBe(0n);
    expect(call('compare', ['a', 'A', false])).toBe(1n);
    expect(callError('compare', [1n, 'a']).message).toBe(
      "'compare' compare(): Can only compare values of the same type (or for Timestamp/Timespan also against Numeric). Got Integer and String",
    );
    expect(callError('compare', [[1n], [2n]]).message).toBe(
      "'compare' compare(): Non comparable type. Only values of the types Numeric, String, Semver, Timestamp and Timestamp can be compared. Got Array and Array",
    );
  });
});

describe('misc functions', () => {
  it('fail() joins its arguments with Ruby to_s (error_fail_function)', () => {
    const err = callError('fail', ['boom']);
    expect(err.code).toBe('EPP_FAIL');
    expect(err.message).toBe('boom');
    expect(callError('fail', ['a', [1n, 'b'], undefined, h(['k', undefined]), 2.0]).message).toBe(
      'a [1, "b"]  {"k"=>nil} 2.0',
    );
  });

  it('assert_type() returns the value, or fails with the mismatch (error_assert_type_mismatch)', () => {
    expect(call('assert_type', [type('Integer'), 1n])).toBe(1n);
    expect(call('assert_type', ['String', 'x'])).toBe('x');
    expect(call('assert_type', ['Array[String]', ['a']])).toEqual(['a']);
    expect(
      call('assert_type', ['Struct[{a => Integer[1, 2], b => Optional[Enum[x, "y"]]}]', h(['a', 2n])]),
    ).toEqual(h(['a', 2n]));
    expect(callError('assert_type', ['Array[String]', [1n]]).message).toBe(
      'assert_type(): index 0 expects a String value, got Integer',
    );
    expect(callError('assert_type', ['Nope[1]', 1n]).code).toBe('EPP_UNKNOWN_TYPE');
    expect(callError('assert_type', ['$x', 1n]).code).toBe('EPP_UNKNOWN_TYPE');
    const err = callError('assert_type', [type('Integer'), 'x']);
    expect(err.code).toBe('EPP_TYPE_MISMATCH');
    expect(err.message).toBe('assert_type(): expects an Integer value, got String');
    const block = makeLambda((expected, actual) => `${expected} vs ${actual}`, 2);
    expect(call('assert_type', [type('Integer'), 'x'], block)).toBe('Integer vs String');
  });

  it('type() infers detailed, reduced and generalized types (fn_type)', () => {
    const show = (args: Value[]) => String(call('type', args));
    expect(show([1n])).toBe('Integer[1, 1]');
    expect(show(['abc'])).toBe('String');
    expect(show([[1n]])).toBe('Tuple[Integer[1, 1]]');
    expect(show([1n, 'generalized'])).toBe('Integer');
    expect(show([h(['a', 1n]), 'generalized'])).toBe('Hash[String, Integer]');
    expect(callError('type', [1n, 'other']).code).toBe('EPP_ARGUMENTS');
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
    const ctx = fakeContext({ x: 1n, u: undefined, h: h(['a', [5n, 6n]]) });
    expect(call('getvar', ['x'], undefined, ctx)).toBe(1n);
    expect(call('getvar', ['::x'], undefined, ctx)).toBe(1n);
    expect(call('getvar', ['h.a.1'], undefined, ctx)).toBe(6n);
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
    expect(call('epp', ['x.epp', h(['a', 1n])], undefined, ctx)).toBe('<x.epp>');
    expect(call('inline_epp', ['<%= 1 %>'], undefined, ctx)).toBe('<<%= 1 %>>');
    expect(ctx.rendered).toEqual(['file x.epp a', 'inline <%= 1 %> undefined']);
    expect(callError('epp', ['x.epp', 'nope'], undefined, ctx).message).toBe(
      "'epp' parameter 'parameters' expects a Hash value, got String",
    );
    expect(callError('inline_epp', ['t', h(['a-b', 1n])], undefined, ctx).message).toBe(
      "'inline_epp' parameter 'parameters' key of entry 'a-b' expects a match for Pattern[/^\\w+$/], got 'a-b'",
    );
  });

  it('logging functions print as interpolation does and return undef', () => {
    const ctx = fakeContext();
    expect(
      call('notice', ['a', [1n, 'b'], undefined, 2.0, new PSensitive(1n)], undefined, ctx),
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
    expect(puppetEquals([1n, 'A'], [1n, 'a'])).toBe(true);
    expect(puppetEquals(h(['a', 1n]), h(['a', 1.0]))).toBe(true);
    expect(puppetEquals([1n, 2n], [2n, 1n])).toBe(false);
    expect(puppetEquals('1', 1n)).toBe(false);
    expect(puppetEquals(1n, '1')).toBe(false);
    expect(puppetEquals('ABC', 'abc')).toBe(true);
    expect(puppetEquals('É', 'é')).toBe(false);
    expect(puppetEquals(h(['a', 1n]), h(['A', 1n]))).toBe(false);
    expect(puppetEquals(undefined, '')).toBe(false);
    expect(puppetEquals(undefined, undefined)).toBe(true);
    expect(puppetEquals(new PRegexp('a'), new PRegexp('a'))).toBe(true);
  });

  it('compareForOperator orders strings ignoring case and refuses mixtures (cmp_strings_ordering)', () => {
    expect(compareForOperator('a', 'b')).toBeLessThan(0);
    expect(compareForOperator('B', 'a')).toBeGreaterThan(0);
    expect(compareForOperator('10', '9')).toBeLessThan(0);
    expect(compareForOperator(1n, 1.5)).toBeLessThan(0);
    expect(compareForOperator(2n, 2.0)).toBe(0);
    let err: unknown;
    try {
      compareForOperator(1n, 'a');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EppEvalError);
    expect((err as EppEvalError).code).toBe('EPP_OPERATOR');
    expect((err as EppEvalError).message).toBe(
      "Comparison of: Integer < String, is not possible. Caused by 'A Numeric is not comparable to non Numeric'.",
    );
    expect(() => compareForOperator('a', 1n, '>=')).toThrow(
      "Comparison of: String >= Integer, is not possible. Caused by 'A String is not comparable to a non String'.",
    );
    expect(() => compareForOperator([1n], [2n])).toThrow(
      "Comparison of: Array < Array, is not possible. Caused by 'Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable'.",
    );
  });

  it('compareValues is Ruby <=>: case-sensitive, code point order', () => {
    expect(compareValues('B', 'a')).toBeLessThan(0);
    expect(compareValues('\u{ffff}', '\u{10000}')).toBeLessThan(0);
    expect(compareValues([1n, 2n], [1n])).toBeGreaterThan(0);
    expect(() => compareValues(true, false)).toThrow('comparison of TrueClass with false failed');
  });

  it('rubyEql and hashLookup find structured keys by value', () => {
    expect(rubyEql(1n, 1.0)).toBe(false);
    expect(rubyEql([1n, h(['a', 'b'])], [1n, h(['a', 'b'])])).toBe(true);
    expect(rubyEql('a', 'A')).toBe(false);
    const hash = h([[1n, 2n], 'pair'], ['k', 'v']);
    expect(hashLookup(hash, [1n, 2n])).toEqual({ found: true, value: 'pair' });
    expect(hashLookup(hash, 'K')).toEqual({ found: false, value: undefined });
  });
});

describe('the registry of built-ins (index.ts)', () => {
  it('holds every function of this module and no catalogue function, with sorted names', async () => {
    const { coreFunctions, FUNCTION_NAMES } = await import('../../src/epp/functions/index.js');
    for (const def of [...iterationFunctions, ...collectionFunctions, ...miscFunctions]) {
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
