/**
 * stdlib's collection functions beyond their conformance cases (test/conformance/stdlib-cases): what
 * `puppet epp render` cannot show, and Ruby's `String#succ`, which string ranges step with.
 */
import { describe, expect, it } from 'vitest';
import { rubySucc } from '../../src/epp/functions/stdlib/range.js';
import { EppError, renderEpp } from '../../src/epp/index.js';

function renderError(source: string): EppError {
  try {
    renderEpp(source, {}, { file: 't.epp' });
  } catch (e) {
    expect(e).toBeInstanceOf(EppError);
    return e as EppError;
  }
  throw new Error('expected an error');
}

describe('stdlib::merge with a block', () => {
  // Puppet 7.23's `puppet epp render` exits 1 without a message for these (it prints the result with
  // --debug): they are checked here rather than by a generated case.
  it('merges the hashes a two-parameter block returns, giving it the hash so far', () => {
    expect(renderEpp('<%= stdlib::merge([{a => 1}, {b => 2}]) |$acc, $v| { $v } %>', {})).toBe(
      '{a => 1, b => 2}',
    );
    expect(renderEpp('<%= stdlib::merge([a, b]) |$acc, $v| { {$v => $acc.length} } %>', {})).toBe(
      '{a => 0, b => 1}',
    );
  });

  it('takes one iterable only with a block', () => {
    const e = renderError('<%= stdlib::merge([1], [2]) |$acc, $v| { {} } %>');
    expect([e.code, e.message]).toEqual([
      'EPP_ARGUMENTS',
      'Error while evaluating a Function Call, wrong number of arguments (given 2, expected 1)',
    ]);
  });
});

describe("Ruby's String#succ", () => {
  it.each([
    ['a', 'b'],
    ['az', 'ba'],
    ['zz', 'aaa'],
    ['a9', 'b0'],
    ['Zz', 'AAa'],
    ['99', '100'],
    ['1.9', '2.0'],
    ['a.z', 'b.a'],
    ['a-9', 'a-10'],
    ['Az-9', 'Az-10'],
    ['zz99', 'aaa00'],
    ['-', '.'],
    ['', ''],
  ])('%s is followed by %s', (s, next) => {
    expect(rubySucc(s)).toBe(next);
  });
});
