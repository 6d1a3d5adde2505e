/**
 * The language server while a file is being typed, over stdio as an editor drives it: navigation goes on
 * from the last text that parsed (positions moved by the edits since), completion opens only where a name
 * can start, a hover names the file `epp()` renders wherever the server was started, an unknown type has
 * no hover, an untitled EPP buffer is checked, and the protocol's lifecycle (`shutdown`) is kept.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, tempTree } from '../helpers/fs.js';
import { LspClient, uriOf } from './client.js';

let dir: string;
let client: LspClient;

const TEMPLATE = [
  '<%- | String $name,', // 0
  '      Integer $port = 8080 | -%>', // 1
  '<% $greeting = "hello ${name}" -%>', // 2
  '<%= $greeting %> on <%= $port %>', // 3
  '',
].join('\n');

beforeAll(async () => {
  dir = tempTree({ 'site/partials/footer.epp': 'bye\n', 'partials/other.epp': 'not this one\n' });
  // Started elsewhere than the files, as an editor may start it.
  client = new LspClient(tempDir('pantograph-lsp-cwd-'));
  await client.initialize(uriOf(dir));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

type Hover = { contents: { value: string }; range: unknown };

describe('mid-typing', () => {
  it('hovers, goes to definitions and lists symbols from the last text that parsed', async () => {
    const uri = uriOf(join(dir, 'nav.epp'));
    client.open(uri, TEMPLATE);
    expect(await client.diagnostics(uri, 1)).toEqual([]);
    // An unfinished tag typed on a new first body line: the text does not parse, and what follows moved.
    client.change(uri, 2, [
      { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: '<%= $na\n' },
    ]);
    const broken = await client.diagnostics(uri, 2);
    expect(broken.length).toBeGreaterThan(0);
    expect(broken.every((d) => d.code === 'EPP_SYNTAX')).toBe(true);
    const at = (line: number, character: number) => ({
      textDocument: { uri },
      position: { line, character },
    });
    const hover = await client.request<Hover>('textDocument/hover', at(4, 26));
    expect(hover.result?.contents.value).toContain('Integer $port = 8080');
    expect(hover.result?.range).toEqual({
      start: { line: 4, character: 24 },
      end: { line: 4, character: 29 },
    });
    const definition = await client.request('textDocument/definition', at(4, 6));
    expect(definition.result).toEqual({
      uri,
      range: { start: { line: 3, character: 3 }, end: { line: 3, character: 12 } },
    });
    const symbols = await client.request<{ name: string }[]>('textDocument/documentSymbol', {
      textDocument: { uri },
    });
    expect(symbols.result?.map((s) => s.name)).toEqual(['$name', '$port']);
    // Inside the text being typed there is nothing to say.
    const typed = await client.request('textDocument/hover', at(2, 5));
    expect(typed.result).toBeNull();
  });
});

describe('completion', () => {
  /** The labels offered at `^` (else at the end). */
  const complete = async (marked: string, triggerCharacter?: string) => {
    const uri = uriOf(join(dir, 'complete.epp'));
    const at = marked.includes('^') ? marked.indexOf('^') : marked.length;
    const text = marked.replace('^', '');
    client.open(uri, text);
    await client.diagnostics(uri, 1);
    const lines = text.slice(0, at).split('\n');
    const answer = await client.request<{ label: string }[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: lines.length - 1, character: lines.at(-1)!.length },
      context: triggerCharacter ? { triggerKind: 2, triggerCharacter } : { triggerKind: 1 },
    });
    client.notify('textDocument/didClose', { textDocument: { uri } });
    await client.diagnostics(uri);
    return answer.result?.map((i) => i.label) ?? [];
  };

  it('is triggered by $ only', async () => {
    const fresh = new LspClient(dir);
    const init = await fresh.initialize(uriOf(dir));
    expect(init.result).toMatchObject({ capabilities: { completionProvider: { triggerCharacters: ['$'] } } });
    expect(await fresh.close()).toBe(0);
  });

  it('offers nothing in a comment or a single-quoted string, only variables in a double-quoted one', async () => {
    expect(await complete("<%- | String $a | -%>\n<%= 'hello ")).toEqual([]);
    expect(await complete('<%- | String $a | -%>\n<%# note ')).toEqual([]);
    expect(await complete('<%- | String $a | -%>\n<% # note ')).toEqual([]);
    expect(await complete('<%- | String $a | -%>\n<%= "hello ')).toEqual([]);
    expect(await complete('<%- | String $a | -%>\n<%= "hello $^a" %>', '$')).toContain('a');
    expect(await complete('<%- | String $a | -%>\ntext outside ')).toEqual([]);
    // A space or '-' sent as a trigger all the same (they are not the server's) opens nothing.
    expect(await complete('<%- | String $a | -%>\n<%= $a ', ' ')).toEqual([]);
    expect(await complete('<%- | String $a | -%>\n<% $b = 1 -', '-')).toEqual([]);
    // In code, names are offered as before.
    const names = await complete('<%- | String $a | -%>\n<%= ');
    expect(names).toEqual(expect.arrayContaining(['join', 'String']));
  });
});

describe('hover', () => {
  it('names the file epp() renders, beside the template, wherever the server runs', async () => {
    const uri = uriOf(join(dir, 'site/page.epp'));
    const text = "<%= epp('partials/footer.epp') %>\n<%= epp('partials/none.epp') %>\n";
    client.open(uri, text);
    await client.diagnostics(uri, 1);
    const hover = await client.request<Hover>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 12 },
    });
    expect(hover.result?.contents.value).toContain(`Renders ${join(dir, 'site/partials/footer.epp')}`);
    const missing = await client.request<Hover>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 12 },
    });
    expect(missing.result?.contents.value).toContain(
      `Renders ${join(dir, 'site/partials/none.epp')} (no such file)`,
    );
  });

  it('says nothing of a type it does not know', async () => {
    const uri = uriOf(join(dir, 'types.epp'));
    client.open(uri, '<%- | Stringg $a, Redis::Nope $b, String $c | -%>\n');
    await client.diagnostics(uri, 1);
    const at = (character: number) =>
      client.request<Hover>('textDocument/hover', {
        textDocument: { uri },
        position: { line: 0, character },
      });
    expect((await at(8)).result).toBeNull();
    expect((await at(21)).result).toBeNull();
    expect((await at(37)).result?.contents.value).toContain('type String');
  });
});

describe('other documents', () => {
  it('checks an untitled buffer the editor says is EPP', async () => {
    const uri = 'untitled:Untitled-1';
    client.open(uri, '<%= [1, %>\n', 'epp');
    expect(await client.diagnostics(uri, 1)).toMatchObject([{ code: 'EPP_SYNTAX' }]);
  });
});

describe('messages', () => {
  it("shows a line break in a syntax error as an escape, on the message's one line", async () => {
    const uri = uriOf(join(dir, 'nl.epp'));
    // The text after `%>` is an operand (Puppet's grammar): after `if true` it stands where the `{` must.
    client.open(uri, '<% if true %>\n<% { } %>\n');
    const [diagnostic] = await client.diagnostics(uri, 1);
    expect(diagnostic).toMatchObject({ code: 'EPP_SYNTAX', message: "Syntax error at '\\n'" });
  });
});

describe('lifecycle', () => {
  it('refuses shutdown before initialize, and requests after shutdown; exits 0 after it', async () => {
    const fresh = new LspClient(dir);
    const early = await fresh.request('shutdown', null);
    expect(early.error?.code).toBe(-32002);
    await fresh.initialize(uriOf(dir));
    expect((await fresh.request('shutdown', null)).error).toBeUndefined();
    const hover = await fresh.request('textDocument/hover', {
      textDocument: { uri: uriOf(join(dir, 'x.epp')) },
      position: { line: 0, character: 0 },
    });
    expect(hover.error?.code).toBe(-32600);
    const uri = uriOf(join(dir, 'late.epp'));
    fresh.open(uri, '<%= [1, %>\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(fresh.received.filter((m) => m.method === 'textDocument/publishDiagnostics')).toEqual([]);
    const exited = new Promise<number | null>((r) => fresh.child.on('exit', (code) => r(code)));
    fresh.notify('exit', null);
    expect(await exited).toBe(0);
  });
});
