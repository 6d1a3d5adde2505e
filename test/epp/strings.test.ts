/**
 * The string functions. Expected values come from Puppet 7.23 (`puppet epp render`), mostly the fn_* cases
 * of the conformance suite and a batch of extra calls run through the same oracle.
 */
import { describe, expect, it } from 'vitest';
import { rubySplit, shellquote, stringFunctions, versioncmp } from '../../src/epp/functions/strings.js';
import { PatternType, RegexpType } from '../../src/epp/runtime/types.js';
import { float, PRegexp, PTimestamp, type Value } from '../../src/epp/runtime/values.js';
import { callFunction, errorOf, hash } from './helpers.js';

function call(name: string, ...args: Value[]): Value {
  return callFunction(stringFunctions, name, args);
}

const re = (source: string) => new PRegexp(source);

describe('case functions', () => {
  it('upcase / downcase strings, arrays and hashes (fn_upcase_downcase)', () => {
    expect(call('upcase', 'aBc')).toBe('ABC');
    expect(call('downcase', 'aBc')).toBe('abc');
    expect(call('upcase', ['a', 'B'])).toEqual(['A', 'B']);
    expect(call('upcase', 'straße')).toBe('STRASSE');
    expect(call('downcase', 'ÀÉÎ')).toBe('àéî');
    // Ruby maps each character alone: no final sigma (puppet epp render: σασ, session 17).
    expect(call('downcase', 'ΣΑΣ')).toBe('σασ');
    expect(call('downcase', 'ς')).toBe('ς');
    expect(call('upcase', hash(['a', ['b', hash(['c', 'd'])]], ['E', 1]))).toEqual(
      hash(['A', ['B', hash(['C', 'D'])]], ['E', 1]),
    );
    expect(call('upcase', 5)).toBe(5);
    expect(call('upcase', [1, float(1.5), 9007199254740993n, 'a'])).toEqual([
      1,
      float(1.5),
      9007199254740993n,
      'A',
    ]);
  });

  it('capitalize and camelcase (fn_capitalize, fn_camelcase)', () => {
    expect(call('capitalize', 'hELLO wORLD')).toBe('Hello world');
    expect(call('capitalize', ['abc', 'dEF'])).toEqual(['Abc', 'Def']);
    expect(call('camelcase', 'snake_case_word')).toBe('SnakeCaseWord');
    expect(call('camelcase', 'a__b_c_')).toBe('ABC');
    expect(call('camelcase', float(2.5))).toBe(float(2.5));
    expect(call('strip', [3, float(3)])).toEqual([3, float(3)]);
  });

  it('rejects values that are not strings or numbers', () => {
    const e = errorOf(() => call('capitalize', true));
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.message).toBe(
      "'capitalize' parameter 'arg' expects a value of type Numeric, String, or Iterable[Variant], got Boolean",
    );
    expect(errorOf(() => call('upcase', [true])).code).toBe('EPP_ARGUMENTS');
    expect(errorOf(() => call('upcase', 'a', 'b')).message).toBe("'upcase' expects 1 argument, got 2");
  });
});

describe('whitespace functions', () => {
  it('strip, lstrip, rstrip (fn_strip_lstrip_rstrip)', () => {
    expect(call('strip', '  a b  ')).toBe('a b');
    expect(call('lstrip', '  a ')).toBe('a ');
    expect(call('rstrip', ' a  ')).toBe(' a');
    expect(call('strip', ' \t x \n')).toBe('x');
    expect(call('strip', ['  a', 'b  ', 3])).toEqual(['a', 'b', 3]);
  });

  it('chomp and chop as Ruby', () => {
    expect(call('chomp', 'x\r\n')).toBe('x');
    expect(call('chomp', 'x\n\n')).toBe('x\n');
    expect(call('chomp', 'x')).toBe('x');
    expect(call('chop', 'ab')).toBe('a');
    expect(call('chop', 'a\r\n')).toBe('a');
    expect(call('chop', 'a😀')).toBe('a');
    expect(call('chop', '')).toBe('');
  });
});

describe('split', () => {
  it('splits on a regexp or a string taken as a regexp (fn_split)', () => {
    expect(call('split', 'a,b,,c', ',')).toEqual(['a', 'b', '', 'c']);
    expect(call('split', 'a1b22c', re('\\d+'))).toEqual(['a', 'b', 'c']);
    expect(call('split', 'abc', '')).toEqual(['a', 'b', 'c']);
    expect(call('split', 'a.b.c', '.')).toEqual([]);
    expect(call('split', 'a-b_c', re('[-_]'))).toEqual(['a', 'b', 'c']);
    expect(call('split', 'x', new RegexpType('x'))).toEqual([]);
  });

  it('keeps leading empty fields and captures, drops trailing empty fields', () => {
    expect(call('split', 'a1b2', re('(\\d)'))).toEqual(['a', '1', 'b', '2']);
    expect(call('split', ',a,,b,,', ',')).toEqual(['', 'a', '', 'b']);
    expect(call('split', '', ',')).toEqual([]);
    expect(call('split', 'abc', re('x*'))).toEqual(['a', 'b', 'c']);
    expect(call('split', 'a b  c', ' ')).toEqual(['a', 'b', '', 'c']);
    expect(rubySplit('a😀b', /(?:)/)).toEqual(['a', '😀', 'b']);
  });

  it('reports bad arguments', () => {
    expect(errorOf(() => call('split', 1, ',')).message).toBe(
      "'split' parameter 'str' expects a String value, got Integer",
    );
    expect(errorOf(() => call('split', 'a', '(')).code).toBe('EPP_ARGUMENTS');
  });
});

describe('regsubst', () => {
  it('replaces the first match, or all with G (fn_regsubst_basic)', () => {
    expect(call('regsubst', 'hello world', 'o', '0')).toBe('hell0 world');
    expect(call('regsubst', 'hello world', re('o'), '0', 'G')).toBe('hell0 w0rld');
    expect(call('regsubst', 'aaa', 'a', 'b', 'G')).toBe('bbb');
  });

  it('understands back-references (fn_regsubst_backreference)', () => {
    expect(call('regsubst', 'john smith', re('(\\w+) (\\w+)'), '\\2, \\1')).toBe('smith, john');
    expect(call('regsubst', 'abc', 'b', '[\\0]')).toBe('a[b]c');
    expect(call('regsubst', 'abc', '(?<x>b)', '<\\k<x>>')).toBe('a<b>c');
    expect(call('regsubst', 'abc', 'b', '\\&\\&')).toBe('abbc');
    expect(call('regsubst', 'a.b', '\\.', '\\\\')).toBe('a\\b');
    expect(call('regsubst', 'a1', '(\\d)|(x)', '[\\2]')).toBe('a[]');
    expect(call('regsubst', 'abc', 'b', "\\`|\\'")).toBe('aa|cc');
  });

  it('takes the flags I, M, E and a hash replacement', () => {
    expect(call('regsubst', 'Hello', 'h', 'j', 'I')).toBe('jello');
    expect(call('regsubst', 'a\nb', 'a.b', 'X', 'M')).toBe('X');
    expect(call('regsubst', 'a\nb', 'a.b', 'X')).toBe('a\nb');
    expect(call('regsubst', 'abc', 'a b c', 'X', 'E')).toBe('X');
    expect(call('regsubst', 'hello', 'l', hash(['l', 'L']), 'G')).toBe('heLLo');
    expect(call('regsubst', 'abc', '', '-', 'G')).toBe('-a-b-c-');
    expect(call('regsubst', 'abc', re('B'), 'x')).toBe('abc');
  });

  it('maps over an array target', () => {
    expect(call('regsubst', ['ab', 'cb'], 'b', 'x')).toEqual(['ax', 'cx']);
  });

  it('checks its flags, listing both dispatches as Puppet does (the other refuses the pattern)', () => {
    expect(errorOf(() => call('regsubst', 'a', 'a', 'b', 'Q')).message).toBe(
      "The function 'regsubst' was called with arguments it does not accept. It expects one of:\n" +
        "  (Variant[Array[String], String] target, String pattern, Variant[String, Hash[String, String]] replacement, Pattern[/^[GEIM]*$/] flags?, Enum['E', 'N', 'S', 'U'] encoding?)\n" +
        "    rejected: parameter 'flags' expects an undef value or a match for Pattern[/^[GEIM]*$/], got 'Q'\n" +
        '  (Variant[Array[String], String] target, Variant[Regexp, Type[Regexp]] pattern, Variant[String, Hash[String, String]] replacement, Pattern[/^G?$/] flags?)\n' +
        "    rejected: parameter 'pattern' expects a value of type Regexp or Type[Regexp], got String",
    );
    expect(errorOf(() => call('regsubst', 'a', re('a'), 'b', 'I')).code).toBe('EPP_ARGUMENTS');
    expect(errorOf(() => call('regsubst', 1, 'a', 'b')).code).toBe('EPP_ARGUMENTS');
  });
});

describe('a String compiled as a regexp', () => {
  it("fails with Ruby's RegexpError text, the source after it (Puppet 7.23)", () => {
    expect(errorOf(() => call('split', 'a*b', '*')).message).toBe(
      'target of repeat operator is not specified: /*/',
    );
    expect(errorOf(() => call('match', 'a', 'a{2,1}')).message).toBe(
      'upper is smaller than lower in repeat range: /a{2,1}/',
    );
    expect(errorOf(() => call('regsubst', 'a', '[', 'x')).message).toBe('premature end of char-class: /[/');
  });
});

describe('match', () => {
  it('returns the match and its captures, or undef (fn_match, fn_match_array)', () => {
    expect(call('match', 'abc123', re('([a-z]+)(\\d+)'))).toEqual(['abc123', 'abc', '123']);
    expect(call('match', 'xyz', re('\\d'))).toBeUndefined();
    expect(call('match', ['a1', 'b', 'c3'], re('\\d'))).toEqual([['1'], undefined, ['3']]);
    expect(call('match', 'abc', 'b(c)?')).toEqual(['bc', 'c']);
    expect(call('match', 'abc', 'x(y)?|(b)')).toEqual(['b', undefined, 'b']);
    expect(call('match', ['a1', 'b2'], re('(\\d)'))).toEqual([
      ['1', '1'],
      ['2', '2'],
    ]);
  });

  it('takes Pattern and Regexp types and arrays of patterns', () => {
    expect(call('match', 'abc', new PatternType([re('z'), re('b')]))).toEqual(['b']);
    expect(call('match', 'abc', [re('z'), re('(c)')])).toEqual(['c', 'c']);
    expect(call('match', 'x', new RegexpType('x'))).toEqual(['x']);
    expect(errorOf(() => call('match', 'x', new RegexpType())).message).toBe(
      'Given Regexp Type has no regular expression',
    );
    expect(errorOf(() => call('match', 'x', 1)).message).toBe(
      'match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got Integer',
    );
  });
});

describe('sprintf, shellquote, strftime', () => {
  it('sprintf formats as Ruby (fn_sprintf_*)', () => {
    expect(call('sprintf', '%s|%p|%d', 'a', 'a', float(3.7))).toBe('a|"a"|3');
    expect(call('sprintf', '%s|%5.1f|%-4d|%x', undefined, float(2.25), 7, 255)).toBe('|  2.2|7   |ff');
    expect(call('sprintf', '%s %s %d', float(1), 1, 9007199254740993n)).toBe('1.0 1 9007199254740993');
    // A Puppet 3 function: Ruby's own words for a format that is no String.
    expect(errorOf(() => call('sprintf', 1)).message).toBe('no implicit conversion of Integer into String');
    expect(errorOf(() => call('sprintf')).message).toBe(
      'sprintf(): Wrong number of arguments given (0 for minimum 1)',
    );
  });

  it('shellquote quotes words for a Bourne shell (fn_shellquote)', () => {
    expect(call('shellquote', 'a b', "it's", 'plain')).toBe('"a b" "it\'s" plain');
    expect(call('shellquote', ['a', ['b c']], '', 'x$y', 'a\'b"c', 'é')).toBe(
      `a "b c" "" 'x$y' "a'b\\"c" "é"`,
    );
    expect(shellquote([])).toBe('');
    // A Puppet 3 function: an undef argument is '', a word that is no String fails as Ruby fails on it.
    expect(call('shellquote', undefined, 'a/b-c')).toBe('"" a/b-c');
    expect(errorOf(() => call('shellquote', 1, 'a/b-c')).message).toBe(
      "undefined method `length' for 1:Integer",
    );
    expect(errorOf(() => call('shellquote', ['a', [undefined]])).message).toBe(
      "undefined method `length' for nil:NilClass",
    );
    expect(errorOf(() => call('shellquote', hash(['a', 1]))).message).toBe(
      'no implicit conversion of Hash into String',
    );
  });

  it('strftime formats a Timestamp (fn_strftime_fixed_timestamp)', () => {
    const t = new PTimestamp(BigInt(Date.parse('2020-02-03T04:05:06Z')) * 1_000_000n);
    expect(call('strftime', t, '%Y-%m-%d %H:%M:%S')).toBe('2020-02-03 04:05:06');
    expect(call('strftime', t, '%H:%M %z', '-01:00')).toBe('03:05 -0100');
    const e = errorOf(() => call('strftime', '%Y'));
    expect(e.code).toBe('EPP_ARGUMENTS');
    // Puppet 7.23 lists its three dispatches (test/epp/dispatch-messages.test.ts has the whole text).
    expect(errorOf(() => call('strftime', 1, '%Y')).message).toContain(
      "  (Timestamp time_object, String format, String timezone?)\n    rejected: parameter 'time_object' expects a Timestamp value, got Integer\n",
    );
  });
});

describe('versioncmp and digests', () => {
  it('compares versions as Puppet (fn_versioncmp)', () => {
    expect(call('versioncmp', '1.10', '1.9')).toBe(1);
    expect(call('versioncmp', '1.0', '1.0')).toBe(0);
    expect(call('versioncmp', '1.2', '1.10')).toBe(-1);
    expect(versioncmp('1.0.0', '1.0')).toBe(1);
    expect(versioncmp('1.0-rc1', '1.0')).toBe(1);
    expect(versioncmp('1.01', '1.1')).toBe(-1);
    expect(versioncmp('a', 'B')).toBe(-1);
    expect(versioncmp('1.0a', '1.0b')).toBe(-1);
    expect(call('versioncmp', '1.0.0', '1', true)).toBe(0);
    expect(versioncmp('2.0-1', '2.0.0-1', true)).toBe(0);
  });

  it('md5, sha1, sha256 (fn_digests)', () => {
    expect(call('md5', 'abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(call('sha1', 'abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(call('sha256', 'abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(call('md5', 'é')).toBe('66ddcd97cfdeabb2f6fb8a999b4bc76f');
    expect(errorOf(() => call('sha1', 1)).code).toBe('EPP_ARGUMENTS');
  });
});

describe('registry', () => {
  it('exports every string function once', () => {
    const names = stringFunctions.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(
      [
        'camelcase',
        'capitalize',
        'chomp',
        'chop',
        'downcase',
        'lstrip',
        'match',
        'digest',
        'md5',
        'regsubst',
        'rstrip',
        'sha1',
        'sha256',
        'shellquote',
        'split',
        'sprintf',
        'strftime',
        'strip',
        'upcase',
        'versioncmp',
      ].sort(),
    );
  });
});
