/**
 * Lexer and parser: the shapes templates parse into, and every syntax error with its code and position.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../src/epp/ast.js';
import { EppSyntaxError } from '../../src/epp/errors.js';
import { findSyntaxErrors, parseEpp } from '../../src/epp/index.js';

/** Parses and returns the error (failing the test when there is none). */
function syntaxError(source: string): EppSyntaxError {
  try {
    parseEpp(source, { file: 't.epp' });
  } catch (e) {
    expect(e).toBeInstanceOf(EppSyntaxError);
    return e as EppSyntaxError;
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(source)}`);
}

function body(source: string): readonly Node[] {
  return parseEpp(source).body;
}

describe('text and tags', () => {
  it('keeps text, renders and code as statements in order', () => {
    expect(body('a<%= $x %>b<% $y = 1 %>').map((n) => n.type)).toEqual([
      'Text',
      'Render',
      'Text',
      'Assignment',
    ]);
  });

  it('applies trims and literals before parsing', () => {
    const nodes = body('x  <%- $a = 1 -%>  \ny <%% %%> z');
    expect(nodes[0]).toMatchObject({ type: 'Text', value: 'x' });
    expect(nodes[2]).toMatchObject({ type: 'Text', value: 'y <% %> z' });
  });

  it('drops comments, with a left trim for <%#-', () => {
    expect(body('a\n  <%#- note %>\nb')).toEqual([
      expect.objectContaining({ type: 'Text', value: 'a\n\nb' }),
    ]);
    expect(body('a <%# note -%>\nb')).toEqual([expect.objectContaining({ type: 'Text', value: 'a b' })]);
  });

  it('lets one statement span several tags', () => {
    const [node] = body('<% if $x { %>yes<% } else { %>no<% } %>');
    expect(node).toMatchObject({
      type: 'If',
      // biome-ignore lint/suspicious/noThenProperty: `then` is the If node's field
      then: [{ type: 'Text', value: 'yes' }],
      otherwise: [{ type: 'Text', value: 'no' }],
    });
  });

  it('takes other delimiters, with their trim and literal forms', () => {
    const nodes = parseEpp('[%= $x -%]\n<%= kept %>[%% %%]', { delimiters: ['[%', '%]'] }).body;
    expect(nodes.map((n) => n.type)).toEqual(['Render', 'Text']);
    expect(nodes[1]).toMatchObject({ value: '<%= kept %>[% %]' });
  });
});

describe('parameters', () => {
  it('parses types and defaults', () => {
    const ast = parseEpp('<%- | String $a, Integer[1, 2] $b = 1, $c = $b | -%>');
    expect(ast.params?.map((p) => [p.name, p.valueType?.type, p.defaultValue?.type])).toEqual([
      ['a', 'TypeRef', undefined],
      ['b', 'Access', 'Literal'],
      ['c', undefined, 'Variable'],
    ]);
  });

  it('refuses a parameter list after a line break', () => {
    const e = syntaxError('\n<%- | $x | -%>');
    expect([e.code, e.line, e.column]).toEqual(['EPP_PARAMS_NOT_FIRST', 2, 5]);
  });

  it('refuses a parameter list after other text', () => {
    const e = syntaxError('hello\n<%- | String $x | -%>');
    expect([e.code, e.line, e.column]).toEqual(['EPP_PARAMS_NOT_FIRST', 2, 5]);
  });

  it('refuses a parameter declared twice', () => {
    const e = syntaxError('<%- | $x, $x | -%>');
    expect([e.code, e.line, e.column]).toEqual(['EPP_SYNTAX', 1, 11]);
  });

  it("refuses names Puppet's naming rule does not allow, in templates and lambdas (as Puppet 7)", () => {
    const rule = 'does not conform to the naming rule /^[a-z_]\\w*$/';
    const scoped = syntaxError('<%- | $::x | -%>');
    expect([scoped.code, scoped.message, scoped.line, scoped.column]).toEqual([
      'EPP_SYNTAX',
      `Illegal parameter name. The given name '::x' ${rule}`,
      1,
      7,
    ]);
    expect(syntaxError('<%- | String $x::y | -%>').message).toContain("'x::y'");
    expect(syntaxError('<%- | $Port | -%>').message).toContain("'Port'");
    const lambda = syntaxError('<% [1].each |$::x| { } %>');
    expect([lambda.message, lambda.column]).toEqual([
      `Illegal parameter name. The given name '::x' ${rule}`,
      14,
    ]);
    expect(body('<%- | $_x, $a1 | -%>')).toEqual([]);
  });
});

describe('expressions', () => {
  const expr = (code: string) => {
    const [node] = body(`<%= ${code} %>`);
    return (node as { expr: Node }).expr;
  };

  it('binds == tighter than <, and * tighter than +', () => {
    expect(expr('1 + 2 * 3')).toMatchObject({ type: 'Binary', operator: '+', right: { operator: '*' } });
    expect(expr('$a < $b == $c')).toMatchObject({ operator: '<', right: { operator: '==' } });
  });

  it('tells an access from a new array by the space before [', () => {
    expect(expr('$a[1]')).toMatchObject({ type: 'Access' });
    expect(body('<% $a = 1 [1].each |$x| { } %>')[1]).toMatchObject({
      type: 'MethodCall',
      receiver: { type: 'Array' },
    });
  });

  it('parses method chains with lambdas', () => {
    expect(expr('$a.map |$x| { $x * 2 }.join(",")')).toMatchObject({
      type: 'MethodCall',
      name: 'join',
      receiver: { type: 'MethodCall', name: 'map', lambda: { type: 'Lambda', params: [{ name: 'x' }] } },
    });
  });

  it('parses selectors, case and unless', () => {
    expect(expr('$x ? { /a/ => 1, default => 2 }')).toMatchObject({
      type: 'Selector',
      entries: [{ key: { type: 'Regex' } }, { key: { type: 'Default' } }],
    });
    expect(expr("case $x { 'a', 'b': { 1 } default: { 2 } }")).toMatchObject({
      type: 'Case',
      options: [{ values: [{}, {}] }, {}],
    });
    expect(expr('unless $x { 1 }')).toMatchObject({ type: 'If', negate: true });
  });

  it('turns ${name} in strings into variables', () => {
    expect(expr('"a${b}c$d"')).toMatchObject({
      type: 'Interpolated',
      parts: ['a', { type: 'Variable', name: 'b' }, 'c', { type: 'Variable', name: 'd' }],
    });
    expect(expr('"${x[0]}"')).toMatchObject({
      parts: [{ type: 'Access', target: { type: 'Variable', name: 'x' } }],
    });
  });

  it('reads a name that starts with a digit as a decimal capture, else refuses it (as Puppet 7)', () => {
    expect(expr('"${1}$0-$12"')).toMatchObject({
      parts: [
        { type: 'Variable', name: '1' },
        { type: 'Variable', name: '0' },
        '-',
        { type: 'Variable', name: '12' },
      ],
    });
    const rule = 'must be a decimal value if it starts with a digit 0-9';
    // Each at Puppet's column: the `$` of a variable, the number in `${}`.
    const cases: [string, string, number][] = [
      ['<%= $01 %>', '01', 5],
      ['<%= $0x1 %>', '0x1', 5],
      ['<%= $1a %>', '1a', 5],
      ['<%= "$01" %>', '01', 6],
      ['<%= "x$1c" %>', '1c', 7],
      ['<%= "${01}" %>', '01', 8],
      ['<%= "a${0x10}b" %>', '0x10', 9],
    ];
    for (const [source, name, column] of cases) {
      const e = syntaxError(source);
      expect([e.code, e.message, e.column], source).toEqual([
        'EPP_SYNTAX',
        `Illegal numeric variable name, The given name '${name}' ${rule}`,
        column,
      ]);
    }
  });

  it('reads heredocs with margins and trim', () => {
    expect(expr('@(END)\n  a\n  b\n  |- END\n')).toMatchObject({ type: 'Literal', value: 'a\nb' });
  });

  it("refuses a heredoc header Puppet refuses, in Puppet's words, after the header", () => {
    // Puppet 7 (puppet epp render, sessions 18 and 22) words each so (two blanks before `u` are its own),
    // placed after the `)`, where its lexer is when it finds them.
    const cases: [string, string][] = [
      ['@(END/tt)', "An escape char for @() may only appear once. Got 't, t'"],
      ['@(END/x)', "Invalid heredoc escape char. Only t, r, n, s,  u, L, $ allowed. Got 'x'"],
      ['@(END:JSON)', 'Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])'],
      ['@(END/ t)', 'Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])'],
      ['@("")', 'Heredoc with an empty endtag'],
    ];
    for (const [header, message] of cases) {
      const error = syntaxError(`x\n<%= ${header}\nbody\nEND\n%>`);
      expect([error.message, error.line, error.column], header).toEqual([message, 2, 5 + header.length]);
    }
  });

  it("refuses a heredoc left open, without text or without its end line, in Puppet's words and places", () => {
    // puppet epp render (session 22): an unclosed `(` at the `@`, quoting what follows; no text after the
    // header after its `)`; no end line where the text begins.
    const cases: [string, string, number, number][] = [
      ['<%= @(END %>', "Unclosed parenthesis after '@(' followed by '@(END...'", 1, 5],
      ['<%= @(END)', 'Heredoc without any following lines of text', 1, 11],
      ['<%= @(END)\n', 'Heredoc without end-tagged line', 2, 1],
      ['<%= @(END)\nx\n%>\n', 'Heredoc without end-tagged line', 2, 1],
    ];
    for (const [source, message, line, column] of cases) {
      const error = syntaxError(source);
      expect([error.message, error.line, error.column], source).toEqual([message, line, column]);
    }
  });

  it('ends a heredoc at the first line that ends with its tag, its blanks Unicode ones', () => {
    expect(expr('@(END)\nhello\nsay END\n')).toMatchObject({ type: 'Literal', value: 'hello\n' });
    expect(expr('@(END)\n\u00a0\u00a0hi\n\u00a0\u00a0|- END\n')).toMatchObject({ value: 'hi' });
  });

  it('reads numbers as Integer or Float', () => {
    expect(expr('0x10')).toMatchObject({ value: 16n });
    expect(expr('010')).toMatchObject({ value: 8n });
    expect(expr('1.0')).toMatchObject({ value: 1 });
    expect(expr('-3')).toMatchObject({ value: -3n });
  });
});

describe('syntax errors carry code and position', () => {
  const cases: [string, string, number, number][] = [
    ['<%= $x', 'EPP_UNCLOSED_TAG', 1, 1],
    ['<%= %>', 'EPP_EMPTY_RENDER_TAG', 1, 5],
    ['<%-= 1 %>', 'EPP_SYNTAX', 1, 4],
    ['a\n<%= [1, 2 %>', 'EPP_SYNTAX', 2, 11],
    ['<%= $a = 1 %>', 'EPP_SYNTAX', 1, 8],
    ["<%= 'abc %>", 'EPP_UNCLOSED_STRING', 1, 6], // Puppet's: after the quote
    ['<% class foo { } %>', 'EPP_UNSUPPORTED', 1, 4],
    ["<% notify { 'x': } %>", 'EPP_UNSUPPORTED', 1, 4],
    ['<%= "${1.5}" %>', 'EPP_SYNTAX', 1, 8],
    ['<%-# c %>x', 'EPP_UNCLOSED_TAG', 1, 1],
    ['<%= 08 %>', 'EPP_SYNTAX', 1, 5],
    ['<% if $x { %>', 'EPP_SYNTAX', 1, 14],
    ['<%= @(END)\nno end\n%>', 'EPP_SYNTAX', 2, 1], // Puppet's: where the text begins
    ["a\n  <% 'x' %>b", 'EPP_NO_EFFECT', 2, 6],
    ['<% $x = 1 %><% $x %>\n', 'EPP_NO_EFFECT', 1, 16],
    ['<%= [1].map |$v| {\n  $v\n  1\n} %>', 'EPP_NO_EFFECT', 2, 3],
    // Puppet's positions (puppet epp render, session 17): an assignment as a test, a reserved word.
    ['<% if $x = 1 { %>y<% } %>', 'EPP_SYNTAX', 1, 10],
    ['<% unless $x = 1 { %>y<% } %>', 'EPP_SYNTAX', 1, 14],
    ['<%= case $x = 1 { default: { 2 } } %>', 'EPP_SYNTAX', 1, 13],
    ['<%= [attr] %>', 'EPP_SYNTAX', 1, 6],
  ];
  it.each(cases)('%j', (source, code, line, column) => {
    const e = syntaxError(source);
    expect({ code: e.code, line: e.line, column: e.column }).toEqual({ code, line, column });
    expect(e.where).toBe(`t.epp:${line}:${column}`);
  });

  it('refuses a statement that does nothing, as Puppet does, naming it', () => {
    expect(syntaxError('<% if true { } %>a').message).toBe(
      "This 'if' statement has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)",
    );
    expect(syntaxError('<% $a = 1; $a == 1 %>\n').message).toMatch(/^This '==' expression has no effect/);
    expect(syntaxError('<% unless $x { } %>\n').message).toMatch(/^This 'unless' Statement has no effect/);
    // Text after the last tag, even a line break a `-%>` trims, makes its last statement one that must act.
    expect(syntaxError('a<% 1 -%>\n').message).toMatch(/^This Literal Integer has no effect/);
    // `-1` is a Unary Minus to Puppet, though the parser folds it into a literal (session 17).
    expect(syntaxError('<% -1 %>x').message).toMatch(/^This Unary Minus has no effect/);
    expect(syntaxError('<% - 1.5 %>x').message).toMatch(/^This Unary Minus has no effect/);
    // The last statement of a block gives the block its value; a call, assignment or match does something.
    for (const source of [
      '<%= [1].map |$v| { if $v { 2 } } %>',
      "<% $m = 'a' =~ /a/ %><% 'a' =~ /b/ %>",
      // `;` between them: a `(` after `%><%` calls what stands before it, which Puppet refuses (session 25).
      '<% [1].each |$v| { }; Integer(1); ($z = 1) %>',
      '<% if true { $q = 2; 5 } %>',
      // With nothing after the last tag, its last statement is the template's value, as a block's is
      // (puppet epp render, session 18); so too when only a comment Puppet drops follows.
      '<% $x = 1 %><% $x %>',
      'a<% $a = 1; $a == 1 %>',
      'a<% 1 %><%# c %>',
    ]) {
      expect(() => parseEpp(source), source).not.toThrow();
    }
  });

  it("refuses a second default of a case or a selector, at it, in Puppet's words", () => {
    // Puppet: line 1, columns 53 and 37 (puppet epp render, session 17).
    const inCase = syntaxError("<%= case 1 { 2: { 'x' } default: { 'a' } 3: { 'y' } default: { 'b' } } %>");
    expect([inCase.message, inCase.column]).toEqual([
      "This 'case' statement already has a 'default' entry - this is a duplicate",
      53,
    ]);
    const inSelector = syntaxError("<%= 1 ? { default => 'a', 2 => 'c', default => 'b' } %>");
    expect([inSelector.message, inSelector.column]).toEqual([
      "This Selector Expression already has a 'default' entry - this is a duplicate",
      37,
    ]);
  });

  it("calls what a `(` follows, across tags, and refuses it as Puppet's validation does, after the parse", () => {
    const render = syntaxError("<%= 'x' %><%(1) %>");
    expect([render.message, render.line, render.column]).toEqual([
      'Illegal expression. An Epp Interpolated Expression is unacceptable as function name in a Function Call',
      1,
      1,
    ]);
    expect(render.hint).toMatch(/unless only blanks stand before it on its line/);
    const literal = syntaxError('<% $a = 1 + 2 (3) %>');
    expect([literal.message, literal.column]).toEqual([
      'Illegal expression. A Literal Integer is unacceptable as function name in a Function Call',
      13,
    ]);
    // A syntax error later in the template comes first: Puppet validates after parsing.
    expect(syntaxError('<% $a = 1 (3) %><%= ) %>').message).toBe("Syntax error at ')'");
    // First on its line (only blanks before it), a `(` starts a statement; a method's `(` may follow a space.
    expect(body('<% $a = 1\n  ($b = 2) %>').map((n) => n.type)).toEqual(['Assignment', 'Paren']);
    expect(body("<%= [1].join (',') %>")[0]).toMatchObject({
      expr: { type: 'MethodCall', args: [{ value: ',' }] },
    });
  });

  it('survives pathological nesting with a syntax error, not a stack overflow', () => {
    const e = syntaxError(`<%= ${'['.repeat(20000)} %>`);
    expect(e.code).toBe('EPP_SYNTAX');
  });
});

describe('findSyntaxErrors', () => {
  it('reports every broken tag, each at its own position', () => {
    const errors = findSyntaxErrors('<%= [1 %>\nok <%= $x %>\n<%= 1 + %>\n<% if { %>', { file: 'm.epp' });
    expect(errors.map((e) => [e.code, e.where])).toEqual([
      ['EPP_SYNTAX', 'm.epp:1:8'],
      ['EPP_SYNTAX', 'm.epp:3:9'],
      ['EPP_SYNTAX', 'm.epp:4:11'],
    ]);
  });

  it('returns nothing for a valid template', () => {
    expect(findSyntaxErrors('<%= 1 %>')).toEqual([]);
  });
});
