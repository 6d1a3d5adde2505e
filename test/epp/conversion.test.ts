import { describe, expect, it } from 'vitest';
import { EppEvalError } from '../../src/epp/errors.js';
import { convertToFunction, newFunction, newInstance } from '../../src/epp/functions/conversion.js';
import { type CallContext, invoke, type Lambda } from '../../src/epp/functions/registry.js';
import { type PType, parameterizeType, resolveTypeName } from '../../src/epp/runtime/types.js';
import { DEFAULT, type PRegexp, PSensitive, PTimestamp, type Value } from '../../src/epp/runtime/values.js';

/** `T('Integer', 1n, 5n)` is `Integer[1, 5]`. */
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
  it.each<[Value[], bigint]>([
    [['42'], 42n],
    [['0x10'], 16n],
    [['0x1F'], 31n],
    [['010'], 8n],
    [['-010'], -8n],
    [['0b101'], 5n],
    [['-0b11'], -3n],
    [['-5'], -5n],
    [['+7'], 7n],
    [[' 12'], 12n],
    [['- 12'], -12n],
    [['+ 5'], 5n],
    [['0'], 0n],
    [['00'], 0n],
    [[3.9], 3n],
    [[-3.9], -3n],
    [[true], 1n],
    [[false], 0n],
    [[7n], 7n],
    [['10', 16n], 16n],
    [['0x10', 16n], 16n],
    [['777', 8n], 511n],
    [['010', 10n], 10n],
    [['101', 2n], 5n],
    [['0b101', 2n], 5n],
    [['12', 10n, true], 12n],
    [['-12', DEFAULT, true], 12n],
    [['1', DEFAULT, true], 1n],
    [['99999999999999999999'], 99999999999999999999n],
    [[new PTimestamp(12.7)], 12n],
  ])('Integer(%o) is %s', (args, expected) => {
    expect(newInstance(T('Integer'), args)).toBe(expected);
  });
  it('takes named arguments in a hash', () => {
    expect(newInstance(T('Integer'), [h(['from', '10'], ['radix', 2n])])).toBe(2n);
    expect(newInstance(T('Integer'), [h(['from', '-0x10'], ['abs', true])])).toBe(16n);
  });
  it.each<[Value[], string]>([
    [['abc'], "The string 'abc' cannot be converted to Integer"],
    [['08'], "The string '08' cannot be converted to Integer"],
    [[' 12 '], "The string ' 12 ' cannot be converted to Integer"],
    [['1.5'], "The string '1.5' cannot be converted to Integer"],
    [['1_000'], "The string '1_000' cannot be converted to Integer"],
    [['ff', 16n], "The string 'ff' cannot be converted to Integer"],
    [['12', 2n], "The string '12' cannot be converted to Integer"],
    [['0x10', 8n], "The string '0x10' cannot be converted to Integer"],
    [[[1n]], 'Value of type Array[Integer] cannot be converted to Integer'],
    [[undefined], 'Value of type Undef cannot be converted to Integer'],
    [[Number.NaN], 'Value of type Float cannot be converted to Integer'],
  ])('Integer(%o) fails: %s', (args, message) => {
    const e = conversionError(T('Integer'), args);
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.message).toBe(message);
  });
  it('rejects an illegal radix', () => {
    const e = conversionError(T('Integer'), ['12', 3n]);
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.message).toBe('Illegal radix: 3, expected 2, 8, 10, 16, or default');
  });
  it('checks the result against a constrained type', () => {
    expect(newInstance(T('Integer', 1n, 5n), ['3'])).toBe(3n);
    const e = conversionError(T('Integer', 1n, 5n), ['10']);
    expect(e.code).toBe('EPP_TYPE_MISMATCH');
    expect(e.message).toBe(
      'Converted value from Integer[1, 5].new() has wrong type, expects an Integer[1, 5] value, got Integer[10, 10]',
    );
  });
  it('checks the argument count', () => {
    const e = conversionError(T('Integer'), ['1', 10n, true, 4n]);
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.message).toBe('Integer.new() expects between 1 and 3 arguments, got 4');
    expect(conversionError(T('Integer'), []).code).toBe('EPP_ARGUMENTS');
  });
});

describe('Float.new and Numeric.new (fn_float_numeric_conversion and oracle)', () => {
  it.each<[Value[], number]>([
    [['1'], 1],
    [[2n], 2],
    [['0x1A'], 26],
    [['010'], 10],
    [['0b101'], 5],
    [['-1.5e3'], -1500],
    [[' 2'], 2],
    [[' 1.5'], 1.5],
    [['- 2.5'], -2.5],
    [[true], 1],
    [[false], 0],
    [[-2n, true], 2],
    [[1.25], 1.25],
  ])('Float(%o) is %s', (args, expected) => {
    const v = newInstance(T('Float'), args);
    expect(typeof v).toBe('number');
    expect(v).toBe(expected);
  });
  it.each<[string]>([['.5'], ['1.'], ['08'], ['abc'], ['1e'], ['-0b11']])('Float(%o) fails', (text) => {
    const e = conversionError(T('Float'), [text]);
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.message).toBe(`The string '${text}' cannot be converted to Float`);
  });
  it.each<[Value[], Value]>([
    [['3'], 3n],
    [['3.5'], 3.5],
    [['0x10'], 16n],
    [['010'], 8n],
    [['-3'], -3n],
    [[' 7'], 7n],
    [['- 7'], -7n],
    [['1e3'], 1000],
    [['0b11'], 3n],
    [[true], 1n],
    [[-2.5, true], 2.5],
    [[4n], 4n],
  ])('Numeric(%o) is %s', (args, expected) => {
    expect(newInstance(T('Numeric'), args)).toBe(expected);
  });
  it('fails on non-numeric text and values', () => {
    expect(conversionError(T('Numeric'), ['x']).message).toBe(
      "The string 'x' cannot be converted to Numeric",
    );
    expect(conversionError(T('Numeric'), ['08']).message).toBe(
      "The string '08' cannot be converted to Numeric",
    );
    expect(conversionError(T('Numeric'), [[1n]]).message).toBe(
      'Value of type Array[Integer] cannot be converted to Numeric',
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
    [1n, true],
    [0n, false],
    [0, false],
    [2.5, true],
    [false, false],
  ])('Boolean(%o) is %s', (from, expected) => {
    expect(newInstance(T('Boolean'), [from])).toBe(expected);
  });
  it('fails on other strings and values', () => {
    expect(conversionError(T('Boolean'), ['maybe']).message).toBe(
      "The string 'maybe' cannot be converted to Boolean",
    );
    expect(conversionError(T('Boolean'), ['']).message).toBe("The string '' cannot be converted to Boolean");
    expect(conversionError(T('Boolean'), [undefined]).message).toBe(
      'Value of type Undef cannot be converted to Boolean',
    );
  });
});

describe('Array.new and Hash.new (fn_array_hash_conversion and oracle)', () => {
  it('converts iterables to arrays', () => {
    expect(newInstance(T('Array'), ['abc'])).toEqual(['a', 'b', 'c']);
    expect(newInstance(T('Array'), [3n])).toEqual([0n, 1n, 2n]);
    expect(newInstance(T('Array'), [T('Integer', 1n, 3n)])).toEqual([1n, 2n, 3n]);
    expect(newInstance(T('Array'), [T('Integer', 1n, 2n), false])).toEqual([1n, 2n]);
    expect(newInstance(T('Array'), [T('Enum', 'b', 'a')])).toEqual(['a', 'b']);
    expect(newInstance(T('Array'), [h(['a', 1n])])).toEqual([['a', 1n]]);
    const arr = [1n];
    expect(newInstance(T('Array'), [arr])).toBe(arr);
  });
  it('wraps with a true second argument', () => {
    expect(newInstance(T('Array'), ['a', true])).toEqual(['a']);
    expect(newInstance(T('Array'), [[1n], true])).toEqual([1n]);
    expect(newInstance(T('Array'), [h(['a', 1n]), true])).toEqual([h(['a', 1n])]);
  });
  it('refuses non-iterables unless wrapping', () => {
    const e = conversionError(T('Array'), [undefined]);
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.message).toBe('Value of type Undef cannot be converted to Array');
    expect(conversionError(T('Array'), [1.5]).message).toBe(
      'Value of type Float cannot be converted to Array',
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
          ['a', 1n],
          ['b', 2n],
        ],
      ]),
    ).toEqual(h(['a', 1n], ['b', 2n]));
    expect(newInstance(T('Hash'), [[1n, 2n, 3n, 4n]])).toEqual(h([1n, 2n], [3n, 4n]));
    expect(newInstance(T('Hash'), ['ab'])).toEqual(h(['a', 'b']));
    expect(newInstance(T('Hash'), [[]])).toEqual(new Map());
  });
  it('builds trees', () => {
    const entries = [
      [['a', 'b'], 1n],
      [['a', 'c'], 2n],
    ];
    expect(newInstance(T('Hash'), [entries, 'tree'])).toEqual(h(['a', h(['b', 1n], ['c', 2n])]));
    expect(newInstance(T('Hash'), [[[['a'], [1n, 2n]]], 'hash_tree'])).toEqual(
      h(['a', h([0n, 1n], [1n, 2n])]),
    );
  });
  it('fails on odd flat arrays and non-iterables', () => {
    const e = conversionError(T('Hash'), [[1n, 2n, 3n]]);
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.message).toBe('odd number of arguments for Hash');
    expect(conversionError(T('Hash'), [1.5]).message).toBe('Value of type Float cannot be converted to Hash');
  });
  it('converts to Struct and Tuple through Hash and Array', () => {
    const struct = parameterizeType(T('Struct'), [h(['a', T('Integer')])]);
    expect(newInstance(struct, [['a', 1n]])).toEqual(h(['a', 1n]));
    expect(newInstance(T('Tuple', T('String'), T('String')), ['ab'])).toEqual(['a', 'b']);
  });
});

describe('String, Sensitive, Regexp, Timestamp, Type and wrappers', () => {
  it('String() delegates to stringify (fn_string_conversion, fn_string_with_format)', () => {
    expect(newInstance(T('String'), [1n])).toBe('1');
    expect(newInstance(T('String'), [1.0])).toBe('1.000000');
    expect(newInstance(T('String'), [[1n, 'a']])).toBe("[1, 'a']");
    expect(newInstance(T('String'), [1.23456, '%.2f'])).toBe('1.23');
    expect(newInstance(T('String'), [255n, '%x'])).toBe('ff');
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
    expect(conversionError(T('Regexp'), [1n]).message).toBe(
      'Value of type Integer cannot be converted to Regexp',
    );
  });
  it('parses ISO timestamps as UTC and takes seconds', () => {
    expect((newInstance(T('Timestamp'), ['2020-02-03T04:05:06Z']) as PTimestamp).seconds).toBe(1580702706);
    expect((newInstance(T('Timestamp'), ['2020-02-03T04:05:06']) as PTimestamp).seconds).toBe(1580702706);
    expect((newInstance(T('Timestamp'), ['2020-02-03']) as PTimestamp).seconds).toBe(1580688000);
    expect((newInstance(T('Timestamp'), ['2020-02-03T05:05:06+01:00']) as PTimestamp).seconds).toBe(
      1580702706,
    );
    expect((newInstance(T('Timestamp'), [0n]) as PTimestamp).seconds).toBe(0);
    expect(conversionError(T('Timestamp'), ['yesterday']).code).toBe('EPP_CONVERSION');
  });
  it('resolves type names with Type()', () => {
    expect(String(newInstance(T('Type'), ['Integer']))).toBe('Integer');
    expect(conversionError(T('Type'), ['Nope']).message).toBe(
      "The string 'Nope' cannot be converted to Type",
    );
  });
  it('converts through Optional, NotUndef and Variant', () => {
    expect(newInstance(T('Optional', T('Integer')), ['3'])).toBe(3n);
    expect(newInstance(T('NotUndef', T('Integer')), ['3'])).toBe(3n);
    expect(newInstance(T('NotUndef'), ['3'])).toBe('3');
    expect(newInstance(T('Variant', T('Integer'), T('Boolean')), ['yes'])).toBe(true);
    expect(newInstance(T('Variant', T('Integer'), T('Boolean')), ['12'])).toBe(12n);
    expect(conversionError(T('Variant', T('Integer'), T('Boolean')), ['x']).message).toBe(
      "The string 'x' cannot be converted to Integer",
    );
  });
  it('refuses types that cannot be created', () => {
    for (const name of ['Any', 'Undef', 'Scalar', 'Data', 'Collection', 'Callable']) {
      const e = conversionError(T(name), ['x', 'y']);
      expect(e.code).toBe('EPP_CONVERSION');
      expect(e.message).toBe(`Creation of new instance of type '${name}' is not supported`);
    }
  });
  it('returns a single argument that already is an instance unchanged', () => {
    const data = h(['a', 1n]);
    expect(newInstance(T('Data'), [data])).toBe(data);
    expect(newInstance(T('Any'), [undefined])).toBeUndefined();
  });
});

describe('the new and convert_to functions', () => {
  const ctx = {} as CallContext;
  const lambda = (fn: (v: Value) => Value): Lambda =>
    Object.assign((...args: Value[]) => fn(args[0]), { paramCount: 1, requiredCount: 1, hasRest: false });

  it('new(Type, args...) converts and passes the result to a block', () => {
    expect(invoke(newFunction, ctx, [T('Integer'), '0x10'], undefined)).toBe(16n);
    expect(
      invoke(
        newFunction,
        ctx,
        [T('Integer'), '5'],
        lambda((v) => (v as bigint) * 2n),
      ),
    ).toBe(10n);
  });
  it('new requires a type', () => {
    const e = failure(() => invoke(newFunction, ctx, ['Integer', '5'], undefined));
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.message).toBe("'new' parameter 'type' expects a Type value, got String");
    expect(failure(() => invoke(newFunction, ctx, [], undefined)).code).toBe('EPP_ARGUMENTS');
  });
  it('convert_to(value, Type, args...) is new with the value first', () => {
    expect(invoke(convertToFunction, ctx, ['12', T('Integer')], undefined)).toBe(12n);
    expect(invoke(convertToFunction, ctx, ['10', T('Integer'), 2n], undefined)).toBe(2n);
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
