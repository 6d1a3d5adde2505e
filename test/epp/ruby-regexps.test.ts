/**
 * Regular expressions mean what they mean to Puppet (Ruby's Onigmo), though JavaScript runs them: each
 * template of the fixture was rendered by `puppet epp render` (scripts/record-puppet-renders.mjs), and
 * Pantograph must render it byte for byte the same, in both tiers. What JavaScript cannot say is refused
 * by name, at the regexp.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileEpp, EppError, findSyntaxErrors } from '../../src/epp/index.js';
import { RegexpSyntaxError, toJsRegExp } from '../../src/epp/runtime/values.js';

interface Fixture {
  readonly cases: readonly {
    readonly template: string;
    readonly puppet?: string;
    readonly puppetError?: string;
  }[];
  readonly refused: readonly { readonly template: string; readonly message: string }[];
}

const fixture = join(import.meta.dirname, '../fixtures/puppet-messages/regexps.json');
const { cases, refused } = JSON.parse(readFileSync(fixture, 'utf8')) as Fixture;

/**
 * Each render's text as `puppet epp render` prints it (a line break added where the text has none at its
 * end), or its error (a syntax error is every render's): the first two renders are interpreted, the third
 * compiled.
 */
function renders(template: string): string[] {
  let compiled: ReturnType<typeof compileEpp>;
  try {
    compiled = compileEpp(template, { file: 't.epp' });
  } catch (e) {
    expect(e).toBeInstanceOf(EppError);
    return [`error: ${(e as EppError).message}`];
  }
  return [0, 1, 2].map(() => {
    try {
      const text = compiled.render({}, { onWarning: () => {} });
      return text.endsWith('\n') ? text : `${text}\n`;
    } catch (e) {
      expect(e).toBeInstanceOf(EppError);
      return `error: ${(e as EppError).message}`;
    }
  });
}

describe("regexps render as Puppet's", () => {
  it('has the recorded cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
  });

  const rendered = cases.filter((c) => c.puppet !== undefined);
  it.each(rendered.map((c) => [c.template, c] as const))('%s', (_template, c) => {
    for (const output of renders(c.template)) expect(output).toBe(c.puppet);
  });

  const failing = cases.filter((c) => c.puppetError !== undefined);
  it.each(failing.map((c) => [c.template, c] as const))('fails as Puppet does: %s', (_template, c) => {
    for (const output of renders(c.template)) expect(output).toMatch(/^error: /);
  });
});

describe('what JavaScript cannot say is refused by name, at the regexp', () => {
  it.each(refused.map((c) => [c.template, c] as const))('%s', (template, c) => {
    const column = template.indexOf('/') + 1;
    for (const output of renders(template)) expect(output).toContain(c.message);
    try {
      compileEpp(template, { file: 't.epp' }).render({});
      expect.unreachable();
    } catch (e) {
      expect((e as EppError).code).toBe('EPP_SYNTAX');
      expect((e as EppError).column).toBe(column);
    }
  });
});

describe('refused regexps are syntax errors', () => {
  it('epp validate finds every one before any render, with a hint', () => {
    const errors = findSyntaxErrors('<%= $x =~ /a*+/ %>\n<%= $y =~ /(?>a)/ %>\n<%= $z =~ /ok/ %>', {
      file: 't.epp',
    });
    expect(errors.map((e) => [e.line, e.column, e.code])).toEqual([
      [1, 11, 'EPP_SYNTAX'],
      [2, 11, 'EPP_SYNTAX'],
    ]);
    for (const e of errors) expect(e.hint).toContain('write the pattern without it');
  });

  it("is Onigmo's word for a regexp Puppet refuses too", () => {
    const [error] = findSyntaxErrors("<%= 'x' =~ /a)/ %>", { file: 't.epp' });
    expect(error?.message).toBe('Invalid regular expression /a)/: unmatched close parenthesis');
    expect(error?.hint).toBeUndefined();
  });
});

describe('the translation', () => {
  it('gives the offset in the regexp of what it refuses', () => {
    const offsetOf = (source: string) => {
      try {
        toJsRegExp(source);
      } catch (e) {
        expect(e).toBeInstanceOf(RegexpSyntaxError);
        return (e as RegexpSyntaxError).offset;
      }
      return undefined;
    };
    expect(offsetOf('ab*+')).toBe(3);
    expect(offsetOf('ab(?>c)')).toBe(2);
    expect(offsetOf('a)')).toBe(1);
    expect(offsetOf('[a')).toBe(0);
    expect(offsetOf('x\\x{41}')).toBe(1);
    expect(offsetOf('(a)\\2')).toBe(3);
  });

  it("keeps the text of an escaped backslash apart from Ruby's escapes", () => {
    // `\\A` is a backslash and an A, not the start anchor (Windows paths in real templates).
    expect(toJsRegExp('C:\\\\Apps').test('C:\\Apps')).toBe(true);
    expect(toJsRegExp('\\\\h').test('\\h')).toBe(true);
  });

  it('uses the JavaScript i flag only where the whole pattern ignores case', () => {
    expect(toJsRegExp('(?i)abc').flags).toBe('iv');
    expect(toJsRegExp('abc', 'i').flags).toBe('iv');
    expect(toJsRegExp('a(?i)bc').flags).toBe('v');
    expect(toJsRegExp('a(?i)bc').test('aBC')).toBe(true);
    expect(toJsRegExp('a(?i)bc').test('ABC')).toBe(false);
    expect(toJsRegExp('(?i)a(?-i)b').test('Ab')).toBe(true);
    expect(toJsRegExp('(?i)a(?-i)b').test('AB')).toBe(false);
  });
});

describe('\\G is where each search starts, as in Onigmo', () => {
  // Each recorded from `puppet epp render` (Puppet 7.23).
  const recorded: readonly (readonly [string, string])[] = [
    ["<%= regsubst('aaa', /\\Ga/, '_', 'G') %>", '___\n'],
    ["<%= regsubst('aaba', /\\Ga/, '_', 'G') %>", '__ba\n'],
    ["<%= regsubst('aaa', '\\Ga', '_', 'G') %>", '___\n'],
    ["<%= regsubst('xaa', /\\Ga/, '_', 'G') %>", 'xaa\n'],
    ["<%= regsubst('abc', /\\G/, '-', 'G') %>", '-a-b-c-\n'],
    ["<%= regsubst('a1a2', /\\G(a)(\\d)/, '<\\2\\1>', 'G') %>", '<1a><2a>\n'],
    ["<%= 'aab'.split(/\\Ga/) %>", '[, , b]\n'],
    ["<%= 'abc'.split(/\\G/) %>", '[a, b, c]\n'],
    ["<%= 'aXbX'.split(/\\G.X/) %>", '[]\n'],
    ["<%= 'aaa' =~ /\\Ga/ %>|<%= 'baa' =~ /\\Ga/ %>", 'true|false\n'],
  ];
  it.each(recorded)('%s', (template, puppet) => {
    for (const output of renders(template)) expect(output).toBe(puppet);
  });

  it('leaves a \\G that does not begin the pattern at the start of the text (documented)', () => {
    // Onigmo gives `___`: the `\G` of the first alternative is where each search starts.
    expect(renders("<%= regsubst('aaa', /\\Ga|b/, '_', 'G') %>")[0]).toBe('_aa\n');
  });
});
