/**
 * How values print. Expected strings come from Puppet 7.23 (`puppet epp render`) and from Ruby 3.1's
 * `Kernel#format` / `Float#to_s`, which Puppet calls.
 */
import { describe, expect, it } from 'vitest';
import { EppEvalError } from '../../src/epp/errors.js';
import { compareForOperator, compareValues, puppetEquals, rubyEql } from '../../src/epp/runtime/compare.js';
import {
  formatFloat,
  interpolate,
  puppetQuote,
  renderValue,
  rubyCapitalize,
  rubyDigits,
  rubyInspectString,
  rubyStrip,
  sprintf,
  strftime,
  stringify,
  timestampToString,
} from '../../src/epp/runtime/format.js';
import {
  arithmetic,
  checkedInteger,
  negate,
  numericFromString,
  typeLabel,
} from '../../src/epp/runtime/operators.js';
import { resolveTypeName } from '../../src/epp/runtime/types.js';
import { DEFAULT, float, PRegexp, PSensitive, PTimestamp } from '../../src/epp/runtime/values.js';
import { errorOf, hash } from './helpers.js';

const type = (name: string) => resolveTypeName(name)!;
const ts = (iso: string) => new PTimestamp(BigInt(Date.parse(iso)) * 1_000_000n);

describe('formatFloat (Ruby Float#to_s)', () => {
  it.each([
    [3, '3.0'],
    [1000, '1000.0'],
    [0.0015, '0.0015'],
    [-0, '-0.0'],
    [0, '0.0'],
    [0.30000000000000004, '0.30000000000000004'],
    [1 / 3, '0.3333333333333333'],
    [123456789012345, '123456789012345.0'],
    [1234567890123456, '1.234567890123456e+15'],
    [12345678901234568, '1.2345678901234568e+16'],
    [1220879547006733.5, '1220879547006733.5'],
    [1e15, '1.0e+15'],
    [1e20, '1.0e+20'],
    [0.0001, '0.0001'],
    [0.00001, '1.0e-05'],
    [5e-324, '5.0e-324'],
    [-1.5e300, '-1.5e+300'],
  ])('%s prints as %s', (n, text) => {
    expect(formatFloat(n)).toBe(text);
  });

  it('prints non-finite values as Ruby does', () => {
    expect(formatFloat(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(formatFloat(Number.NEGATIVE_INFINITY)).toBe('-Infinity');
    expect(formatFloat(Number.NaN)).toBe('NaN');
  });
});

describe('renderValue (<%= %>) and interpolate (string interpolation)', () => {
  it('prints scalars', () => {
    expect(renderValue('x')).toBe('x');
    expect(renderValue(undefined)).toBe('');
    expect(renderValue(42)).toBe('42');
    expect(renderValue(-7)).toBe('-7');
    expect(renderValue(float(2.5))).toBe('2.5');
    expect(renderValue(float(3))).toBe('3.0');
    expect(renderValue(true)).toBe('true');
    expect(renderValue(false)).toBe('false');
    expect(renderValue(DEFAULT)).toBe('default');
    expect(renderValue(new PRegexp('ab+c'))).toBe('/ab+c/');
    expect(renderValue(new PRegexp('a\\/b'))).toBe('/a\\/b/');
    expect(renderValue(new PRegexp('a/b'))).toBe('/a\\/b/');
    expect(renderValue(type('String'))).toBe('String');
    expect(renderValue(ts('2020-02-03T04:05:06Z'))).toBe('2020-02-03T04:05:06.000000000 UTC');
  });

  it('prints collections with bare strings and empty undef (render_array_mixed, render_hash_*)', () => {
    expect(renderValue([1, 'two', float(3), true, undefined])).toBe('[1, two, 3.0, true, ]');
    expect(renderValue(hash(['z', 1], ['a', 2], ['m', 3]))).toBe('{z => 1, a => 2, m => 3}');
    expect(renderValue(hash(['a', [1, hash(['b', 'c'])]], ['d', hash()]))).toBe(
      '{a => [1, {b => c}], d => {}}',
    );
    expect(renderValue(hash(['a', undefined]))).toBe('{a => }');
    expect(renderValue(["it's", 'a\nb', 'x"y'])).toBe('[it\'s, a\nb, x"y]');
    expect(
      renderValue([float(1), float(1e20), float(-0), undefined, DEFAULT, new PRegexp('re'), type('Integer')]),
    ).toBe('[1.0, 1.0e+20, -0.0, , default, /re/, Integer]');
    expect(renderValue(hash([1, float(2.5)]))).toBe('{1 => 2.5}');
  });

  it('unwraps Sensitive only at the top of <%= %> (render_sensitive_*)', () => {
    expect(renderValue(new PSensitive('secret'))).toBe('secret');
    expect(renderValue([new PSensitive('x')])).toBe('[Sensitive [value redacted]]');
    expect(renderValue([new PSensitive('x'), hash(['a', new PSensitive('y')])])).toBe(
      '[Sensitive [value redacted], {a => Sensitive [value redacted]}]',
    );
    expect(interpolate(new PSensitive('x'))).toBe('Sensitive [value redacted]');
    expect(interpolate(new PSensitive(1))).toBe('Sensitive [value redacted]');
  });

  it('interpolates like <%= %> otherwise (interp_*)', () => {
    expect(interpolate([1, 'two', undefined])).toBe('[1, two, ]');
    expect(interpolate(float(3))).toBe('3.0');
    expect(interpolate(float(0.25))).toBe('0.25');
    expect(interpolate(hash(['a', 'b']))).toBe('{a => b}');
    expect(interpolate(undefined)).toBe('');
  });
});

describe('stringify (String())', () => {
  it('uses %f for floats and quotes inside collections (fn_string_*)', () => {
    expect(stringify(1)).toBe('1');
    expect(stringify(float(1))).toBe('1.000000');
    expect(stringify(float(2.5))).toBe('2.500000');
    expect(stringify(float(100))).toBe('100.000000');
    expect(stringify(float(1e20))).toBe('100000000000000000000.000000');
    expect(stringify(float(-0))).toBe('-0.000000');
    expect(stringify(true)).toBe('true');
    expect(stringify([1, 'a'])).toBe("[1, 'a']");
    expect(stringify([1, undefined, 'a'])).toBe("[1, undef, 'a']");
    expect(stringify(hash(['a', 'b']))).toBe("{'a' => 'b'}");
    expect(stringify(undefined)).toBe('');
    expect(stringify("it's \\ x")).toBe("it's \\ x");
  });

  it('prints other values inside collections with %p', () => {
    expect(
      stringify([
        float(1.5),
        new PRegexp('a'),
        DEFAULT,
        type('Integer'),
        new PSensitive(1),
        hash(['k', [undefined]]),
      ]),
    ).toBe("[1.5, /a/, default, Integer, #<Sensitive [value redacted]>, {'k' => [undef]}]");
    expect(stringify(["it's", 'a\nb', 'c\\d'])).toBe(`['it\\'s', "a\\nb", 'c\\d']`);
    expect(stringify(hash([1, 'a'], [[1], hash(['x', undefined])]))).toBe(
      "{1 => 'a', [1] => {'x' => undef}}",
    );
  });

  it('prints scalars other than numbers bare at the top', () => {
    expect(stringify(new PRegexp('a'))).toBe('a');
    expect(stringify(new PRegexp('a\\/b'))).toBe('a\\/b');
    expect(stringify(DEFAULT)).toBe('default');
    expect(stringify(new PSensitive('x'))).toBe('Sensitive [value redacted]');
    expect(stringify(type('Integer'))).toBe('Integer');
    expect(stringify(ts('2020-02-03T04:05:06Z'))).toBe('2020-02-03T04:05:06.000000000 UTC');
  });

  it('takes a format string for the value (fn_string_with_format)', () => {
    expect(stringify(float(3.14259), '%.2f')).toBe('3.14');
    expect(stringify(255, '%x')).toBe('ff');
    expect(stringify(8, '%#o')).toBe('010');
    expect(stringify(255, '%#x')).toBe('0xff');
    expect(stringify(float(3.5), '%s')).toBe('3.5');
    expect(stringify(3, '%s')).toBe('3');
    expect(stringify(float(3.5), '%d')).toBe('3');
    expect(stringify(-5, '%x')).toBe('..fb');
    expect(stringify(255, '%+X')).toBe('+FF');
    expect(stringify(float(1.5), '%+.2e')).toBe('+1.50e+00');
    expect(stringify(float(0.1), '%g')).toBe('0.1');
    expect(stringify(float(12345.6789), '%.3g')).toBe('1.23e+04');
    expect(stringify(10, '%08.3f')).toBe('0010.000');
    expect(stringify(float(3.25), '%e')).toBe('3.250000e+00');
    expect(stringify(float(1), '%p')).toBe('1.0');
    expect(stringify(float(1), '%g')).toBe('1');
  });

  it('formats strings, booleans, undef and default by their own letters', () => {
    expect(stringify(true, '%y')).toBe('yes');
    expect(stringify(true, '%#T')).toBe('T');
    expect(stringify(false, '%d')).toBe('0');
    expect(stringify(true, '%.1f')).toBe('1.0');
    expect(stringify(undefined, '%p')).toBe('undef');
    expect(stringify(undefined, '%n')).toBe('nil');
    expect(stringify(undefined, '%#u')).toBe('undefined');
    expect(stringify(undefined, '%d')).toBe('NaN');
    expect(stringify('abc', '%p')).toBe("'abc'");
    expect(stringify('abc', '%#p')).toBe('"abc"');
    expect(stringify('abc', '%u')).toBe('ABC');
    expect(stringify('abc', '%-6s')).toBe('abc   ');
    expect(stringify('abc', '%.2s')).toBe('ab');
    expect(stringify('hello world', '%C')).toBe('Hello world');
    expect(stringify('a::b', '%C')).toBe('A::B');
    expect(stringify(' x ', '%t')).toBe('x');
    expect(stringify('x', '%#d')).toBe("'x'");
    expect(stringify('a\tb', '%p')).toBe('"a\\tb"');
    expect(stringify("it's", '%#p')).toBe(`"it's"`);
    expect(stringify('a$b', '%#p')).toBe('"a\\$b"');
    expect(stringify(65, '%c')).toBe('A');
    expect(stringify(65, '%#c')).toBe('"A"');
    expect(stringify(3, '%#s')).toBe('"3"');
    expect(stringify(3, '%5s')).toBe('    3');
    expect(stringify(float(3.25), '%#s')).toBe('"3.25"');
    expect(stringify(float(3.25), '%8s')).toBe('    3.25');
    expect(stringify(new PRegexp('ab'), '%p')).toBe('/ab/');
    expect(stringify(new PRegexp('ab'), '%#s')).toBe("'ab'");
    expect(stringify(new PRegexp('ab'), '%5p')).toBe(' /ab/');
    expect(stringify(type('Integer'), '%#s')).toBe('"Integer"');
    expect(stringify(DEFAULT, '%#d')).toBe('"default"');
    expect(stringify(DEFAULT, '%D')).toBe('Default');
  });

  it('formats arrays and hashes: delimiters, %a of a hash, separators', () => {
    expect(stringify([1, 'a'], '%s')).toBe("[1, 'a']");
    expect(stringify([1, 'a'], '%(a')).toBe("(1, 'a')");
    expect(stringify([], '% a')).toBe('');
    expect(stringify(['x'], '%<a')).toBe("<'x'>");
    expect(stringify(hash(), '%[h')).toBe('[]');
    expect(stringify(hash(['a', 1]), '%a')).toBe("[['a', 1]]");
    expect(stringify(hash(['a', 'b']), '%p')).toBe("{'a' => 'b'}");
    expect(stringify([undefined, DEFAULT, new PRegexp('r')], '%s')).toBe('[undef, default, /r/]');
  });

  it('pretty prints with the # flag', () => {
    expect(stringify(hash(['a', hash(['b', 1])], ['c', [1, hash(['d', 2]), 3]]), '%#h')).toBe(
      "{\n  'a' => {\n    'b' => 1\n  },\n  'c' => [1,\n    {\n      'd' => 2\n    }, 3]\n}",
    );
    expect(stringify([1, [2, [3]], 'a'], '%#a')).toBe("[1,\n  [2,\n    [3]],\n  'a']");
    expect(stringify(['a', 'bb', 'ccc', 'dddd'], '%#5a')).toBe("[ 'a',\n  'bb',\n  'ccc',\n  'dddd']");
  });

  it('takes a hash of type to format, most specific type first', () => {
    const t = type;
    expect(stringify(255, hash([t('Any'), '%p'], [t('Integer'), '%x']))).toBe('ff');
    expect(stringify(255, hash([t('Numeric'), '%o']))).toBe('377');
    expect(stringify(float(2.5), hash([t('Numeric'), '%d']))).toBe('2');
    expect(stringify(float(2.5), hash([t('Integer'), '%x']))).toBe('2.500000');
    expect(
      stringify(
        [255, 'a'],
        hash([t('Array'), hash(['format', '%a'], ['string_formats', hash([t('Integer'), '%x'])])]),
      ),
    ).toBe("[ff, 'a']");
    expect(stringify([255, [1]], hash([t('Array'), hash(['format', '%(a'])], [t('Integer'), '%x']))).toBe(
      '(255, (1))',
    );
    expect(stringify([1, [2, 'x']], hash([t('Array'), hash(['format', '%(a'], ['separator', ';'])]))).toBe(
      "(1;(2;'x'))",
    );
    expect(
      stringify(
        hash(['a', 1], ['b', [1, 2]]),
        hash([t('Hash'), hash(['format', '%h'], ['separator', '; '], ['separator2', ': '])]),
      ),
    ).toBe("{'a': 1; 'b': [1, 2]}");
    expect(stringify(['a'], hash([t('Any'), '%p']))).toBe("['a']");
  });

  it('rejects bad formats with EPP_CONVERSION', () => {
    expect(errorOf(() => stringify(1, '%z')).code).toBe('EPP_CONVERSION');
    expect(errorOf(() => stringify(1, '%z')).message).toBe(
      "Illegal format 'z' specified for value of Integer type - expected one of the characters 'dxXobBeEfgGaAspc'",
    );
    expect(errorOf(() => stringify(1, '%,d')).message).toBe(
      "The format '%,d' is not a valid format on the form '%<flags><width>.<prec><format>'",
    );
    expect(errorOf(() => stringify([1], '%(<a')).code).toBe('EPP_CONVERSION');
    // A format hash Puppet's `Formats` type refuses is an argument error, in its describer's words.
    expect(errorOf(() => stringify(1, hash(['x', '%d']))).code).toBe('EPP_ARGUMENTS');
    expect(errorOf(() => stringify(1, hash(['x', '%d']))).message).toMatch(
      /^'new_string' expects \(Convertible = Any from, Formats = Variant\[Default, String\[1\], TypeMap = .* string_formats\?\)\n {2}rejected: parameter 'string_formats' variant 0 expects a Default value, got Struct\n {2}rejected: parameter 'string_formats' variant 1 expects a String value, got Struct\n {2}rejected: parameter 'string_formats' variant 2 key of entry 'x' expects a Type value, got String$/,
    );
  });
});

describe('puppetQuote and rubyInspectString', () => {
  it('quotes as Puppet and Ruby do', () => {
    expect(puppetQuote('abc')).toBe("'abc'");
    expect(puppetQuote("it's")).toBe("'it\\'s'");
    expect(puppetQuote('a\\')).toBe("'a\\'");
    expect(puppetQuote('a\nb')).toBe('"a\\nb"');
    expect(puppetQuote('\u0001')).toBe('"\\u{1}"');
    expect(rubyInspectString('a"b\\c\n\t\x1b\u0001#{x}é\x7f')).toBe(
      '"a\\"b\\\\c\\n\\t\\e\\u0001\\#{x}é\\u007F"',
    );
  });
});

describe('sprintf (Ruby Kernel#format)', () => {
  it('passes the fn_sprintf_* cases', () => {
    expect(sprintf('%s', [[1, 'a']])).toBe('[1, "a"]');
    expect(sprintf('[%05.2f] [%.3f] [%e]', [float(3.14259), 2, float(12345.678)])).toBe(
      '[03.14] [2.000] [1.234568e+04]',
    );
    expect(sprintf('%s|%p|%d', ['a', 'a', float(3.7)])).toBe('a|"a"|3');
    expect(sprintf('[%-6s] [%6s] [%03d] [%+d] [%x] [%o] [%%]', ['ab', 'cd', 7, 5, 255, 8])).toBe(
      '[ab    ] [    cd] [007] [+5] [ff] [10] [%]',
    );
  });

  it('rounds floats like Ruby: near ties half to even, not the exact binary value', () => {
    expect(sprintf('%.2f', [float(2.675)])).toBe('2.68');
    expect(sprintf('%.2f', [float(2.665)])).toBe('2.66');
    expect(sprintf('%.0f %.0f %.0f', [float(0.5), float(1.5), float(2.5)])).toBe('0 2 2');
    expect(sprintf('%.2f %.2f %.2f', [float(1.005), float(1.015), float(0.125)])).toBe('1.00 1.02 0.12');
    expect(sprintf('%.2f', [float(2.6749999999999994)])).toBe('2.68');
    expect(sprintf('%5.1f', [float(2.25)])).toBe('  2.2');
    expect(sprintf('%.1f %.1f %.1f %.1f', [float(0.25), float(0.35), float(0.45), float(-0.05)])).toBe(
      '0.2 0.4 0.4 -0.1',
    );
    expect(sprintf('%.20f', [float(2.675)])).toBe('2.67499999999999982236');
    expect(sprintf('%.2f', [float(10000000000000.125)])).toBe('10000000000000.12');
    expect(sprintf('%.1f', [float(-0.01)])).toBe('-0.0');
    expect(sprintf('%f', [float(-0)])).toBe('-0.000000');
  });

  it('prints %e and %g as Ruby (including its trailing-zero quirks)', () => {
    expect(sprintf('%e', [0])).toBe('0.000000e+00');
    expect(sprintf('%E', [float(12.5)])).toBe('1.250000E+01');
    expect(sprintf('%#.0e', [3])).toBe('3.e+00');
    expect(sprintf('%g %g %G', [float(0.0001), float(123456789), float(1e-10)])).toBe(
      '0.0001 1.23457e+08 1E-10',
    );
    expect(sprintf('%g %g %g', [float(1e-5), 100000, 1000000])).toBe('1e-05 100000 1e+06');
    expect(sprintf('%#g', [float(1.5)])).toBe('1.50000');
    expect(sprintf('%.3g', [float(0.0001234)])).toBe('0.000123');
    expect(sprintf('%g', [float(38040.05)])).toBe('38040.0');
    expect(sprintf('%g %.1g', [float(3804005), float(25)])).toBe('3.80400e+06 2e+01');
    expect(sprintf('%.10f', [float(1 / 3)])).toBe('0.3333333333');
    expect(
      sprintf('%10.4f|%f|%f', [
        float(Number.POSITIVE_INFINITY),
        float(Number.NEGATIVE_INFINITY),
        float(Number.NaN),
      ]),
    ).toBe('       Inf|-Inf|NaN');
  });

  it('prints %a hexadecimal floats as Ruby', () => {
    expect(sprintf('%a|%a|%a|%a', [float(1), float(0.1), float(0), float(-2.5)])).toBe(
      '0x1p+0|0x1.999999999999ap-4|0x0p+0|-0x1.4p+1',
    );
    expect(sprintf('%.2a|%.0a|%.0a|%.1a', [float(0.1), float(1.5), float(2.5), float(1.96875)])).toBe(
      '0x1.9ap-4|0x1p+1|0x1p+1|0x1.0p+1',
    );
    expect(sprintf('%A|%#.0a|%+a|%10.1a|', [float(0.1), float(1), float(1), float(1)])).toBe(
      '0X1.999999999999AP-4|0x1.p+0|+0x1p+0|  0x1.0p+0|',
    );
    expect(sprintf('%a|%a|%.20a', [float(5e-324), float(1e300), float(0.1)])).toBe(
      '0x1p-1074|0x1.7e43c8800759cp+996|0x1.999999999999a0000000p-4',
    );
    expect(sprintf('%.13a', [float(-2.780068289102605e17)])).toBe('-0x1.edd6de752a188p+57');
    expect(sprintf('%a', [3])).toBe('0x1.8p+1');
  });

  it('prints integers with flags, precision and two’s complement for negatives', () => {
    expect(sprintf('%x|%#x|%08x|%.5x|%+x', [-255, -255, -1, -1, -255])).toBe(
      '..f01|0x..f01|..ffffff|..fff|-ff',
    );
    expect(sprintf('%o|%b|%#o|%#b|%#X|%#B', [-8, -5, 8, 5, 255, 5])).toBe('..70|..1011|010|0b101|0XFF|0B101');
    expect(sprintf('%08.3d|%+ d|% d|%-+5d|', [5, 5, 5, 5])).toBe('     005|+5| 5|+5   |');
    expect(sprintf('%.0d|%#.0o|%5.0x|', [0, 0, 0])).toBe('|0|     |');
    expect(sprintf('%d', [12345678901234567890n])).toBe('12345678901234567890');
    expect(sprintf('%d|%x|%d|%d', [float(-3.7), float(3.9), '0x1f', '0b101'])).toBe('-3|3|31|5');
  });

  it('prints strings, chars and inspect forms', () => {
    expect(sprintf('%05s|%5.1s|%-3c|%c|%c', ['a', 'abc', 'z', 0x1f600, 'h'])).toBe('    a|    a|z  |😀|h');
    expect(sprintf('%s|%p', [undefined, undefined])).toBe('|""');
    expect(
      sprintf('%s|%p', [
        [1, undefined, 'a', float(2), true, new PRegexp('x\\/y')],
        hash(['a', 1], ['b', undefined]),
      ]),
    ).toBe('[1, nil, "a", 2.0, true, "/x\\\\/y/"]|{"a"=>1, "b"=>nil}');
    expect(sprintf('%s|%p|%s', [new PRegexp('ab'), new PRegexp('ab'), DEFAULT])).toBe('/ab/|"/ab/"|default');
    expect(sprintf('%s|%p', [type('Integer'), new PSensitive('x')])).toBe(
      'Integer|#<Sensitive [value redacted]>',
    );
    expect(sprintf('%s|%p', [[new PSensitive(1)], DEFAULT])).toBe('[#<Sensitive [value redacted]>]|:default');
    expect(sprintf('%s', [float(1)])).toBe('1.0');
    expect(sprintf('%.3s', ['abcdef'])).toBe('abc');
  });

  it('takes *, positional and named arguments', () => {
    expect(sprintf('%*d|%-*d|', [5, 1, 4, 2])).toBe('    1|2   |');
    expect(sprintf('%2$s %1$s', ['a', 'b'])).toBe('b a');
    expect(sprintf('%<a>s-%<b>05.1f', [hash(['a', 'x'], ['b', float(2.25)])])).toBe('x-002.2');
    expect(sprintf('%{a}-%{b}', [hash(['a', 'x'], ['b', 2])])).toBe('x-2');
    expect(sprintf('%{x}|%-6{y}|', [hash(['x', float(3.5)], ['y', 'ab'])])).toBe('3.5|ab    |');
    expect(sprintf('%<a>s', [hash(['a', [1, 'b', undefined]])])).toBe('[1, "b", nil]');
  });

  it('reports Ruby’s argument errors as EPP_ARGUMENTS', () => {
    expect(errorOf(() => sprintf('%s %s', ['a'])).message).toBe('too few arguments');
    expect(errorOf(() => sprintf('%y', [1])).message).toBe('malformed format string - %y');
    expect(errorOf(() => sprintf('%<a>s', [hash(['b', 1])])).message).toBe('key<a> not found');
    expect(errorOf(() => sprintf('%<a>s', ['x'])).message).toBe('one hash required');
    expect(errorOf(() => sprintf('%d', ['abc'])).message).toBe('invalid value for Integer(): "abc"');
    expect(errorOf(() => sprintf('%d', [[1]])).code).toBe('EPP_ARGUMENTS');
    expect(errorOf(() => sprintf('%c', ['hello'])).message).toBe('%c requires a character');
    expect(errorOf(() => sprintf('50%', [])).code).toBe('EPP_ARGUMENTS');
    // A `%` after flags or a width (puppet epp render, session 17).
    expect(errorOf(() => sprintf('%-%', [])).message).toBe('invalid format character - %');
    expect(errorOf(() => sprintf('%5%', [])).message).toBe('invalid format character - %');
  });

  it('pads to a width counted in characters, as Ruby counts them (an emoji is one)', () => {
    // Puppet: '😀  |' and '    😀' (puppet epp render, session 17).
    expect(sprintf('%-3s|', ['😀'])).toBe('😀  |');
    expect(sprintf('%5s', ['😀'])).toBe('    😀');
    expect(sprintf('%5s', ['é'])).toBe('    é');
  });
});

describe('rubyDigits (dtoa modes 2 and 3)', () => {
  it('gives the digits and the decimal point position', () => {
    expect(rubyDigits(2.675, 3, 2)).toEqual({ digits: '268', decpt: 1 });
    expect(rubyDigits(0.5, 3, 0)).toEqual({ digits: '', decpt: 0 });
    expect(rubyDigits(1.5, 3, 0)).toEqual({ digits: '2', decpt: 1 });
    expect(rubyDigits(999.96, 3, 1)).toEqual({ digits: '1', decpt: 4 });
    expect(rubyDigits(12345.678, 2, 7)).toEqual({ digits: '1234568', decpt: 5 });
    expect(rubyDigits(1e-300, 2, 3)).toEqual({ digits: '1', decpt: -299 });
  });
});

describe('Ruby string helpers', () => {
  it('strips ASCII whitespace and NUL only', () => {
    expect(rubyStrip('\0 \t a \0\v ')).toBe('a');
    expect(rubyStrip('\u00a0a\u00a0')).toBe('\u00a0a\u00a0');
  });

  it('capitalizes the first character and lowers the rest', () => {
    expect(rubyCapitalize('hELLO wORLD')).toBe('Hello world');
    expect(rubyCapitalize('ǆa')).toBe('ǅa');
    expect(rubyCapitalize('')).toBe('');
  });
});

describe('strftime and timestamps', () => {
  const t = new PTimestamp(1580702706123456000n);

  it('prints a timestamp as Puppet does', () => {
    expect(timestampToString(new PTimestamp(1580702706500000000n))).toBe('2020-02-03T04:05:06.500000000 UTC');
  });

  it('supports Ruby’s directives and flags', () => {
    expect(
      strftime(
        t,
        '%A %a %B %b %j %U %W %V %G %u %w %e %k %l %I %p %P %L %N %3N %z %:z %Z %s %% %-d %_m %^a %10A %y %C %D %F %T %R %r %c %x %X',
      ),
    ).toBe(
      'Monday Mon February Feb 034 05 05 06 2020 1 1  3  4  4 04 AM am 123 123456000 123 +0000 +00:00 UTC 1580702706 % 3  2 MON     Monday 20 20 02/03/20 2020-02-03 04:05:06 04:05 04:05:06 AM Mon Feb  3 04:05:06 2020 02/03/20 04:05:06',
    );
    expect(strftime(ts('2020-02-03T04:05:06Z'), '%Y-%m-%d %H:%M:%S')).toBe('2020-02-03 04:05:06');
    expect(strftime(ts('2020-12-31T00:00:00Z'), '%V %G %U %W %j')).toBe('53 2020 52 52 366');
  });

  it('applies a timezone offset', () => {
    expect(strftime(ts('2021-01-01T23:30:00Z'), '%F %T %z %Z', '+05:30')).toBe('2021-01-02 05:00:00 +0530 ');
    expect(strftime(ts('2021-01-01T01:00:00Z'), '%F %H %:z', '-0200')).toBe('2020-12-31 23 -02:00');
    expect(errorOf(() => strftime(t, '%F', 'Mars/Olympus')).message).toBe("Illegal timezone 'Mars/Olympus'");
  });
});

describe('the value model: Integers as numbers (bigint beyond 2^53), Floats boxed', () => {
  const MAX_SAFE = Number.MAX_SAFE_INTEGER; // 9007199254740991

  it('prints Integers exactly on both sides of 2^53 and Floats with their point', () => {
    expect(renderValue(MAX_SAFE)).toBe('9007199254740991');
    expect(renderValue(2n ** 53n)).toBe('9007199254740992');
    expect(renderValue(9223372036854775807n)).toBe('9223372036854775807');
    expect(renderValue(-9223372036854775808n)).toBe('-9223372036854775808');
    expect(renderValue(float(1))).toBe('1.0');
    expect(renderValue([1, float(1)])).toBe('[1, 1.0]');
    expect(interpolate(float(1))).toBe('1.0');
    expect(stringify(2n ** 53n + 1n)).toBe('9007199254740993');
    expect(stringify(2n ** 53n + 1n, '%x')).toBe('20000000000001');
    expect(stringify(-(2n ** 60n), '%d')).toBe('-1152921504606846976');
    expect(sprintf('%d|%s|%p', [2n ** 53n, 2n ** 53n, 2n ** 53n])).toBe(
      '9007199254740992|9007199254740992|9007199254740992',
    );
    expect(sprintf('%d %s %p %f', [float(1), float(1), float(1), 1])).toBe('1 1.0 1.0 1.000000');
  });

  it('adds past 2^53 exactly, keeping an Integer (bigint only beyond the safe range)', () => {
    const sum = arithmetic('+', MAX_SAFE, 1);
    expect(sum).toBe(9007199254740992n);
    expect(renderValue(sum)).toBe('9007199254740992');
    expect(renderValue(arithmetic('+', sum, 1))).toBe('9007199254740993');
    expect(arithmetic('-', sum, 1)).toBe(MAX_SAFE); // back to a number: canonical
    expect(arithmetic('+', -MAX_SAFE, -1)).toBe(-9007199254740992n);
    expect(arithmetic('*', 94906267, 94906267)).toBe(9007199515875289n); // just past 2^53
    expect(arithmetic('*', 94906265, 94906265)).toBe(9007199136250225); // just below
    expect(renderValue(arithmetic('*', 3037000499, 3037000499))).toBe('9223372030926249001');
    expect(arithmetic('*', 4, 5)).toBe(20);
    expect(Object.is(arithmetic('*', -3, 0), 0)).toBe(true); // no -0 among Integers
    expect(Object.is(arithmetic('/', 0, -5), 0)).toBe(true);
    expect(Object.is(arithmetic('%', -4, 2), 0)).toBe(true);
    expect(typeLabel(arithmetic('+', MAX_SAFE, 1))).toBe('Integer');
  });

  it('divides Integers flooring like Ruby, exactly for large operands', () => {
    expect(arithmetic('/', 7, 2)).toBe(3);
    expect(arithmetic('/', -7, 2)).toBe(-4);
    expect(arithmetic('/', 7, -2)).toBe(-4);
    expect(arithmetic('/', -7, -2)).toBe(3);
    expect(arithmetic('%', -7, 2)).toBe(1);
    expect(arithmetic('%', 7, -2)).toBe(-1);
    expect(arithmetic('/', MAX_SAFE, 2)).toBe(4503599627370495);
    expect(arithmetic('/', -MAX_SAFE, 2)).toBe(-4503599627370496);
    expect(arithmetic('/', 2n ** 62n, 2)).toBe(2n ** 61n);
    expect(arithmetic('/', 2n ** 54n, 4)).toBe(2 ** 52);
    expect(arithmetic('%', 2n ** 62n + 3n, 2)).toBe(1);
    expect(errorOf(() => arithmetic('/', 1, 0)).code).toBe('EPP_DIVISION_BY_ZERO');
    expect(errorOf(() => arithmetic('%', 1, 0)).code).toBe('EPP_DIVISION_BY_ZERO');
  });

  it('still fails on 64-bit overflow', () => {
    expect(arithmetic('+', 9223372036854775806n, 1)).toBe(9223372036854775807n);
    expect(errorOf(() => arithmetic('+', 9223372036854775807n, 1)).code).toBe('EPP_INTEGER_OVERFLOW');
    expect(errorOf(() => arithmetic('*', 4294967296, 4294967296)).code).toBe('EPP_INTEGER_OVERFLOW');
    expect(errorOf(() => arithmetic('-', -9223372036854775808n, 1)).code).toBe('EPP_INTEGER_OVERFLOW');
    expect(errorOf(() => negate(-9223372036854775808n)).code).toBe('EPP_INTEGER_OVERFLOW');
    expect(errorOf(() => arithmetic('<<', 1, 63)).code).toBe('EPP_INTEGER_OVERFLOW');
    expect(arithmetic('<<', 1, 62)).toBe(2n ** 62n);
    expect(arithmetic('<<', 1, 3)).toBe(8);
    expect(arithmetic('>>', -8, 1)).toBe(-4);
    expect(checkedInteger(5n)).toBe(5);
    expect(errorOf(() => checkedInteger(2n ** 63n)).code).toBe('EPP_INTEGER_OVERFLOW');
  });

  it('keeps Float arithmetic Float and Integer arithmetic Integer', () => {
    expect(arithmetic('+', 1, float(2))).toBe(float(3));
    expect(renderValue(arithmetic('+', float(1), 2))).toBe('3.0');
    expect(arithmetic('/', float(1), 4)).toBe(float(0.25));
    expect(arithmetic('/', 1, 4)).toBe(0);
    expect(arithmetic('+', '1', '2')).toBe(3);
    expect(arithmetic('+', '1.5', 1)).toBe(float(2.5));
    expect(arithmetic('+', '0x10', 1)).toBe(17);
    expect(errorOf(() => arithmetic('%', float(1), 2)).message).toBe(
      "Operator '%' is not applicable to a Float.",
    );
    expect(negate(float(0))).toBe(float(-0));
    expect(negate(5)).toBe(-5);
    expect(Object.is(negate(0), 0)).toBe(true);
    expect(negate('-2.5')).toBe(float(2.5));
    expect(numericFromString('12345678901234567890')).toBe(12345678901234567890n);
    expect(numericFromString('-12')).toBe(-12);
    expect(numericFromString('-0')).toBe(0);
    expect(numericFromString('1e3')).toBe(float(1000));
    expect(typeLabel(float(1))).toBe('Float');
    expect(typeLabel(1)).toBe('Integer');
  });

  it('compares Integer and Float by value; hash keys and eql? tell them apart', () => {
    expect(puppetEquals(1, float(1))).toBe(true);
    expect(puppetEquals(float(1), 1)).toBe(true);
    expect(puppetEquals(1, 1)).toBe(true);
    expect(puppetEquals(1, 2)).toBe(false);
    expect(puppetEquals(2n ** 53n, float(2 ** 53))).toBe(true);
    expect(puppetEquals(2n ** 53n + 1n, float(2 ** 53))).toBe(false);
    expect(rubyEql(1, float(1))).toBe(false);
    expect(rubyEql(float(0), float(-0))).toBe(true);
    expect(compareForOperator(1, float(1.5))).toBe(-1);
    expect(compareForOperator(2n ** 53n + 1n, float(2 ** 53))).toBe(1);
    expect(compareForOperator(3, 2)).toBe(1);
    expect(compareValues(float(2.5), 2)).toBe(1);
    expect(compareValues(2n ** 60n, 1)).toBe(1);
    expect(errorOf(() => compareValues(1, 'a')).message).toBe('comparison of Integer with String failed');
    expect(errorOf(() => compareValues('a', float(1))).message).toBe('comparison of String with 1.0 failed');
    expect(errorOf(() => compareValues('a', 1)).message).toBe('comparison of String with 1 failed');
    expect(errorOf(() => compareValues('a', float(1e20))).message).toBe(
      'comparison of String with 1.0e+20 failed',
    );
    expect(errorOf(() => compareForOperator(float(1), 'a')).message).toBe(
      "Comparison of: Float < String, is not possible. Caused by 'A Numeric is not comparable to non Numeric'.",
    );
  });
});

describe('robustness: bad input gives EppEvalError, never a RangeError', () => {
  it.each([
    () => sprintf('%999999999d', [1]),
    () => sprintf('%.99999999f', [float(1.5)]),
    () => sprintf('%*d', [10_000_000, 1]),
    () => sprintf('%9999999{a}', [hash(['a', 1])]),
    () => stringify(float(Number.POSITIVE_INFINITY), '%d'),
    () => stringify(0x110000, '%c'),
    () => strftime(new PTimestamp(100000000000000000000000000000n), '%Y'),
    () => strftime(new PTimestamp(0n), '%99999999Y'),
  ])('%#', (f) => {
    expect(errorOf(f)).toBeInstanceOf(EppEvalError);
  });
});
