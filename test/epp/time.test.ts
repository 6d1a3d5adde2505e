/**
 * Timestamps and Timespans as Puppet 7 has them (puppet/pops/time/timestamp.rb and timespan.rb): integer
 * nanoseconds, text read with Ruby's `_strptime` and Puppet's default formats, timezones as the date gem
 * reads them, Timespan's own format, arithmetic, comparisons and type ranges. Every expected output and
 * message was produced by `puppet epp render` (Puppet 7.23).
 */
import { describe, expect, it } from 'vitest';
import { compileEpp, EppError } from '../../src/epp/index.js';

/** Renders `<%= expr %>` in both tiers (the first two renders are interpreted, the third compiled). */
function outputs(source: string): string[] {
  const template = compileEpp(source, { file: 't.epp' });
  return [0, 1, 2].map(() => template.render({}));
}

function render(source: string): string {
  const [first, ...rest] = outputs(source);
  for (const r of rest) expect(r).toBe(first);
  return first!;
}

function failure(source: string): string {
  try {
    compileEpp(source, { file: 't.epp' }).render({});
  } catch (e) {
    expect(e).toBeInstanceOf(EppError);
    // The words of the error the function raised: Puppet's `Error while evaluating a Function Call, ` (or
    // `a Method call`), which the conformance cases check, left out.
    return (e as EppError).message.replace(
      /^Error while evaluating an? (?:Function Call|Method call|'[^']+' expression), /,
      '',
    );
  }
  throw new Error(`no error for ${source}`);
}

describe('Timestamps keep nanoseconds', () => {
  it('prints, formats and converts them exactly', () => {
    expect(
      render(
        "<%= Timestamp('2021-03-04T05:06:07.891234567Z') %>|<%= Timestamp(1.000001) %>|<%= Timestamp(1614834367.891234567).strftime('%N %6N %9N %3N %L %12N') %>|<%= Timestamp(1.5) + 0.000001 %>|<%= Timestamp(-1.5) %>|<%= Integer(Timestamp(-0.5)) %>|<%= Float(Timestamp(1614834367.891234567)) %>|<%= Numeric(Timestamp(2)) %>",
      ),
    ).toBe(
      '2021-03-04T05:06:07.891234567 UTC|1970-01-01T00:00:01.000000999 UTC|891234560 891234 891234560 891 891 891234560000|1970-01-01T00:00:01.500001000 UTC|1969-12-31T23:59:58.500000000 UTC|-1|1614834367.8912346|2.0',
    );
  });

  it('checks Timestamp ranges by nanoseconds', () => {
    expect(
      render(
        '<%= Timestamp[0, 10] %>|<%= Timestamp(5) =~ Timestamp[0, 10] %>|<%= Timestamp(5.000000001) =~ Timestamp[0, 5] %>',
      ),
    ).toBe("Timestamp['1970-01-01T00:00:00.000000000 UTC', '1970-01-01T00:00:10.000000000 UTC']|true|false");
  });
});

describe("a Timestamp's text, read as Puppet reads it", () => {
  it("reads Puppet's default formats with Ruby's _strptime, and the formats and timezone given", () => {
    expect(
      render(
        "<%= Timestamp('2021-3-4') %>|<%= Timestamp('2021-03-04 05:06:07 EST') %>|<%= Timestamp('2021-03-04T05:06:07.5 +05:30') %>|<%= Timestamp('2021-03-04 05:06:07.123456789123') %>|<%= Timestamp('2021-03-04', '%F') %>|<%= Timestamp('2021-03-04 05:06', '%Y-%m-%d %H:%M') %>|<%= Timestamp('2021-03-04 05:06', '%Y-%m-%d %H:%M', 'EST') %>|<%= Timestamp('04/03/21', ['%Y', '%d/%m/%y']) %>|<%= Timestamp({string => '2015', format => '%Y'}) %>|<%= Timestamp('Wed Aug 24 12:13:14 2016', '%c') %>|<%= Timestamp('Wed Aug 24 12:13:14 2016 PDT', '%c %Z') %>|<%= Timestamp('2016-08-24T12:13:14', '%FT%T', 'PST') %>",
      ),
    ).toBe(
      '2021-03-04T00:00:00.000000000 UTC|2021-03-04T10:06:07.000000000 UTC|2021-03-03T23:36:07.500000000 UTC|2021-03-04T05:06:07.123456789 UTC|2021-03-04T00:00:00.000000000 UTC|2021-03-04T05:06:00.000000000 UTC|2021-03-04T10:06:00.000000000 UTC|2021-03-04T00:00:00.000000000 UTC|2015-01-01T00:00:00.000000000 UTC|2016-08-24T12:13:14.000000000 UTC|2016-08-24T19:13:14.000000000 UTC|2016-08-24T20:13:14.000000000 UTC',
    );
  });

  it('refuses what none of the formats reads whole', () => {
    const formats =
      '%FT%T.%N %Z, %FT%T %Z, %F %T.%N %Z, %F %T %Z, %F %Z, %FT%T.%N, %FT%T, %F %T.%N, %F %T, %F';
    expect(failure("<%= Timestamp('2021-03-04T05:06') %>")).toBe(
      `Unable to parse '2021-03-04T05:06' using any of the formats ${formats}`,
    );
    expect(failure("<%= Timestamp('  2021-03-04') %>")).toBe(
      `Unable to parse '  2021-03-04' using any of the formats ${formats}`,
    );
    expect(failure("<%= Timestamp('2021-03-04 05:06', '%Y-%m-%d') %>")).toBe(
      "Unable to parse '2021-03-04 05:06' using format '%Y-%m-%d'",
    );
    expect(failure("<%= Timestamp('2021-03-04 FOO', '%Y-%m-%d %Z') %>")).toBe("Illegal timezone 'FOO'");
    expect(failure("<%= Timestamp('2021-03-04 05:06 EST', '%Y-%m-%d %H:%M %Z', 'UTC') %>")).toBe(
      'Using a Timezone designator in format specification is mutually exclusive to providing an explicit timezone argument',
    );
  });

  it("formats in a timezone the date gem knows: names, abbreviations and offsets, not the tz database's", () => {
    expect(
      render(
        "<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H %z', 'EST') %>|<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H %z %Z', '+05:30') %>|<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H %:z %Z', 'UTC') %>|<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H %z|%Z|', '') %>|<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H %z', 'eastern daylight time') %>|<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H %z', 'cest') %>|<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H %z', 'gmt+3') %>|<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H %z', '-0330') %>|<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H %z', '+5') %>",
      ),
    ).toBe('00 -0500|10 +0530 |05 +00:00 |05 +0000|UTC||01 -0400|07 +0200|08 +0300|01 -0330|10 +0500');
    expect(failure("<%= Timestamp('2021-03-04T05:06:07Z').strftime('%H', 'Europe/Berlin') %>")).toBe(
      "Illegal timezone 'Europe/Berlin'",
    );
  });
});

describe('Timespans', () => {
  it('are made of seconds, texts, fields and hashes, and print as Puppet prints them', () => {
    expect(
      render(
        "<%= Timespan(3600) %>|<%= Timespan('1-02:03:04') %>|<%= Timespan({hours=>1}) %>|<%= Timespan(1,2,3,4,5,6,7) %>|<%= -Timespan(5) %>|<%= type(Timespan(3)) %>|<%= [Timespan(3)] %>|<%= {a=>Timespan(3)} %>",
      ),
    ).toBe(
      "0-01:00:00.0|1-02:03:04.0|0-01:00:00.0|1-02:03:04.5006007|-0-00:00:05.0|Timespan['0-00:00:03.0']|[0-00:00:03.0]|{a => 0-00:00:03.0}",
    );
    expect(
      render(
        "<%= Timespan('1-02:03:04.5') %>|<%= Timespan('02:03:04') %>|<%= Timespan('03:04.25') %>|<%= Timespan('-4.000000001') %>|<%= Timespan('1-02:03') %>|<%= Timespan('42') %>|<%= Timespan('100:00:00') %>|<%= Timespan('10:03.5', '%M:%S.%L') %>|<%= Timespan('10:03.5', '%M:%S.%N') %>|<%= Timespan('1 h', ['%S', '%H h']) %>|<%= Timespan(' 5', '%_S') %>|<%= Timespan({string => '3', format => '%S'}) %>|<%= Timespan({days => 1, negative => true, nanoseconds => 5}) %>",
      ),
    ).toBe(
      '1-02:03:04.5|0-02:03:04.0|0-00:03:04.25|-0-00:00:04.1|1-02:03:00.0|0-00:00:42.0|4-04:00:00.0|0-00:10:03.5|0-00:10:03.5|0-01:00:00.0|0-00:00:05.0|0-00:00:03.0|-1-00:00:00.5',
    );
  });

  it("format with Timespan's own directives, the largest counting the whole span", () => {
    expect(
      render(
        "<%= Timespan(90061.5).strftime('%D|%H|%M|%S|%L|%N|%-L|%_L|%03L|%5H|%_5H|%-5H|%05H|%%|%-N|%3N|%12N') %>|<%= Timespan(90061.5).strftime('%H:%M') %>|<%= Timespan(90061.5).strftime('%M') %>|<%= Timespan(90061.5).strftime('%S.%L') %>|<%= Timespan(90061.5).strftime('%L') %>|<%= Timespan(90061.5).strftime('%N') %>|<%= Timespan(-1).strftime('%S') %>",
      ),
    ).toBe(
      '1|01|01|01|500|500000000|5|5  |500|00001|    1|1|00001|%|5|500|500000000   |25:01|1501|90061.500|90061500|90061500000000|-01',
    );
    expect(failure("<%= Timespan(1).strftime('%-_S') %>")).toBe(
      "Bad format specifier '%-' in '%-_S', at position 2",
    );
    expect(failure("<%= Timespan('3', '%L') %>")).toBe(
      'Format specifiers %L and %N denotes fractions and must be used together with a specifier of higher magnitude',
    );
  });

  it('compute and compare with Timestamps, Timespans and numbers', () => {
    expect(
      render(
        '<%= Timestamp(2) - Timestamp(1) %>|<%= Timestamp(2) - Timespan(1) %>|<%= Timestamp(2) + Timespan(1.5) %>|<%= Timespan(2) - Timespan(3) %>|<%= Timespan(2) + 1 %>|<%= Timespan(2) - 0.5 %>|<%= Timespan(7) / Timespan(2) %>|<%= Timespan(7) / 2.5 %>|<%= Timespan(-7) % 2 %>|<%= Timespan(7) * 1.5 %>|<%= 3 - Timespan(1) %>|<%= 1.5 + Timespan(1) %>|<%= Timespan(1) < 2 %>|<%= Timespan(1) > Timespan(0.5) %>|<%= 2 > Timespan(1) %>|<%= Timespan(1) == Timespan(1.0) %>|<%= Timespan(1.5) == 1 %>|<%= Timespan(1.5) == 1.5 %>|<%= 1 == Timespan(1) %>|<%= Timestamp(1) == Timespan(1) %>',
      ),
    ).toBe(
      '0-00:00:01.0|1970-01-01T00:00:01.000000000 UTC|1970-01-01T00:00:03.500000000 UTC|-0-00:00:01.0|0-00:00:03.0|0-00:00:01.5|3.5|0-00:00:02.8|1|0-00:00:10.5|0-00:00:02.0|0-00:00:02.5|true|true|true|true|true|true|true|false',
    );
    expect(
      render(
        "<%= Timestamp(5) == 5 %>|<%= Timestamp(1.5) > 1 %>|<%= Timestamp(1.5) == 1 %>|<%= Float(Timestamp(1.000001)) %>|<%= Integer(Timestamp(-1.5)) %>|<%= Timestamp(1.5) in [1] %>|<%= compare(Timespan(3), 2) %>|<%= compare(2, Timespan(3)) %>|<%= [Timespan(3), Timespan(1), Timespan(2)].sort %>|<%= {Timespan(1) => 'a'}[Timespan(1)] %>",
      ),
    ).toBe('true|false|true|1.000000999|-2|true|1|-1|[0-00:00:01.0, 0-00:00:02.0, 0-00:00:03.0]|');
    // A number on the left compares as Floats (Ruby's Numeric#coerce); String's integer and float
    // directives take the whole seconds and the seconds (Kernel#format of a Numeric), sprintf its text.
    expect(
      render(
        "<%= 3 < Timespan(3.5) %>|<%= 3.2 < Timespan(3.5) %>|<%= 4 > Timestamp(3.5) %>|<%= String(Timespan(5), '%d') %>|<%= String(Timestamp(5.7), '%x') %>|<%= String(Timespan(5.7), '%.2e') %>|<%= String(Timespan(-1.5), '%05d') %>",
      ),
    ).toBe('true|true|true|5|5|5.70e+00|-0002');
    expect(failure("<%= sprintf('%d', Timespan(5)) %>")).toBe('invalid value for Integer(): "0-00:00:05.0"');
    expect(failure('<%= Timestamp(1) < Timespan(1) %>')).toBe(
      "Comparison of: Timestamp < Timespan, is not possible. Caused by 'Timestamps are only comparable to Timestamps, Integers, and Floats'.",
    );
  });

  it('check Timespan ranges, and print them', () => {
    expect(
      render(
        "<%= Timespan(3) =~ Timespan[2,4] %>|<%= Timespan(5) =~ Timespan[2,4] %>|<%= Timespan[2] %>|<%= Timespan[default, 4] %>|<%= Timespan['1-00:00:00', {days => 2}] %>|<%= Timespan[2,4] < Timespan %>|<%= Timespan[2,4] < Timespan[1,5] %>|<%= Timespan(3) =~ Scalar %>|<%= Timespan(3) =~ Numeric %>|<%= Timespan(3) =~ Data %>|<%= Timespan(3) =~ RichData %>",
      ),
    ).toBe(
      "true|false|Timespan['0-00:00:02.0']|Timespan[default, '0-00:00:04.0']|Timespan['1-00:00:00.0', '2-00:00:00.0']|true|true|true|false|false|true",
    );
    expect(failure('<%= Timespan[2, 1] %>')).toBe(
      "'from' must be less or equal to 'to'. Got (0-00:00:02.0, 0-00:00:01.0",
    );
  });
});
