/**
 * SemVer and SemVerRange values (runtime/semver.ts, functions/conversion/semver.ts), as Puppet 7's
 * `semantic_puppet` gem has them. Every expectation was checked against `puppet epp render` (the
 * conformance cases `semver_*`, `error_semver_*`, `error_semverrange_*` and `error_init_semver_*` hold
 * Puppet's own output); these pin the rules a template relies on, one at a time.
 */
import { describe, expect, it } from 'vitest';
import { EppError, renderEpp } from '../../src/epp/index.js';
import { PSemVer, PSemVerRange } from '../../src/epp/runtime/semver.js';

const render = (source: string): string => renderEpp(source, {}, { file: 't.epp' });

function renderError(source: string): EppError {
  try {
    renderEpp(source, {}, { file: 't.epp' });
  } catch (e) {
    expect(e).toBeInstanceOf(EppError);
    return e as EppError;
  }
  throw new Error('expected an error');
}

describe('making versions', () => {
  it('makes a version from its text, its parts, a hash, new and Init[SemVer]', () => {
    expect(render("<%= SemVer('1.2.3-rc.1+b5') %>")).toBe('1.2.3-rc.1+b5');
    expect(
      render('<%= SemVer(1, 2, 3) %>|<%= SemVer.new(1, 2, 3, "rc1") %>|<%= SemVer(1,2,3,"a","b") %>'),
    ).toBe('1.2.3|1.2.3-rc1|1.2.3-a+b');
    expect(render("<%= SemVer({major => 1, minor => 2, patch => 3, build => 'x.y'}) %>")).toBe('1.2.3+x.y');
    expect(render("<%= Init[SemVer]('1.2.3') %>|<%= '1.2.3' =~ Init[SemVer] %>|<%= Init[SemVer] %>")).toBe(
      '1.2.3|true|Init[SemVer]',
    );
  });

  it('refuses a text that is no version with Puppet message, at the call', () => {
    const e = renderError("x\n<%= SemVer('1.2') %>");
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.where).toBe('t.epp:2:5');
    expect(e.message).toContain("'new_Version' The string '1.2' cannot be converted to a SemVer");
  });

  it('lists the signatures and why each refused other arguments', () => {
    const e = renderError('<%= SemVer(-1, 2, 3) %>');
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.message).toContain("The function 'new_Version' was called with arguments it does not accept.");
    expect(e.message).toContain(
      "rejected: parameter 'major' expects a PositiveInteger = Integer[0] value, got Integer[-1, -1]",
    );
    expect(renderError('<%= SemVer(1, 2) %>').message).toContain(
      "'new_Version' expects between 1 and 5 arguments, got 2",
    );
  });

  it('refuses a numeric prerelease part with a leading zero (the gem rule)', () => {
    expect(renderError("<%= SemVer('1.2.3-01') %>").message).toContain(
      'Numeric pre-release identifiers MUST NOT contain leading zeroes',
    );
  });
});

describe('comparing versions', () => {
  it('orders prereleases as the gem does: numbers before text, by number, fewer parts first', () => {
    expect(
      render(
        "<%= sort([SemVer('1.0.0'), SemVer('1.0.0-rc.1'), SemVer('1.0.0-alpha'), SemVer('1.0.0-1'), SemVer('0.9.9'), SemVer('1.0.0-rc.1.1')]) %>",
      ),
    ).toBe('[0.9.9, 1.0.0-1, 1.0.0-alpha, 1.0.0-rc.1, 1.0.0-rc.1.1, 1.0.0]');
    expect(render("<%= SemVer('1.2.3-rc.2') < SemVer('1.2.3-rc.10') %>")).toBe('true');
    expect(
      render("<%= SemVer('1.2.3-1') < SemVer('1.2.3-a') %> <%= SemVer('1.2.3-a') > SemVer('1.2.3-1') %>"),
    ).toBe('true true');
    // `rc2` and `rc10` are text: compared by bytes.
    expect(render("<%= SemVer('1.2.3-rc2') < SemVer('1.2.3-rc10') %>")).toBe('false');
  });

  it('counts the build in == but not in the order', () => {
    expect(
      render(
        "<%= SemVer('1.0.0+a') == SemVer('1.0.0') %> <%= SemVer('1.0.0+a') <= SemVer('1.0.0') %> <%= compare(SemVer('1.0.0+a'), SemVer('1.0.0')) %>",
      ),
    ).toBe('false true 0');
  });

  it('finds equal versions as hash keys and for unique', () => {
    expect(render("<%= {SemVer('1.0.0') => 1}[SemVer('1.0.0')] %>")).toBe('1');
    expect(render("<%= unique([SemVer('1.0.0'), SemVer('1.0.0'), SemVer('1.0.0+b')]) %>")).toBe(
      '[1.0.0, 1.0.0+b]',
    );
  });

  it("refuses to order a version with anything else, in Puppet's words", () => {
    const e = renderError("<%= SemVer('1.2.3') < '1.2.4' %>");
    expect(e.code).toBe('EPP_OPERATOR');
    expect(e.message).toContain(
      "Comparison of: Semver < String, is not possible. Caused by 'Versions not comparable to non Versions'.",
    );
  });
});

describe('ranges', () => {
  it('reads the gem range syntax: x-ranges, tilde, caret, hyphen, ||', () => {
    const inspect = (text: string) => PSemVerRange.parse(text).inspect();
    expect(inspect('1.x')).toBe('>=1.0.0 <2.0.0');
    expect(inspect('~1.2.3')).toBe('>=1.2.3 <1.3.0');
    expect(inspect('^0.1.2')).toBe('>=0.1.2 <0.2.0');
    expect(inspect('1.2.3 - 2.x')).toBe('>=1.2.3 <=2.0.0');
    expect(inspect('<=1.2')).toBe('<1.3.0');
    expect(inspect('1.x || 2.x')).toBe('>=1.0.0 <3.0.0');
  });

  it('lets a prerelease in only through a bound with the same numbers', () => {
    const inRange = (v: string, r: string) => PSemVerRange.parse(r).includes(PSemVer.parse(v));
    expect(inRange('1.0.0-rc.2', '>=1.0.0-rc.1')).toBe(true);
    expect(inRange('1.0.1-a', '>=1.0.0-rc.1 <1.0.1')).toBe(false);
    expect(inRange('1.0.0-rc.1', '1.x')).toBe(false);
    expect(inRange('1.0.0-rc.2', '*')).toBe(true);
  });

  it('matches versions and version texts with =~, case and in', () => {
    expect(render("<%= SemVer('1.5.0') =~ SemVer['1.x'] %> <%= SemVer('2.2.3') =~ SemVer['1.x'] %>")).toBe(
      'true false',
    );
    expect(render("<%= '1.5.0' =~ SemVerRange('1.x') %> <%= 'x' =~ SemVerRange('1.x') %>")).toBe(
      'true false',
    );
    expect(render("<% case SemVer('1.5.0') { SemVerRange('1.x'): { %>r<% } default: { %>d<% } } %>")).toBe(
      'r',
    );
    expect(render("<%= '1.2.3' in [SemVer('1.2.3')] %> <%= '1.2.3' == SemVer('1.2.3') %>")).toBe(
      'true false',
    );
  });

  it('prints a range by its text, %p by its simple ranges, and infers a version type as Puppet', () => {
    expect(render("<%= SemVerRange('>= 1.2') %>|<%= String(SemVerRange('>= 1.2'), '%p') %>")).toBe(
      '>= 1.2|>=1.2.0',
    );
    expect(render("<%= type(SemVer('1.0.0')) %> <%= type(SemVerRange('1.x')) %>")).toBe(
      "SemVer['1.0.0 - 1.0.0'] SemVerRange",
    );
    // The gem's constructor names its parameters the other way round: the text has them swapped.
    expect(render("<%= SemVerRange(SemVer('1.0.0'), SemVer('2.0.0')) %>")).toBe('2.0.0 - 1.0.0');
  });

  it("keeps a SemVer type's ranges in the order written, merging those that touch in Puppet's one pass", () => {
    expect(render("<%= SemVer['>=1.0.0 <2.0.0', '>=3.0.0 <4.0.0', '>=5.0.0'] %>")).toBe(
      "SemVer['>=1.0.0 <2.0.0', '>=3.0.0 <4.0.0', '>=5.0.0']",
    );
    // Puppet's merge takes the last range and grows it with each one it touches, in order: '3.x' takes
    // '>=1.5.0 <3.0.0' into a range whose text Puppet writes as below (conformance semver_type_range_merge_order).
    expect(render("<%= SemVer['1.x', '>=5.0.0', '>=1.5.0 <3.0.0', '3.x'] %>")).toBe(
      "SemVer['1.x', '>=5.0.0', '>=4.0.0 <1.5.0']",
    );
  });

  it('refuses a text that is no range, at the call', () => {
    const e = renderError("<%= SemVerRange('foo') %>");
    expect(e.code).toBe('EPP_CONVERSION');
    expect(e.where).toBe('t.epp:1:5');
    expect(e.message).toContain('Unparsable version range: "foo"');
  });
});

describe('versions given as values', () => {
  it('are kept as versions, not read as records of their fields', () => {
    const values = { v: PSemVer.parse('1.2.3'), r: PSemVerRange.parse('1.x') };
    expect(renderEpp('<%= $v =~ SemVer %> <%= $v %> <%= $r %>', values, { file: 't.epp' })).toBe(
      'true 1.2.3 1.x',
    );
  });
});

describe('versions whose numbers pass 2^53 (Ruby Integers are exact at any size)', () => {
  it('keeps every digit, in the text, its parts and a prerelease, and prints them as Puppet does', () => {
    expect(render("<%= SemVer('1.2.99999999999999999999') %>")).toBe('1.2.99999999999999999999');
    expect(render("<%= sprintf('%p', SemVer('99999999999999999999.0.0-1.99999999999999999999+b')) %>")).toBe(
      '"99999999999999999999.0.0-1.99999999999999999999+b"',
    );
    expect(render('<%= SemVer(9223372036854775807, 0, 9007199254740993) %>')).toBe(
      '9223372036854775807.0.9007199254740993',
    );
  });

  it('tells apart and orders versions that differ beyond 2^53, one object per version', () => {
    expect(render("<%= SemVer('9007199254740993.0.1') == SemVer('9007199254740992.0.1') %>")).toBe('false');
    expect(render("<%= SemVer('1.0.0-9007199254740993') > SemVer('1.0.0-9007199254740992') %>")).toBe('true');
    expect(PSemVer.parse('1.2.99999999999999999999')).toBe(PSemVer.parse('1.2.99999999999999999999'));
    // A text identifier of the same digits is another version (Ruby's `eql?`).
    expect(PSemVer.of(1, 0, 0, [99999999999999999999n])).not.toBe(
      PSemVer.of(1, 0, 0, ['99999999999999999999n']),
    );
    expect(PSemVer.parse('1.2.3').major).toBe(1); // common versions stay plain numbers
  });

  it('makes ranges of such versions: the next minor or patch is exact', () => {
    expect(render("<%= SemVer('9007199254740993.1.5') =~ SemVerRange('~9007199254740993.1') %>")).toBe(
      'true',
    );
    expect(render("<%= SemVer('9007199254740993.2.0') =~ SemVerRange('~9007199254740993.1') %>")).toBe(
      'false',
    );
    expect(
      render("<%= SemVer('1.2.99999999999999999998') =~ SemVerRange('>1.2.99999999999999999998') %>"),
    ).toBe('false');
  });
});

describe('in with a version range on the right', () => {
  it('holds the versions the range includes and a text that reads as one, as Puppet does', () => {
    expect(
      render(
        "<%= '1.0.0' in SemVerRange('1.x') %> <%= SemVer('1.0.0') in SemVerRange('>=1.0.0') %> <%= 1 in SemVerRange('1.x') %> <%= SemVer('1.1.0-rc') in SemVerRange('1.x') %>",
      ),
    ).toBe('true true false false');
  });
});
