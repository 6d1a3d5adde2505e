/**
 * Differences from `puppet epp render` found by QA round 20, each now as Puppet 7.23 has it: the messages,
 * lines and columns below were printed by real Puppet.
 */
import { describe, expect, it } from 'vitest';
import { EppError, EppSyntaxError } from '../../src/epp/errors.js';
import { compileEpp, parseEpp } from '../../src/epp/index.js';

/** The error parsing `source` gives: its message, line and column (failing the test when there is none). */
function syntaxError(source: string): [string, number, number] {
  try {
    parseEpp(source, { file: 't.epp' });
  } catch (e) {
    expect(e).toBeInstanceOf(EppSyntaxError);
    const error = e as EppSyntaxError;
    return [error.message, error.line ?? 0, error.column ?? 0];
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(source)}`);
}

/** The error rendering `source` gives, interpreted and compiled alike: its message, line and column. */
function renderError(source: string): [string, number, number] {
  const compiled = compileEpp(source, { file: 't.epp' });
  const found: [string, number, number][] = [0, 1, 2].map(() => {
    try {
      compiled.render({}, { onWarning: () => {} });
    } catch (e) {
      expect(e).toBeInstanceOf(EppError);
      const error = e as EppError;
      return [error.message, error.line ?? 0, error.column ?? 0];
    }
    throw new Error(`expected an error rendering ${JSON.stringify(source)}`);
  });
  expect(found[1]).toEqual(found[0]);
  expect(found[2]).toEqual(found[0]);
  return found[0]!;
}

describe('empty case and selector bodies', () => {
  it("are a syntax error at the '}', as Puppet's grammar has it", () => {
    expect(syntaxError('<%= case 1 { } %>')).toEqual(["Syntax error at '}'", 1, 14]);
    expect(syntaxError('<% case 1 {\n} %>')).toEqual(["Syntax error at '}'", 2, 1]);
    expect(syntaxError('<%= 1 ? { } %>')).toEqual(["Syntax error at '}'", 1, 11]);
    expect(syntaxError('<%= 1 ? {} %>')).toEqual(["Syntax error at '}'", 1, 10]);
  });
});

describe('columns count characters, as Puppet counts them', () => {
  it('counts an emoji before the error as one column (it is two UTF-16 units)', () => {
    expect(renderError('<%= "😀" %><%= nosuch() %>')).toEqual(["Unknown function: 'nosuch'.", 1, 15]);
    expect(syntaxError('<%= "😀😀" %>\n<%= "😀" %><%= 1 + ) %>')).toEqual(["Syntax error at ')'", 2, 19]);
  });
});

describe('the first error in the text wins, as with Puppet lexing as its parser asks', () => {
  it('reports a syntax error before a later lexer error', () => {
    expect(syntaxError('<%= ) %>\n<%= 1_0 %>\n')).toEqual(["Syntax error at ')'", 1, 5]);
    expect(syntaxError('<% $x = [1, ) %>\n<%= "abc\n')).toEqual(["Syntax error at ')'", 1, 13]);
    expect(syntaxError('<% if true { %>\n<% } } %>\n<%= 0x1G %>')).toEqual(["Syntax error at '}'", 2, 6]);
  });

  it('reports a lexer error before a later syntax error, and one the parser reaches at the end', () => {
    expect(syntaxError('<%= 1_0 %>\n<%= ) %>\n')).toEqual(["Illegal number '1_0'", 1, 5]);
    expect(syntaxError('<%= 1 %>\n<% $x = "abc')[0]).toMatch(/^Unclosed quote/);
    expect(syntaxError('a <%= 1 %> <% $x = 1 ')[0]).toBe(
      'Unbalanced epp tag, reached <eof> without closing tag.',
    );
  });
});

describe("the lexer's errors in Puppet's words", () => {
  // Each message and position printed by `puppet epp render`.
  const recorded: readonly (readonly [string, string, number, number])[] = [
    ['<%= 0x1G %>', 'Not a valid hex number 0x1G', 1, 5],
    ['<%= 0x %>', 'Not a valid hex number 0x', 1, 5],
    ['<%= 0xG %>', 'Not a valid hex number 0xG', 1, 5],
    ['<%= 08 %>', 'Not a valid octal number 08', 1, 5],
    ['<%= 0b101 %>', 'Not a valid octal number 0b101', 1, 5],
    ['<%= 01.5 %>', 'Not a valid octal number 01.5', 1, 5],
    ['<%= 09.5 %>', 'Not a valid octal number 09.5', 1, 5],
    ['<%= 0e5 %>', 'Not a valid octal number 0e5', 1, 5],
    ['<%= 1e %>', 'Not a valid decimal number 1e', 1, 5],
    ['<%= 1.5x %>', 'Not a valid decimal number 1.5x', 1, 5],
    ['<%= 1e5x %>', 'Not a valid decimal number 1e5x', 1, 5],
    ['<%= 1_0 %>', "Illegal number '1_0'", 1, 5],
    [
      '<%= 9223372036854775808 %>',
      "A Literal Integer resulted in a value outside of Puppet Integer max range, got '+0x8000000000000000'",
      1,
      5,
    ],
    [
      '<%= -9223372036854775809 %>',
      "A Literal Integer resulted in a value outside of Puppet Integer max range, got '+0x8000000000000001'",
      1,
      6,
    ],
    [
      '<%= 18446744073709551615 %>',
      "A Literal Integer resulted in a value outside of Puppet Integer max range, got '+0xffffffffffffffff'",
      1,
      5,
    ],
    ['<%# unterminated', 'Reaching end after opening <%# without seeing %>', 1, 3],
    ['ab<%#- x', 'Reaching end after opening <%# without seeing %>', 1, 5],
    ["<%= 'abc %>", `Unclosed quote after "'" followed by 'abc %...'`, 1, 6],
    ["<%= 'ab\tc\nd %>", `Unclosed quote after "'" followed by 'ab\\tc\\n...'`, 1, 6],
    ["<%= '", `Unclosed quote after "'" followed by '<eof>'`, 1, 6],
    ['<%= "${" %>', `Unclosed quote after '"' followed by ' %>...'`, 1, 9],
    ['<%= "abc', `Unclosed quote after '"' followed by 'abc...'`, 1, 6],
    ['<%= "😀😀😀😀😀😀x', `Unclosed quote after '"' followed by '😀😀😀😀😀...'`, 1, 6],
    [
      '<%= $ %>',
      "Illegal variable name, The given name '' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/",
      1,
      5,
    ],
    [
      '<% $ = 1 %>',
      "Illegal variable name, The given name '' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/",
      1,
      4,
    ],
    [
      '<%= $::1 %>',
      "Illegal variable name, The given name '::1' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/",
      1,
      5,
    ],
    ['<%= ${x} %>', "Syntax error at '{'", 1, 6],
    ['<%= /unclosed %>', "Syntax error at '/'", 1, 5],
    ['<%= /unclosed %>\n', "Syntax error at '/'", 1, 5],
    ['<%= [/a] %>', "Syntax error at '/'", 1, 6],
    ['<%= 1 + /x %>', "Syntax error at '/'", 1, 9],
  ];
  it.each(recorded)('%j', (source, message, line, column) => {
    expect(syntaxError(source)).toEqual([message, line, column]);
  });

  it('still reads numbers and strings Puppet takes', () => {
    const render = (source: string) => compileEpp(source).render({});
    expect(render('<%= 0.5 %>|<%= 00 %>|<%= 0x1f %>|<%= 017 %>|<%= 1e3 %>|<%= 1.5e-2 %>')).toBe(
      '0.5|0|31|15|1000.0|0.015',
    );
    expect(render('<%= "costs $5 and $ and $::" %>|<%= "a$" %>|<%= 4 /2 %>')).toBe(
      'costs  and $ and $::|a$|2',
    );
  });
});

describe("warnings in Puppet's words", () => {
  function warnings(source: string, strict = true): string[] {
    const found: string[] = [];
    compileEpp(source, { file: 't.epp' }).render(
      {},
      { strict, onWarning: (w) => void found.push(`${w.message} @${w.where}`) },
    );
    return found;
  }

  it('warns of a string unary minus takes as a number, at the minus', () => {
    expect(warnings("<%= - '5' %>")).toEqual([
      "The string '5' was automatically coerced to the numerical value 5 @t.epp:1:5",
    ]);
    expect(warnings("<%= -'1e3' %>")).toEqual([
      "The string '1e3' was automatically coerced to the numerical value 1000.0 @t.epp:1:5",
    ]);
    expect(warnings('<%= -5 %>')).toEqual([]);
  });

  it("words an unknown variable's warning as Puppet does (strict variables off)", () => {
    expect(warnings('<%= $x %>|<%= $::y %>', false)).toEqual([
      "Unknown variable: 'x'. @t.epp:1:5",
      "Unknown variable: '::y'. @t.epp:1:15",
    ]);
  });
});
