/**
 * The language server on a Puppet module's templates: they are checked with the module's own type aliases
 * and functions written in Puppet (and those of its spec fixtures), found by the module's name in its
 * metadata.json, not by its checkout's directory name; go-to-definition and hover lead to their files.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
import { LspClient, uriOf } from './client.js';

let dir: string;
let client: LspClient;

const MAIN = [
  '<%- | Demo::Port $port = 8080,', // 0
  '      Dep::Name $owner = "ops",', // 1
  '      Stdlib::Absolutepath $root = "/srv" | -%>', // 2
  "<%= demo::twice($port) %> <%= epp('demo/part.epp') %>", // 3
  '',
].join('\n');

const module = 'puppet-demo';

beforeAll(async () => {
  dir = tempTree({
    [`${module}/metadata.json`]: JSON.stringify({ name: 'acme-demo', version: '1.0.0' }),
    [`${module}/types/port.pp`]: '# A TCP port.\ntype Demo::Port = Integer[1, 65535]\n',
    [`${module}/types/loglevel.pp`]: "type Demo::LogLevel = Enum['debug', 'info']\n",
    [`${module}/types/log/facility.pp`]: "type Demo::Log::Facility = Enum['local0']\n",
    [`${module}/types/broken.pp`]: 'type Demo::Broken = Integer[\n',
    [`${module}/functions/twice.pp`]:
      '# @summary Doubles a number.\nfunction demo::twice(\n  Integer $x,\n) >> Integer {\n  $x * 2\n}\n',
    [`${module}/lib/puppet/functions/demo/in_ruby.rb`]:
      'Puppet::Functions.create_function(:"demo::in_ruby") do\nend\n',
    [`${module}/functions/misnamed.pp`]: 'function demo::other() {\n  1\n}\n',
    [`${module}/templates/part.epp`]: 'part\n',
    [`${module}/templates/main.epp`]: MAIN,
    [`${module}/spec/fixtures/modules/dep/types/name.pp`]: 'type Dep::Name = String[1]\n',
    'loose/main.epp': MAIN,
    'outside/secret.pp': 'type Secret::Thing = String\n',
  });
  // A type file that is a symlink out of the module: neither read nor offered.
  symlinkSync(join(dir, 'outside', 'secret.pp'), join(dir, module, 'types', 'leak.pp'));
  client = new LspClient(dir);
  await client.initialize(uriOf(dir));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

const templateUri = () => uriOf(join(dir, module, 'templates', 'main.epp'));

describe("a module's template", () => {
  it("knows the module's types and functions, and those of its fixtures", async () => {
    client.open(templateUri(), MAIN);
    expect(await client.diagnostics(templateUri(), 1)).toEqual([]);
  });

  it('reports what the module does not have, and a default its alias refuses', async () => {
    const uri = uriOf(join(dir, module, 'templates', 'bad.epp'));
    const text = [
      '<%- | Demo::Port $port = 0,', // 0: 0 is no Demo::Port
      '      Demo::Nope $x | -%>', // 1: no such alias
      '<%= demo::thrice(1) %>', // 2: no such function
      '',
    ].join('\n');
    client.open(uri, text);
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([
      ['EPP_TYPE_MISMATCH', 0],
      ['EPP_UNKNOWN_TYPE', 1],
      ['EPP_UNKNOWN_FUNCTION', 2],
    ]);
    // Puppet's words: an alias is printed with its definition.
    expect(diagnostics[0]!.message).toBe(
      "parameter 'port' expects a Demo::Port = Integer[1, 65535] value, got Integer[0, 0]",
    );
    expect(diagnostics[2]!.message).toMatch(/^Unknown function: 'demo::thrice'/);
  });

  it("points into the module's file when one of its aliases or functions is broken", async () => {
    const uri = uriOf(join(dir, module, 'templates', 'broken.epp'));
    client.open(uri, '<%- | Demo::Broken $x | -%>\n<%= demo::other() %>\n<%= demo::misnamed() %>\n');
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([
      ['EPP_SYNTAX', 0],
      ['EPP_UNKNOWN_FUNCTION', 1],
      ['EPP_UNKNOWN_FUNCTION', 2],
    ]);
    // The alias's error is shown on the type in the template, with where in the alias's file it is.
    expect(diagnostics[0]!.range).toEqual({
      start: { line: 0, character: 6 },
      end: { line: 0, character: 18 },
    });
    // Its hint names the bracket the alias's file leaves open (at its line and column there).
    expect(diagnostics[0]!.message).toMatch(
      /^Syntax error at end of input \(.*types[/\\]broken\.pp:2:1\)\nthe '\[' at 1:28 is never closed: add its '\]'$/,
    );
    expect(diagnostics[2]!.message).toMatch(
      /misnamed\.pp defines the function demo::other, not demo::misnamed/,
    );
  });

  it("reads variables in Puppet's scopes, and says a Ruby function cannot be run", async () => {
    const uri = uriOf(join(dir, module, 'templates', 'scopes.epp'));
    const text = [
      '<%- | String $name | -%>',
      "<%= $facts['os']['family'] %> <%= $::osfamily %> <%= $demo::params::port %> <%= $trusted %>", // 1
      '<%= $nmae %> <%= $settings %>', // 2: a typo, and Pantograph's name, which no module template has
      '<%= demo::in_ruby() %>', // 3
      '',
    ].join('\n');
    client.open(uri, text);
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character])).toEqual([
      ['EPP_UNKNOWN_FUNCTION', 3, 4],
      ['ANALYSIS_UNKNOWN_VARIABLE', 2, 4],
      ['ANALYSIS_UNKNOWN_VARIABLE', 2, 17],
    ]);
    const [ruby, typo] = diagnostics;
    expect(ruby!.message).toMatch(/^Unknown function: 'demo::in_ruby'\.\n.*in_ruby\.rb writes it in Ruby/);
    expect(typo!.message).toMatch(
      /^'\$nmae' is neither a parameter of this file nor a top-scope name \(\$facts, \$trusted, \$server_facts\)\n.*did you mean 'name'/,
    );
  });

  it('the same template outside any module does not know them', async () => {
    const uri = uriOf(join(dir, 'loose', 'main.epp'));
    client.open(uri, MAIN);
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([
      ['EPP_UNKNOWN_TYPE', 0],
      ['EPP_UNKNOWN_TYPE', 1],
      ['EPP_UNKNOWN_FUNCTION', 3],
    ]);
  });

  const at = (line: number, character: number) => ({
    textDocument: { uri: templateUri() },
    position: { line, character },
  });

  it("goes to the alias's, the function's and the epp() template's files", async () => {
    const moduleUri = (path: string) => uriOf(join(dir, module, path));
    const type = await client.request('textDocument/definition', at(0, 10));
    expect(type.result).toMatchObject({ uri: moduleUri('types/port.pp') });
    const fixture = await client.request('textDocument/definition', at(1, 9));
    expect(fixture.result).toMatchObject({ uri: moduleUri('spec/fixtures/modules/dep/types/name.pp') });
    const fn = await client.request('textDocument/definition', at(3, 8));
    expect(fn.result).toMatchObject({ uri: moduleUri('functions/twice.pp') });
    const template = await client.request('textDocument/definition', at(3, 40));
    expect(template.result).toMatchObject({ uri: moduleUri('templates/part.epp') });
  });

  it('hovers an alias with its definition and where it is', async () => {
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', at(0, 10));
    expect(hover.result?.contents.value).toContain('type Demo::Port = Integer[1, 65535]');
    expect(hover.result?.contents.value).toMatch(/defined in types[/\\]port\.pp/);
    const fn = await client.request<{ contents: { value: string } }>('textDocument/hover', at(3, 8));
    expect(fn.result?.contents.value).toContain('function demo::twice(Integer $x) >> Integer');
    expect(fn.result?.contents.value).toContain('Doubles a number.');
    expect(fn.result?.contents.value).toMatch(/defined in functions[/\\]twice\.pp/);
  });

  it("completes the module's own aliases, as their files spell them, and its functions", async () => {
    const uri = uriOf(join(dir, module, 'templates', 'complete.epp'));
    client.open(uri, '<%= d %>\n<%= Demo:: %>\n');
    await client.diagnostics(uri, 1);
    const labelsAt = async (line: number, character: number) => {
      const answer = await client.request<{ label: string }[]>('textDocument/completion', {
        textDocument: { uri },
        position: { line, character },
      });
      return answer.result?.map((i) => i.label) ?? [];
    };
    const anywhere = await labelsAt(0, 5);
    expect(anywhere).toEqual(
      expect.arrayContaining([
        'demo::twice',
        'demo::misnamed',
        'Demo::Port',
        'Demo::LogLevel',
        'Demo::Log::Facility',
        'join',
      ]),
    );
    expect(anywhere.filter((label) => /leak|secret/i.test(label))).toEqual([]);
    // After a capital, only types.
    const types = await labelsAt(1, 10);
    expect(types).toEqual(expect.arrayContaining(['Demo::Port', 'Demo::Broken', 'String']));
    expect(types).not.toContain('demo::twice');
  });

  it("offers and explains Puppet's top-scope names, not Pantograph's", async () => {
    const uri = uriOf(join(dir, module, 'templates', 'top.epp'));
    client.open(uri, '<%- | String $name | -%>\n<%= $ %>\n');
    await client.diagnostics(uri, 1);
    const answer = await client.request<{ label: string }[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 1, character: 5 },
    });
    const labels = answer.result?.map((i) => i.label) ?? [];
    expect(labels).toEqual(expect.arrayContaining(['name', 'facts', 'trusted', 'server_facts']));
    expect(labels).not.toContain('settings');
    // Hover needs a text that parses.
    const valid = uriOf(join(dir, module, 'templates', 'facts.epp'));
    client.open(valid, "<%= $facts['os'] %>\n");
    await client.diagnostics(valid, 1);
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: valid },
      position: { line: 0, character: 6 },
    });
    expect(hover.result?.contents.value).toContain("the node's facts");
  });
});
