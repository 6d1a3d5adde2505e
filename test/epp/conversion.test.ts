import { describe, expect, it } from 'vitest';
import { EppEvalError } from '../../src/epp/errors.js';
import { convertToFunction, newFunction, newInstance } from '../../src/epp/functions/conversion.js';
import { type CallContext, invoke, type Lambda } from '../../src/epp/functions/registry.js';
import { type PType, parameterizeType, resolveTypeName } from '../../src/epp/runtime/types.js';
import {
  DEFAULT,
  float,
  PFloat,
  type PInteger,
  type PRegexp,
  PSensitive,
  PTimestamp,
  type Value,
} from '../../src/epp/runtime/values.js';

/** `T('Integer', 1, 5)` is `Integer[1, 5]`. */
function T(name: string, ...params: Value[]): PType {
  const t = resolveTypeName(name)!;
  return params.length ? parameterizeType(t, params) : t;
}

const h = (...entries: [Value, Value][]) => new Map<Value, Value>(entries);

function failure(fn: () => unknown): EppEvalError {
  try {
    fn();
  } catch (e) {
    if (e instanceof EppEvalError) return e;
    throw e;
  }
  throw new Error('expected an EppEvalError');
}

const conversionError = (type: PType, args: Value[]) => failure(() => newInstance(type, args));

describe('Integer.new (Puppet 7 fn_integer_conversion and oracle)', () => {
  it.each<[Value[], PInteger]>([
    [['42'], 42],
    [['0x10'], 16],
    [['0x1F'], 31],
    [['010'], 8],
    [['-010'], -8],
    [['0b101'], 5],
    [['-0b11'], -3],
    [['-5'], -5],
    [['+7'], 7],
    [[' 12'], 12],
    [['- 12'], -12],
    [['+ 5'], 5],
    [['0'], 0],
    [['00'], 0],
    [[float(3.9)], 3],
    [[float(-3.9)], -3],
    [[true], 1],
    [[false], 0],
    [[7], 7],
    [['10', 16], 16],
    [['0x10', 16], 16],
    [['777', 8], 511],
    [['010', 10], 10],
    [['101', 2], 5],
    [['0b101', 2], 5],
    [['12', 10, true], 12],
    [['-12', DEFAULT, true], 12],
    [['1', DEFAULT, true], 1],
    [['99999999999999999999'], 99999999999999999999n],
    [[new PTimestamp(12700000000n)], 12],
  ])('Integer(%o) is %s', (args, expected) => {
    expect(newInstance(T('Integer'), args)).toBe(expected);
  });
  it('takes named arguments in a hash', () => {
    expect(newInstance(T('Integer'), [h(['from', '10'], ['radix', 2])])).toBe(2);
    expect(newInstance(T('Integer'), [h(['from', '-0x10'], ['abs', true])])).toBe(16);
  });
  it.each<[Value[], string]>([
    // Puppet's words, its `new` function's name first (puppet epp render, session 17); Ruby's own where
    // Puppet's pattern lets a text through that Ruby's Integer() refuses.
    [['abc'], "'new' The string 'abc' cannot be converted to Integer"],
    [['08'], 'invalid value for Integer(): "08"'],
    [[' 12 '], "'new' The string ' 12 ' cannot be converted to Integer"],
    [['1.5'], "'new' The string '1.5' cannot be converted to Integer"],
    [['1_000'], "'new' The string '1_000' cannot be converted to Integer"],
    [['ff', 16], "'new' The string 'ff' cannot be converted to Integer"],
    [['12', 2], 'invalid value for Integer(): "12"'],
    [['0x10', 8], 'invalid value for Integer(): "0x10"'],
    [[[1]], "'new' Value of type Array[Integer] cannot be converted to Integer"],
    [[undefined], "'new' Value of type Undef cannot be converted to Integer"],
    [[float(Number.NaN)], "'new' Value of type Float cannot be converted to Integer"],
  ])('Integer(%o) fails: %s', (args, message) => {
    const e = conversionError(T('Integer'), args);
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.message).toBe(message);
  });
  it('rejects an illegal radix', () => {
    const e = conversionError(T('Integer'), ['12', 3]);
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.message).toBe('Illegal radix: 3, expected 2, 8, 10, 16, or default');
  });
  it('checks the result against a constrained type', () => {
    expect(newInstance(T('Integer', 1, 5), ['3'])).toBe(3);
    const e = conversionError(T('Integer', 1, 5), ['10']);
    expect(e.code).toBe('EPP_TYPE_MISMATCH');
    expect(e.message).toBe(
      'Converted value from Integer[1, 5].new() has wrong type, expects an Integer[1, 5] value, got Integer[10, 10]',
    );
  });
  it('checks the argument count', () => {
    const e = conversionError(T('Integer'), ['1', 10, true, 4]);
    expect(e.code).toBe('EPP_ARGUMENTS');
    // Puppet 7.23's words: Integer's `new` is the function `new`.
    expect(e.message).toBe("'new' expects between 1 and 3 arguments, got 4");
    expect(conversionError(T('Integer'), []).code).toBe('EPP_ARGUMENTS');
  });
});

describe('Float.new and Numeric.new (fn_float_numeric_conversion and oracle)', () => {
  it.each<[Value[], number]>([
    [['1'], 1],
    [[2], 2],
    [['0x1A'], 26],
    [['010'], 10],
    [['0b101'], 5],
    [['-1.5e3'], -1500],
    [[' 2'], 2],
    [[' 1.5'], 1.5],
    [['- 2.5'], -2.5],
    [[true], 1],
    [[false], 0],
    [[-2, true], 2],
    [[float(1.25)], 1.25],
    [[float(-0.5), true], 0.5],
  ])('Float(%o) is %s', (args, expected) => {
    const v = newInstance(T('Float'), args);
    expect(v).toBeInstanceOf(PFloat);
    expect(v).toBe(float(expected));
  });
  it.each<[string]>([['.5'], ['1.'], ['08'], ['abc'], ['1e'], ['-0b11']])('Float(%o) fails', (text) => {
    const e = conversionError(T('Float'), [text]);
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.message).toBe(`'new_float' The string '${text}' cannot be converted to Float`);
  });
  it.each<[Value[], Value]>([
    [['3'], 3],
    [['3.5'], float(3.5)],
    [['0x10'], 16],
    [['010'], 8],
    [['-3'], -3],
    [[' 7'], 7],
    [['- 7'], -7],
    [['1e3'], float(1000)],
    [['1.0'], float(1)],
    [[float(2)], float(2)],
    [['0b11'], 3],
    [[true], 1],
    [[float(-2.5), true], float(2.5)],
    [[4], 4],
  ])('Numeric(%o) is %s', (args, expected) => {
    expect(newInstance(T('Numeric'), args)).toBe(expected);
  });
  it('fails on non-numeric text and values', () => {
    expect(conversionError(T('Numeric'), ['x']).message).toBe(
      "'new_numeric' The string 'x' cannot be converted to Numeric",
    );
    expect(conversionError(T('Numeric'), ['08']).message).toBe(
      "'new_numeric' The string '08' cannot be converted to Numeric",
    );
    expect(conversionError(T('Numeric'), [[1]]).message).toBe(
      "'new_numeric' Value of type Array[Integer] cannot be converted to Numeric",
    );
  });
});

describe('Boolean.new (fn_boolean_conversion and oracle)', () => {
  it.each<[Value, boolean]>([
    ['true', true],
    ['no', false],
    ['Yes', true],
    ['N', false],
    ['y', true],
    ['FALSE', false],
    [1, true],
    [0, false],
    [float(0), false],
    [float(2.5), true],
    [false, false],
  ])('Boolean(%o) is %s', (from, expected) => {
    expect(newInstance(T('Boolean'), [from])).toBe(expected);
  });
  it('fails on other strings and values', () => {
    expect(conversionError(T('Boolean'), ['maybe']).message).toBe(
      "'new_boolean' The string 'maybe' cannot be converted to Boolean",
    );
    expect(conversionError(T('Boolean'), ['']).message).toBe(
      "'new_boolean' The string '' cannot be converted to Boolean",
    );
    expect(conversionError(T('Boolean'), [undefined]).message).toBe(
      "'new_boolean' Value of type Undef cannot be converted to Boolean",
    );
  });
});

describe('Array.new and Hash.new (fn_array_hash_conversion and oracle)', () => {
  it('converts iterables to arrays', () => {
    expect(newInstance(T('Array'), ['abc'])).toEqual(['a', 'b', 'c']);
    expect(newInstance(T('Array'), [3])).toEqual([0, 1, 2]);
    expect(newInstance(T('Array'), [T('Integer', 1, 3)])).toEqual([1, 2, 3]);
    expect(newInstance(T('Array'), [T('Integer', 1, 2), false])).toEqual([1, 2]);
    expect(newInstance(T('Array'), [T('Enum', 'b', 'a')])).toEqual(['a', 'b']);
    expect(newInstance(T('Array'), [h(['a', 1])])).toEqual([['a', 1]]);
    const arr = [1];
    expect(newInstance(T('Array'), [arr])).toBe(arr);
  });
  it('wraps with a true second argument', () => {
    expect(newInstance(T('Array'), ['a', true])).toEqual(['a']);
    expect(newInstance(T('Array'), [[1], true])).toEqual([1]);
    expect(newInstance(T('Array'), [h(['a', 1]), true])).toEqual([h(['a', 1])]);
  });
  it('refuses non-iterables unless wrapping', () => {
    const e = conversionError(T('Array'), [undefined]);
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.message).toBe("'new_array' Value of type Undef cannot be converted to Array");
    expect(conversionError(T('Array'), [float(1.5)]).message).toBe(
      "'new_array' Value of type Float cannot be converted to Array",
    );
  });
  it('checks the element type of a constrained Array', () => {
    expect(newInstance(T('Array', T('String')), ['ab'])).toEqual(['a', 'b']);
    expect(conversionError(T('Array', T('Integer')), ['ab']).code).toBe('EPP_TYPE_MISMATCH');
  });
  it('converts pairs, flat arrays and iterables to hashes', () => {
    expect(
      newInstance(T('Hash'), [
        [
          ['a', 1],
          ['b', 2],
        ],
      ]),
    ).toEqual(h(['a', 1], ['b', 2]));
    expect(newInstance(T('Hash'), [[1, 2, 3, 4]])).toEqual(h([1, 2], [3, 4]));
    expect(newInstance(T('Hash'), ['ab'])).toEqual(h(['a', 'b']));
    expect(newInstance(T('Hash'), [[]])).toEqual(new Map());
  });
  it('builds trees', () => {
    const entries = [
      [['a', 'b'], 1],
      [['a', 'c'], 2],
    ];
    expect(newInstance(T('Hash'), [entries, 'tree'])).toEqual(h(['a', h(['b', 1], ['c', 2])]));
    expect(newInstance(T('Hash'), [[[['a'], [1, 2]]], 'hash_tree'])).toEqual(h(['a', h([0, 1], [1, 2])]));
  });
  it('fails on odd flat arrays and non-iterables', () => {
    const e = conversionError(T('Hash'), [[1, 2, 3]]);
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.message).toBe('odd number of arguments for Hash');
    expect(conversionError(T('Hash'), [float(1.5)]).message).toBe(
      'Value of type Float cannot be converted to Hash',
    );
  });
  it('converts to Struct and Tuple through Hash and Array', () => {
    const struct = parameterizeType(T('Struct'), [h(['a', T('Integer')])]);
    expect(newInstance(struct, [['a', 1]])).toEqual(h(['a', 1]));
    expect(newInstance(T('Tuple', T('String'), T('String')), ['ab'])).toEqual(['a', 'b']);
  });
});

describe('String, Sensitive, Regexp, Timestamp, Type and wrappers', () => {
  it('String() delegates to stringify (fn_string_conversion, fn_string_with_format)', () => {
    expect(newInstance(T('String'), [1])).toBe('1');
    expect(newInstance(T('String'), [float(1)])).toBe('1.000000');
    expect(newInstance(T('String'), [[1, 'a']])).toBe("[1, 'a']");
    expect(newInstance(T('String'), [float(1.23456), '%.2f'])).toBe('1.23');
    expect(newInstance(T('String'), [255, '%x'])).toBe('ff');
    expect(newInstance(T('String'), ['x'])).toBe('x');
  });
  it('wraps Sensitive once', () => {
    const s = newInstance(T('Sensitive'), ['x']);
    expect(s).toBeInstanceOf(PSensitive);
    expect((s as PSensitive).value).toBe('x');
    expect(newInstance(T('Sensitive'), [s])).toBe(s);
  });
  it('makes regexps, optionally escaped', () => {
    expect((newInstance(T('Regexp'), ['a.b', true]) as PRegexp).source).toBe('a\\.b');
    expect((newInstance(T('Regexp'), ['a b']) as PRegexp).source).toBe('a b');
    // Puppet 7.23's words (its Regexp `new` is a function named new_float).
    expect(conversionError(T('Regexp'), [1]).message).toBe(
      "'new_float' parameter 'pattern' expects a String value, got Integer",
    );
  });
  it('parses ISO timestamps as UTC and takes seconds', () => {
    expect((newInstance(T('Timestamp'), ['2020-02-03T04:05:06Z']) as PTimestamp).nanos).toBe(
      1580702706000000000n,
    );
    expect((newInstance(T('Timestamp'), ['2020-02-03T04:05:06']) as PTimestamp).nanos).toBe(
      1580702706000000000n,
    );
    expect((newInstance(T('Timestamp'), ['2020-02-03']) as PTimestamp).nanos).toBe(1580688000000000000n);
    expect((newInstance(T('Timestamp'), ['2020-02-03T05:05:06+01:00']) as PTimestamp).nanos).toBe(
      1580702706000000000n,
    );
    expect((newInstance(T('Timestamp'), [0]) as PTimestamp).nanos).toBe(0n);
    expect(conversionError(T('Timestamp'), ['yesterday']).code).toBe('EPP_CONVERSION');
    // Puppet's words (puppet epp render, session 17).
    expect(conversionError(T('Timestamp'), ['2020-13-01']).message).toBe(
      "Unable to parse '2020-13-01' using any of the formats %FT%T.%N %Z, %FT%T %Z, %F %T.%N %Z, %F %T %Z, %F %Z, %FT%T.%N, %FT%T, %F %T.%N, %F %T, %F",
    );
  });
  it('resolves type names with Type()', () => {
    expect(String(newInstance(T('Type'), ['Integer']))).toBe('Integer');
    expect(conversionError(T('Type'), ['Nope']).message).toBe(
      "The string 'Nope' cannot be converted to Type",
    );
  });
  it('converts through Optional, NotUndef and Variant', () => {
    expect(newInstance(T('Optional', T('Integer')), ['3'])).toBe(3);
    expect(newInstance(T('NotUndef', T('Integer')), ['3'])).toBe(3);
    expect(newInstance(T('NotUndef'), ['3'])).toBe('3');
    // A Variant of several types makes only what is already one of them (puppet epp render, session 17).
    expect(newInstance(T('Variant', T('Integer'), T('Boolean')), [true])).toBe(true);
    expect(newInstance(T('Variant', T('Integer')), ['3'])).toBe(3);
    for (const given of ['yes', '12']) {
      expect(conversionError(T('Variant', T('Integer'), T('Boolean')), [given]).message).toBe(
        "Creation of new instance of type 'Variant[Integer, Boolean]' is not supported",
      );
    }
  });
  it('refuses types that cannot be created', () => {
    for (const name of ['Any', 'Undef', 'Scalar', 'Data', 'Collection', 'Callable']) {
      const e = conversionError(T(name), ['x', 'y']);
      expect(e.code).toBe('EPP_CONVERSION');
      expect(e.message).toBe(`Creation of new instance of type '${name}' is not supported`);
    }
  });
  it('returns a single argument that already is an instance unchanged', () => {
    const data = h(['a', 1]);
    expect(newInstance(T('Data'), [data])).toBe(data);
    expect(newInstance(T('Any'), [undefined])).toBeUndefined();
  });
});

describe('the new and convert_to functions', () => {
  const ctx = {} as CallContext;
  const lambda = (fn: (v: Value) => Value): Lambda =>
    Object.assign((...args: Value[]) => fn(args[0]), { paramCount: 1, requiredCount: 1, hasRest: false });

  it('new(Type, args...) converts and passes the result to a block', () => {
    expect(invoke(newFunction, ctx, [T('Integer'), '0x10'], undefined)).toBe(16);
    expect(
      invoke(
        newFunction,
        ctx,
        [T('Integer'), '5'],
        lambda((v) => (v as number) * 2),
      ),
    ).toBe(10);
  });
  it('new requires a type', () => {
    const e = failure(() => invoke(newFunction, ctx, ['Integer', '5'], undefined));
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.message).toBe("'new' parameter 'type' expects a Type value, got String");
    expect(failure(() => invoke(newFunction, ctx, [], undefined)).code).toBe('EPP_ARGUMENTS');
  });
  it('convert_to(value, Type, args...) is new with the value first', () => {
    expect(invoke(convertToFunction, ctx, ['12', T('Integer')], undefined)).toBe(12);
    expect(invoke(convertToFunction, ctx, ['10', T('Integer'), 2], undefined)).toBe(2);
    expect(
      invoke(
        convertToFunction,
        ctx,
        ['a', T('Array'), true],
        lambda((v) => (v as Value[]).length),
      ),
    ).toBe(1);
  });
});

describe('Integers and Floats made by new (the value model)', () => {
  it('makes Integers as numbers, beyond 2^53 as exact bigints', () => {
    expect(newInstance(T('Integer'), ['0x10'])).toBe(16);
    expect(newInstance(T('Integer'), ['9007199254740991'])).toBe(9007199254740991);
    expect(newInstance(T('Integer'), ['9007199254740993'])).toBe(9007199254740993n);
    expect(newInstance(T('Integer'), [float(2 ** 60)])).toBe(2n ** 60n);
    expect(newInstance(T('Integer'), [-9007199254740993n, DEFAULT, true])).toBe(9007199254740993n);
    expect(newInstance(T('Integer'), [float(-0.5)])).toBe(0);
    expect(Object.is(newInstance(T('Integer'), [float(-0.5)]), -0)).toBe(false);
  });
  it('makes Floats, distinct from Integers', () => {
    const one = newInstance(T('Float'), ['1']);
    expect(one).toBe(float(1));
    expect(one).not.toBe(1);
    expect(newInstance(T('Numeric'), ['1'])).toBe(1);
    expect(newInstance(T('Numeric'), ['1.0'])).toBe(float(1));
    expect(newInstance(T('Numeric'), ['-0.0'])).toBe(float(-0));
    expect(newInstance(T('Float'), [9007199254740993n])).toBe(float(9007199254740992));
  });
  it('refuses a Float radix: no dispatch of Integer.new takes it (Puppet 7.23, session 30)', () => {
    const convertible =
      'Convertible = Variant[Numeric, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:\\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\\z/], Timespan, Timestamp]';
    const radix = 'Radix = Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]]';
    expect(conversionError(T('Integer'), ['10', float(2)]).message).toBe(
      [
        "The function 'new' was called with arguments it does not accept. It expects one of:",
        `  (${convertible} from, ${radix} radix?, Boolean abs?)`,
        `    rejected: parameter 'radix' expects a ${radix} value, got Float`,
        `  (NamedArgs = Struct[{'from' => ${convertible}, Optional['radix'] => ${radix}, Optional['abs'] => Boolean}] hash_args)`,
        '    rejected: expects 1 argument, got 2',
      ].join('\n'),
    );
    expect(conversionError(T('Integer'), ['10', 3]).message).toBe(
      'Illegal radix: 3, expected 2, 8, 10, 16, or default',
    );
  });
  it('indexes arrays with Integers in Array and Hash conversions', () => {
    expect(newInstance(T('Array'), [3])).toEqual([0, 1, 2]);
    expect(newInstance(T('Array'), [T('Integer', 9007199254740991, 9007199254740992n)])).toEqual([
      9007199254740991,
      9007199254740992n,
    ]);
    expect(newInstance(T('Hash'), [[[[], ['a', 'b']]], 'tree'])).toEqual(h([0, 'a'], [1, 'b']));
    expect(newInstance(T('Hash'), [[[['k'], ['a']]], 'hash_tree'])).toEqual(h(['k', h([0, 'a'])]));
  });
  it('makes Timestamps from Integers and Floats', () => {
    expect((newInstance(T('Timestamp'), [float(1.5)]) as PTimestamp).nanos).toBe(1500000000n);
    expect((newInstance(T('Timestamp'), [2]) as PTimestamp).nanos).toBe(2000000000n);
  });
  it('tells Integer from Float in Boolean()', () => {
    expect(newInstance(T('Boolean'), [9007199254740993n])).toBe(true);
    expect(newInstance(T('Boolean'), [float(-0)])).toBe(false);
  });
});

describe('Binary.new', () => {
  it('makes one object per content, so equal Binaries are one hash key (Ruby eql? by the bytes)', () => {
    const binary = resolveTypeName('Binary') as PType;
    const a = newInstance(binary, ['aGk=']);
    const b = newInstance(binary, ['hi', '%s']);
    const c = newInstance(binary, [[104, 105]]);
    expect(a).toBe(b);
    expect(c).toBe(a);
    expect(newInstance(binary, ['hj', '%s'])).not.toBe(a);
    expect(new Map([[a, 1]]).get(b)).toBe(1);
  });
});
