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
