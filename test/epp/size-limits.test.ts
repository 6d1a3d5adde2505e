/**
 * Security review 20, finding 3: a template must not build a value so large that V8 aborts the whole
 * process (no error to catch, in the main thread or the sandbox's worker). Operators checked the size of
 * what they built; functions did not: `flatten` of arrays that share elements made 100 million elements
 * from 10 and killed the tool. Every way found to blow the heap from a template ends in EPP_MEMORY_LIMIT
 * at the call (the caps: 10,000,000 elements, 50,000,000 characters; src/epp/runtime/size-limits.ts; in the
 * untrusted sandbox's worker, a fifth of its heap when that is less).
 */
import { describe, expect, it } from 'vitest';
import { EppError, renderEpp } from '../../src/epp/index.js';
import {
  limitSizesToHeap,
  MAX_COLLECTION_SIZE,
  MAX_STRING_LENGTH,
} from '../../src/epp/runtime/size-limits.js';

function renderError(source: string): EppError {
  try {
    renderEpp(source, {}, { file: 't.epp' });
  } catch (e) {
    expect(e).toBeInstanceOf(EppError);
    return e as EppError;
  }
  throw new Error('expected an error');
}

/** `$x`, a string of 1,000 characters doubled 30 times by sharing: a few bytes, 2^30 paths to it. */
const SHARED = "<% $x = Integer[1, 30].reduce([sprintf('%1000s', '')]) |$m, $i| { [$m, $m] } -%>\n";
/** The same with hashes. */
const SHARED_HASH =
  "<% $h = Integer[1, 30].reduce({'a' => sprintf('%1000s', '')}) |$m, $i| { {'x' => $m, 'y' => $m} } -%>\n";
/** `$s`, a string of 11,000,000 spaces (sprintf pads a million at most). */
const LONG = "<% $s = Integer[1, 11].map |$i| { sprintf('%1000000s', '') }.join('') -%>\n";
/** `$a`, an array of 100,000 elements. */
const HUNDRED_K = '<% $a = Integer[1, 100000].map |$i| { $i } -%>\n';
/** `$w`, an array of 1,000 times `$a`. */
const WIDE = `${HUNDRED_K.replace(' -%>', '')}   $w = Integer[1, 1000].map |$i| { $a } -%>\n`;

const ELEMENTS = 'elements, more than a template may build';
const CHARACTERS = 'characters, more than a template may build';

describe('values too large to build end in EPP_MEMORY_LIMIT at the call', () => {
  it.each([
    // [what, template, where, message]
    [
      'flatten of arrays that share elements (the review: 10 -> 100 -> 10,000 -> 100,000,000)',
      '<% $a = [1,2,3,4,5,6,7,8,9,10]\n   $b = $a.map |$x| { $a }.flatten\n   $c = $b.map |$x| { $b }.flatten\n   $d = $c.map |$x| { $c }.flatten -%>\n<%= $d.length %>',
      't.epp:4:27',
      `the flattened Array would have more than 10,000,000 ${ELEMENTS}`,
    ],
    [
      'splats doubling an array',
      "<%= Integer[1, 30].reduce([1]) |$m, $i| { [*$m, 'x', *$m] }.length %>",
      't.epp:1:44',
      'an Array of 16,777,215 elements is larger than a template may build (10,000,000)',
    ],
    [
      'concat of one array given many times',
      `${HUNDRED_K}<%= concat(*Integer[1, 1000].map |$i| { $a }).length %>`,
      't.epp:2:5',
      'the concatenated Array of 100,000,000 elements is larger',
    ],
    [
      'union of one array given many times',
      `${HUNDRED_K}<%= union(*Integer[1, 1000].map |$i| { $a }).length %>`,
      't.epp:2:5',
      'the union of the Arrays, before duplicates are removed, of 100,000,000 elements is larger',
    ],
    [
      'values_at of one range of indices many times',
      `${WIDE}<% $big = $w[0, 51].flatten -%>\n<%= values_at($big, ['0-5099999', '0-5099999']).length %>`,
      't.epp:4:5',
      'the Array of values_at() of 10,200,000 elements is larger',
    ],
    [
      'split of a long string at every character',
      // Each match of ten spaces gives ten captured fields and the empty field before them.
      `${LONG}<%= split($s, '${'( )'.repeat(10)}').length %>`,
      't.epp:2:5',
      `the Array of split() would have more than 10,000,000 ${ELEMENTS}`,
    ],
    [
      'iterating the characters of a long string',
      `${LONG}<%= $s.map |$c| { 1 }.length %>`,
      't.epp:2:7',
      "the Array of a String's characters of 11,000,000 elements is larger",
    ],
    [
      'stdlib::nested_values of hashes that share values',
      `${SHARED_HASH}<%= stdlib::nested_values($h).length %>`,
      't.epp:2:5',
      `the Array of nested values would have more than 10,000,000 ${ELEMENTS}`,
    ],
    [
      'tree_each of arrays that share elements',
      `${SHARED}<%= tree_each($x).length %>`,
      't.epp:2:5',
      `the walk of tree_each() would have more than 10,000,000 ${ELEMENTS}`,
    ],
    [
      'tree_each breadth first',
      `${SHARED}<%= tree_each($x, {'order' => 'breadth_first'}).length %>`,
      't.epp:2:5',
      `the walk of tree_each() would have more than 10,000,000 ${ELEMENTS}`,
    ],
    [
      'to_json of arrays that share elements',
      `${SHARED}<%= to_json($x).length %>`,
      't.epp:2:5',
      `the JSON text of the value would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'to_json_pretty of hashes that share values',
      `${SHARED_HASH}<%= to_json_pretty($h).length %>`,
      't.epp:2:5',
      `the JSON text of the value would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'to_yaml',
      `${SHARED}<%= to_yaml($x).length %>`,
      't.epp:2:5',
      `the YAML text of the value would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'stdlib::to_toml',
      `${SHARED_HASH}<%= stdlib::to_toml($h).length %>`,
      't.epp:2:5',
      `the TOML text of the value would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'stdlib::to_python',
      `${SHARED}<%= stdlib::to_python($x).length %>`,
      't.epp:2:5',
      `the Python text of the value would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'String()',
      `${SHARED}<%= String($x).length %>`,
      't.epp:2:5',
      `the text of the value would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      "sprintf's %p",
      `${SHARED}<%= sprintf('%p', $x).length %>`,
      't.epp:2:5',
      `the inspected text of the value would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'join of nested arrays that share elements',
      `${SHARED}<%= join($x, ',').length %>`,
      't.epp:2:5',
      `the joined text would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'join of long strings',
      `${LONG}<%= [$s, $s, $s, $s, $s].join(',').length %>`,
      't.epp:2:30',
      `the joined text would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'a map joined into a long text',
      `${LONG}<%= [1, 2, 3, 4, 5].map |$i| { $s }.join(',').length %>`,
      't.epp:2:41',
      `the joined text would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'regsubst putting a long replacement for each match',
      `${LONG}<%= regsubst($s, ' ', '${'x'.repeat(100)}', 'G').length %>`,
      't.epp:2:5',
      `the text of regsubst() would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'sprintf with many wide directives',
      "<%= sprintf(Integer[1, 60].map |$i| { '%1000000s' }.join(''), *Integer[1, 60].map |$i| { '' }).length %>",
      't.epp:1:5',
      `the text of sprintf() would be longer than 50,000,000 ${CHARACTERS}`,
    ],
    [
      'a function given a string doubled by interpolation',
      // $t, 33,554,432 characters, made by interpolation (no function gives it); upcase's result is twice that.
      '<% $t = Integer[1, 24].reduce(\'ab\') |$m, $i| { "${m}${m}" } -%>\n<%= upcase("${t}${t}").length %>',
      't.epp:2:5',
      'a String of 67,108,864 characters is longer than a template may build (50,000,000)',
    ],
    [
      "a string doubled past V8's longest, inside a call",
      '<%= Integer[1, 40].reduce(\'ab\') |$m, $i| { "${m}${m}" }.length %>',
      't.epp:1:26',
      'the template built a value too large to hold (Invalid string length)',
    ],
  ])('%s', (_what, source, where, message) => {
    const e = renderError(source);
    expect([e.code, e.where]).toEqual(['EPP_MEMORY_LIMIT', where]);
    expect(e.message).toContain(message);
    expect(e.hint).toContain('grows past any memory');
  });

  it('a value printed by <%= %> or interpolated: the error, at the start of the template (no call to blame)', () => {
    for (const source of [`${SHARED}<%= $x %>`, `${SHARED}<%= "${'${x}'}" %>`]) {
      const e = renderError(source);
      expect([e.code, e.message]).toEqual([
        'EPP_MEMORY_LIMIT',
        `the text of the value would be longer than 50,000,000 ${CHARACTERS}`,
      ]);
    }
  });
});

describe('values within the caps are as before', () => {
  it('shared arrays and hashes passed to functions are not copied path by path', () => {
    // deep_merge and the 3.x functions copy their arguments: once per value, however often it is shared.
    const merged = renderEpp(`${SHARED_HASH}<%= deep_merge($h, $h, {'z' => 1}).keys %>`, {});
    expect(merged).toBe('[x, y, z]');
    expect(renderEpp(`${SHARED}<%= concat($x, ['end']).length %>`, {})).toBe('3');
  });

  it('flatten, join and to_json of shared values under the caps give every path', () => {
    const shared = "<% $x = Integer[1, 10].reduce(['a']) |$m, $i| { [$m, $m] } -%>\n";
    expect(renderEpp(`${shared}<%= $x.flatten.length %> <%= $x.join('').length %>`, {})).toBe('1024 1024');
    // 1,024 strings of 3 characters, 2,047 pairs of brackets, 1,023 commas.
    expect(renderEpp(`${shared}<%= to_json($x).length %>`, {})).toBe(String(1024 * 3 + 2047 * 2 + 1023));
  });

  it('an array of 10,000,000 elements and a string of 50,000,000 characters are still allowed', () => {
    expect(renderEpp(`${WIDE}<%= $w[0, 100].flatten.length %>`, {})).toBe('10000000');
    const fifty = "<% $s = Integer[1, 50].map |$i| { sprintf('%1000000s', '') }.join('') -%>";
    expect(renderEpp(`${fifty}<%= upcase($s).length %>`, {})).toBe('50000000');
  });
});

describe('the caps of the untrusted sandbox scale with its heap', () => {
  /** `run` with the caps of a worker of `heapMb` megabytes (the defaults again after). */
  function withHeap<T>(heapMb: number, run: () => T): T {
    limitSizesToHeap(heapMb);
    try {
      return run();
    } finally {
      limitSizesToHeap(Number.POSITIVE_INFINITY);
    }
  }

  it('are a fifth of the heap, never more than the defaults', () => {
    expect([MAX_COLLECTION_SIZE, MAX_STRING_LENGTH]).toEqual([10_000_000, 50_000_000]);
    expect(withHeap(512, () => [MAX_COLLECTION_SIZE, MAX_STRING_LENGTH])).toEqual([10_000_000, 50_000_000]);
    expect(withHeap(96, () => [MAX_COLLECTION_SIZE, MAX_STRING_LENGTH])).toEqual([2_516_582, 10_066_329]);
    expect([MAX_COLLECTION_SIZE, MAX_STRING_LENGTH]).toEqual([10_000_000, 50_000_000]);
  });

  it('an array doubled in a 96 MB worker meets the element cap, with its message', () => {
    const e = withHeap(96, () =>
      renderError('<%= Integer[1, 40].reduce([1]) |$m, $i| { $m + $m }.length %>'),
    );
    expect([e.code, e.message]).toEqual([
      'EPP_MEMORY_LIMIT',
      'an Array of 4,194,304 elements is larger than a template may build (2,516,582)',
    ]);
  });
});
