import { describe, expect, it } from 'vitest';
import { EppEvalError } from '../../src/epp/errors.js';
import { parseTimestampText, timestampToString } from '../../src/epp/runtime/format.js';
import {
  describeMismatch,
  EnumType,
  inferGenericType,
  inferReducedType,
  inferType,
  isAssignable,
  isPuppetType,
  type PType,
  parameterizeType,
  quote,
  resolveTypeName,
  rubyFloat,
  TYPE_NAME_LIST,
  typeEquals,
} from '../../src/epp/runtime/types.js';
import {
  DEFAULT,
  float,
  integer,
  PRegexp,
  PSensitive,
  PTimestamp,
  type Value,
} from '../../src/epp/runtime/values.js';

/** Evaluates a small Puppet type/value expression (`Struct[{a => Integer}]`, `[1, 'a']`) with the real type functions. */

function ev(text: string): Value {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const eat = (s: string) => {
    ws();
    if (!text.startsWith(s, i)) throw new Error(`expected ${s} at ${i} in ${text}`);
    i += s.length;
  };
  const list = (close: string): Value[] => {
    const out: Value[] = [];
    ws();
    while (text[i] !== close) {
      out.push(value());
      ws();
      if (text[i] === ',') i++;
      ws();
    }
    i++;
    return out;
  };
  const value = (): Value => {
    ws();
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const s = text.slice(i + 1, end);
      i = end + 1;
      return s;
    }
    if (c === '/') {
      const end = text.indexOf('/', i + 1);
      const s = text.slice(i + 1, end);
      i = end + 1;
      return new PRegexp(s);
    }
    if (c === '[') {
      i++;
      return list(']');
    }
    if (c === '{') {
      i++;
      const h = new Map<Value, Value>();
      ws();
      while (text[i] !== '}') {
        const k = value();
        eat('=>');
        h.set(k, value());
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
      return h;
    }
    const num = /^-?\d+(\.\d+)?(e-?\d+)?/.exec(text.slice(i));
    if (num) {
      i += num[0].length;
      // As the compiler: Integers canonical (a number when safe), Floats boxed.
      return num[1] || num[2] ? float(Number(num[0])) : integer(BigInt(num[0]));
    }
    const word = /^[A-Za-z_]\w*/.exec(text.slice(i))![0];
    i += word.length;
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'default') return DEFAULT;
    if (word === 'undef') return undefined;
    if (/^[a-z]/.test(word)) return word;
    let t: PType = resolveTypeName(word)!;
    if (!t) throw new Error(`unknown type ${word}`);
    ws();
    if (text[i] === '[') {
      i++;
      t = parameterizeType(t, list(']'));
    }
    return t;
  };
  const v = value();
  ws();
  if (i !== text.length) throw new Error(`trailing text at ${i} in ${text}`);
  return v;
}

/** Evaluates a type expression. */
function ty(text: string): PType {
  return ev(text) as PType;
}

const T = (text: string) => ty(text).toString();
const ok = (type: string, value: string) => ty(type).isInstance(ev(value));
const assignable = (a: string, b: string) => isAssignable(ty(a), ty(b));
const mismatch = (type: string, value: string, subject = "parameter 'x'") =>
  describeMismatch(ty(type), ev(value), subject);

function paramError(text: string): EppEvalError {
  try {
    ev(text);
  } catch (e) {
    if (e instanceof EppEvalError) return e;
    throw e;
  }
  throw new Error(`no error for ${text}`);
}

describe('resolveTypeName', () => {
  it('knows the core type names, case-insensitively after the first letter', () => {
    for (const name of TYPE_NAME_LIST) expect(resolveTypeName(name)?.toString()).toBe(name);
    expect(resolveTypeName('Scalardata')?.toString()).toBe('ScalarData');
    expect(resolveTypeName('Semver')?.toString()).toBe('SemVer');
  });
  it('returns undefined for unknown names', () => {
    expect(resolveTypeName('Foo')).toBeUndefined();
    expect(resolveTypeName('Mount')).toBeUndefined();
  });
  it("knows Puppet 7's built-in resource types, as `puppet epp render` does without a catalogue", () => {
    expect(resolveTypeName('File')?.toString()).toBe('File');
    expect(resolveTypeName('Package')?.toString()).toBe('Package');
    expect(resolveTypeName('Object')?.toString()).toBe('Object[{}]');
  });
  it('marks types as Puppet types', () => {
    expect(isPuppetType(ty('Integer'))).toBe(true);
    expect(isPuppetType('Integer')).toBe(false);
    expect(ty('Integer').isPuppetType).toBe(true);
  });
});

describe('printing (Puppet 7 render_types and oracle output)', () => {
  it.each([
    ['String', 'String'],
    ['Integer[1, 5]', 'Integer[1, 5]'],
    ['Optional[String]', 'Optional[String]'],
    ['Array[String]', 'Array[String]'],
    ["Enum['b', 'a', true]", "Enum['a', 'b', true]"],
    ["Enum['on', 'off']", "Enum['off', 'on']"],
    [
      'Struct[{a => Integer, Optional[b] => String, c => Optional[String], NotUndef[d] => Optional[Integer]}]',
      "Struct[{'a' => Integer, Optional['b'] => String, 'c' => Optional[String], NotUndef['d'] => Optional[Integer]}]",
    ],
    ["Pattern[/a/, 'b']", 'Pattern[/a/, /b/]'],
    ["Regexp['x']", 'Regexp[/x/]'],
    ['Tuple[Integer, String, 1, 5]', 'Tuple[Integer, String, 1, 5]'],
    ['Tuple[Integer, 2]', 'Tuple[Integer, 2]'],
    ['Tuple[Any, 0, default]', 'Tuple[Any, 0]'],
    ['Array[Integer, 2]', 'Array[Integer, 2]'],
    ['Array[Integer, 0, 0]', 'Array[0, 0]'],
    ['Array[default, 3]', 'Array[Any, 0, 3]'],
    ['Array[Any]', 'Array'],
    ['Hash[String, Integer, 1, 2]', 'Hash[String, Integer, 1, 2]'],
    ['Hash[1, 2]', 'Hash[Any, Any, 1, 2]'],
    ['Hash[Any, Any]', 'Hash'],
    ['Float[1, 2.5]', 'Float[1.0, 2.5]'],
    ['Float[default, default]', 'Float'],
    ['Integer[default, 5]', 'Integer[default, 5]'],
    ['Integer[3]', 'Integer[3]'],
    ['Integer[0, default]', 'Integer[0]'],
    ['String[1]', 'String[1]'],
    ['String[1, default]', 'String[1]'],
    ['String[0]', 'String[0]'],
    ['Collection[1]', 'Collection[1]'],
    ["Optional['x']", "Optional['x']"],
    ["NotUndef['x']", "NotUndef['x']"],
    ['Optional[Any]', 'Optional[Any]'],
    ['Variant[Integer, String]', 'Variant[Integer, String]'],
    ['Variant[Integer]', 'Integer'],
    ['Variant[Integer, Integer, Variant[String, Float]]', 'Variant[Integer, String, Float]'],
    ['Type[Integer]', 'Type[Integer]'],
    ['Sensitive[String]', 'Sensitive[String]'],
    ['Iterable[String]', 'Iterable[String]'],
    ['Boolean[true]', 'Boolean[true]'],
    ['Struct[{}]', 'Struct'],
    ["Timestamp['2020-01-01']", "Timestamp['2020-01-01T00:00:00.000000000 UTC']"],
    [
      "Timestamp[default, '2020-01-01T10:00:00+02:00']",
      "Timestamp[default, '2020-01-01T08:00:00.000000000 UTC']",
    ],
    [
      "Timestamp['2020-01-01', '2021-01-01']",
      "Timestamp['2020-01-01T00:00:00.000000000 UTC', '2021-01-01T00:00:00.000000000 UTC']",
    ],
    ["SemVer['>=1.0.0']", "SemVer['>=1.0.0']"],
  ])('%s prints as %s', (text, printed) => {
    expect(T(text)).toBe(printed);
  });
  it('quotes strings as Puppet does', () => {
    expect(quote("it's")).toBe("'it\\'s'");
    expect(quote('a\\b')).toBe("'a\\b'");
    expect(quote('a\nb')).toBe('"a\\nb"');
  });
  it('prints floats as Ruby does', () => {
    expect(rubyFloat(1)).toBe('1.0');
    expect(rubyFloat(2.5)).toBe('2.5');
    expect(rubyFloat(1e15)).toBe('1.0e+15');
    expect(rubyFloat(123456789012345)).toBe('123456789012345.0');
    expect(rubyFloat(1234567890123456)).toBe('1.234567890123456e+15');
    expect(rubyFloat(0.0001)).toBe('0.0001');
    expect(rubyFloat(0.00001)).toBe('1.0e-05');
    expect(rubyFloat(-0)).toBe('-0.0');
  });
});

describe('isInstance', () => {
  it.each([
    ['Any', 'undef', true],
    ['Undef', 'undef', true],
    ['Undef', "''", false],
    ['NotUndef', "''", true],
    ['NotUndef', 'undef', false],
    ["NotUndef['x']", "'x'", true],
    ["NotUndef['x']", "'y'", false],
    ['Default', 'default', true],
    ['Default', "'default'", false],
    ['Integer', '1', true],
    ['Integer', '1.0', false],
    ['Integer', "'1'", false],
    ['Integer[1, 10]', '10', true],
    ['Integer[1, 10]', '11', false],
    ['Integer[default, 0]', '-5', true],
    ['Float', '1.5', true],
    ['Float', '1', false],
    ['Float[0, 1]', '0.5', true],
    ['Float[0, 1]', '1.5', false],
    ['Numeric', '1', true],
    ['Numeric', '1.5', true],
    ['Numeric', "'1'", false],
    ['Boolean', 'false', true],
    ['Boolean[true]', 'false', false],
    ['String', "''", true],
    ['String', '1', false],
    ['String[2]', "'a'", false],
    ['String[1, 3]', "'abc'", true],
    ['String[1, 3]', "'abcd'", false],
    ["Enum['on', 'off']", "'on'", true],
    ["Enum['on', 'off']", "'ON'", false],
    ["Enum['on', 'off', true]", "'ON'", true],
    ['Pattern[/^\\d+$/]', "'123'", true],
    ['Pattern[/^\\d+$/]', "'12a'", false],
    ['Pattern[/b/]', "'abc'", true],
    ['Regexp', '/x/', true],
    ["Regexp['x']", '/x/', true],
    ["Regexp['x']", '/y/', false],
    ['Scalar', '/x/', true],
    ['Scalar', '[1]', false],
    ['Scalar', 'undef', false],
    ['ScalarData', '/x/', false],
    ['ScalarData', 'true', true],
    ['Collection', '[]', true],
    ['Collection', '{}', true],
    ['Collection[1]', '[]', false],
    ['Array', '[1, 2]', true],
    ['Array[Integer]', '[1, 2]', true],
    ['Array[Integer]', "[1, 'a']", false],
    ['Array[Integer, 2]', '[1]', false],
    ['Array[String]', "'a'", false],
    ['Hash', '{}', true],
    ['Hash[String, Integer]', '{a => 1, b => 2}', true],
    ['Hash[String, Integer]', "{a => '1'}", false],
    ['Hash[String, Integer]', '{1 => 1}', false],
    ['Hash[String, Integer, 2]', '{a => 1}', false],
    ['Tuple[Integer, String]', "[1, 'a']", true],
    ['Tuple[Integer, String]', '[1]', false],
    ['Tuple[Integer, String, 1, 3]', "[1, 'a', 'b']", true],
    ['Tuple[Integer, String, 1, 3]', '[1, 2]', false],
    ['Struct[{name => String, Optional[port] => Integer}]', "{name => 'x'}", true],
    ['Struct[{name => String, Optional[port] => Integer}]', "{name => 'x', port => 80}", true],
    ['Struct[{name => String, Optional[port] => Integer}]', "{name => 'x', extra => 1}", false],
    ['Struct[{name => String, Optional[port] => Integer}]', '{port => 80}', false],
    ['Struct[{a => Optional[String]}]', '{}', true],
    ['Struct[{NotUndef[a] => Optional[String]}]', '{}', false],
    ['Struct[{NotUndef[a] => Optional[String]}]', '{a => undef}', true],
    ['Optional[String]', 'undef', true],
    ['Optional[String]', '1', false],
    ["Optional['x']", "'x'", true],
    ['Variant[Integer, String]', "'a'", true],
    ['Variant[Integer, String]', 'true', false],
    ['Type', 'Integer', true],
    ['Type', '1', false],
    ['Type[Integer]', 'Integer[1, 2]', true],
    ['Type[Integer]', 'String', false],
    ['Type[Numeric]', 'Float', true],
    ['Data', "{a => [1, undef, 'x'], b => {c => true}}", true],
    ['Data', '{1 => 2}', false],
    ['Data', '/x/', false],
    ['Data', 'Integer', false],
    ['RichData', '{1 => /x/}', true],
    ['RichData', 'default', true],
    ['Iterable', "'abc'", true],
    ['Iterable', '3', true],
    ['Iterable', '-3', false],
    ['Iterable', 'Integer[1, 3]', true],
    ['Iterable', 'Integer', false],
    ['Iterable', "Enum['a']", true],
    ['Iterable[Integer]', '[1, 2]', true],
    ['Iterable[Integer]', "['a']", false],
    ['Iterable[String]', "'abc'", true],
    ['Callable', '1', false],
    ['Timestamp', "'2020-01-01'", false],
  ])('%s accepts %s: %s', (type, value, expected) => {
    expect(ok(type, value)).toBe(expected);
  });
  it('checks Timestamp ranges', () => {
    const t = ty("Timestamp['2020-01-01', '2021-01-01']");
    expect(t.isInstance(new PTimestamp(1600000000000000000n))).toBe(true);
    expect(t.isInstance(new PTimestamp(1500000000000000000n))).toBe(false);
    expect(isAssignable(ty('Timestamp'), t)).toBe(true);
    expect(isAssignable(t, ty('Timestamp'))).toBe(false);
  });
  it('infers and prints timestamps as Puppet', () => {
    expect(inferType(new PTimestamp(1580702706500000000n)).toString()).toBe(
      "Timestamp['2020-02-03T04:05:06.500000000 UTC']",
    );
    expect(inferGenericType(new PTimestamp(0n)).toString()).toBe('Timestamp');
    expect(timestampToString(new PTimestamp(0n))).toBe('1970-01-01T00:00:00.000000000 UTC');
    expect(parseTimestampText('2020-02-03 04:05:06 UTC')).toBe(1580702706_000_000_000n);
    expect(parseTimestampText('2020-02-03T05:05:06+0100')).toBe(1580702706_000_000_000n);
    expect(() => parseTimestampText('tomorrow')).toThrow(/Unable to parse 'tomorrow'/);
  });
  it('rejects bad Timestamp parameters', () => {
    // Puppet's words (puppet epp render), its closing parenthesis missing.
    expect(paramError("Timestamp['x']").message).toMatch(
      /^Error while evaluating a '\[\]' expression, Unable to parse 'x' using any of the formats %FT%T.%N %Z, /,
    );
    expect(paramError("Timestamp['2021-01-01', '2020-01-01']").message).toBe(
      "Error while evaluating a '[]' expression, 'from' must be less or equal to 'to'. Got (2021-01-01T00:00:00.000000000 UTC, 2020-01-01T00:00:00.000000000 UTC",
    );
  });
  it('handles Sensitive and Timestamp values', () => {
    expect(ty('Sensitive').isInstance(new PSensitive('x'))).toBe(true);
    expect(ty('Sensitive[String]').isInstance(new PSensitive('x'))).toBe(true);
    expect(ty('Sensitive[Integer]').isInstance(new PSensitive('x'))).toBe(false);
    expect(ty('Sensitive').isInstance('x')).toBe(false);
    expect(ty('Timestamp').isInstance(new PTimestamp(0n))).toBe(true);
    expect(ty('Scalar').isInstance(new PTimestamp(0n))).toBe(true);
  });
});

describe('isAssignable and typeEquals', () => {
  it.each([
    ['Any', 'Undef', true],
    ['Integer', 'Integer[1, 2]', true],
    ['Integer[1, 2]', 'Integer', false],
    ['Numeric', 'Float[0, 1]', true],
    ['Float', 'Integer', false],
    ['Scalar', 'Regexp', true],
    ['ScalarData', 'Regexp', false],
    ['ScalarData', "Enum['a']", true],
    ['String', "Enum['a', 'b']", true],
    ['String[1, 1]', "Enum['a', 'b']", true],
    ['String[2]', "Enum['a', 'bb']", false],
    ["Enum['a', 'b', 'c']", "Enum['a', 'b']", true],
    ["Enum['a']", "Enum['a', 'b']", false],
    ['Pattern[/a/]', "Enum['ab', 'ba']", true],
    ['Optional[String]', 'Undef', true],
    ['Optional[String]', 'Optional[String[1]]', true],
    ['String', 'Optional[String]', false],
    ['NotUndef', 'String', true],
    ['NotUndef', 'Optional[String]', false],
    ['Variant[Integer, String]', 'Integer[1, 2]', true],
    ['Variant[Integer, String]', 'Variant[String, Integer[0, 1]]', true],
    ['Integer', 'Variant[Integer[1, 2], Integer[5, 6]]', true],
    ['Array[Integer]', 'Tuple[Integer[1, 1], Integer[2, 2]]', true],
    ['Array[Integer, 3]', 'Tuple[Integer, Integer]', false],
    ['Array', 'Array[0, 0]', true],
    ['Array[String]', 'Array[0, 0]', true],
    ['Hash[String, Integer]', 'Struct[{a => Integer}]', true],
    ['Hash[String, String]', 'Struct[{a => Integer}]', false],
    ['Struct[{a => Integer, Optional[b] => String}]', 'Struct[{a => Integer[1, 1]}]', true],
    ['Struct[{a => Integer}]', 'Struct[{a => Integer, b => Integer}]', false],
    ['Tuple[Integer, String]', 'Tuple[Integer[1, 1], String]', true],
    ['Tuple[Integer]', 'Array[Integer, 1, 1]', true],
    ['Collection[2]', 'Tuple[Integer, Integer]', true],
    ['Data', 'Hash[String, Array[Integer]]', true],
    ['Data', 'Hash[Integer, Integer]', false],
    ['Data', 'Data', true],
    ['RichData', 'Data', true],
    ['Type[Numeric]', 'Type[Integer]', true],
    ['Type', 'Type[Integer]', true],
    ['Type[Integer]', 'Type', false],
    ['Iterable', 'String', true],
    ['Iterable', 'Integer', true],
    ['Iterable[Integer]', 'Array[Integer]', true],
    ['Iterable[String]', 'Array[Integer]', false],
    ['Boolean', 'Boolean[true]', true],
    ['Boolean[false]', 'Boolean', false],
    ["Regexp['a']", 'Regexp', false],
  ])('%s is assignable from %s: %s', (a, b, expected) => {
    expect(assignable(a, b)).toBe(expected);
  });
  it('compares types structurally', () => {
    expect(typeEquals(ty('Integer[1, 2]'), ty('Integer[1, 2]'))).toBe(true);
    expect(typeEquals(ty('Integer[1, 2]'), ty('Integer[1, 3]'))).toBe(false);
    expect(typeEquals(ty("Enum['a', 'b']"), ty("Enum['b', 'a']"))).toBe(true);
    expect(typeEquals(ty('Variant[Integer, String]'), ty('Variant[String, Integer]'))).toBe(true);
    expect(typeEquals(ty('String'), ty('Optional[String]'))).toBe(false);
    expect(typeEquals(ty('Data'), ty('Data'))).toBe(true);
  });
});

describe('parameterizeType errors (Puppet wording)', () => {
  it.each([
    ["Integer['a']", 'Integer-Type [] requires all arguments to be integers (or default). Got String'],
    ['Integer[1, 2, 3]', 'Integer-Type supports [] with one or two arguments (from, to). Got 3'],
    // Ruby's error as Puppet's evaluator words it, its `)` missing (puppet epp render).
    [
      'Integer[5, 1]',
      "Error while evaluating a '[]' expression, 'from' must be less or equal to 'to'. Got (5, 1",
    ],
    [
      'Float[2.0, 1]',
      "Error while evaluating a '[]' expression, 'from' must be less or equal to 'to'. Got (2.0, 1.0",
    ],
    ["Float['a']", 'Float-Type [] requires all arguments to be floats, or integers (or default). Got String'],
    ['Any[1]', "Operator '[]' is not applicable to an Any-Type."],
    ['Data[1]', "Operator '[]' is not applicable to a Data-Type."],
    ['Array[1, 2, 3, 4]', 'Array-Type[] accepts 1 to 3 arguments. Got 4'],
    ['Array[1]', 'Array-Type[] arguments must be types. Got Integer'],
    ['Hash[String]', 'Hash-Type[] accepts 2 to 4 arguments. Got 1'],
    ['Hash[1, String]', 'Hash-Type[] arguments must be types. Got Integer'],
    [
      'Enum[1]',
      'Error creating type specialization of an Enum-Type, Cannot use Integer where String is expected',
    ],
    [
      "String['a']",
      "A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got a String",
    ],
    ['String[1, 2, 3]', 'String supports [] with one or two arguments. Got 3'],
    ['Optional[1]', 'Optional-Type[] arguments must be types. Got Integer'],
    ['Optional[String, Integer]', 'Optional-Type[] accepts 1 argument. Got 2'],
    [
      'Variant[1]',
      'Error creating type specialization of a Variant-Type, Cannot use Integer where Any-Type is expected',
    ],
    [
      'Boolean[1]',
      'Error creating type specialization of a Boolean-Type, Cannot use Integer where TrueClass or FalseClass is expected',
    ],
    [
      'Struct[1]',
      'Error creating type specialization of a Struct-Type, Cannot use Integer where Hash is expected',
    ],
    [
      'Struct[{1 => String}]',
      "Error while evaluating a '[]' expression, Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: Integer",
    ],
    ['Type[1]', 'Type-Type[] arguments must be types. Got Integer'],
    ['Timestamp[1, 2, 3]', 'A Timestamp-Type[] accepts 0 to 2 arguments. Got 3'],
  ])('%s fails with %s', (text, message) => {
    const e = paramError(text);
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.message).toBe(message);
  });
  it('flattens array parameters like Puppet', () => {
    expect(T("Enum[['a', 'b']]")).toBe("Enum['a', 'b']");
    expect(T('Variant[[Integer, String]]')).toBe('Variant[Integer, String]');
  });
  it('builds size ranges from an Integer type', () => {
    expect(T('String[Integer[1, 3]]')).toBe('String[1, 3]');
    expect(T('Collection[Integer[2]]')).toBe('Collection[2]');
  });
});

describe('inferType (type() in Puppet 7)', () => {
  it.each([
    ['1', 'Integer[1, 1]'],
    ["'abc'", 'String'],
    ["''", 'String'],
    ['[1]', 'Tuple[Integer[1, 1]]'],
    ["[1, 'a']", 'Tuple[Integer[1, 1], String]'],
    ['{a => 1, b => [true]}', "Struct[{'a' => Integer[1, 1], 'b' => Tuple[Boolean[true]]}]"],
    ['{1 => 2}', 'Hash[Integer[1, 1], Integer[2, 2], 1, 1]'],
    ['[]', 'Array[0, 0]'],
    ['{}', 'Hash[0, 0]'],
    ['1.5', 'Float[1.5, 1.5]'],
    ['undef', 'Undef'],
    ['default', 'Default'],
    ['/x/', 'Regexp[/x/]'],
    ['Integer', 'Type[Integer]'],
    ['false', 'Boolean[false]'],
    ['[[1], {x => undef}]', "Tuple[Tuple[Integer[1, 1]], Struct[{NotUndef['x'] => Undef}]]"],
  ])('type(%s) is %s', (value, printed) => {
    expect(inferType(ev(value)).toString()).toBe(printed);
  });
  it('infers Sensitive', () => {
    expect(inferType(new PSensitive(1)).toString()).toBe('Sensitive[Integer]');
  });
  it.each([
    ["[1, 'a']", 'Array[ScalarData, 2, 2]'],
    ["{a => 1, b => 'x'}", "Hash[Enum['a', 'b'], ScalarData, 2, 2]"],
    ['[1, 2]', 'Array[Integer[1, 2], 2, 2]'],
    ['[1, 2.5]', 'Array[Numeric, 2, 2]'],
  ])("type(%s, 'reduced') is %s", (value, printed) => {
    expect(inferReducedType(ev(value)).toString()).toBe(printed);
  });
  it.each([
    ['1', 'Integer'],
    ['{a => 1}', 'Hash[String, Integer]'],
    ["[1, 'a']", 'Array[ScalarData]'],
    ["['a', 'b']", 'Array[String[1, 1]]'],
    ['[1, 2.5]', 'Array[Numeric]'],
    ['[1, undef]', 'Array[Integer]'],
    ["{a => 1, b => 'x'}", 'Hash[String[1, 1], ScalarData]'],
    ["'abc'", 'String'],
  ])("type(%s, 'generalized') is %s", (value, printed) => {
    expect(inferGenericType(ev(value)).toString()).toBe(printed);
  });
});

describe('describeMismatch (Puppet messages)', () => {
  it('reports a wrong scalar type with short names', () => {
    expect(mismatch('Integer', "'abc'")).toBe("parameter 'x' expects an Integer value, got String");
    expect(mismatch('Float', '1', "parameter 'f'")).toBe("parameter 'f' expects a Float value, got Integer");
  });
  it('reports ranges in detail when the kinds match', () => {
    expect(mismatch('Integer[1, 10]', '11', "parameter 'i'")).toBe(
      "parameter 'i' expects an Integer[1, 10] value, got Integer[11, 11]",
    );
  });
  it('reports Enum and Pattern mismatches with the value', () => {
    expect(mismatch("Enum['on', 'off']", "'maybe'", "parameter 'mode'")).toBe(
      "parameter 'mode' expects a match for Enum['off', 'on'], got 'maybe'",
    );
    expect(mismatch('Pattern[/^\\d+$/]', "'x'")).toBe(
      "parameter 'x' expects a match for Pattern[/^\\d+$/], got 'x'",
    );
    expect(mismatch("Optional[Enum['a']]", '1')).toBe(
      "parameter 'x' expects an undef value or a match for Enum['a'], got Integer",
    );
  });
  it('starts with expects when the subject is empty', () => {
    expect(mismatch('Integer', "'x'", '')).toBe('expects an Integer value, got String');
    expect(mismatch('Integer', "'x'", 'assert_type():')).toBe(
      'assert_type(): expects an Integer value, got String',
    );
  });
  it('names Optional and Variant alternatives', () => {
    expect(mismatch('Optional[String]', '1')).toBe(
      "parameter 'x' expects a value of type Undef or String, got Integer",
    );
    expect(mismatch('Variant[Integer, String]', 'true')).toBe(
      "parameter 'x' expects a value of type Integer or String, got Boolean",
    );
    expect(mismatch('Variant[Integer, String, Array]', 'true')).toBe(
      "parameter 'x' expects a value of type Integer, String, or Array, got Boolean",
    );
  });
  it('points into arrays, hashes and structs', () => {
    expect(mismatch('Array[String]', "['a', 1]")).toBe(
      "parameter 'x' index 1 expects a String value, got Integer",
    );
    expect(mismatch('Hash[String, Integer]', "{a => 'b'}")).toBe(
      "parameter 'x' entry 'a' expects an Integer value, got String",
    );
    expect(
      mismatch('Struct[{name => String, Optional[port] => Integer}]', "{name => 'x', port => 'y'}"),
    ).toBe("parameter 'x' entry 'port' expects an Integer value, got String");
    expect(mismatch('Struct[{name => String, Optional[port] => Integer}]', '{port => 1}')).toBe(
      "parameter 'x' expects a value for key 'name'",
    );
    expect(mismatch('Struct[{name => String}]', '{}')).toBe("parameter 'x' expects size to be 1, got 0");
    expect(mismatch('Struct[{name => String}]', "{name => 'a', other => 1}")).toBe(
      "parameter 'x' unrecognized key 'other'",
    );
    expect(mismatch('Tuple[Integer, String]', '[1, 2]')).toBe(
      "parameter 'x' index 1 expects a String value, got Integer",
    );
  });
  it('reports sizes', () => {
    expect(mismatch('Array[String, 2]', "['a']")).toBe("parameter 'x' expects size to be at least 2, got 1");
    expect(mismatch('Array[String, 1, 2]', "['a', 'b', 'c']")).toBe(
      "parameter 'x' expects size to be between 1 and 2, got 3",
    );
    expect(mismatch('Tuple[Integer, Integer]', '[1]')).toBe("parameter 'x' expects size to be 2, got 1");
  });
  it('reports a non-collection given for a collection', () => {
    expect(mismatch('Array[String]', "'a'")).toBe("parameter 'x' expects an Array value, got String");
    expect(mismatch('Hash', '[1]')).toBe("parameter 'x' expects a Hash value, got Tuple");
    expect(mismatch('Data', '/x/')).toBe("parameter 'x' expects a Data value, got Regexp");
  });
  it('keeps the parameter of Optional/NotUndef in short names', () => {
    expect(mismatch('Integer', 'Integer')).toBe("parameter 'x' expects an Integer value, got Type[Integer]");
  });
});

describe('describeMismatch against assert_type() output of Puppet 7.23', () => {
  it.each([
    ['Array[String, 2]', "['a']", 'expects size to be at least 2, got 1'],
    ['Hash[String, Integer]', "{a => 'b', c => 1}", "entry 'a' expects an Integer value, got String"],
    ['Optional[String]', '1', 'expects a value of type Undef or String, got Integer'],
    ['String[5]', "'abc'", 'expects a String[5] value, got String'],
    ["Enum['a', 'b']", '1', "expects a match for Enum['a', 'b'], got Integer"],
    ['Array[Integer]', "'x'", 'expects an Array value, got String'],
    ['Integer', '1.5', 'expects an Integer value, got Float'],
    ['Hash[String, Integer, 2]', '{a => 1}', 'expects size to be at least 2, got 1'],
    [
      'Variant[Integer[1, 2], Integer[5, 6]]',
      '3',
      'expects a value of type Integer[1, 2] or Integer[5, 6], got Integer[3, 3]',
    ],
    ['NotUndef[String]', 'undef', 'expects a String value, got Undef'],
    ['Type[Integer]', 'String', 'expects a Type[Integer] value, got Type[String]'],
    [
      'Array[Variant[Integer, String]]',
      '[true]',
      'index 0 expects a value of type Integer or String, got Boolean',
    ],
    // Each line after the first is indented by two spaces (puppet epp render of this assert_type(), session 18).
    ['Struct[{a => Integer}]', '{a => 1, b => 2, c => 3}', "unrecognized key 'b'\n  unrecognized key 'c'"],
    ['Pattern[/^a/, /^b/]', "'c'", "expects a match for Pattern[/^a/, /^b/], got 'c'"],
    ['Boolean', "'true'", 'expects a Boolean value, got String'],
  ])('assert_type(%s, %s): %s', (type, value, message) => {
    expect(mismatch(type, value, '')).toBe(message);
  });
  it('describes Sensitive mismatches with the inner type', () => {
    expect(describeMismatch(ty('Sensitive[Integer]'), new PSensitive('x'), '')).toBe(
      'expects a Sensitive[Integer] value, got Sensitive[String]',
    );
  });
});

describe('more Puppet 7.23 oracle output', () => {
  it.each([
    ['Variant[Integer, Optional[String]]', 'Variant[Integer, Optional[String]]'],
    ['Optional[Optional[String]]', 'Optional[Optional[String]]'],
    ['Optional[NotUndef[String]]', 'Optional[NotUndef[String]]'],
    ['Float[1e20]', 'Float[1.0e+20]'],
    ['Float[-0.5, 0.5]', 'Float[-0.5, 0.5]'],
    ['String[default, 5]', 'String[0, 5]'],
    ['Hash[String, Integer, Integer[1, 2]]', 'Hash[String, Integer, 1, 2]'],
    ['Array[Integer, Integer[2]]', 'Array[Integer, 2]'],
    ['Tuple[Integer, Integer[2, 3]]', 'Tuple[Integer, Integer[2, 3]]'],
  ])('%s prints as %s', (text, printed) => {
    expect(T(text)).toBe(printed);
  });
  it('quotes Enum values with a quote in them', () => {
    expect(new EnumType(["it's"]).toString()).toBe("Enum['it\\'s']");
  });
  it.each([
    ["{'' => 1}", 'Hash[String, Integer[1, 1], 1, 1]'],
    ['[undef]', 'Tuple[Undef]'],
  ])('type(%s) is %s', (value, printed) => {
    expect(inferType(ev(value)).toString()).toBe(printed);
  });
  it.each([
    ['[undef]', 'Array[Undef, 1, 1]'],
    ['[1, [2]]', 'Array[Data, 2, 2]'],
    ["[{a => 1}, {b => 'x'}]", "Array[Hash[Enum['a', 'b'], ScalarData], 2, 2]"],
    ['[/a/, /b/]', 'Array[Regexp, 2, 2]'],
    ['[Integer, String]', 'Array[Type[ScalarData], 2, 2]'],
    ['[1, /a/]', 'Array[Scalar, 2, 2]'],
  ])("type(%s, 'reduced') is %s", (value, printed) => {
    expect(inferReducedType(ev(value)).toString()).toBe(printed);
  });
  it.each([
    ['[]', 'Array[Unit]'],
    ['{}', 'Hash[0, 0]'],
    ['[[]]', 'Array[Array[Unit]]'],
    ["['a', 'bb']", 'Array[String[1, 2]]'],
    ['[1, [1]]', 'Array[Data]'],
  ])("type(%s, 'generalized') is %s", (value, printed) => {
    expect(inferGenericType(ev(value)).toString()).toBe(printed);
  });
});

describe('the value model: Integers as numbers (bigint beyond 2^53), Floats boxed', () => {
  const INT = ty('Integer');
  const FLT = ty('Float');
  const BIG = 2n ** 60n;

  it('checks Integer ranges with number and bigint Integers and bounds', () => {
    const port = parameterizeType(INT, [1, 65535]);
    expect(port.toString()).toBe('Integer[1, 65535]');
    expect(port.isInstance(443)).toBe(true);
    expect(port.isInstance(1)).toBe(true);
    expect(port.isInstance(65535)).toBe(true);
    expect(port.isInstance(0)).toBe(false);
    expect(port.isInstance(65536)).toBe(false);
    expect(port.isInstance(BIG)).toBe(false);
    expect(port.isInstance(-BIG)).toBe(false);
    expect(port.isInstance(float(443))).toBe(false);
    expect(port.isInstance('443')).toBe(false);
    // A bigint bound within the safe range is kept canonical: the same type as with numbers.
    expect(typeEquals(parameterizeType(INT, [1n, 65535n]), port)).toBe(true);
    expect(parameterizeType(INT, [1n, 65535n]).isInstance(65535)).toBe(true);
    const wide = ty('Integer[9007199254740993, 9223372036854775807]');
    expect(wide.toString()).toBe('Integer[9007199254740993, 9223372036854775807]');
    expect(wide.isInstance(9223372036854775807n)).toBe(true);
    expect(wide.isInstance(9007199254740993n)).toBe(true);
    expect(wide.isInstance(9007199254740992n)).toBe(false);
    expect(wide.isInstance(Number.MAX_SAFE_INTEGER)).toBe(false);
    expect(ty('Integer[default, 10]').isInstance(-BIG)).toBe(true);
    expect(ty('Integer[default, 10]').isInstance(11)).toBe(false);
    expect(ty('Integer[0]').isInstance(BIG)).toBe(true);
    expect(INT.isInstance(BIG)).toBe(true);
    expect(INT.isInstance(float(1))).toBe(false);
    expect(isAssignable(ty('Integer[0, 9223372036854775807]'), ty('Integer[1, 65535]'))).toBe(true);
    expect(isAssignable(ty('Integer[1, 65535]'), ty('Integer[0, 9223372036854775807]'))).toBe(false);
  });

  it('checks Float ranges with Floats only, Integer parameters becoming Float bounds', () => {
    expect(FLT.isInstance(float(1))).toBe(true);
    expect(FLT.isInstance(1)).toBe(false);
    expect(FLT.isInstance(BIG)).toBe(false);
    const unit = parameterizeType(FLT, [0, 1]);
    expect(unit.toString()).toBe('Float[0.0, 1.0]');
    expect(unit.isInstance(float(0.5))).toBe(true);
    expect(unit.isInstance(float(1))).toBe(true);
    expect(unit.isInstance(float(-0))).toBe(true);
    expect(unit.isInstance(float(1.5))).toBe(false);
    expect(unit.isInstance(1)).toBe(false);
    expect(ty('Float[1.5]').isInstance(float(2))).toBe(true);
    expect(ty('Float[1.5]').isInstance(float(1))).toBe(false);
    expect(ty('Float[default, 0.5]').toString()).toBe('Float[default, 0.5]');
    expect(ty('Float[9007199254740993]').toString()).toBe('Float[9.007199254740992e+15]');
    expect(isAssignable(ty('Float[0, 10]'), ty('Float[1.5, 2]'))).toBe(true);
    expect(isAssignable(ty('Float[0, 10]'), ty('Float[1.5, 20]'))).toBe(false);
  });

  it('keeps Integer and Float apart in assignability, both Numeric', () => {
    expect(isAssignable(FLT, INT)).toBe(false);
    expect(isAssignable(INT, FLT)).toBe(false);
    expect(isAssignable(ty('Numeric'), INT)).toBe(true);
    expect(isAssignable(ty('Numeric'), FLT)).toBe(true);
    expect(isAssignable(ty('Variant[Integer, Float]'), ty('Float[1.0, 2.0]'))).toBe(true);
    for (const name of ['Numeric', 'Scalar', 'ScalarData', 'Data', 'RichData', 'Any']) {
      for (const v of [1, BIG, float(1.5), float(-0)]) expect(ty(name).isInstance(v)).toBe(true);
    }
    expect(ty('Optional[Float]').isInstance(float(1))).toBe(true);
    expect(ty('Optional[Float]').isInstance(1)).toBe(false);
    expect(ty('NotUndef[Integer]').isInstance(BIG)).toBe(true);
  });

  it('infers and generalizes the types of numbers', () => {
    expect(inferType(7).toString()).toBe('Integer[7, 7]');
    expect(inferType(BIG).toString()).toBe('Integer[1152921504606846976, 1152921504606846976]');
    expect(inferType(float(1)).toString()).toBe('Float[1.0, 1.0]');
    expect(inferType(float(1e20)).toString()).toBe('Float[1.0e+20, 1.0e+20]');
    expect(inferType([1, float(1)]).toString()).toBe('Tuple[Integer[1, 1], Float[1.0, 1.0]]');
    expect(inferGenericType(BIG).toString()).toBe('Integer');
    expect(inferGenericType(float(2.5)).toString()).toBe('Float');
    expect(inferReducedType([1, BIG]).toString()).toBe('Array[Integer[1, 1152921504606846976], 2, 2]');
    expect(inferGenericType([1, float(2.5)]).toString()).toBe('Array[Numeric]');
  });

  it('takes sizes as number Integers and checks collections and strings by them', () => {
    expect(ty('String[1]').isInstance('a')).toBe(true);
    expect(ty('String[1]').isInstance('')).toBe(false);
    expect(ty('String[2, 3]').isInstance('abcd')).toBe(false);
    expect(ty('Array[Integer, 2]').isInstance([1, BIG])).toBe(true);
    expect(ty('Array[Integer, 2]').isInstance([1, float(2)])).toBe(false);
    expect(ty('Hash[String, Float, 1]').isInstance(new Map([['a', float(1)]]))).toBe(true);
    expect(ty('Tuple[Integer, Float]').isInstance([1, float(2)])).toBe(true);
    expect(ty('Tuple[Integer, Float]').isInstance([1, 2])).toBe(false);
    expect(ty('Collection[1, 2]').isInstance([1, 2, 3])).toBe(false);
    expect(ty('Iterable').isInstance(3)).toBe(true);
    expect(ty('Iterable').isInstance(BIG)).toBe(true);
    expect(ty('Iterable').isInstance(-1)).toBe(false);
    expect(ty('Iterable').isInstance(float(3))).toBe(false);
    expect(ty('Timestamp[0, 10]').isInstance(new PTimestamp(5000000000n))).toBe(true);
    expect(ty('Timestamp[0, 2.5]').isInstance(new PTimestamp(3000000000n))).toBe(false);
  });

  it('describes number mismatches as Puppet', () => {
    expect(describeMismatch(ty('Integer[1, 65535]'), 70000, "parameter 'port'")).toBe(
      "parameter 'port' expects an Integer[1, 65535] value, got Integer[70000, 70000]",
    );
    expect(describeMismatch(INT, float(1), "parameter 'i'")).toBe(
      "parameter 'i' expects an Integer value, got Float",
    );
    expect(describeMismatch(FLT, 1, "parameter 'f'")).toBe(
      "parameter 'f' expects a Float value, got Integer",
    );
    expect(describeMismatch(ty('Float[0, 1]'), float(1.5), "parameter 'f'")).toBe(
      "parameter 'f' expects a Float[0.0, 1.0] value, got Float[1.5, 1.5]",
    );
    expect(describeMismatch(ty('Array[Integer, 3]'), [1, 2], "parameter 'a'")).toBe(
      "parameter 'a' expects size to be at least 3, got 2",
    );
    expect(paramError('Integer[1.5]').message).toBe(
      'Integer-Type [] requires all arguments to be integers (or default). Got Float',
    );
  });
});
