/**
 * The language server on EPP files, over stdio as an editor drives it: diagnostics on open and after
 * incremental changes, hover, completion, go-to-definition and document symbols.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
import { LspClient, uriOf } from './client.js';

let dir: string;
let client: LspClient;

const TEMPLATE = [
  '<%- | String $name,', // 0
  '      Integer $port = 8080,', // 1
  '      Array[String] $tags = [] | -%>', // 2
  '<% $greeting = "hello ${name}" -%>', // 3
  '<%= $greeting %> on <%= $port %>', // 4
  "<%= join($tags, ', ') %>", // 5
  "<%= epp('partials/footer.epp') %>", // 6
  '',
].join('\n');

beforeAll(async () => {
  dir = tempTree({ 'partials/footer.epp': 'bye\n', 'main.epp': TEMPLATE });
  client = new LspClient(dir);
  const init = await client.initialize(uriOf(dir));
  expect(init.result).toMatchObject({
    capabilities: { hoverProvider: true, definitionProvider: true, documentSymbolProvider: true },
    serverInfo: { name: 'pantograph' },
  });
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

describe('diagnostics', () => {
  it('a clean template has none', async () => {
    const uri = uriOf(join(dir, 'main.epp'));
    client.open(uri, TEMPLATE);
    expect(await client.diagnostics(uri, 1)).toEqual([]);
  });

  it('reports a syntax error, an unknown function, an unknown variable and a bad default, at their ranges', async () => {
    const uri = uriOf(join(dir, 'bad.epp'));
    const text = [
      '<%- | Integer $port = "eighty" | -%>', // 0: type mismatch
      '<%= lenght($port) %>', // 1: unknown function
      '<%= $prot %>', // 2: unknown variable
      '',
    ].join('\n');
    client.open(uri, text);
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.code, d.severity, d.range.start.line])).toEqual([
      ['EPP_TYPE_MISMATCH', 1, 0],
      ['EPP_UNKNOWN_FUNCTION', 1, 1],
      ['ANALYSIS_UNKNOWN_VARIABLE', 2, 2],
    ]);
    const [mismatch, fn, variable] = diagnostics;
    expect(mismatch!.message).toBe("parameter 'port' expects an Integer value, got String");
    expect(fn!.message).toMatch(/^Unknown function: 'lenght'\.\n.*did you mean 'length'/);
    expect(fn!.range).toEqual({ start: { line: 1, character: 4 }, end: { line: 1, character: 10 } });
    expect(variable!.message).toMatch(/^'\$prot' is neither a parameter of this file/);
    expect(variable!.range).toEqual({ start: { line: 2, character: 4 }, end: { line: 2, character: 9 } });

    const syntax = uriOf(join(dir, 'syntax.epp'));
    client.open(syntax, 'a\n<%= [1, %>\nb\n<% if { %>\n');
    const errors = await client.diagnostics(syntax, 1);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors[0]).toMatchObject({ code: 'EPP_SYNTAX', severity: 1, range: { start: { line: 1 } } });
  });

  it('sends positions in UTF-16 code units after an emoji, where messages count characters', async () => {
    // An emoji is two UTF-16 units: LSP positions count them so (the protocol's default encoding),
    // where the CLI's and Puppet's columns count it as one character.
    const uri = uriOf(join(dir, 'emoji.epp'));
    client.open(uri, '<%= "😀" %><%= lenght(1) %>\n<%= "😀" %><%= ) %>\n');
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.code, d.range])).toEqual([
      ['EPP_SYNTAX', { start: { line: 1, character: 15 }, end: { line: 1, character: 16 } }],
    ]);
    client.change(uri, 2, [
      { range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, text: '' },
    ]);
    const after = await client.diagnostics(uri, 2);
    expect(after.map((d) => [d.code, d.range])).toEqual([
      ['EPP_UNKNOWN_FUNCTION', { start: { line: 0, character: 15 }, end: { line: 0, character: 21 } }],
    ]);
    const variable = uriOf(join(dir, 'emoji-variable.epp'));
    client.open(variable, '<%- | $port | -%>\n<%= "😀😀" %><%= $prot %>\n');
    expect((await client.diagnostics(variable, 1)).map((d) => [d.code, d.range])).toEqual([
      ['ANALYSIS_UNKNOWN_VARIABLE', { start: { line: 1, character: 17 }, end: { line: 1, character: 22 } }],
    ]);
  });

  it("warns of an escape a double-quoted string does not know, at the escape, as Puppet's lexer does", async () => {
    const uri = uriOf(join(dir, 'escape.epp'));
    client.open(uri, '<%= "C:\\\\Users" %>\n<%= "C:\\Users" %>\n');
    expect(await client.diagnostics(uri, 1)).toMatchObject([
      {
        code: 'EPP_UNRECOGNIZED_ESCAPE',
        severity: 2,
        message: "Unrecognized escape sequence '\\U'",
        range: { start: { line: 1, character: 7 }, end: { line: 1, character: 9 } },
      },
    ]);
  });

  it('keeps diagnostics right through incremental changes', async () => {
    const uri = uriOf(join(dir, 'edit.epp'));
    client.open(uri, '<%- | $a | -%>\n<%= $a %>\n');
    expect(await client.diagnostics(uri, 1)).toEqual([]);
    // $a -> $b on line 1: unknown now.
    client.change(uri, 2, [
      { range: { start: { line: 1, character: 5 }, end: { line: 1, character: 6 } }, text: 'b' },
    ]);
    const after = await client.diagnostics(uri, 2);
    expect(after).toMatchObject([
      { code: 'ANALYSIS_UNKNOWN_VARIABLE', range: { start: { line: 1, character: 4 } } },
    ]);
    // Two lines inserted above: the problem moves down with its line.
    client.change(uri, 3, [
      { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: 'x\ny\n' },
    ]);
    expect(await client.diagnostics(uri, 3)).toMatchObject([
      { code: 'ANALYSIS_UNKNOWN_VARIABLE', range: { start: { line: 3, character: 4 } } },
    ]);
    // Declaring $b fixes it.
    client.change(uri, 4, [
      { range: { start: { line: 0, character: 8 }, end: { line: 0, character: 8 } }, text: ', $b' },
    ]);
    expect(await client.diagnostics(uri, 4)).toEqual([]);
  });
});

describe('navigation', () => {
  const uri = () => uriOf(join(dir, 'main.epp'));
  const at = (line: number, character: number) => ({
    textDocument: { uri: uri() },
    position: { line, character },
  });

  it('hovers a variable with its declared type and default, a function with its signature, a type', async () => {
    const port = await client.request<{ contents: { value: string } }>('textDocument/hover', at(4, 26));
    expect(port.result?.contents.value).toContain('Integer $port = 8080');
    const join_ = await client.request<{ contents: { value: string }; range: unknown }>(
      'textDocument/hover',
      at(5, 5),
    );
    expect(join_.result?.contents.value).toContain("join(Array $array, String $separator = '') -> String");
    expect(join_.result?.range).toEqual({ start: { line: 5, character: 4 }, end: { line: 5, character: 8 } });
    const type = await client.request<{ contents: { value: string } }>('textDocument/hover', at(1, 8));
    expect(type.result?.contents.value).toContain('type Integer');
    const local = await client.request<{ contents: { value: string } }>('textDocument/hover', at(4, 6));
    expect(local.result?.contents.value).toContain('$greeting = "hello ${name}"');
    const nothing = await client.request('textDocument/hover', at(4, 20));
    expect(nothing.result).toBeNull();
  });

  it('goes to a parameter, an assignment and an epp() file', async () => {
    const param = await client.request('textDocument/definition', at(4, 26));
    expect(param.result).toEqual({
      uri: uri(),
      range: { start: { line: 1, character: 14 }, end: { line: 1, character: 19 } },
    });
    const local = await client.request('textDocument/definition', at(4, 6));
    expect(local.result).toEqual({
      uri: uri(),
      range: { start: { line: 3, character: 3 }, end: { line: 3, character: 12 } },
    });
    const file = await client.request('textDocument/definition', at(6, 12));
    expect(file.result).toMatchObject({ uri: uriOf(join(dir, 'partials/footer.epp')) });
  });

  it('lists the parameters as symbols', async () => {
    const symbols = await client.request<{ name: string; detail: string }[]>('textDocument/documentSymbol', {
      textDocument: { uri: uri() },
    });
    expect(symbols.result?.map((s) => [s.name, s.detail])).toEqual([
      ['$name', 'String'],
      ['$port', 'Integer'],
      ['$tags', 'Array[String]'],
    ]);
  });

  it('completes variables in scope after $, and functions and types elsewhere in a tag', async () => {
    const c = uriOf(join(dir, 'complete.epp'));
    const text =
      '<%- | String $name | -%>\n<% $local = 1 -%>\n<% [1].each |$item| { %><%= $ %><% } %>\n<%= j %>\n';
    client.open(c, text);
    await client.diagnostics(c, 1);
    const inLambda = await client.request<{ label: string }[]>('textDocument/completion', {
      textDocument: { uri: c },
      position: { line: 2, character: 29 },
    });
    const labels = inLambda.result?.map((i) => i.label) ?? [];
    expect(labels).toEqual(expect.arrayContaining(['item', 'name', 'local', 'settings']));
    const outside = await client.request<{ label: string; kind: number }[]>('textDocument/completion', {
      textDocument: { uri: c },
      position: { line: 3, character: 5 },
    });
    const names = outside.result?.map((i) => i.label) ?? [];
    expect(names).toEqual(expect.arrayContaining(['join', 'each', 'to_json', 'String', 'Integer']));
    expect(names).not.toContain('item');
    const inText = await client.request<unknown[]>('textDocument/completion', {
      textDocument: { uri: c },
      position: { line: 4, character: 0 },
    });
    expect(inText.result).toEqual([]);
  });
});
