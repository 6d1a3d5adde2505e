/**
 * The EPP library API beyond the conformance suite: options (strict, delimiters, baseDir, functions,
 * topScope), nested templates, and runtime errors with their codes and positions.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compileEpp,
  defineFunction,
  EppError,
  type EppWarning,
  evaluatePuppet,
  fromJs,
  parseEpp,
  renderEpp,
  reportSyntaxWarnings,
} from '../../src/epp/index.js';
import { parseJsonValues, readJsonValues } from '../../src/epp/json-values.js';
import { float } from '../../src/epp/runtime/values.js';
import { lineColumn } from '../../src/shared/position.js';

function renderError(source: string, values: Record<string, unknown> = {}, options = {}): EppError {
  try {
    renderEpp(source, values, { file: 't.epp', ...options });
  } catch (e) {
    expect(e).toBeInstanceOf(EppError);
    return e as EppError;
  }
  throw new Error('expected an error');
}

describe('strict variables', () => {
  it('is strict by default: an unknown variable is an error at its position', () => {
    const e = renderError('a\n  <%= $nope %>');
    expect([e.code, e.where]).toEqual(['EPP_UNKNOWN_VARIABLE', 't.epp:2:7']);
  });

  it("renders unknown variables empty with a warning when not strict (Puppet 7's default)", () => {
    const warnings: EppWarning[] = [];
    const text = renderEpp(
      '[<%= $nope %>]',
      {},
      { file: 't.epp', strict: false, onWarning: (w) => warnings.push(w) },
    );
    expect(text).toBe('[]');
    expect(warnings).toEqual([
      { code: 'EPP_UNKNOWN_VARIABLE', message: "Unknown variable: 'nope'.", where: 't.epp:1:6' },
    ]);
  });

  it('tells a variable set to undef from an unknown one', () => {
    expect(renderEpp('[<%= $x %>]', { x: null })).toBe('[]');
  });
});

describe('parameters', () => {
  it('applies defaults that refer to earlier parameters', () => {
    expect(renderEpp('<%- | Integer $a, Integer $b = $a * 2 | -%><%= $b %>', { a: 4 })).toBe('8');
  });

  it('names the missing parameter', () => {
    const e = renderError('<%- | String $name | -%>x');
    expect([e.code, e.message, e.where]).toEqual([
      'EPP_MISSING_PARAMETER',
      "expects a value for parameter 'name'",
      't.epp:1:7',
    ]);
  });

  it('reports a wrong type with the expected and actual types', () => {
    const e = renderError('<%- | Integer[1, 10] $n | -%>x', { n: 11 });
    expect(e.code).toBe('EPP_TYPE_MISMATCH');
    expect(e.message).toBe("parameter 'n' expects an Integer[1, 10] value, got Integer[11, 11]");
  });

  it('refuses values for undeclared parameters', () => {
    expect(renderError('<%- | $a = 1 | -%>x', { extra: 1 }).code).toBe('EPP_UNKNOWN_PARAMETER');
  });

  it('passes every value as a variable to a template without parameters', () => {
    expect(renderEpp('<%= $a %>-<%= $b %>', { a: 1, b: 'two' })).toBe('1-two');
  });

  it('lets a lambda declare a name twice, the last value winning (as Puppet 7); a template may not', () => {
    expect(renderEpp('<% [[1, 2]].each |$x, $x| { %><%= $x %><% } %>')).toBe('[1, 2]');
    expect(renderEpp('<%= [3, 4].map |$x, $y, $x = 7| { $x } %>')).toBe('[7, 7]');
    const e = renderError('<%- | $x, $x | -%>');
    expect([e.code, e.message, e.where]).toEqual([
      'EPP_SYNTAX',
      "The parameter 'x' is declared more than once in the parameter list",
      't.epp:1:11',
    ]);
  });

  it("calls a lambda's parameter a block parameter in a type error (as Puppet 7), at the call", () => {
    const e = renderError('<%= [3].map |Integer $x, String $y = 5| { $x } %>');
    expect([e.code, e.message, e.where]).toEqual([
      'EPP_TYPE_MISMATCH',
      "Error while evaluating a Method call, block parameter 'y' expects a String value, got Integer",
      't.epp:1:8',
    ]);
  });

  it('reports declared parameters through the API', () => {
    const t = compileEpp('<%- | Optional[String] $x, $y = 3 | -%>');
    expect(t.parameters).toEqual([
      expect.objectContaining({ name: 'x', typeText: 'Optional[String]', hasDefault: false }),
      expect.objectContaining({ name: 'y', typeText: 'Any', hasDefault: true, defaultText: '3' }),
    ]);
    expect(compileEpp('no params').parameters).toBeUndefined();
  });
});

describe('values keep the Integer/Float distinction', () => {
  it('renders bigint as Integer and numbers from parsed data as Float', () => {
    expect(
      renderEpp('<%= $a %> <%= $b %> <%= $a + $b %>', fromJs({ a: 1n, b: 1 }, { numbers: 'float' }) as never),
    ).toBe('1 1.0 2.0');
    expect(renderEpp('<%= $a %>', { a: 1 })).toBe('1');
    expect(renderEpp('<%= $a %> <%= $a =~ Float %>', { a: float(2) })).toBe('2.0 true');
    expect(renderEpp('<%= $a %> <%= $a =~ Integer %>', { a: 2n ** 60n })).toBe('1152921504606846976 true');
  });
});

describe('top scope', () => {
  it('is visible in templates that declare parameters, like $facts', () => {
    const text = renderEpp(
      '<%- | $x | -%><%= $x %> <%= $settings["k"] %> <%= $::settings["k"] %>',
      { x: 1 },
      { topScope: { settings: { k: 'v' } } },
    );
    expect(text).toBe('1 v v');
  });
});

describe('delimiters', () => {
  it('uses other delimiters with their trim and literal forms, leaving <% alone', () => {
    const source = '[%- | $n | -%]\n<%= erb %> [%= $n -%]  \n[%%x%%]';
    expect(renderEpp(source, { n: 2 }, { delimiters: ['[%', '%]'] })).toBe('<%= erb %> 2[%x%]');
  });
});

describe('epp() and inline_epp()', () => {
  const base = mkdtempSync(join(tmpdir(), 'epp-'));
  mkdirSync(join(base, 'partials'));
  writeFileSync(join(base, 'partials', 'item.epp'), '<%- | String $name | -%>* <%= $name %>');
  writeFileSync(join(base, 'partials', 'globals.epp'), '<%= $g %>');
  const outside = mkdtempSync(join(tmpdir(), 'outside-'));
  writeFileSync(join(outside, 'secret.epp'), 'secret');
  symlinkSync(join(outside, 'secret.epp'), join(base, 'partials', 'link.epp'));

  it('renders a file relative to the base directory with its arguments', () => {
    const text = renderEpp("<%= epp('partials/item.epp', {'name' => 'a'}) %>", {}, { baseDir: base });
    expect(text).toBe('* a');
  });

  it('gives a file template the top scope only, not the caller variables', () => {
    const e = renderError("<% $g = 1 %><%= epp('partials/globals.epp') %>", {}, { baseDir: base });
    expect(e.code).toBe('EPP_UNKNOWN_VARIABLE');
    expect(
      renderEpp("<%= epp('partials/globals.epp') %>", {}, { baseDir: base, topScope: { g: 'top' } }),
    ).toBe('top');
  });

  it('never reads outside the base directory, through .. or a symlink', () => {
    for (const path of ['../x.epp', '/etc/passwd', 'partials/link.epp']) {
      const e = renderError(`<%= epp('${path}') %>`, {}, { baseDir: base });
      expect(e.code).toBe('EPP_TEMPLATE_NOT_FOUND');
      expect(e.where).toBe('t.epp:1:5');
    }
  });

  it('refuses file access when no base directory is given', () => {
    expect(renderError("<%= epp('partials/item.epp') %>").code).toBe('EPP_TEMPLATE_NOT_FOUND');
  });

  it('lets inline_epp see the caller variables unless it declares parameters', () => {
    expect(renderEpp("<% $v = 'seen' %><%= inline_epp('<%= $v %>') %>")).toBe('seen');
    expect(renderEpp("<%= inline_epp('<%- | $n | -%><%= $n %>', {'n' => 5}) %>")).toBe('5');
  });

  it('an error in a file epp() renders keeps its place and notes each call on the way, once per template', () => {
    writeFileSync(
      join(base, 'partials', 'list.epp'),
      "<% ['a', 1].each |$x| { -%>\n<%= epp('partials/item.epp', {'name' => $x}) %>\n<% } -%>",
    );
    const e = renderError("x\n<%= [1].map |$n| { epp('partials/list.epp') } %>", {}, { baseDir: base });
    expect(e.code).toBe('EPP_TYPE_MISMATCH');
    expect(e.where).toBe(`${join(base, 'partials', 'item.epp')}:1:7`);
    // Innermost first: the call in list.epp (inside an `each`), then the one in t.epp (inside a `map`).
    expect(e.callers?.map((c) => `${c.file}:${lineColumn(c.source, c.span.start).line}`)).toEqual([
      `${join(base, 'partials', 'list.epp')}:2`,
      't.epp:2',
    ]);
  });

  it('an error in the template rendered notes no caller', () => {
    expect(renderError('<%= [1].map |$n| { $n + "x" } %>').callers).toBeUndefined();
  });

  it('stops a template that calls itself', () => {
    writeFileSync(join(base, 'self.epp'), "<%= epp('self.epp') %>");
    expect(renderError("<%= epp('self.epp') %>", {}, { baseDir: base }).message).toMatch(/nested more than/);
  });
});

describe('runtime errors point where Puppet points: the operator, the operand at fault, or the call', () => {
  it.each([
    ['<%= 1 / 0 %>', 'EPP_DIVISION_BY_ZERO', 't.epp:1:9'], // the divisor
    ["<%= 'a' + 1 %>", 'EPP_OPERATOR', 't.epp:1:5'], // the operand that is no number
    ["<%= 1 + 2 + 'a' %>", 'EPP_OPERATOR', 't.epp:1:13'],
    ["<%= (1 + 2) * 'a' + 1 %>", 'EPP_OPERATOR', 't.epp:1:15'],
    ["<%= 'a' * 2 + 1 %>", 'EPP_OPERATOR', 't.epp:1:5'],
    ['<%= 1.0 / 0 + 1 %>', 'EPP_FLOAT_OVERFLOW', 't.epp:1:5'], // the left operand
    ['<% $x = 1 %><%= [$x * 2.0][0] % 2.0 %>', 'EPP_OPERATOR', 't.epp:1:17'], // where Puppet places an access
    ['<%= {a=>1} << 1 %>', 'EPP_OPERATOR', 't.epp:1:5'],
    ['<%= {a=>1} + [1] %>', 'EPP_OPERATOR', 't.epp:1:12'], // Ruby's error: the expression's
    ['<%= 1 =~ /a/ %>', 'EPP_OPERATOR', 't.epp:1:5'],
    ["<%= 'a' =~ 1 %>", 'EPP_OPERATOR', 't.epp:1:12'],
    ['<%= 9223372036854775807 + 1 %>', 'EPP_INTEGER_OVERFLOW', 't.epp:1:25'],
    ['<%= undef[1] %>', 'EPP_ACCESS', 't.epp:1:5'],
    ["<%= fail('stop') %>", 'EPP_FAIL', 't.epp:1:5'],
    ['<%= [1].nosuch %>', 'EPP_UNKNOWN_FUNCTION', 't.epp:1:8'],
    // A method call's errors are where Puppet places the call, at its `(`, or its `.` without one, not at
    // the start of a chain lines before it.
    ['<%= [1, 2]\n  .map |$x| { $x }\n  .joinx(", ") %>', 'EPP_UNKNOWN_FUNCTION', 't.epp:3:9'],
    ['<%= [1, 2]\n  .map |$x| { $x }\n  .join(1, 2, 3) %>', 'EPP_ARGUMENTS', 't.epp:3:8'],
    ['<% $a = 1 %><% $a = 2 %>', 'EPP_REASSIGNMENT', 't.epp:1:19'], // the `=`
    ['<%= Nosuch %>', 'EPP_UNKNOWN_TYPE', 't.epp:1:5'],
    ['<% break() %>', 'EPP_BREAK_OUTSIDE_ITERATION', 't.epp:1:1'],
    ["<%= 'x' ? { 'y' => 1 } %>", 'EPP_NO_MATCH', 't.epp:1:5'],
  ])('%s', (source, code, where) => {
    const e = renderError(source);
    expect([e.code, e.where]).toEqual([code, where]);
  });

  it('suggests the function meant', () => {
    expect(renderError('<%= upcsae("a") %>').hint).toBe("did you mean 'upcase'?");
  });
});

describe('extensions and programs', () => {
  it('calls extra functions given in the options', () => {
    const shout = defineFunction('shout', 1, 1, (_ctx, [s]) => `${String(s)}!`);
    expect(renderEpp("<%= shout('hi') %>", {}, { functions: [shout] })).toBe('hi!');
  });

  it.each([
    // The natural guess: the implementation second.
    [
      ['myfn', (x: number) => x * 3],
      'the function comes fourth, after the least and the most arguments it takes',
    ],
    [
      ['My Fn', 1, 1, () => 1],
      "the name must be a Puppet function name (lower-case letters, digits and _, namespaces with ::), got 'My Fn'",
    ],
    [['myfn', -1, 1, () => 1], 'minArgs must be a whole number of at least 0, got -1'],
    [['myfn', 2, 1, () => 1], 'maxArgs must be a whole number of at least minArgs (2), or Infinity, got 1'],
    [['myfn', 1, 1, 'x * 3'], "the implementation must be a function, got 'x * 3'"],
    [['myfn', 1, 1, () => 1, 'sometimes'], "block must be 'none', 'optional' or 'required', got 'sometimes'"],
  ])('a wrong defineFunction call %j is a typed error at the call, with the signature', (args, wrong) => {
    const define = defineFunction as unknown as (...a: unknown[]) => unknown;
    let error: unknown;
    try {
      define(...args);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EppError);
    expect((error as EppError).code).toBe('EPP_FUNCTION_DEFINITION');
    expect((error as EppError).message).toBe(
      `defineFunction(${typeof args[0] === 'string' ? `'${args[0]}'` : args[0]}, ...): ${wrong}; the signature is defineFunction(name, minArgs, maxArgs, (ctx, args, block) => value, block = 'none')`,
    );
    expect((error as EppError).hint).toContain("e.g. defineFunction('triple', 1, 1, (_ctx, [n]) => n * 3)");
  });

  it('defineFunction takes a lambda and no upper bound when asked', () => {
    const each2 = defineFunction(
      'each_twice',
      0,
      Number.POSITIVE_INFINITY,
      (_ctx, args, block) => args.map((a) => block!(a, a)),
      'required',
    );
    expect(renderEpp('<%= each_twice(1, 2) |$a, $b| { $a + $b } %>', {}, { functions: [each2] })).toBe(
      '[2, 4]',
    );
  });

  it('evaluates Puppet code to the value of its last expression', () => {
    const value = evaluatePuppet("$s = $state + {'b' => 2}\n$s", { variables: { state: { a: 1 } } });
    expect(value).toEqual(
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    );
  });

  it('compiles once per distinct source', () => {
    const a = compileEpp('<%= 1 %>', { file: 'a.epp' });
    const b = compileEpp('<%= 1 %>', { file: 'b.epp' });
    expect(a.javascript).toBe(b.javascript);
    expect([a.file, b.file]).toEqual(['a.epp', 'b.epp']);
  });
});

describe('evaluatePuppet reads code that starts like a tag', () => {
  it.each([
    ['# a comment\n$x', 1],
    ['-1', -1],
    ['  $x + 1', 2],
  ])('%j', (source, expected) => {
    expect(evaluatePuppet(source, { variables: { x: 1 } })).toBe(expected);
  });

  it('points errors at the code as written', () => {
    try {
      evaluatePuppet('# c\n$x +', { file: 'hook.pp' });
      throw new Error('expected an error');
    } catch (e) {
      expect((e as EppError).where).toBe('hook.pp:2:5');
    }
  });
});

describe('two tiers: the first two renders are interpreted, later ones run compiled code', () => {
  it.each([
    ['<%- | Array[Integer] $xs | -%><%= $xs.map |$x| { $x * 2 }.join(",") %>', { xs: [1, 2] }],
    ['<% if "b2" =~ /(\\d)/ { %><%= $1 %><% } %>|<%= $1 %>', {}],
    ['<%= [1, 2].reduce |$m, $x| { $m + $x } %><%= { a => 1 }["a"] %>', {}],
    // Lambda scopes: a body that assigns (its scope grows, per call), one that does not (its names are
    // shared by the calls), nested lambdas reading outer parameters, a name given twice, typed parameters.
    ['<% [1, 2, 3].each |$x| { $y = $x * 2; $z = "${y}!" -%><%= $z %><% } %>', {}],
    ['<%= [1, 2].map |$i, $x| { [3, 4].map |$y| { $i + $x + $y }.join("+") }.join(" ") %>', {}],
    [
      '<%= { a => 1, b => 2 }.map |$k, $v| { "${k}=${v}" }.join(",") %><%= [[1, 2]].map |$x, $x| { $x } %>',
      {},
    ],
    ['<%= [1, 2].map |Integer $x, $y = 5| { $x + $y }.join(",") %>', {}],
  ])('renders %j alike every time', (source, values) => {
    const first = renderEpp(source, values);
    expect(renderEpp(source, values)).toBe(first);
    expect(renderEpp(source, values)).toBe(first);
  });

  it.each([
    // Puppet's words and places of session 21: a call's prefix (a function call, a method call at its
    // `(` or `.`, a lambda's parameter), an operand's error, an assignment's `=`, a warning at its operand.
    [
      "<%= 'abc'.split(1, 2) %>",
      "1:16 Error while evaluating a Method call, 'split' expects 2 arguments, got 3",
    ],
    [
      '<%= [1].each |String $s| { } %>',
      "1:8 Error while evaluating a Method call, block parameter 's' expects a String value, got Integer",
    ],
    [
      "<%= Integer('x') %>",
      "1:5 Error while evaluating a Function Call, 'new' The string 'x' cannot be converted to Integer",
    ],
    ['<%= [1].map |$x| { $x / 0 } %>', '1:25 Division by 0'],
    ["<%= (1 + 2) * 'a' + 1 %>", "1:15 The value 'a' cannot be converted to Numeric."],
    [
      '<%= {a=>1} + 1 %>',
      "1:12 Error while evaluating a '+' expression, Can only append Array or Hash to a Hash",
    ],
    [
      '<% $facts = 1 %>',
      "1:11 Error while evaluating a '=' expression, Attempt to assign to a reserved variable name: 'facts'",
    ],
  ])('reports %s alike in both tiers, in Puppet words, where Puppet does', (source, expected) => {
    const template = compileEpp(source, { file: 't.epp' });
    for (let i = 0; i < 4; i++) {
      let error: EppError | undefined;
      try {
        template.render({});
      } catch (e) {
        error = e as EppError;
      }
      expect(`${error?.line}:${error?.column} ${error?.message}`, `render ${i + 1}`).toBe(expected);
    }
  });

  it("reports the lexer's warnings before a syntax error, not those after it, as Puppet's lazy lexer", () => {
    const seen: string[] = [];
    const render = () =>
      renderEpp(
        '<%= "\\e" %><%= ) %><%= "\\q" %>',
        {},
        { file: 't.epp', onWarning: (w) => seen.push(`${w.where} ${w.message}`) },
      );
    expect(render).toThrow("Syntax error at ')'");
    expect(seen).toEqual(["t.epp:1:6 Unrecognized escape sequence '\\e'"]);
  });

  it('warns of a string taken as a number at the operand, in both tiers', () => {
    const template = compileEpp("<%= 1 + '5' %><%= '2' * 1 %>", { file: 't.epp' });
    for (let i = 0; i < 4; i++) {
      const seen: string[] = [];
      template.render({}, { onWarning: (w) => seen.push(w.where) });
      expect(seen, `render ${i + 1}`).toEqual(['t.epp:1:9', 't.epp:1:19']);
    }
  });

  it('reports a runtime error alike, at the same position', () => {
    const first = renderError('<%- | $n | -%>\n<%= [1].map |$x| { $x + $n } %>', { n: 'a' });
    const second = renderError('<%- | $n | -%>\n<%= [1].map |$x| { $x + $n } %>', { n: 'a' });
    expect([second.code, second.message, second.where]).toEqual([first.code, first.message, first.where]);
    expect(first.where).toBe('t.epp:2:25'); // `$n`, the operand that is no number
  });
});

describe('found by the fuzz test', () => {
  it('refuses 0x without digits as a syntax error', () => {
    expect(renderError('<%= 0x %>').code).toBe('EPP_SYNTAX');
  });

  it('accepts an empty parameter list and refuses values for it', () => {
    expect(renderEpp('<%- | | -%>ok')).toBe('ok');
    expect(renderError('<% || %>x', { a: 1 }).code).toBe('EPP_UNKNOWN_PARAMETER');
  });
});

describe('parseJsonValues keeps Integer and Float apart', () => {
  it('reads 1 as Integer and 1.0 as Float, objects as ordered hashes', () => {
    const value = parseJsonValues(
      '{"b": 1, "a": [1.0, 2e3, -0, -0.0, "x\\u00e9", true, null, 1234567890123456789, -9007199254740993]}',
      'v.json',
    );
    expect(value).toEqual(
      new Map<string, unknown>([
        ['b', 1],
        [
          'a',
          [
            float(1),
            float(2000),
            0,
            float(-0),
            'xé',
            true,
            undefined,
            1234567890123456789n,
            -9007199254740993n,
          ],
        ],
      ]),
    );
    // Floats are one object per value, Integers plain numbers (no -0 among them).
    const items = (value as Map<string, unknown[]>).get('a')!;
    expect(items[0]).toBe(float(1));
    expect(Object.is(items[2], 0)).toBe(true);
    expect(items[3]).toBe(float(-0));
  });

  it('points at the mistake', () => {
    try {
      parseJsonValues('{\n  "a": 1,\n}', 'v.json');
      throw new Error('expected an error');
    } catch (e) {
      expect([(e as EppError).code, (e as EppError).where]).toEqual(['EPP_SYNTAX', 'v.json:3:1']);
    }
  });
});

describe('parseJsonValues reads with JSON.parse what the reader reads the same', () => {
  // JSON.parse reads most values files (the reader, cold, took several ms of a one-shot `epp render`); the
  // texts it cannot read as the reader does (Floats written as 1.0, integers beyond 2^53, keys that a
  // JavaScript object would list first, NUL escapes, __proto__) must come out as the reader reads them.
  const texts = [
    '{"b": 1, "a": [1.0, 2e3, 1E+2, -0, -0.0, 2.5, "x\\u00e9", true, false, null, [], {}]}',
    '{"s": "1.0 and 2e3 in a string", "q": "a \\"quoted\\" 1.5", "k": {"1.5": "key"}, "n": -12}',
    '{"big": 9007199254740993, "small": -9007199254740991, "f": 1e400}',
    '{"b": 1, "2": "two", "a": 3}',
    '{"a": 1, "b": 2, "a": 3}',
    '{"nul": "x\\u0000y"}',
    '{"__proto__": {"polluted": true}}',
    ' \n [ {"deep": [[[1.5]]]}, "text", 7 ] ',
  ];
  it.each(texts)('%s', (text) => {
    const value = parseJsonValues(text, 'v.json');
    expect(value).toEqual(readJsonValues(text, 'v.json'));
    // Map equality ignores key order: compare the order too.
    const keys = (v: unknown): unknown => (v instanceof Map ? [...v].map(([k, x]) => [k, keys(x)]) : v);
    expect(keys(value)).toEqual(keys(readJsonValues(text, 'v.json')));
  });

  it('keeps the written order of keys that start with a digit, and the first place of a key given twice', () => {
    expect([
      ...(parseJsonValues('{"b": 1, "2": "two", "a": 3}', 'v.json') as Map<string, unknown>).keys(),
    ]).toEqual(['b', '2', 'a']);
    expect([...(parseJsonValues('{"a": 1, "b": 2, "a": 3}', 'v.json') as Map<string, unknown>)]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('leaves no __proto__ key to JSON.parse', () => {
    const value = parseJsonValues('{"__proto__": {"polluted": true}}', 'v.json') as Map<string, unknown>;
    expect([...value.keys()]).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('integer limits', () => {
  it('refuses an integer literal beyond 64 bits where it is written', () => {
    const e = renderError('<%= 1 + 92233720368547758084 %>');
    expect([e.code, e.where]).toEqual(['EPP_INTEGER_OVERFLOW', 't.epp:1:9']);
  });

  it('shifts without building huge numbers', () => {
    expect(renderEpp('<%= 1 << 62 %> <%= 5 >> 100 %> <%= -5 >> 100 %> <%= 0 << 1000 %>')).toBe(
      '4611686018427387904 0 -1 0',
    );
    expect(renderError('<%= 1 << 1000 %>').code).toBe('EPP_INTEGER_OVERFLOW');
  });
});

describe('plain JavaScript values', () => {
  it('keeps numbers beyond 2^53 as Floats rather than inexact Integers', () => {
    expect(renderEpp('<%= $a %> <%= $b %>', { a: 1e21, b: 2 ** 53 - 1 })).toBe('1.0e+21 9007199254740991');
  });
});

describe('iteration limit', () => {
  it('stops an Integer range after 10,000,000 values with a typed error, where Puppet runs until it dies', () => {
    // Without the limit, map collects until V8 aborts the process (found by the fuzz test).
    const e = renderError('<% $n = 9223372036854775807 -%>\n<% $n.map |$v| { $v } %>');
    expect([e.code, e.where, e.message]).toEqual([
      'EPP_ITERATION_LIMIT',
      't.epp:2:6', // at the method call's `.`
      'iterating the Integer range 0..9223372036854775806 stopped after 10000000 values',
    ]);
  });
});

describe('time limit', () => {
  it('stops an evaluation iterating a huge range with EPP_TIME_LIMIT at the loop', () => {
    const e = renderError('x\n<% Integer[0, 9223372036854775806].each |$i| { } %>', {}, { timeLimitMs: 100 });
    expect([e.code, e.where, e.message]).toEqual([
      'EPP_TIME_LIMIT',
      't.epp:2:35', // the `.` of `.each`
      'evaluation took longer than its limit of 100 ms',
    ]);
  });

  it('leaves evaluations within the limit alone', () => {
    expect(renderEpp('<%= Integer[1, 5].map |$i| { $i * 2 }.join(",") %>', {}, { timeLimitMs: 1000 })).toBe(
      '2,4,6,8,10',
    );
  });
});

describe("an escape a double-quoted string does not know: kept as written, with Puppet's warning", () => {
  /** The text and the warnings of three renders (interpreted twice, then compiled). */
  function rendersWithWarnings(source: string): { text: string; warnings: EppWarning[] }[] {
    const template = compileEpp(source, { file: 'w.epp' });
    return [0, 1, 2].map(() => {
      const warnings: EppWarning[] = [];
      const text = template.render({}, { onWarning: (w) => warnings.push(w) });
      return { text, warnings };
    });
  }

  it('warns at the escape, on every render, as Puppet does on every parse', () => {
    for (const { text, warnings } of rendersWithWarnings('<%= "C:\\Users" %>\n<%= "a\\qb\\zc\\u12" %>')) {
      expect(text).toBe('C:\\Users\na\\qb\\zc\\u12');
      expect(warnings).toEqual([
        {
          code: 'EPP_UNRECOGNIZED_ESCAPE',
          message: "Unrecognized escape sequence '\\U'",
          where: 'w.epp:1:8',
        },
        {
          code: 'EPP_UNRECOGNIZED_ESCAPE',
          message: "Unrecognized escape sequence '\\q'",
          where: 'w.epp:2:7',
        },
        {
          code: 'EPP_UNRECOGNIZED_ESCAPE',
          message: "Unrecognized escape sequence '\\z'",
          where: 'w.epp:2:10',
        },
        {
          code: 'EPP_UNRECOGNIZED_ESCAPE',
          message:
            "Unicode escape '\\u' was not followed by 4 hex digits or 1-6 hex digits in {} or was > 10ffff",
          where: 'w.epp:2:13',
        },
      ]);
    }
  });

  it('is silent for the escapes it knows, single quotes and heredocs (Puppet warns of none of them)', () => {
    const source = [
      '<%= "\\\\ \\n \\t \\s \\$ \\" \\\' \\u00e9 \\u{1F600}" %>',
      "<%= 'C:\\Users' %>",
      '<%= @("X"/t)',
      '  C:\\Users\\t',
      '  | X',
      '%>',
    ].join('\n');
    for (const { warnings } of rendersWithWarnings(source)) expect(warnings).toEqual([]);
  });

  it('places the warning of a Puppet program (a hook) in its own text', () => {
    const warnings: EppWarning[] = [];
    const value = evaluatePuppet('$x = 1\n"C:\\Users"', {
      file: 'hook.pp',
      onWarning: (w) => warnings.push(w),
    });
    expect(value).toBe('C:\\Users');
    expect(warnings.map((w) => w.where)).toEqual(['hook.pp:2:4']);
  });
});

describe("the end of a template as Puppet's scanner reads it", () => {
  it('drops the text before a comment tag or a <%% that ends the template, as Puppet does, and warns', () => {
    // The warning is at the text Puppet drops: `def`, after the last code tag.
    const cases: [string, string, string][] = [
      ['abc\n<%= 1 %>def<%# c %>', 'abc\n1', 'e.epp:2:9'],
      ['<%= 1 %>def<%%', '1', 'e.epp:1:9'],
    ];
    for (const [source, output, where] of cases) {
      const warnings: EppWarning[] = [];
      expect(renderEpp(source, {}, { file: 'e.epp', onWarning: (w) => warnings.push(w) })).toBe(output);
      expect(warnings.map((w) => [w.code, w.where])).toEqual([['EPP_TEXT_DROPPED', where]]);
    }
    // A line break after the comment keeps the text, and nothing is said.
    const warnings: EppWarning[] = [];
    expect(renderEpp('def<%# c %>\n', {}, { onWarning: (w) => warnings.push(w) })).toBe('def\n');
    expect(warnings).toEqual([]);
  });

  it('ends a comment at the first %> not preceded by %, as Puppet does', () => {
    expect(renderEpp('a<%# x %%> y %>b')).toBe('ab');
  });

  it("refuses a strftime format that ends inside a directive, in Ruby's words, at the call", () => {
    const source = "<%= Timestamp('2020-03-05T07:08:09Z').strftime('abc%') %>";
    let error: EppError | undefined;
    try {
      renderEpp(source, {}, { file: 's.epp' });
    } catch (e) {
      error = e as EppError;
    }
    expect([error?.code, error?.message, error?.line, error?.column]).toEqual([
      'EPP_ARGUMENTS',
      'Error while evaluating a Method call, invalid format: abc%',
      1,
      source.indexOf('strftime(') + 'strftime'.length + 1,
    ]);
  });
});

describe("hash keys compare as Ruby's eql? does: structured keys by value (session 25)", () => {
  const render = (source: string) => renderEpp(source, {});

  it('keeps one key per value in literals, merges, conversions and lookups, the first key in place', () => {
    expect(render("<%= {[1] => 'a', {b => 1} => 'c', [1] => 'd', {'b' => 1} => 'e'} %>")).toBe(
      '{[1] => d, {b => 1} => e}',
    );
    expect(render("<%= ({[1] => 'a'} + {[1] => 'b'})[[1]] %>")).toBe('b');
    expect(render("<%= Hash([[[1], 'a'], [[1], 'b']]).keys %>")).toBe('[[1]]');
    // A hash key's entries in any order, as Ruby's Hash#eql?; 1 and 1.0 stay apart.
    expect(
      render("<%= {{a => 1, b => 2} => 'x', {b => 2, a => 1} => 'y', [1.0] => 'z', [1] => 'w'} %>"),
    ).toBe('{{a => 1, b => 2} => y, [1.0] => z, [1] => w}');
  });

  // Checked with puppet epp render: the same three warnings, at the same places.
  it("warns of a literal key given twice, as Puppet's validation does, at the later entry's =>", () => {
    const warnings: EppWarning[] = [];
    compileEpp(
      "<%= {'a' => 1, a => 2, [1, 'x'] => 3, [1, \"x\"] => 4, -1 => 5, -1 => 6, true => 7, true => 8} %>",
      {
        file: 'k.epp',
      },
    ).render({}, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([
      { code: 'EPP_DUPLICATE_KEY', message: "The key 'a' is declared more than once", where: 'k.epp:1:18' },
      {
        code: 'EPP_DUPLICATE_KEY',
        message: `The key '[1, "x"]' is declared more than once`,
        where: 'k.epp:1:48',
      },
      {
        code: 'EPP_DUPLICATE_KEY',
        message: "The key 'true' is declared more than once",
        where: 'k.epp:1:88',
      },
    ]);
  });
});

describe("a render reports the text's warnings as puppet epp render prints them (session 26)", () => {
  function warningsOf(source: string): string[] {
    const seen: string[] = [];
    try {
      compileEpp(source, { file: 'w.epp' }).render(
        {},
        { onWarning: (w) => seen.push(`${w.where} ${w.message}`) },
      );
    } catch (e) {
      reportSyntaxWarnings(e, (w) => seen.push(`${w.where} ${w.message}`));
      seen.push(`error ${(e as EppError).where} ${(e as EppError).message}`);
    }
    return seen;
  }
  const key = (k: string, where: string) => `w.epp:${where} The key '${k}' is declared more than once`;

  // Puppet 7.23 printed, for this template: the lexer's warning, then the first 10 of the 14 key warnings,
  // an outer hash literal's before those of the one inside it (h before i), and nothing of the other 4.
  it('lexer warnings first, then at most 10 of the validation, in the order Puppet validates', () => {
    const template = [
      '<% $a = {a => 1, a => 2, b => 1, b => 2, c => 1, c => 2, d => 1, d => 2, e => 1, e => 2, f => 1, f => 2} -%>',
      '<% $b = {g => 1, g => 2, h => {i => 1, i => 2}, h => 3} -%>',
      '<% $c = "\\q" -%>',
      '<% $d = {j => 1, j => 2, k => 1, k => 2, l => 1, l => 2} -%>',
      "x <%= $a['a'] %>",
    ].join('\n');
    expect(warningsOf(template)).toEqual([
      // Puppet says column 13, after the string: ours is at the escape on purpose (docs/decisions.md).
      "w.epp:3:10 Unrecognized escape sequence '\\q'",
      key('a', '1:20'),
      key('b', '1:36'),
      key('c', '1:52'),
      key('d', '1:68'),
      key('e', '1:84'),
      key('f', '1:100'),
      key('g', '2:20'),
      key('h', '2:51'),
      key('i', '2:42'),
      key('j', '4:20'),
    ]);
  });

  it('every warning before a validation error, none of the validation before a syntax error', () => {
    // Puppet: the escape's warning, the key's (after the error), then the error.
    expect(warningsOf('<% $1 = 3 $c = "\\q" $b = {b=>1,b=>2} %>')).toEqual([
      "w.epp:1:17 Unrecognized escape sequence '\\q'",
      key('b', '1:33'),
      "error w.epp:1:4 Illegal attempt to assign to the numeric match result variable '$1'. Numeric variables are not assignable",
    ]);
    // A second `default` is the validation's error too: the warnings after it are printed.
    expect(warningsOf('<% case 1 { default: {} default: {} } $c = "\\q" $b = {b=>1,b=>2} %>')).toEqual([
      "w.epp:1:45 Unrecognized escape sequence '\\q'",
      key('b', '1:61'),
      "error w.epp:1:4 This 'case' statement has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)",
    ]);
    // A syntax error stops Puppet's parse: no validation, so no key warning and no duplicate default.
    expect(
      warningsOf('<% $a = {a=>1, a=>2} case 1 { default: {} default: {} } $c = "\\q" %><% $x = ) %>'),
    ).toEqual(["w.epp:1:63 Unrecognized escape sequence '\\q'", "error w.epp:1:77 Syntax error at ')'"]);
  });

  it("does not warn of a selector's option given twice (no hash literal to Puppet's validation)", () => {
    expect(warningsOf('<%= 1 ? { a => 1, a => 2, 1 => 3, default => 4 } %>')).toEqual([]);
  });

  it('the AST keeps every warning, for the editor and validate', () => {
    const keys = Array.from({ length: 12 }, (_, i) => `k${i} => 1, k${i} => 2`).join(', ');
    expect(parseEpp(`<% $h = {${keys}} %>`).warnings).toHaveLength(12);
    expect(warningsOf(`<% $h = {${keys}} %>`)).toHaveLength(10);
  });
});

describe('a titled resource body after a value is evaluated, then refused as Puppet does (session 25)', () => {
  it('evaluates the value first and names its type, at the value, with a hint', () => {
    const e = renderError("<% $a = 1 { 'a': ensure => present } %>");
    expect([e.code, e.message, e.where]).toEqual([
      'EPP_UNSUPPORTED',
      'Illegal Resource Type expression, expected result to be a type name, or untitled Resource, got Integer',
      't.epp:1:9',
    ]);
    expect(e.hint).toMatch(/end the statement before it with `;`/);
    // An earlier evaluation error comes first, as Puppet evaluates in order.
    expect(renderError("<%= [].foo_bar %>x<% { 'a': } %>").message).toMatch(/^Unknown function: 'foo_bar'/);
  });
});
