/**
 * The built command, run as a user runs it: `node dist/cli/bin.cjs ...` (`npm test` builds first).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

function run(args: string[], cwd = process.cwd()) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a command that must be refused: exit 1, `message` on standard error, nothing on standard output. */
function expectRefused(args: string[], cwd: string, message: string) {
  const r = run(args, cwd);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(message);
  expect(r.stdout).toBe('');
}

describe('pantograph epp render (built CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-bin-'));
  writeFileSync(join(dir, 't.epp'), '<%- | String $name, Float $f = 1.5 | -%>\nHello <%= $name %> <%= $f %>');
  writeFileSync(join(dir, 'v.json'), '{"name": "json", "f": 2.0}');
  writeFileSync(join(dir, 'v.yaml'), 'name: yaml\nf: 3.0\n');

  it('refuses what Puppet refuses, saying what and where, and prints nothing', () => {
    const refused: [string, string, string][] = [
      ['no-effect', "a\n<% 'x' %>\n", '2:4: error: This String has no effect. A value was produced'],
      [
        'reserved',
        '<% $facts = {} %>x\n',
        "1:11: error: Error while evaluating a '=' expression, Attempt to assign to a reserved variable name: 'facts'",
      ],
      [
        'rest',
        '<%= [1].map |*$r, $x| { $x } %>\n',
        "1:15: error: Parameter $r is not last, and has 'captures rest'",
      ],
      [
        'order',
        '<%= [1].map |$x = 1, $y| { $y } %>\n',
        '1:22: error: Parameter $y is required but appears after optional',
      ],
      ['template-rest', '<%- | *$r | -%>x\n', "1:8: error: Parameter $r has 'captures rest' - not supported"],
      ['number', "<%= '08.5' + 1 %>\n", "1:5: error: The value '08.5' cannot be converted to Numeric."],
      // Session 14's rules, each found by probing Puppet 7.
      ['infinity', '<%= 1.0e308 * 10 %>\n', '1:5: error: The result of the * expression is Infinity'],
      [
        'reserved-param',
        "<%- | String $facts = 'a' | -%>x\n",
        "1:7: error: Attempt to assign to a reserved variable name: 'facts'",
      ],
      [
        'reserved-lambda-param',
        '<%= [1].map |$trusted| { 1 } %>\n',
        "1:8: error: Error while evaluating a Method call, Attempt to assign to a reserved variable name: 'trusted'",
      ],
      [
        'default-ahead',
        '<%- | $a = $b, $b = 1 | -%>x\n',
        '1:12: error: default expression for $a tries to illegally access not yet evaluated $b',
      ],
      ['default-assigns', '<%- | $x = [($q = 1)] | -%>x\n', '1:17: error: Assignment not allowed here'],
      ['return', 'a<% return(5) %>b\n', '1:5: error: return() from context where this is illegal'],
      [
        'next-not-text',
        "<%= inline_epp('a<% next(3) %>b') %>\n",
        "1:5: error: Error while evaluating a Function Call, value returned from function 'inline_epp' has wrong type",
      ],
      [
        'call',
        "<%= call('nosuch', 1) %>\n",
        "1:5: error: Error while evaluating a Function Call, Unknown function 'nosuch'",
      ],
      ['variable-name', '<%= $Cap %>x\n', "1:5: error: Illegal variable name, The given name 'Cap'"],
      ['empty-interpolation', '<%= "a${}b" %>\n', "1:10: error: Syntax error at 'b'"],
      ['semicolon', '<% ; %>x\n', "1:4: error: Syntax error at ';'"],
      ['exponent', '<%= 1.0e+2 %>\n', '1:5: error: Not a valid decimal number 1.0e'],
      ['bom', '\ufeffa<%= 1 %>\n', '1:1: error: Illegal UTF-8 Byte Order mark at beginning of input'],
    ];
    for (const [name, source, message] of refused) {
      writeFileSync(join(dir, `${name}.epp`), source);
      expectRefused(['epp', 'render', `${name}.epp`], dir, `${name}.epp:${message}`);
    }
  });

  it('reads text after %> as an operand as Puppet does: an unfinished if fails at what follows, with a hint', () => {
    // Puppet 7 (2026-11-27): "Syntax error at '' (file: if.epp, line: 1, column: 9)", end of input without a
    // position, and the text tested (undef) then rendered.
    writeFileSync(join(dir, 'if.epp'), '<% if %>abc\n<%= 1 %>x');
    const refused = run(['epp', 'render', 'if.epp'], dir);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain("if.epp:1:9: error: Syntax error at '' [EPP_SYNTAX]");
    expect(refused.stderr).toContain('hint: the code before this <%= %> tag is unfinished');
    writeFileSync(join(dir, 'if-end.epp'), 'a\n<% if %>\n');
    expectRefused(
      ['epp', 'render', 'if-end.epp'],
      dir,
      'if-end.epp:3:1: error: Syntax error at end of input',
    );
    writeFileSync(join(dir, 'assign-text.epp'), 'abc <%-= 1 %>\n');
    expectRefused(
      ['epp', 'render', 'assign-text.epp'],
      dir,
      "assign-text.epp:1:1: error: Illegal attempt to assign to 'an Epp Text'. Not an assignable reference",
    );
    writeFileSync(join(dir, 'if-text.epp'), '<% if %>abc<% { %>yes<% } else { %>no<% } %>\n');
    expect(run(['epp', 'render', 'if-text.epp'], dir)).toMatchObject({ code: 0, stdout: 'abcno\n' });
  });

  it('renders with a Puppet hash literal, adding the final newline as puppet epp render does', () => {
    expect(run(['epp', 'render', 't.epp', '--values', "{name => 'web'}"], dir)).toEqual({
      code: 0,
      stdout: 'Hello web 1.5\n',
      stderr: '',
    });
  });

  it('logs as puppet epp render does: a notice on standard output, warning and worse on standard error, info and debug nowhere', () => {
    writeFileSync(
      join(dir, 'log.epp'),
      "<% warning('w') %><% err('e') %><% alert('a') %><% crit('c') %><% emerg('m') %><% info('i') %><% debug('d') %>\n<% notice('n') %>ok",
    );
    // Each names the template by its absolute path and the line of the call: `Scope(file, line)`.
    const scope = (line: number) => `Scope(${join(dir, 'log.epp')}, ${line})`;
    expect(run(['epp', 'render', 'log.epp'], dir)).toEqual({
      code: 0,
      stdout: `Notice: ${scope(2)}: n\n\nok\n`,
      stderr: ['Warning', 'Error', 'Alert', 'Critical', 'Emergency']
        .map((label, i) => `${label}: ${scope(1)}: ${'weacm'[i]}\n`)
        .join(''),
    });
    expect(run(['epp', 'render', '-e', "<% notice('x') %>y"], dir).stdout).toBe(
      'Notice: Scope(inlined-epp-text, 1): x\ny\n',
    );
  });

  it('an error in a file epp() renders says which calls led there, and prints nothing', () => {
    mkdirSync(join(dir, 'p'), { recursive: true });
    writeFileSync(join(dir, 'main.epp'), '<%= epp("p/a.epp", {"x" => 1}) %>\n');
    writeFileSync(join(dir, 'p/a.epp'), 'a\n<%= epp("p/b.epp", {"y" => $x}) %>');
    writeFileSync(join(dir, 'p/b.epp'), '<%- | String $y | -%>\n<%= $y %>');
    expectRefused(
      ['epp', 'render', 'main.epp'],
      dir,
      `${join(dir, 'p/b.epp')}:1:7: error: parameter 'y' expects a String value, got Integer (called at ${join(dir, 'p/a.epp')}:2:5, from main.epp:1:5) [EPP_TYPE_MISMATCH]`,
    );
  });

  it('reads JSON and YAML values files, keeping Floats', () => {
    expect(run(['epp', 'render', 't.epp', '--values-file', 'v.json'], dir).stdout).toBe('Hello json 2.0\n');
    expect(run(['epp', 'render', 't.epp', '--values-file', 'v.yaml'], dir).stdout).toBe('Hello yaml 3.0\n');
  });

  it('reads a YAML values file the simple reader declines with the yaml package, to the same values', () => {
    writeFileSync(
      join(dir, 'y.epp'),
      '<%- | Array $xs, Hash $h, String $s, Integer $n | -%>\n<%= $xs %> <%= $h %> <%= $s %> <%= $n + 1 %>',
    );
    // Block YAML (the simple reader's) and the same data with anchors, flow collections and an escape.
    writeFileSync(join(dir, 'simple.yaml'), 'xs:\n  - a\n  - 2.0\nh:\n  k: v\ns: "x y"\nn: 0x10\n');
    writeFileSync(join(dir, 'full.yaml'), 'xs: [a, 2.0]\nh: &h {k: v}\ns: "x\\x20y"\nn: 0x10\n');
    const expected = '[a, 2.0] {k => v} x y 17\n';
    expect(run(['epp', 'render', 'y.epp', '--values-file', 'simple.yaml'], dir).stdout).toBe(expected);
    expect(run(['epp', 'render', 'y.epp', '--values-file', 'full.yaml'], dir).stdout).toBe(expected);
    // A broken file is the yaml package's to report, at its position with a code frame, as a JSON file's.
    writeFileSync(join(dir, 'bad.yaml'), 'a: 1\na: 2\n');
    expectRefused(
      ['epp', 'render', 'y.epp', '--values-file', 'bad.yaml'],
      dir,
      'bad.yaml:2:1: error: Map keys must be unique [VALUES_YAML]\n  1 | a: 1\n> 2 | a: 2\n    | ^\n',
    );
    writeFileSync(join(dir, 'nested.yaml'), 'a: 1\n  b: 2\n');
    expectRefused(
      ['epp', 'render', 'y.epp', '--values-file', 'nested.yaml'],
      dir,
      'nested.yaml:1:4: error: Nested mappings are not allowed in compact mappings [VALUES_YAML]\n> 1 | a: 1\n    |    ^\n',
    );
  });

  it('loads the yaml package (its own bundle) only for a values file the simple reader declines', () => {
    // A preload that lists the bundles the command reads (load-bundle.cjs reads each with readFileSync).
    const preload = join(dir, 'list-bundles.cjs');
    writeFileSync(
      preload,
      `const fs = require('node:fs'); const read = fs.readFileSync; const seen = [];
       fs.readFileSync = function (p, ...rest) { if (/[.]cjs$/.test(String(p))) seen.push(require('node:path').basename(String(p))); return read.call(this, p, ...rest); };
       process.on('exit', () => process.stderr.write('bundles: ' + seen.join(' ')));`,
    );
    writeFileSync(join(dir, 'y.epp'), '<%- | Array $xs | -%>\n<%= $xs %>');
    writeFileSync(join(dir, 'simple.yaml'), 'xs:\n  - a\n');
    writeFileSync(join(dir, 'flow.yaml'), 'xs: [a]\n');
    writeFileSync(join(dir, 'xs.json'), '{"xs": ["a"]}');
    const bundles = (values: string) => {
      const r = spawnSync(
        process.execPath,
        ['--require', preload, bin, 'epp', 'render', 'y.epp', '--values-file', values],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      );
      expect(r.stdout).toBe('[a]\n');
      return r.stderr.replace('bundles: ', '').split(' ');
    };
    expect(bundles('xs.json')).not.toContain('yaml.cjs');
    expect(bundles('simple.yaml')).not.toContain('yaml.cjs');
    expect(bundles('flow.yaml')).toContain('yaml.cjs');
    expect(bundles('flow.yaml')).toContain('fast-epp-render.cjs');
  });

  it('reads a YAML values file as `puppet epp render --values_file` does (YAML 1.1, as Psych reads it)', () => {
    // Expected: what Puppet 7 printed for this file and template (puppet epp render, 2026-11-26).
    writeFileSync(
      join(dir, 'psych.yaml'),
      'a: yes\nb: On\nc: 010\nd: 0x1F\ne: 1_000\nf: 1:30\ng: ~\nh: 2.50\ni: 1e3\nj: 1.0e+3\nk: y\nl: 0b101\nm: .5\nn: 10.0.0.9\no: 0o17\np: 2001-12-14x\nq: -0\nr: +12\ns: 1.\n',
    );
    writeFileSync(
      join(dir, 'psych.epp'),
      '<% [a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s].each |$key| { %><%= $key %>=<%= getvar($key) %> (<%= type(getvar($key), generalized) %>)\n<% } %>',
    );
    const expected = [
      'a=true (Boolean)',
      'b=true (Boolean)',
      'c=8 (Integer)',
      'd=31 (Integer)',
      'e=1000 (Integer)',
      'f=5400 (Integer)',
      'g= (Undef)',
      'h=2.5 (Float)',
      'i=1e3 (String)',
      'j=1000.0 (Float)',
      'k=y (String)',
      'l=5 (Integer)',
      'm=0.5 (Float)',
      'n=10.0.0.9 (String)',
      'o=0o17 (String)',
      'p=2001-12-14x (String)',
      'q=0 (Integer)',
      'r=12 (Integer)',
      's=1.0 (Float)',
      '',
    ].join('\n');
    expect(run(['epp', 'render', 'psych.epp', '--values-file', 'psych.yaml'], dir).stdout).toBe(expected);
    // The same values in the simple reader's subset (one per file) read the same as in the full reading.
    writeFileSync(
      join(dir, 'simple-psych.yaml'),
      'a: yes\nb: On\ng: ~\nh: 2.50\nk: y\nn: 10.0.0.9\no: 0o17\n',
    );
    writeFileSync(
      join(dir, 'simple-psych.epp'),
      '<% [a,b,g,h,k,n,o].each |$key| { %><%= getvar($key) %>,<% } %>',
    );
    expect(run(['epp', 'render', 'simple-psych.epp', '--values-file', 'simple-psych.yaml'], dir).stdout).toBe(
      'true,true,,2.5,y,10.0.0.9,0o17,\n',
    );
  });

  it("gives a plain `:symbol` of a YAML values file as Puppet's Runtime[ruby, 'Symbol'], quoted or in JSON a String", () => {
    // Expected: what Puppet 7 printed for this file and template (puppet epp render --values_file, 2026-11-27).
    writeFileSync(
      join(dir, 'sym.yaml'),
      'a: :foo\nq: \':foo\'\nw: :"a b"\nl:\n  - :bar\n  - x\nh:\n  :k: :v\n',
    );
    writeFileSync(
      join(dir, 'sym.epp'),
      [
        '<%- | $a, $q, $w, $l, $h | -%>',
        '<%= $a %>|<%= "${a}" %>|<%= $q %>|<%= $w %>|<%= $l %>|<%= $h %>',
        "<%= type($a) %>|<%= type($q) %>|<%= type($h) %>|<%= $a == 'foo' %>|<%= $a == $l[0] %>|<%= $a =~ Runtime %>|<%= $a =~ String %>",
        "<%= String($a, '%p') %>|<%= sprintf('%p', $a) %>|<%= sprintf('%p', $w) %>|<%= $l.join('+') %>",
        '',
      ].join('\n'),
    );
    expect(run(['epp', 'render', 'sym.epp', '--values-file', 'sym.yaml'], dir).stdout).toBe(
      [
        'foo|foo|:foo|a b|[bar, x]|{k => v}',
        "Runtime[ruby, 'Symbol']|String|Hash[Runtime[ruby, 'Symbol'], Runtime[ruby, 'Symbol'], 1, 1]|false|false|true|false",
        '\'foo\'|:foo|:"a b"|bar+x',
        '',
      ].join('\n'),
    );
    // Functions refuse it as Puppet's do, naming it `Runtime`.
    writeFileSync(join(dir, 'sym-length.epp'), '<%- | $a, $q, $w, $l, $h | -%>\n<%= $a.length %>\n');
    expectRefused(
      ['epp', 'render', 'sym-length.epp', '--values-file', 'sym.yaml'],
      dir,
      "sym-length.epp:2:7: error: Error while evaluating a Method call, 'length' parameter 'arg' expects a value of type Collection, String, or Binary, got Runtime",
    );
    // JSON has no symbols: the text stays a String.
    writeFileSync(join(dir, 'sym.json'), '{"a": ":foo"}');
    writeFileSync(join(dir, 'sym-json.epp'), '<%- | $a | -%>\n<%= $a %> <%= type($a) %>\n');
    expect(run(['epp', 'render', 'sym-json.epp', '--values-file', 'sym.json'], dir).stdout).toBe(
      ':foo String\n',
    );
  });

  it('merges a YAML values file as Psych does: where `<<` stands, symbol keys kept, a list from its last mapping', () => {
    // Expected: what Puppet 7 printed for this file and template (puppet epp render --values_file, 2026-11-27).
    writeFileSync(
      join(dir, 'merge.yaml'),
      'base: &b\n  :sym: 1\n  plain: 2\n  other: 9\nmore: &m\n  plain: 20\n  extra: 5\nx:\n  plain: 0\n  <<: [*b, *m]\n  own: 3\n  other: 4\ny:\n  <<: *b\n  own: 3\n',
    );
    writeFileSync(
      join(dir, 'merge.epp'),
      '<%- | $x, $y, $base, $more | -%>\n<% $x.each |$k, $v| { %><%= $k %>=<%= type($k) %>=<%= $v %> <% } %>\n<%= $y.keys.map |$k| { $k =~ Runtime } %>\n',
    );
    expect(run(['epp', 'render', 'merge.epp', '--values-file', 'merge.yaml'], dir).stdout).toBe(
      "plain=String=2 extra=String=5 sym=Runtime[ruby, 'Symbol']=1 other=String=4 own=String=3 \n[true, false, false, false]\n",
    );
  });

  it("refuses a plain `:value` inside YAML's [...] or {...} in a values file, at its colon, as Psych does", () => {
    // Puppet 7 (2026-11-27): "Could not load --values_file (f.yaml): did not find expected node content
    // while parsing a flow node at line 1 column 8"; a block list's `- :a` is a Symbol, a quoted one a String.
    const refused: [string, string][] = [
      [
        'a: [1, :b, c]\n',
        'flow.yaml:1:8: error: did not find expected node content while parsing a flow node',
      ],
      ['a: {:k: 1}\n', 'flow.yaml:1:5: error: did not find expected node content while parsing a flow node'],
      [
        'a:\n  b: [ "q",\n     :x ]\n',
        'flow.yaml:3:6: error: did not find expected node content while parsing a flow node',
      ],
    ];
    writeFileSync(join(dir, 'flow.epp'), '<%= $a %>\n');
    for (const [yaml, message] of refused) {
      writeFileSync(join(dir, 'flow.yaml'), yaml);
      expectRefused(['epp', 'render', 'flow.epp', '--values-file', 'flow.yaml'], dir, message);
      const r = run(['epp', 'render', 'flow.epp', '--values-file', 'flow.yaml'], dir);
      expect(r.stderr).toContain(
        "hint: Puppet's YAML reader starts no plain value with ':' inside [...] or {...}",
      );
    }
    writeFileSync(join(dir, 'flow.yaml'), 'a: [":a", a:b]\n');
    expect(run(['epp', 'render', 'flow.epp', '--values-file', 'flow.yaml'], dir).stdout).toBe('[:a, a:b]\n');
  });

  it('refuses a date or time in a YAML values file where it is, as Puppet does; quoted, it is a String', () => {
    // Puppet 7 (2026-11-27): "Could not load --values_file (p.yaml): Tried to load unspecified class: Date"
    // for each of these (Time for the times); 2024-13-01 and quoted dates are Strings.
    const refused: [string, string][] = [
      ['d: 2024-01-02\n', 'date.yaml:1:4: error: Tried to load unspecified class: Date'],
      ['d: 2024-02-30\n', 'date.yaml:1:4: error: Tried to load unspecified class: Date'],
      ['a: 1\nd: [x, 2024-1-2]\n', 'date.yaml:2:8: error: Tried to load unspecified class: Date'],
      ['2024-01-02: x\n', 'date.yaml:1:1: error: Tried to load unspecified class: Date'],
      ['d: 2024-01-02T10:00:00Z\n', 'date.yaml:1:4: error: Tried to load unspecified class: Time'],
      [
        'd: {t: 2024-01-02 10:00:00.5 +01:00}\n',
        'date.yaml:1:8: error: Tried to load unspecified class: Time',
      ],
    ];
    for (const [text, message] of refused) {
      writeFileSync(join(dir, 'date.yaml'), text);
      expectRefused(['epp', 'render', 't.epp', '--values-file', 'date.yaml'], dir, message);
      expect(run(['epp', 'render', 't.epp', '--values-file', 'date.yaml'], dir).stderr).toContain('hint: ');
    }
    writeFileSync(join(dir, 'dates.yaml'), "name: '2024-01-02'\nother: 2024-13-01\n");
    writeFileSync(join(dir, 'dates.epp'), '<%= $name %> <%= $other %>');
    expect(run(['epp', 'render', 'dates.epp', '--values-file', 'dates.yaml'], dir).stdout).toBe(
      '2024-01-02 2024-13-01\n',
    );
  });

  it('reads a .pp values file as Puppet code whose value is the hash, as puppet epp render does', () => {
    writeFileSync(join(dir, 'v.pp'), "{ name => 'pp', f => 1.0 + 1 }\n");
    expect(run(['epp', 'render', 't.epp', '--values-file', 'v.pp'], dir).stdout).toBe('Hello pp 2.0\n');
    writeFileSync(join(dir, 'list.pp'), '[1, 2]\n');
    expectRefused(
      ['epp', 'render', 't.epp', '--values-file', 'list.pp'],
      dir,
      'list.pp: the Puppet code must evaluate to a hash or undef',
    );
    // Code that does not parse: the error at its line and column, nothing rendered.
    writeFileSync(join(dir, 'broken.pp'), "{ name =>\n  'x', }\n[\n");
    expectRefused(
      ['epp', 'render', 't.epp', '--values-file', 'broken.pp'],
      dir,
      'broken.pp:4:1: error: Syntax error at end of input [EPP_SYNTAX]',
    );
  });

  it('gives --facts as $facts and as top-scope variables, as puppet epp render --facts does', () => {
    // What Puppet 7 prints for the same template and facts file (its own machine facts aside).
    writeFileSync(join(dir, 'facts.yaml'), 'os:\n  family: Debian\ncustom: x\nnum: 3\n');
    writeFileSync(join(dir, 'facts.json'), '{"custom": "json"}');
    writeFileSync(
      join(dir, 'f.epp'),
      "<%- | $a | -%><%= $facts['custom'] %>|<%= $::custom %>|<%= $custom %>|<%= $facts['os']['family'] %>|<%= $facts['num'] + $a %>",
    );
    const yaml = run(['epp', 'render', 'f.epp', '--facts', 'facts.yaml', '--values', '{a => 1}'], dir);
    expect(yaml.stdout).toBe('x|x|x|Debian|4\n');
    const json = run(['epp', 'render', '-e', "<%= $facts['custom'] %>", '--facts', 'facts.json'], dir);
    expect(json.stdout).toBe('json\n');
    expectRefused(
      ['epp', 'render', 'f.epp', '--facts', 'nope.yaml'],
      dir,
      'error: cannot read facts file nope.yaml: no such file\n  hint: give a file of a hash: .json or YAML\n',
    );
    writeFileSync(join(dir, 'list.yaml'), '- 1\n');
    expectRefused(
      ['epp', 'render', 'f.epp', '--facts', 'list.yaml'],
      dir,
      'list.yaml: facts must be a hash (a JSON object or YAML mapping)',
    );
    writeFileSync(join(dir, 'broken.json'), '{"custom": }');
    expectRefused(['epp', 'render', 'f.epp', '--facts', 'broken.json'], dir, 'broken.json:1:');
  });

  it('reads Integers exactly beyond 2^53 and tells 2 from 2.0 in values files and --values', () => {
    writeFileSync(
      join(dir, 'n.epp'),
      '<%- | Integer $n, Integer $i, Float $f | -%>\n<%= $n + 1 %> <%= $i %> <%= $f %> <%= $i == $f %>',
    );
    writeFileSync(join(dir, 'n.json'), '{"n": 9007199254740993, "i": 2, "f": 2.0}');
    writeFileSync(join(dir, 'n.yaml'), 'n: 9007199254740993\ni: 2\nf: 2.0\n');
    const expected = '9007199254740994 2 2.0 true\n';
    expect(run(['epp', 'render', 'n.epp', '--values-file', 'n.json'], dir).stdout).toBe(expected);
    expect(run(['epp', 'render', 'n.epp', '--values-file', 'n.yaml'], dir).stdout).toBe(expected);
    expect(
      run(['epp', 'render', 'n.epp', '--values', '{"n": 9007199254740993, "i": 2, "f": 2.0}'], dir).stdout,
    ).toBe(expected);
    expect(
      run(['epp', 'render', 'n.epp', '--values', '{n => 9007199254740993, i => 2, f => 2.0}'], dir).stdout,
    ).toBe(expected);
  });

  it("refuses an Integer beyond 64 bits or an infinite Float in --values, either form, as Puppet refuses the literal; keeps a values file's", () => {
    writeFileSync(join(dir, 'big.epp'), '<%= $a %>|<%= type($a) %>');
    // Puppet 7.23: `puppet epp render --values '{a => 18446744073709551616}'` fails at 1:5 in these words.
    const overflow =
      "A Literal Integer resulted in a value outside of Puppet Integer max range, got '+0x10000000000000000'";
    expectRefused(
      ['epp', 'render', 'big.epp', '--values', '{a => 18446744073709551616}'],
      dir,
      `--values:1:7: error: ${overflow}`,
    );
    expectRefused(
      ['epp', 'render', 'big.epp', '--values', '{"a": 18446744073709551616}'],
      dir,
      `--values:1:7: error: ${overflow} [EPP_INTEGER_OVERFLOW]\n> 1 | {"a": 18446744073709551616}\n    |       ^^^^^^^^^^^^^^^^^^^^\n  hint: Puppet takes Integers of 64 bits and finite Floats here: give a larger number as a String, or in a YAML values file (Puppet reads it there)\n`,
    );
    expectRefused(
      ['epp', 'render', 'big.epp', '--values', '{"b": 1, "a": -9223372036854775809}'],
      dir,
      "--values:1:15: error: A Literal Integer resulted in a value outside of Puppet Integer max range, got '-0x8000000000000001'",
    );
    // Puppet's lexer: "Internal Error, NUMBER token does not contain a valid number, 1e400".
    for (const values of ['{a => 1e400}', '{"a": 1e400}']) {
      expectRefused(
        ['epp', 'render', 'big.epp', '--values', values],
        dir,
        'error: Internal Error, NUMBER token does not contain a valid number, 1e400',
      );
    }
    // An unclosed string or heredoc header quotes what follows it in the text given, up to its end, as
    // Puppet 7.23 does (`(file: values-hash, line: 1, column: 6)`); not the tag Pantograph wraps it in.
    for (const [values, message] of [
      [
        '{a=>"x}',
        `--values:1:6: error: Unclosed quote after '"' followed by 'x}...' [EPP_UNCLOSED_STRING]\n`,
      ],
      [
        "{a=>'x}",
        `--values:1:6: error: Unclosed quote after "'" followed by 'x}...' [EPP_UNCLOSED_STRING]\n`,
      ],
      ['{a=>"', `--values:1:6: error: Unclosed quote after '"' followed by '<eof>' [EPP_UNCLOSED_STRING]\n`],
      [
        '{a => @(X}',
        "--values:1:7: error: Unclosed parenthesis after '@(' followed by '@(X}...' [EPP_SYNTAX]\n",
      ],
    ]) {
      const unclosed = run(['epp', 'render', 'big.epp', '--values', values!], dir);
      expect(unclosed).toMatchObject({ code: 1, stdout: '' });
      expect(unclosed.stderr.startsWith(message!)).toBe(true);
    }
    // A lexer error in the Puppet form is placed in the text given, which the frame shows as it is.
    const octal = run(['epp', 'render', 'big.epp', '--values', '{a => 08}'], dir);
    expect(octal).toMatchObject({ code: 1, stdout: '' });
    expect(octal.stderr).toContain(
      '--values:1:7: error: Not a valid octal number 08 [EPP_SYNTAX]\n> 1 | {a => 08}\n',
    );
    expect(run(['epp', 'render', 'big.epp', '--values', '{"a": -9223372036854775808}'], dir).stdout).toBe(
      '-9223372036854775808|Integer[-9223372036854775808, -9223372036854775808]\n',
    );
    // A YAML values file keeps it, as Puppet's --values_file does (and JSON, which YAML reads alike).
    writeFileSync(join(dir, 'big.yaml'), 'a: 18446744073709551616\n');
    writeFileSync(join(dir, 'big.json'), '{"a": 18446744073709551616}');
    const big = '18446744073709551616|Integer[18446744073709551616, 18446744073709551616]\n';
    expect(run(['epp', 'render', 'big.epp', '--values-file', 'big.yaml'], dir)).toMatchObject({
      code: 0,
      stdout: big,
    });
    expect(run(['epp', 'render', 'big.epp', '--values-file', 'big.json'], dir)).toMatchObject({
      code: 0,
      stdout: big,
    });
  });

  it('renders inline templates, strict by default and Puppet 7 style with --no-strict', () => {
    const strict = run(['epp', 'render', '-e', '[<%= $nope %>]']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("<inline>:1:6: error: Unknown variable: '$nope' [EPP_UNKNOWN_VARIABLE]");
    expect(strict.stderr).toContain('> 1 | [<%= $nope %>]');
    expect(run(['epp', 'render', '-e', '[<%= $nope %>]', '--no-strict'])).toMatchObject({
      code: 0,
      stdout: '[]\n',
    });
  });

  it('reports a missing template file without a stack trace', () => {
    const r = run(['epp', 'render', 'missing.epp'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: cannot read template missing.epp: no such file\n');
  });

  it('says what is wrong with a directory or a missing file given for a template or values, and what to give', () => {
    mkdirSync(join(dir, 'templates'), { recursive: true });
    const directory =
      'error: cannot read template templates/: it is a directory\n  hint: give template files, e.g. templates/*.epp\n';
    for (const command of ['render', 'dump']) {
      expectRefused(['epp', command, 'templates/'], dir, directory);
    }
    // validate takes a directory: every .epp under it, in any shell (Puppet's refuses one).
    expectRefused(
      ['epp', 'validate', 'templates/'],
      dir,
      'error: no .epp file under templates/\n  hint: give the template files, or a directory holding them\n',
    );
    expectRefused(
      ['epp', 'render', 't.epp', '--values-file', 'missing.yaml'],
      dir,
      'error: cannot read values file missing.yaml: no such file\n  hint: give a file of a hash: .json, .pp (Puppet code) or YAML\n',
    );
    expectRefused(
      ['epp', 'render', 't.epp', '--values-file', 'templates'],
      dir,
      'error: cannot read values file templates: it is a directory\n',
    );
  });

  it('validates every .epp file under a directory given to epp validate, deepest levels too, hidden ones skipped', () => {
    const tree = mkdtempSync(join(tmpdir(), 'pantograph-validate-dir-'));
    mkdirSync(join(tree, 'mod', 'templates', 'deep', 'er'), { recursive: true });
    mkdirSync(join(tree, 'mod', '.git'), { recursive: true });
    writeFileSync(join(tree, 'mod', 'templates', 'ok.epp'), '<%= 1 %>\n');
    // Puppet 7 (2026-11-27): "Syntax error at '%>' (file: bad.epp, line: 2, column: 9)"
    writeFileSync(join(tree, 'mod', 'templates', 'deep', 'er', 'bad.epp'), 'a\n<%= [1, %>\n');
    writeFileSync(join(tree, 'mod', 'templates', 'notes.txt'), '<% if %>');
    writeFileSync(join(tree, 'mod', '.git', 'hidden.epp'), '<% if %>');
    const r = run(['epp', 'validate', 'mod'], tree);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${join('mod', 'templates', 'deep', 'er', 'bad.epp')}:2:9: error: Syntax error at '%>'`,
    );
    expect(r.stderr).not.toContain('hidden.epp');
    expect(r.stderr).not.toContain('notes.txt');
    writeFileSync(join(tree, 'mod', 'templates', 'deep', 'er', 'bad.epp'), 'a\n');
    expect(run(['epp', 'validate', 'mod'], tree)).toMatchObject({ code: 0, stderr: '' });
  });

  it('leaves help and unknown options to the full command line', () => {
    expect(run(['epp', 'render', '--help']).stdout).toContain(
      'Usage: pantograph epp render [options] [files...]',
    );
    const bad = run(['epp', 'render', '--bogus']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("error: unknown option '--bogus'");
  });

  it('stops quietly when the reader closes the pipe early (| head)', () => {
    const template = '<% Integer[1, 300000].each |$i| { %>line <%= $i %>\n<% } %>';
    const r = spawnSync(
      'bash',
      ['-o', 'pipefail', '-c', `"${process.execPath}" "${bin}" epp render -e "$T" | head -c 5`],
      {
        encoding: 'utf8',
        env: { ...process.env, T: template },
      },
    );
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 0,
      stdout: 'line ',
      stderr: '',
    });
  });

  it('validates every file and exits 1 on syntax errors', () => {
    writeFileSync(join(dir, 'bad.epp'), '<%= [1 %>\n<%= 1 + %>\n');
    const r = run(['epp', 'validate', 'bad.epp', 't.epp'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/^bad\.epp:\d+:\d+/gm)).toEqual(['bad.epp:1:8', 'bad.epp:2:9']);
  });

  it('dumps the syntax tree as JSON, number literals with their Puppet type and exact digits', () => {
    writeFileSync(join(dir, 'numbers.epp'), '<%= 9007199254740993 %><%= 1.0 %><%= 2 %>');
    const r = run(['epp', 'dump', 'numbers.epp'], dir);
    expect(r.code).toBe(0);
    const ast = JSON.parse(r.stdout) as { type: string; body: { expr: Record<string, unknown> }[] };
    expect(ast.type).toBe('Template');
    expect(ast.body.map((node) => node.expr)).toEqual([
      { type: 'Literal', value: '9007199254740993', valueType: 'Integer', start: 4, end: 20 },
      { type: 'Literal', value: 1, valueType: 'Float', start: 27, end: 30 },
      { type: 'Literal', value: 2, valueType: 'Integer', start: 37, end: 38 },
    ]);
    const js = run(['epp', 'dump', '--js', 'numbers.epp'], dir);
    expect(js.stdout).toContain('9007199254740993n');
    expect(js.stdout).toMatch(/^"use strict";/);
  });

  it.each([
    ['the command line', 'main.cjs', 'main'],
    ['the epp render path', 'fast-epp-render.cjs', 'fastEppRender'],
    ['the library', '../lib/pantograph.cjs', 'loadProject'],
    ['EPP alone (pantograph/epp)', '../lib/epp.cjs', 'renderEpp'],
    ['the yaml package, for `epp render`', 'yaml.cjs', 'parseDocument'],
  ])('starts %s from its bundle and V8 code cache, which V8 accepts', (_what, name, entry) => {
    const bundle = resolve(import.meta.dirname, '../../dist/cli', name);
    const { runBundle } = createRequire(import.meta.url)('../../dist/cli/load-bundle.cjs') as {
      runBundle: (file: string, cache: Buffer) => { exports: Record<string, unknown>; script: Script };
    };
    const { exports, script } = runBundle(bundle, readFileSync(`${bundle}.cache`));
    expect(script.cachedDataRejected).toBe(false);
    expect(typeof exports[entry]).toBe('function');
  });
  it('refuses to run a file that is not a bundle the build made, and says what to do', () => {
    const { runBundle } = createRequire(import.meta.url)('../../dist/cli/load-bundle.cjs') as {
      runBundle: (file: string, cache: undefined) => unknown;
    };
    const dir = mkdtempSync(join(tmpdir(), 'pantograph-bundle-'));
    const plain = join(dir, 'main.cjs');
    writeFileSync(plain, '"use strict";\nmodule.exports = { main: () => 0 };\n');
    expect(() => runBundle(plain, undefined)).toThrow(
      `${plain} is not a bundle made by \`npm run build\`: run it again`,
    );
  });
});

describe("the package's entries (built)", () => {
  const dist = resolve(import.meta.dirname, '../../dist');

  it("'pantograph' and 'pantograph/epp' load one library bundle: values of one are the other's", async () => {
    const api = (await import(join(dist, 'index.js'))) as typeof import('../../src/index.js');
    const epp = (await import(join(dist, 'epp.js'))) as typeof import('../../src/epp/index.js');
    expect(epp.PFloat).toBe(api.PFloat);
    expect(epp.renderEpp('<%= $f %> <%= $n %>', { f: api.float(2), n: 3 })).toBe('2.0 3');
    expect(typeof api.loadProject).toBe('function');
    expect(Object.keys(api)).not.toContain('warmUpRenders');
    expect(Object.keys(epp)).not.toContain('warmUpRenders');
  });

  it("'pantograph/epp' loads EPP alone: no engine, no node:crypto or node:child_process", () => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const before = new Set(process.moduleLoadList);
         const epp = await import(${JSON.stringify(pathToFileURL(join(dist, 'epp.js')).href)});
         const loaded = process.moduleLoadList.filter((m) => !before.has(m) && /crypto|child_process|stream/.test(m));
         console.log(JSON.stringify({ loaded, out: epp.renderEpp('<%= $x %>', { x: 1 }) }));`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ loaded: [], out: '1' });
  });

  it('exports from the bundle every name the sources export', async () => {
    const built = await import(join(dist, 'index.js'));
    const source = await import('../../src/index.js');
    expect(Object.keys(built).sort()).toEqual(Object.keys(source).sort());
  });
});

// `script` (util-linux) gives the command a terminal, as a person's shell does.
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('colour (built CLI on a terminal)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-colour-'));
  writeFileSync(join(dir, 't.epp'), '<% if %>\n');
  const onTerminal = (shellCommand: string, env: Record<string, string> = {}) => {
    const environment = { ...process.env, ...env };
    if (env.NO_COLOR === undefined) delete environment.NO_COLOR;
    return spawnSync('script', ['-qec', shellCommand, '/dev/null'], {
      cwd: dir,
      encoding: 'utf8',
      env: environment,
    });
  };
  const command = `'${process.execPath}' '${bin}' epp validate t.epp`;
  const ESC = '\u001b[';

  it('colours problems when both outputs are a terminal, and not with NO_COLOR', () => {
    expect(onTerminal(command).stdout).toContain(ESC);
    expect(onTerminal(command, { NO_COLOR: '1' }).stdout).not.toContain(ESC);
  });

  it('writes no escape codes into a file that standard error is redirected to', () => {
    onTerminal(`${command} 2> err.txt`);
    const log = readFileSync(join(dir, 'err.txt'), 'utf8');
    expect(log).toContain('t.epp:2:1: error');
    expect(log).not.toContain(ESC);
  });
});
