/**
 * How values print. Expected strings come from Puppet 7.23 (`puppet epp render`) and from Ruby 3.1's
 * `Kernel#format` / `Float#to_s`, which Puppet calls.
 */
import { describe, expect, it } from 'vitest';
import { EppEvalError } from '../../src/epp/errors.js';
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
import { resolveTypeName } from '../../src/epp/runtime/types.js';
import { DEFAULT, PRegexp, PSensitive, PTimestamp } from '../../src/epp/runtime/values.js';
import { errorOf, hash } from './helpers.js';

const type = (name: string) => resolveTypeName(name)!;
const ts = (iso: string) => new PTimestamp(Date.parse(iso) / 1000);

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
    expect(renderValue(42n)).toBe('42');
    expect(renderValue(-7n)).toBe('-7');
    expect(renderValue(2.5)).toBe('2.5');
    expect(renderValue(3)).toBe('3.0');
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
    expect(renderValue([1n, 'two', 3, true, undefined])).toBe('[1, two, 3.0, true, ]');
    expect(renderValue(hash(['z', 1n], ['a', 2n], ['m', 3n]))).toBe('{z => 1, a => 2, m => 3}');
    expect(renderValue(hash(['a', [1n, hash(['b', 'c'])]], ['d', hash()]))).toBe(
      '{a => [1, {b => c}], d => {}}',
    );
    expect(renderValue(hash(['a', undefined]))).toBe('{a => }');
    expect(renderValue(["it's", 'a\nb', 'x"y'])).toBe('[it\'s, a\nb, x"y]');
    expect(renderValue([1, 1e20, -0, undefined, DEFAULT, new PRegexp('re'), type('Integer')])).toBe(
      '[1.0, 1.0e+20, -0.0, , default, /re/, Integer]',
    );
    expect(renderValue(hash([1n, 2.5]))).toBe('{1 => 2.5}');
  });

  it('unwraps Sensitive only at the top of <%= %> (render_sensitive_*)', () => {
    expect(renderValue(new PSensitive('secret'))).toBe('secret');
    expect(renderValue([new PSensitive('x')])).toBe('[Sensitive [value redacted]]');
    expect(renderValue([new PSensitive('x'), hash(['a', new PSensitive('y')])])).toBe(
      '[Sensitive [value redacted], {a => Sensitive [value redacted]}]',
    );
    expect(interpolate(new PSensitive('x'))).toBe('Sensitive [value redacted]');
    expect(interpolate(new PSensitive(1n))).toBe('Sensitive [value redacted]');
  });

  it('interpolates like <%= %> otherwise (interp_*)', () => {
    expect(interpolate([1n, 'two', undefined])).toBe('[1, two, ]');
    expect(interpolate(3)).toBe('3.0');
    expect(interpolate(0.25)).toBe('0.25');
    expect(interpolate(hash(['a', 'b']))).toBe('{a => b}');
    expect(interpolate(undefined)).toBe('');
  });
});

describe('stringify (String())', () => {
  it('uses %f for floats and quotes inside collections (fn_string_*)', () => {
    expect(stringify(1n)).toBe('1');
    expect(stringify(1)).toBe('1.000000');
    expect(stringify(2.5)).toBe('2.500000');
    expect(stringify(100)).toBe('100.000000');
    expect(stringify(1e20)).toBe('100000000000000000000.000000');
    expect(stringify(-0)).toBe('-0.000000');
    expect(stringify(true)).toBe('true');
    expect(stringify([1n, 'a'])).toBe("[1, 'a']");
    expect(stringify([1n, undefined, 'a'])).toBe("[1, undef, 'a']");
    expect(stringify(hash(['a', 'b']))).toBe("{'a' => 'b'}");
    expect(stringify(undefined)).toBe('');
    expect(stringify("it's \\ x")).toBe("it's \\ x");
  });

  it('prints other values inside collections with %p', () => {
    expect(
      stringify([
        1.5,
        new PRegexp('a'),
        DEFAULT,
        type('Integer'),
        new PSensitive(1n),
        hash(['k', [undefined]]),
      ]),
    ).toBe("[1.5, /a/, default, Integer, #<Sensitive [value redacted]>, {'k' => [undef]}]");
    expect(stringify(["it's", 'a\nb', 'c\\d'])).toBe(`['it\\'s', "a\\nb", 'c\\d']`);
    expect(stringify(hash([1n, 'a'], [[1n], hash(['x', undefined])]))).toBe(
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
    expect(stringify(3.14259, '%.2f')).toBe('3.14');
    expect(stringify(255n, '%x')).toBe('ff');
    expect(stringify(8n, '%#o')).toBe('010');
    expect(stringify(255n, '%#x')).toBe('0xff');
    expect(stringify(3.5, '%s')).toBe('3.5');
    expect(stringify(3n, '%s')).toBe('3');
    expect(stringify(3.5, '%d')).toBe('3');
    expect(stringify(-5n, '%x')).toBe('..fb');
    expect(stringify(255n, '%+X')).toBe('+FF');
    expect(stringify(1.5, '%+.2e')).toBe('+1.50e+00');
    expect(stringify(0.1, '%g')).toBe('0.1');
    expect(stringify(12345.6789, '%.3g')).toBe('1.23e+04');
    expect(stringify(10n, '%08.3f')).toBe('0010.000');
    expect(stringify(3.25, '%e')).toBe('3.250000e+00');
    expect(stringify(1, '%p')).toBe('1.0');
    expect(stringify(1, '%g')).toBe('1');
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
    expect(stringify(65n, '%c')).toBe('A');
    expect(stringify(65n, '%#c')).toBe('"A"');
    expect(stringify(3n, '%#s')).toBe('"3"');
    expect(stringify(3n, '%5s')).toBe('    3');
    expect(stringify(3.25, '%#s')).toBe('"3.25"');
    expect(stringify(3.25, '%8s')).toBe('    3.25');
    expect(stringify(new PRegexp('ab'), '%p')).toBe('/ab/');
    expect(stringify(new PRegexp('ab'), '%#s')).toBe("'ab'");
    expect(stringify(new PRegexp('ab'), '%5p')).toBe(' /ab/');
    expect(stringify(type('Integer'), '%#s')).toBe('"Integer"');
    expect(stringify(DEFAULT, '%#d')).toBe('"default"');
    expect(stringify(DEFAULT, '%D')).toBe('Default');
  });

  it('formats arrays and hashes: delimiters, %a of a hash, separators', () => {
    expect(stringify([1n, 'a'], '%s')).toBe("[1, 'a']");
    expect(stringify([1n, 'a'], '%(a')).toBe("(1, 'a')");
    expect(stringify([], '% a')).toBe('');
    expect(stringify(['x'], '%<a')).toBe("<'x'>");
    expect(stringify(hash(), '%[h')).toBe('[]');
    expect(stringify(hash(['a', 1n]), '%a')).toBe("[['a', 1]]");
    expect(stringify(hash(['a', 'b']), '%p')).toBe("{'a' => 'b'}");
    expect(stringify([undefined, DEFAULT, new PRegexp('r')], '%s')).toBe('[undef, default, /r/]');
  });

  it('pretty prints with the # flag', () => {
    expect(stringify(hash(['a', hash(['b', 1n])], ['c', [1n, hash(['d', 2n]), 3n]]), '%#h')).toBe(
      "{\n  'a' => {\n    'b' => 1\n  },\n  'c' => [1,\n    {\n      'd' => 2\n    }, 3]\n}",
    );
    expect(stringify([1n, [2n, [3n]], 'a'], '%#a')).toBe("[1,\n  [2,\n    [3]],\n  'a']");
    expect(stringify(['a', 'bb', 'ccc', 'dddd'], '%#5a')).toBe("[ 'a',\n  'bb',\n  'ccc',\n  'dddd']");
  });

  it('takes a hash of type to format, most specific type first', () => {
    const t = type;
    expect(stringify(255n, hash([t('Any'), '%p'], [t('Integer'), '%x']))).toBe('ff');
    expect(stringify(255n, hash([t('Numeric'), '%o']))).toBe('377');
    expect(stringify(2.5, hash([t('Numeric'), '%d']))).toBe('2');
    expect(stringify(2.5, hash([t('Integer'), '%x']))).toBe('2.500000');
    expect(
      stringify(
        [255n, 'a'],
        hash([t('Array'), hash(['format', '%a'], ['string_formats', hash([t('Integer'), '%x'])])]),
      ),
    ).toBe("[ff, 'a']");
    expect(stringify([255n, [1n]], hash([t('Array'), hash(['format', '%(a'])], [t('Integer'), '%x']))).toBe(
      '(255, (1))',
    );
    expect(stringify([1n, [2n, 'x']], hash([t('Array'), hash(['format', '%(a'], ['separator', ';'])]))).toBe(
      "(1;(2;'x'))",
    );
    expect(
      stringify(
        hash(['a', 1n], ['b', [1n, 2n]]),
        hash([t('Hash'), hash(['format', '%h'], ['separator', '; '], ['separator2', ': '])]),
      ),
    ).toBe("{'a': 1; 'b': [1, 2]}");
    expect(stringify(['a'], hash([t('Any'), '%p']))).toBe("['a']");
  });

  it('rejects bad formats with EPP_CONVERSION', () => {
    expect(errorOf(() => stringify(1n, '%z')).code).toBe('EPP_CONVERSION');
    expect(errorOf(() => stringify(1n, '%z')).message).toBe(
      "Illegal format 'z' specified for value of Integer type - expected one of the characters 'dxXobBeEfgGaAspc'",
    );
    expect(errorOf(() => stringify(1n, '%,d')).message).toBe(
      "The format '%,d' is not a valid format on the form '%<flags><width>.<prec><format>'",
    );
    expect(errorOf(() => stringify([1n], '%(<a')).code).toBe('EPP_CONVERSION');
    expect(errorOf(() => stringify(1n, hash(['x', '%d']))).code).toBe('EPP_CONVERSION');
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
    expect(sprintf('%s', [[1n, 'a']])).toBe('[1, "a"]');
    expect(sprintf('[%05.2f] [%.3f] [%e]', [3.14259, 2n, 12345.678])).toBe('[03.14] [2.000] [1.234568e+04]');
    expect(sprintf('%s|%p|%d', ['a', 'a', 3.7])).toBe('a|"a"|3');
    expect(sprintf('[%-6s] [%6s] [%03d] [%+d] [%x] [%o] [%%]', ['ab', 'cd', 7n, 5n, 255n, 8n])).toBe(
      '[ab    ] [    cd] [007] [+5] [ff] [10] [%]',
    );
  });

  it('rounds floats like Ruby: near ties half to even, not the exact binary value', () => {
    expect(sprintf('%.2f', [2.675])).toBe('2.68');
    expect(sprintf('%.2f', [2.665])).toBe('2.66');
    expect(sprintf('%.0f %.0f %.0f', [0.5, 1.5, 2.5])).toBe('0 2 2');
    expect(sprintf('%.2f %.2f %.2f', [1.005, 1.015, 0.125])).toBe('1.00 1.02 0.12');
    expect(sprintf('%.2f', [2.6749999999999994])).toBe('2.68');
    expect(sprintf('%5.1f', [2.25])).toBe('  2.2');
    expect(sprintf('%.1f %.1f %.1f %.1f', [0.25, 0.35, 0.45, -0.05])).toBe('0.2 0.4 0.4 -0.1');
    expect(sprintf('%.20f', [2.675])).toBe('2.67499999999999982236');
    expect(sprintf('%.2f', [10000000000000.125])).toBe('10000000000000.12');
    expect(sprintf('%.1f', [-0.01])).toBe('-0.0');
    expect(sprintf('%f', [-0])).toBe('-0.000000');
  });

  it('prints %e and %g as Ruby (including its trailing-zero quirks)', () => {
    expect(sprintf('%e', [0n])).toBe('0.000000e+00');
    expect(sprintf('%E', [12.5])).toBe('1.250000E+01');
    expect(sprintf('%#.0e', [3n])).toBe('3.e+00');
    expect(sprintf('%g %g %G', [0.0001, 123456789, 1e-10])).toBe('0.0001 1.23457e+08 1E-10');
    expect(sprintf('%g %g %g', [1e-5, 100000n, 1000000n])).toBe('1e-05 100000 1e+06');
    expect(sprintf('%#g', [1.5])).toBe('1.50000');
    expect(sprintf('%.3g', [0.0001234])).toBe('0.000123');
    expect(sprintf('%g', [38040.05])).toBe('38040.0');
    expect(sprintf('%g %.1g', [3804005, 25])).toBe('3.80400e+06 2e+01');
    expect(sprintf('%.10f', [1 / 3])).toBe('0.3333333333');
    expect(sprintf('%10.4f|%f|%f', [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN])).toBe(
      '       Inf|-Inf|NaN',
    );
  });

  it('prints %a hexadecimal floats as Ruby', () => {
    expect(sprintf('%a|%a|%a|%a', [1, 0.1, 0, -2.5])).toBe('0x1p+0|0x1.999999999999ap-4|0x0p+0|-0x1.4p+1');
    expect(sprintf('%.2a|%.0a|%.0a|%.1a', [0.1, 1.5, 2.5, 1.96875])).toBe('0x1.9ap-4|0x1p+1|0x1p+1|0x1.0p+1');
    expect(sprintf('%A|%#.0a|%+a|%10.1a|', [0.1, 1, 1, 1])).toBe(
      '0X1.999999999999AP-4|0x1.p+0|+0x1p+0|  0x1.0p+0|',
    );
    expect(sprintf('%a|%a|%.20a', [5e-324, 1e300, 0.1])).toBe(
      '0x1p-1074|0x1.7e43c8800759cp+996|0x1.999999999999a0000000p-4',
    );
    expect(sprintf('%.13a', [-2.780068289102605e17])).toBe('-0x1.edd6de752a188p+57');
    expect(sprintf('%a', [3n])).toBe('0x1.8p+1');
  });

  it('prints integers with flags, precision and two’s complement for negatives', () => {
    expect(sprintf('%x|%#x|%08x|%.5x|%+x', [-255n, -255n, -1n, -1n, -255n])).toBe(
      '..f01|0x..f01|..ffffff|..fff|-ff',
    );
    expect(sprintf('%o|%b|%#o|%#b|%#X|%#B', [-8n, -5n, 8n, 5n, 255n, 5n])).toBe(
      '..70|..1011|010|0b101|0XFF|0B101',
    );
    expect(sprintf('%08.3d|%+ d|% d|%-+5d|', [5n, 5n, 5n, 5n])).toBe('     005|+5| 5|+5   |');
    expect(sprintf('%.0d|%#.0o|%5.0x|', [0n, 0n, 0n])).toBe('|0|     |');
    expect(sprintf('%d', [12345678901234567890n])).toBe('12345678901234567890');
    expect(sprintf('%d|%x|%d|%d', [-3.7, 3.9, '0x1f', '0b101'])).toBe('-3|3|31|5');
  });

  it('prints strings, chars and inspect forms', () => {
    expect(sprintf('%05s|%5.1s|%-3c|%c|%c', ['a', 'abc', 'z', 0x1f600n, 'h'])).toBe('    a|    a|z  |😀|h');
    expect(sprintf('%s|%p', [undefined, undefined])).toBe('|""');
    expect(
      sprintf('%s|%p', [
        [1n, undefined, 'a', 2, true, new PRegexp('x\\/y')],
        hash(['a', 1n], ['b', undefined]),
      ]),
    ).toBe('[1, nil, "a", 2.0, true, "/x\\\\/y/"]|{"a"=>1, "b"=>nil}');
    expect(sprintf('%s|%p|%s', [new PRegexp('ab'), new PRegexp('ab'), DEFAULT])).toBe('/ab/|"/ab/"|default');
    expect(sprintf('%s|%p', [type('Integer'), new PSensitive('x')])).toBe(
      'Integer|#<Sensitive [value redacted]>',
    );
    expect(sprintf('%s|%p', [[new PSensitive(1n)], DEFAULT])).toBe(
      '[#<Sensitive [value redacted]>]|:default',
    );
    expect(sprintf('%s', [1])).toBe('1.0');
    expect(sprintf('%.3s', ['abcdef'])).toBe('abc');
  });

  it('takes *, positional and named arguments', () => {
    expect(sprintf('%*d|%-*d|', [5n, 1n, 4n, 2n])).toBe('    1|2   |');
    expect(sprintf('%2$s %1$s', ['a', 'b'])).toBe('b a');
    expect(sprintf('%<a>s-%<b>05.1f', [hash(['a', 'x'], ['b', 2.25])])).toBe('x-002.2');
    expect(sprintf('%{a}-%{b}', [hash(['a', 'x'], ['b', 2n])])).toBe('x-2');
    expect(sprintf('%{x}|%-6{y}|', [hash(['x', 3.5], ['y', 'ab'])])).toBe('3.5|ab    |');
    expect(sprintf('%<a>s', [hash(['a', [1n, 'b', undefined]])])).toBe('[1, "b", nil]');
  });

  it('reports Ruby’s argument errors as EPP_ARGUMENTS', () => {
    expect(errorOf(() => sprintf('%s %s', ['a'])).message).toBe('too few arguments');
    expect(errorOf(() => sprintf('%y', [1n])).message).toBe('malformed format string - %y');
    expect(errorOf(() => sprintf('%<a>s', [hash(['b', 1n])])).message).toBe('key<a> not found');
    expect(errorOf(() => sprintf('%<a>s', ['x'])).message).toBe('one hash required');
    expect(errorOf(() => sprintf('%d', ['abc'])).message).toBe('invalid value for Integer(): "abc"');
    expect(errorOf(() => sprintf('%d', [[1n]])).code).toBe('EPP_ARGUMENTS');
    expect(errorOf(() => sprintf('%c', ['hello'])).message).toBe('%c requires a character');
    expect(errorOf(() => sprintf('50%', [])).code).toBe('EPP_ARGUMENTS');
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
  const t = new PTimestamp(1580702706.123456);

  it('prints a timestamp as Puppet does', () => {
    expect(timestampToString(new PTimestamp(1580702706.5))).toBe('2020-02-03T04:05:06.500000000 UTC');
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

describe('robustness: bad input gives EppEvalError, never a RangeError', () => {
  it.each([
    () => sprintf('%999999999d', [1n]),
    () => sprintf('%.99999999f', [1.5]),
    () => sprintf('%*d', [10_000_000n, 1n]),
    () => sprintf('%9999999{a}', [hash(['a', 1n])]),
    () => stringify(Number.POSITIVE_INFINITY, '%d'),
    () => stringify(0x110000n, '%c'),
    () => strftime(new PTimestamp(1e20), '%Y'),
    () => strftime(new PTimestamp(0), '%99999999Y'),
  ])('%#', (f) => {
    expect(errorOf(f)).toBeInstanceOf(EppEvalError);
  });
});
