/**
 * What one document may cost the language server, as the editor sees it over stdio: a check that would
 * never end (a parameter default matched against a backtracking regular expression) is stopped at the
 * time limit with a diagnostic saying so, while other files are checked and hovered meanwhile; a document
 * over the size limit gets one diagnostic instead of a check; diagnostics are capped per file with a
 * note of the rest; a burst of changes is checked once, at its last version. `.sync.yml` completion and
 * hover load the project (compiling its templates' schemas) in a worker too: a huge schema stops those
 * requests at the limit, with a message saying so, not the server.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
import { LspClient, type Message, uriOf } from './client.js';

let dir: string;
let client: LspClient;

/** `^(a+)+$` on 38 `a`s and a `!`: some 2^38 steps of backtracking, hours. */
const REDOS = "<%- | Pattern[/^(a+)+$/] $p = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' | -%>\n<%= $p %>\n";

beforeAll(async () => {
  dir = tempTree({ 'a.epp': '<%= 1 %>\n' });
  client = new LspClient(dir, { ...process.env, PANTOGRAPH_LSP_TIME_LIMIT: '3' });
  await client.initialize(uriOf(dir));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

describe('limits', () => {
  it('stops a check that would never end at the time limit, and serves other files meanwhile', async () => {
    const hostile = uriOf(join(dir, 'redos.epp'));
    const other = uriOf(join(dir, 'other.epp'));
    const start = performance.now();
    client.open(hostile, REDOS);
    const hostileDiagnostics = client.diagnostics(hostile, 1);
    client.open(other, '<%- | String $name | -%>\n<%= $nme %>\n');
    // The other file is checked and hovered long before the hostile one's limit (3 s).
    const otherDiagnostics = await client.diagnostics(other, 1);
    expect(otherDiagnostics).toMatchObject([{ code: 'ANALYSIS_UNKNOWN_VARIABLE' }]);
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: other },
      position: { line: 0, character: 15 },
    });
    expect(hover.result?.contents.value).toContain('String $name');
    expect(performance.now() - start).toBeLessThan(2900);
    const diagnostics = await hostileDiagnostics;
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'LSP_TIME_LIMIT',
        severity: 2,
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 77 } },
        message: expect.stringMatching(
          /^not checked: checking this file ran longer than 3 s, the language server's time limit/,
        ),
      }),
    ]);
    // The server goes on: the hostile file is hovered (from no tree), the other one still answers.
    const after = await client.request('textDocument/hover', {
      textDocument: { uri: hostile },
      position: { line: 1, character: 5 },
    });
    expect(after.error).toBeUndefined();
    // An edit is checked again, with the limit again (its new text may be harmless).
    client.change(hostile, 2, [{ text: "<%- | Pattern[/^(a+)+$/] $p = 'aaa' | -%>\n<%= $p %>\n" }]);
    expect(await client.diagnostics(hostile, 2)).toEqual([]);
  }, 20_000);

  it('gives a document over the size limit one diagnostic instead of a check', async () => {
    const uri = uriOf(join(dir, 'huge.epp'));
    const line = "line <%= $a %> <% if $a == 'x' { %>yes<% } %>\n";
    const text = `<%- | String $a | -%>\n${line.repeat(Math.ceil(2_100_000 / line.length))}`;
    client.open(uri, text);
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'LSP_TOO_LARGE',
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 21 } },
        message: expect.stringMatching(
          /^not checked: the file has 2\.1 million characters, over the language server's limit of 2\.0 million/,
        ),
      }),
    ]);
    const hover = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 10 },
    });
    expect(hover.result).toBeNull();
    client.notify('textDocument/didClose', { textDocument: { uri } });
  });

  it('shows at most 1000 diagnostics of a file, then how many more there are', async () => {
    const uri = uriOf(join(dir, 'many.epp'));
    const text = `<%- | String $a | -%>\n${'<%= $nosuch %>\n'.repeat(1500)}`;
    client.open(uri, text);
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics).toHaveLength(1001);
    expect(diagnostics.slice(0, 1000).every((d) => d.code === 'ANALYSIS_UNKNOWN_VARIABLE')).toBe(true);
    expect(diagnostics[1000]).toMatchObject({
      code: 'LSP_MORE',
      severity: 3,
      message: expect.stringMatching(/^\.\.\. and 500 more problems not shown/),
    });
    client.notify('textDocument/didClose', { textDocument: { uri } });
  });

  it('checks a burst of changes once, at its last version', async () => {
    const uri = uriOf(join(dir, 'burst.epp'));
    const text = '<%- | String $a | -%>\n<%= $a %>\n';
    client.open(uri, text);
    expect(await client.diagnostics(uri, 1)).toEqual([]);
    // Twenty keystrokes sent together (as a queue builds up while the server is busy), the last an error.
    let body = '';
    client.together(() => {
      for (let v = 2; v <= 21; v++) {
        const typed = v === 21 ? '$' : 'x';
        client.change(uri, v, [
          {
            range: { start: { line: 2, character: body.length }, end: { line: 2, character: body.length } },
            text: typed,
          },
        ]);
        body += typed;
      }
    });
    const last = await client.diagnostics(uri, 21);
    expect(last).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    const published = client.received.filter(
      (m) => m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri,
    );
    expect(published).toEqual([]);
  });

  it('.sync.yml completion and hover stop at the time limit on a template too costly to load, other files answered meanwhile', async () => {
    // 40,000 settings, each with a pattern: compiling this schema takes ajv tens of seconds (a salt keeps
    // the validator cache from answering).
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 40_000; i++) properties[`setting_${i}`] = { type: 'string', pattern: '^[a-z]+$' };
    const schema = { description: `salt ${Math.random()}`, type: 'object', properties };
    const repo = tempTree({
      'huge/template.json': JSON.stringify({ name: 'Huge', description: 'too many settings' }),
      'huge/template_schema.json': JSON.stringify(schema),
      'huge/files/x.txt': 'x\n',
    });
    const syncText = `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates:\n    - huge\nhuge:\n  \n`;
    const project = tempTree({ '.sync.yml': syncText });
    const sync = uriOf(join(project, '.sync.yml'));
    const other = uriOf(join(dir, 'beside.epp'));
    client.open(other, '<%- | String $name | -%>\n<%= $name %>\n');
    await client.diagnostics(other, 1);
    const start = performance.now();
    client.open(sync, syncText, 'yaml');
    const completion = client.request<unknown[]>('textDocument/completion', {
      textDocument: { uri: sync },
      position: { line: 8, character: 2 },
    });
    await new Promise((r) => setTimeout(r, 300));
    // Another file is answered at once, while the project loads.
    const hoverStart = performance.now();
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: other },
      position: { line: 1, character: 6 },
    });
    expect(hover.result?.contents.value).toContain('String $name');
    expect(performance.now() - hoverStart).toBeLessThan(1500);
    // The completion is stopped at the limit (3 s): empty, and the editor is told why, once.
    const answer = await completion;
    expect(answer.error).toBeUndefined();
    expect(answer.result).toEqual([]);
    expect(performance.now() - start).toBeLessThan(15_000);
    const shown = await client.wait((m: Message) => m.method === 'window/showMessage');
    expect(shown.params).toMatchObject({
      type: 2,
      message: expect.stringMatching(
        /^pantograph: no completion or hover: loading the project (ran longer than 3 s, the language server's time limit|used more than)/,
      ),
    });
    // A hover in .sync.yml says the same instead of staying empty.
    const syncHover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: sync },
      position: { line: 7, character: 1 },
    });
    expect(syncHover.result?.contents.value).toMatch(
      /^no completion or hover: loading the project .*\n\n`pantograph show` and `pantograph validate` run without this limit\.$/s,
    );
    // The server goes on.
    const again = await client.request('textDocument/hover', {
      textDocument: { uri: other },
      position: { line: 1, character: 6 },
    });
    expect(again.error).toBeUndefined();
    client.notify('textDocument/didClose', { textDocument: { uri: sync } });
  }, 60_000);
});
