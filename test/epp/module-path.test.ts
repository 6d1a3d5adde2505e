/**
 * The module path (`modulePath`, the CLI's `--modulepath`): a module's type aliases and templates, read
 * from real module directories made in a temp dir, as `puppet epp render --modulepath` reads them. The
 * corpus test checks the same against Puppet's output for the real modules of test/fixtures/epp-corpus.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileEpp, EppError, renderEpp } from '../../src/epp/index.js';

/** Writes files (path -> text) under a new temp dir; returns the dir. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'pantograph-modules-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function failure(run: () => unknown): EppError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(EppError);
    return e as EppError;
  }
  throw new Error('expected an error');
}

const modules = tree({
  'redis/types/loglevel.pp': [
    '# @summary Log levels',
    "type Redis::LogLevel = Enum['debug', 'notice'] # the two we use",
    '',
  ].join('\n'),
  'redis/types/settings/port.pp': 'type Redis::Settings::Port = Integer[1, 65535]\n',
  'redis/types/tree.pp': 'type Redis::Tree = Variant[String, Array[Redis::Tree]]\n',
  'redis/types/wrong.pp': 'type Redis::Other = String\n',
  'redis/types/name.pp': 'type Redis::Name = String[1]\n',
  'redis/types/pair.pp': 'type Redis::Pair = Array[Redis::Settings::Port]\n',
  'redis/types/conf.pp':
    'type Redis::Conf = Struct[{port => Redis::Settings::Port, Optional[level] => Redis::LogLevel}]\n',
  'redis/types/broken.pp': 'type Redis::Broken = Enum[\n  $nope\n]\n',
  'redis/types/nothing.pp': '# no declaration\n',
  'redis/templates/part.epp': '<%- | Redis::LogLevel $level | -%>level=<%= $level %>',
  'web/types/listen.pp':
    'type Web::Listen = Struct[{port => Redis::Settings::Port, level => Redis::LogLevel}]\n',
  'demo/functions/twice.pp': [
    '# @summary doubles',
    'function demo::twice(',
    '  Integer $x,',
    '  Integer $by = 2, # a comment with ) and {',
    ') >> Integer {',
    '  if $x < 0 { return(0) }',
    '  $x * $by',
    '}',
    '',
  ].join('\n'),
  'demo/functions/sub/greet.pp': [
    'function demo::sub::greet(String $name, Optional[String] $title = undef) >> String {',
    '  $t = $title ? { undef => \'\', default => "${title} " }',
    '  "Hello ${t}${name}: ${demo::twice(3)}"',
    '}',
  ].join('\n'),
  'demo/functions/bad_return.pp': 'function demo::bad_return() >> String {\n  42\n}\n',
  'demo/functions/untyped.pp': 'function demo::untyped($a, *$rest) {\n  [$a, $rest]\n}\n',
  'demo/functions/broken.pp': 'function demo::broken() {\n  1 +\n}\n',
  'demo/functions/misnamed.pp': 'function demo::other() { 1 }\n',
  'demo/lib/puppet/functions/demo/in_ruby.rb':
    'Puppet::Functions.create_function(:"demo::in_ruby") do\nend\n',
});
const modulePath = [modules];
const render = (source: string, values: Record<string, unknown>, options = {}) =>
  renderEpp(source, values, { file: 't.epp', modulePath, ...options });

describe('module path: type aliases', () => {
  it("checks parameters against a module's alias, nested paths and other modules' aliases", () => {
    expect(render('<%- | Redis::LogLevel $l | -%><%= $l %>', { l: 'notice' })).toBe('notice');
    expect(render('<%- | Redis::Settings::Port $p | -%><%= $p %>', { p: 6379 })).toBe('6379');
    expect(render('<%- | Web::Listen $w | -%><%= $w %>', { w: { port: 1, level: 'debug' } })).toBe(
      '{port => 1, level => debug}',
    );
    // Names are case-insensitive, as Puppet's (each segment starts with a capital: `Redis::loglevel` is
    // no type to Puppet's lexer); `=~` and type values see aliases too.
    expect(render("<%= 'debug' =~ REDIS::LOGLEVEL %>|<%= 7 =~ Redis::LogLevel %>", {})).toBe('true|false');
  });

  it('refuses a value that is not of the alias, naming it, at the parameter', () => {
    const e = failure(() => render('<%- | Redis::LogLevel $l | -%><%= $l %>', { l: 'loud' }));
    expect(e.code).toBe('EPP_TYPE_MISMATCH');
    expect(e.message).toContain("parameter 'l'");
    expect(e.message).toContain('Redis::LogLevel');
    expect(e.line).toBe(1);
    expect(e.column).toBe(7);
  });

  it('words mismatches as Puppet does: an alias with its definition, looked into where it is a structure', () => {
    // Each message is what `puppet epp render --modulepath` printed for the same template and value.
    const message = (source: string, values: Record<string, unknown>) =>
      failure(() => render(source, values)).message;
    expect(message('<%- | Redis::Settings::Port $p = 0 | -%>', {})).toBe(
      "parameter 'p' expects a Redis::Settings::Port = Integer[1, 65535] value, got Integer[0, 0]",
    );
    expect(message('<%- | Array[Redis::Settings::Port] $p | -%>', { p: ['x'] })).toBe(
      "parameter 'p' index 0 expects a Redis::Settings::Port = Integer[1, 65535] value, got String",
    );
    expect(message('<%- | Redis::Pair $p | -%>', { p: 'x' })).toBe(
      "parameter 'p' expects a Redis::Pair = Array[Redis::Settings::Port = Integer[1, 65535]] value, got String",
    );
    expect(message('<%- | Variant[Redis::Settings::Port, Redis::Name] $p | -%>', { p: true })).toBe(
      "parameter 'p' expects a value of type Redis::Settings::Port = Integer[1, 65535] or Redis::Name = String[1], got Boolean",
    );
    expect(message('<%- | Variant[Array[Redis::Settings::Port], Redis::Name] $p | -%>', { p: {} })).toBe(
      "parameter 'p' expects a value of type Array[Redis::Settings::Port = Integer[1, 65535]] or Redis::Name = String[1], got Hash",
    );
    expect(message('<%- | Redis::LogLevel $l | -%>', { l: 'loud' })).toBe(
      "parameter 'l' expects a match for Redis::LogLevel = Enum['debug', 'notice'], got 'loud'",
    );
    expect(message('<%- | Redis::Conf $c | -%>', { c: { port: 'x' } })).toBe(
      "parameter 'c' entry 'port' expects a Redis::Settings::Port = Integer[1, 65535] value, got String",
    );
    expect(message('<%- | Redis::Conf $c | -%>', { c: { port: 1, level: 'z' } })).toBe(
      "parameter 'c' entry 'level' expects a match for Redis::LogLevel = Enum['debug', 'notice'], got 'z'",
    );
    expect(message('<%- | Redis::Conf $c | -%>', { c: { port: 1, other: 2 } })).toBe(
      "parameter 'c' unrecognized key 'other'",
    );
    // stdlib's aliases alike (no module path needed: Pantograph has them).
    expect(message('<%- | Stdlib::Port $p | -%>', { p: 'x' })).toBe(
      "parameter 'p' expects a Stdlib::Port = Integer[0, 65535] value, got String",
    );
  });

  it('prints an alias on its own with its definition, inside another type by its name', () => {
    expect(render('<%= Redis::Pair %>|<%= Optional[Redis::Pair] %>|<%= [Redis::Settings::Port] %>', {})).toBe(
      'Redis::Pair = Array[Redis::Settings::Port = Integer[1, 65535]]|Optional[Redis::Pair]|' +
        '[Redis::Settings::Port = Integer[1, 65535]]',
    );
    // Inside itself, a recursive alias is its name.
    expect(render('<%= Redis::Tree %>', {})).toBe('Redis::Tree = Variant[String, Array[Redis::Tree]]');
  });

  it('finds a module whose directory is not named after it, given as { name, dir }', () => {
    const checkout = tree({ 'types/mode.pp': "type Acme::Mode = Enum['on', 'off']\n" });
    const source = '<%- | Acme::Mode $m | -%><%= $m %>';
    expect(renderEpp(source, { m: 'on' }, { modulePath: [{ name: 'acme', dir: checkout }] })).toBe('on');
    // Not under another name, and not as a directory of modules (it holds no `acme/`).
    const unknown = (path: readonly (string | { name: string; dir: string })[]) =>
      failure(() => renderEpp(source, { m: 'on' }, { modulePath: path })).code;
    expect(unknown([{ name: 'other', dir: checkout }])).toBe('EPP_UNKNOWN_TYPE');
    expect(unknown([checkout])).toBe('EPP_UNKNOWN_TYPE');
  });

  it('lets an alias refer to itself', () => {
    const source = '<%- | Redis::Tree $t | -%><%= $t %>';
    expect(render(source, { t: ['a', ['b', ['c']]] })).toBe('[a, [b, [c]]]');
    expect(failure(() => render(source, { t: ['a', [1]] })).code).toBe('EPP_TYPE_MISMATCH');
  });

  it('renders the same in both tiers (interpreted first renders, compiled after)', () => {
    const template = compileEpp('<%- | Array[Redis::LogLevel] $ls | -%><%= $ls.join(",") %>');
    for (let i = 0; i < 4; i++) {
      expect(template.render({ ls: ['debug', 'notice'] }, { modulePath })).toBe('debug,notice');
      expect(() => template.render({ ls: ['x'] }, { modulePath })).toThrow(/Redis::LogLevel/);
    }
  });

  it("keeps each render's module path: an alias is not shared with renders that have another or none", () => {
    const other = [tree({ 'redis/types/loglevel.pp': 'type Redis::LogLevel = Integer\n' })];
    const source = '<%- | Redis::LogLevel $l | -%><%= $l %>';
    for (let i = 0; i < 3; i++) {
      expect(render(source, { l: 'debug' })).toBe('debug');
      expect(render(source, { l: 3 }, { modulePath: other })).toBe('3');
      expect(failure(() => render(source, { l: 'debug' }, { modulePath: other })).code).toBe(
        'EPP_TYPE_MISMATCH',
      );
      const unknown = failure(() => renderEpp(source, { l: 'debug' }, { file: 't.epp' }));
      expect(unknown.code).toBe('EPP_UNKNOWN_TYPE');
      expect(unknown.hint).toContain('--modulepath');
    }
  });

  it('reports a broken alias file at its own line, and files that declare another type or none', () => {
    const broken = failure(() => render('<%- | Redis::Broken $b | -%>x', { b: 'x' }));
    expect(broken.location?.file).toBe(join(modules, 'redis/types/broken.pp'));
    expect(broken.line).toBe(2);
    // Its code frame shows the file's text, not the copy with the `type ... =` head blanked.
    expect(broken.location?.source).toBe('type Redis::Broken = Enum[\n  $nope\n]\n');
    const wrong = failure(() => render('<%- | Redis::Wrong $w | -%>x', { w: 'x' }));
    expect(wrong.message).toContain('declares the type Redis::Other, not Redis::Wrong');
    expect(wrong.line).toBe(1); // the reference in the template
    const nothing = failure(() => render('<%- | Redis::Nothing $n | -%>x', { n: 'x' }));
    expect(nothing.message).toContain('does not declare a type alias');
  });

  it('refuses an alias or function file past the size limit, at the reference', () => {
    const big = [
      tree({
        'big/types/huge.pp': `type Big::Huge = String\n${'#'.repeat(300 * 1024)}\n`,
        'big/functions/huge.pp': `function big::huge() { 1 }\n${'#'.repeat(300 * 1024)}\n`,
      }),
    ];
    const type = failure(() =>
      renderEpp('<%- | Big::Huge $h | -%>x', { h: 'y' }, { file: 't.epp', modulePath: big }),
    );
    expect(type.code).toBe('EPP_UNKNOWN_TYPE');
    expect(type.message).toContain('huge.pp is larger than 256 KB');
    expect([type.line, type.column]).toEqual([1, 7]);
    const fn = failure(() => renderEpp('<%= big::huge() %>', {}, { file: 't.epp', modulePath: big }));
    expect(fn.code).toBe('EPP_UNKNOWN_FUNCTION');
    expect(fn.message).toContain('huge.pp is larger than 256 KB');
    expect([fn.line, fn.column]).toEqual([1, 5]);
  });

  it("reads nothing outside a module's types/: a symlink out and names that are no paths stay unknown", () => {
    const outside = tree({ 'secret.pp': 'type Evil::Link = String\n' });
    const evil = tree({});
    mkdirSync(join(evil, 'evil', 'types'), { recursive: true });
    symlinkSync(join(outside, 'secret.pp'), join(evil, 'evil', 'types', 'link.pp'));
    const e = failure(() =>
      renderEpp('<%- | Evil::Link $x | -%>x', { x: 'y' }, { file: 't.epp', modulePath: [evil] }),
    );
    expect(e.code).toBe('EPP_UNKNOWN_TYPE');
    expect(failure(() => render('<%- | Redis $x | -%>x', { x: 'y' })).code).toBe('EPP_UNKNOWN_TYPE');
  });
});

// The outputs and refusals below are what `puppet epp render --modulepath` gives for the same module.
describe('module path: functions written in Puppet', () => {
  it('calls them with defaults, return(), nested calls and captured rest, also from lambdas and call()', () => {
    expect(render('<%= demo::twice(4) %>|<%= demo::twice(4, 3) %>|<%= demo::twice(-1) %>', {})).toBe(
      '8|12|0',
    );
    expect(render("<%= demo::sub::greet('Ann') %>|<%= demo::sub::greet('Bob', 'Dr') %>", {})).toBe(
      'Hello Ann: 6|Hello Dr Bob: 6',
    );
    expect(render("<%= demo::untyped(1, 2, 3) %>|<%= demo::untyped('x') %>", {})).toBe('[1, [2, 3]]|[x, []]');
    const template = compileEpp("<%= [1, 2].map |$v| { demo::twice($v) } %>|<%= call('demo::twice', 5) %>");
    for (let i = 0; i < 4; i++) expect(template.render({}, { modulePath })).toBe('[2, 4]|10');
  });

  it('checks the arguments at the call and the declared return type, as Puppet words them', () => {
    const wrongType = failure(() => render("<%= demo::twice('x') %>", {}));
    expect(wrongType.message).toBe(
      "Error while evaluating a Function Call, 'demo::twice' parameter 'x' expects an Integer value, got String",
    );
    expect([wrongType.line, wrongType.column]).toEqual([1, 5]);
    expect(failure(() => render('<%= demo::twice() %>', {})).message).toBe(
      "Error while evaluating a Function Call, 'demo::twice' expects between 1 and 2 arguments, got none",
    );
    expect(failure(() => render('<%= demo::bad_return() %>', {})).message).toBe(
      "Error while evaluating a Function Call, value returned from function 'demo::bad_return' expects a String value, got Integer",
    );
  });

  it('reports a broken function in its file, and leaves unknown the ones no file defines', () => {
    const broken = failure(() => render('<%= demo::broken() %>', {}));
    expect(broken.location?.file).toBe(join(modules, 'demo/functions/broken.pp'));
    const misnamed = failure(() => render('<%= demo::misnamed() %>', {}));
    expect(misnamed.message).toContain('defines the function demo::other, not demo::misnamed');
    expect([misnamed.location?.file, misnamed.line, misnamed.column]).toEqual(['t.epp', 1, 5]);
    for (const source of ['<%= demo::nope() %>', '<%= demo::twice(1) %>']) {
      const unknown = failure(() =>
        renderEpp(
          source,
          {},
          { file: 't.epp', modulePath: source.includes('nope') ? modulePath : undefined },
        ),
      );
      expect(unknown.code).toBe('EPP_UNKNOWN_FUNCTION');
    }
  });

  it('says that a function a module writes in Ruby cannot be run, at the call', () => {
    const ruby = failure(() => render('\n  <%= demo::in_ruby(1) %>', {}));
    expect(ruby.code).toBe('EPP_UNKNOWN_FUNCTION');
    expect(ruby.message).toBe("Unknown function: 'demo::in_ruby'.");
    expect(ruby.hint).toContain(join('demo', 'lib', 'puppet', 'functions', 'demo', 'in_ruby.rb'));
    expect(ruby.hint).toContain('Ruby, which Pantograph does not run');
    expect([ruby.line, ruby.column]).toEqual([2, 7]);
  });
});

describe('module path: epp() of a module template', () => {
  it("renders `epp('<module>/<file>')` from the module's templates/, after baseDir", () => {
    expect(render("<%= epp('redis/part.epp', { level => 'debug' }) %>", {})).toBe('level=debug');
    const base = tree({ 'redis/part.epp': 'from baseDir' });
    expect(render("<%= epp('redis/part.epp') %>", {}, { baseDir: base })).toBe('from baseDir');
    expect(render("<%= epp('redis/part.epp', { level => 'notice' }) %>", {}, { baseDir: tree({}) })).toBe(
      'level=notice',
    );
  });

  it('refuses paths leading out of templates/', () => {
    for (const path of ['redis/../redis/types/loglevel.pp', 'redis/../../x.epp', '../redis/part.epp']) {
      expect(failure(() => render(`<%= epp('${path}') %>`, {})).code).toBe('EPP_TEMPLATE_NOT_FOUND');
    }
  });
});

describe('pantograph epp render --modulepath (built CLI)', () => {
  const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
  const dir = tree({
    't.epp': '<%- | Redis::LogLevel $l | -%><%= $l %> <%= epp("redis/part.epp", {level => $l}) %>',
  });

  it("reads the modules' aliases and templates, and says what to do without them", () => {
    const ok = spawnSync(
      process.execPath,
      [
        bin,
        'epp',
        'render',
        '--modulepath',
        `/nonexistent:${modules}`,
        '--values',
        "{l => 'debug'}",
        't.epp',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('debug level=debug\n');
    const without = spawnSync(
      process.execPath,
      [bin, 'epp', 'render', '--values', "{l => 'debug'}", 't.epp'],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(without.status).toBe(1);
    expect(without.stdout).toBe('');
    expect(without.stderr).toContain('t.epp:1:7: error: Resource type not found: Redis::LogLevel');
    expect(without.stderr).toContain("hint: a type of the module 'redis': give the directory holding it");
    expect(without.stderr).toContain('--modulepath');
  });

  it('renders a template of a module with its module without --modulepath, found by metadata.json', () => {
    const checkout = tree({
      'metadata.json': JSON.stringify({ name: 'acme-web', version: '1.0.0' }),
      'types/mode.pp': "type Web::Mode = Enum['on', 'off']\n",
      'templates/site.epp': '<%- | Web::Mode $m | -%><%= $m %> <%= epp("web/part.epp") %>',
      'templates/part.epp': 'part',
    });
    const run = (args: string[]) =>
      spawnSync(process.execPath, [bin, 'epp', 'render', ...args], {
        cwd: checkout,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
    const ok = run(['--values', "{m => 'on'}", 'templates/site.epp']);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('on part\n');
    // Puppet's own words for a value of the wrong kind, the alias with its definition.
    const bad = run(['--values', "{m => 'dim'}", 'templates/site.epp']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(
      "templates/site.epp:1:7: error: parameter 'm' expects a match for Web::Mode = Enum['off', 'on'], got 'dim'",
    );
    // An explicit --modulepath is used instead, as given.
    const given = run(['--modulepath', modules, '--values', "{m => 'on'}", 'templates/site.epp']);
    expect(given.stderr).toContain('Resource type not found: Web::Mode');
  });
});
