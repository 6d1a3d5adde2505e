/**
 * Hostile or merely huge content, as an editor opens and edits it over stdio: parsing an EPP file for a
 * hover or a completion happens in a worker, under the checks' limits, so another file is answered
 * meanwhile; `epp('...')` paths a render refuses (absolute, leading out of the template's directory, a
 * symlink pointing out) are neither followed nor said to render a file outside.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
import { LspClient, type Message, uriOf } from './client.js';

let outside: string;
let dir: string;
let client: LspClient;

beforeAll(async () => {
  outside = tempTree({ 'secret.epp': 'secret\n' });
  dir = tempTree({
    'repo/t/template.json': '{ "name": "T" }\n',
    'repo/t/partials/footer.epp': 'footer\n',
    'repo/t/partials/link.epp': { symlink: join(outside, 'secret.epp') },
    'bare/sub/a.epp': '',
    'bare/x.epp': 'beside the directory\n',
  });
  client = new LspClient(dir);
  await client.initialize(uriOf(dir));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

type HoverResult = { contents: { value: string } } | null;

async function hoverAt(uri: string, line: number, character: number): Promise<string | undefined> {
  const answer = await client.request<HoverResult>('textDocument/hover', {
    textDocument: { uri },
    position: { line, character },
  });
  return answer.result?.contents.value;
}

async function definitionAt(uri: string, line: number, character: number): Promise<unknown> {
  return (
    await client.request('textDocument/definition', { textDocument: { uri }, position: { line, character } })
  ).result;
}

describe('hostile content', () => {
  it("parses a huge template for completion in a worker: another file's hover is answered first", async () => {
    const other = uriOf(join(dir, 'other.epp'));
    client.open(other, '<%- | String $name | -%>\n<%= $name %>\n');
    expect(await client.diagnostics(other, 1)).toEqual([]);
    // Under the size limit (2 million characters): checked, and a parse takes the better part of a second.
    const line = "line <%= $a %> <% if $a == 'x' { %>yes<% } %>\n";
    const huge = `<%- | String $a | -%>\n${line.repeat(Math.floor(1_950_000 / line.length))}`;
    const uri = uriOf(join(dir, 'huge.epp'));
    client.open(uri, huge);
    expect(await client.diagnostics(uri, 1)).toEqual([]);
    // Typing `<%= $` at the top: the text no longer parses, each completion parses it with a name put in.
    client.change(uri, 2, [
      { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '<%= $' },
    ]);
    expect((await client.diagnostics(uri, 2)).length).toBeGreaterThan(0);
    const order: string[] = [];
    const completions = [1, 2].map(() =>
      client
        .request<{ label: string }[]>('textDocument/completion', {
          textDocument: { uri },
          position: { line: 1, character: 5 },
        })
        .then((answer) => {
          // One replaced while it waited is answered empty at once (when both requests reach the server
          // in one read): only an answer its parse made counts in the order.
          if (answer.result?.length) order.push('completion');
          return answer.result?.map((i) => i.label);
        }),
    );
    const hover = hoverAt(other, 1, 6).then((value) => {
      order.push('hover');
      return value;
    });
    expect(await hover).toContain('String $name');
    const labels = await Promise.all(completions);
    // Had the server's thread parsed them, the hover would have waited behind the parse.
    expect(order[0]).toBe('hover');
    expect(order).toContain('completion');
    // The last completion is answered in full (an earlier one it replaced while it waited may not be).
    expect(labels.at(-1)).toEqual(expect.arrayContaining(['a', 'settings']));
    client.notify('textDocument/didClose', { textDocument: { uri } });
  }, 60_000);

  it('does not parse a template_schema.json over the size limit on its thread while it is typed in', async () => {
    // 7 MB: every keystroke parsed it to make its template's files' context, ~0.6 s each.
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 60_000; i++)
      properties[`setting_${i}`] = { type: 'string', description: 'x'.repeat(40) };
    const schema = JSON.stringify({ type: 'object', properties }, null, 2);
    const repo = tempTree({
      'big/template.json': '{ "name": "Big" }\n',
      'big/template_schema.json': schema,
      'big/files/a.epp': '<%= $setting_1 %> <%= $other %>\n',
    });
    const file = uriOf(join(repo, 'big/files/a.epp'));
    const schemaUri = uriOf(join(repo, 'big/template_schema.json'));
    const other = uriOf(join(dir, 'beside.epp'));
    client.open(other, '<%- | String $name | -%>\n<%= $name %>\n');
    await client.diagnostics(other, 1);
    // Nothing known of its settings: none of its reads is flagged (rather than every one).
    client.open(file, '<%= $setting_1 %> <%= $other %>\n');
    expect(await client.diagnostics(file, 1)).toEqual([]);
    client.open(schemaUri, schema, 'json');
    expect(await client.diagnostics(schemaUri, 1)).toMatchObject([{ code: 'LSP_TOO_LARGE' }]);
    const waits: number[] = [];
    for (let v = 2; v <= 4; v++) {
      client.change(schemaUri, v, [
        { range: { start: { line: 3, character: 6 }, end: { line: 3, character: 6 } }, text: 'x' },
      ]);
      await new Promise((r) => setTimeout(r, 200));
      const start = performance.now();
      expect(await hoverAt(other, 1, 6)).toContain('String $name');
      waits.push(performance.now() - start);
    }
    // Parsed on the server's thread, a hover would wait for most of that parse (~0.6 s on an idle machine,
    // ten times this process's bare JSON.parse of the text): the bound grows with the machine's load as
    // that parse would, timed here beside it (a loaded machine once made a good hover take 593 ms).
    const bareParses = [0, 1, 2].map(() => {
      const start = performance.now();
      JSON.parse(schema);
      return performance.now() - start;
    });
    const bareParse = bareParses.sort((a, b) => a - b)[1]!;
    expect(Math.max(...waits)).toBeLessThan(Math.max(350, 4 * bareParse));
    expect(await client.diagnostics(file)).toEqual([]);
    client.notify('textDocument/didClose', { textDocument: { uri: schemaUri } });
    client.notify('textDocument/didClose', { textDocument: { uri: file } });
  }, 60_000);

  it("does not read a template's schema through a symlink out of its repository, as validate refuses it", async () => {
    const elsewhere = tempTree({
      'schema.json': JSON.stringify({
        type: 'object',
        properties: { secret_setting: { type: 'string', description: 'SECRET TEXT' } },
      }),
    });
    const shared = JSON.stringify({
      type: 'object',
      properties: { port: { type: 'integer', description: 'The port.' } },
    });
    const repo = tempTree({
      'out/template.json': '{ "name": "Out" }\n',
      'out/template_schema.json': { symlink: join(elsewhere, 'schema.json') },
      'out/files/a.epp': '<%= $secret_setting %>\n',
      // A symlink inside the repository is read, as the engine reads it.
      'shared/schema.json': shared,
      'in/template.json': '{ "name": "In" }\n',
      'in/template_schema.json': { symlink: '../shared/schema.json' },
      'in/files/a.epp': '<%= $port %>\n',
    });
    const out = uriOf(join(repo, 'out/files/a.epp'));
    client.open(out, '<%= $secret_setting %>\n');
    expect(await client.diagnostics(out, 1)).toMatchObject([
      {
        code: 'ANALYSIS_UNKNOWN_VARIABLE',
        range: { start: { line: 0, character: 4 }, end: { line: 0, character: 19 } },
      },
    ]);
    expect(await hoverAt(out, 0, 8)).toBeUndefined();
    const items = await client.request<{ label: string }[]>('textDocument/completion', {
      textDocument: { uri: out },
      position: { line: 0, character: 5 },
    });
    expect(items.result?.map((i) => i.label)).not.toContain('secret_setting');
    const inside = uriOf(join(repo, 'in/files/a.epp'));
    client.open(inside, '<%= $port %>\n');
    expect(await client.diagnostics(inside, 1)).toEqual([]);
    expect(await hoverAt(inside, 0, 6)).toContain('The port.');
  });

  it("hovers a module's function whose file is 64 KB of heads without a body, quickly", async () => {
    // Each `function` line was tried against the rest of the file (~0.2 s of the server's thread).
    const module = tempTree({
      'metadata.json': JSON.stringify({ name: 'acme-demo', version: '1.0.0' }),
      'functions/many.pp': `function demo::many(\n  Integer $x,\n) >> Integer {\n${'function x\n'.repeat(6000)}`,
      'functions/open.pp': 'function x\n'.repeat(6000),
      'templates/a.epp': '<%= demo::many(1) %> <%= demo::open(1) %>\n',
    });
    const uri = uriOf(join(module, 'templates/a.epp'));
    client.open(uri, '<%= demo::many(1) %> <%= demo::open(1) %>\n');
    await client.diagnostics(uri, 1);
    const start = performance.now();
    expect(await hoverAt(uri, 0, 8)).toContain('function demo::many(Integer $x) >> Integer');
    // No line opens a body: the name stands for the head, and where the file is.
    expect(await hoverAt(uri, 0, 30)).toMatch(/demo::open\(\)[\s\S]*defined in functions[/\\]open\.pp/);
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it("does not follow an epp() path a render refuses: absolute, out of the template's directory, a symlink out", async () => {
    const uri = uriOf(join(dir, 'repo/t/files/a.epp'));
    const secret = join(outside, 'secret.epp');
    const text = [
      `<%= epp('${secret}') %>`,
      "<%= epp('../../bare/x.epp') %>",
      "<%= epp('partials/link.epp') %>",
      "<%= epp('partials/footer.epp') %>",
      '',
    ].join('\n');
    client.open(uri, text);
    await client.diagnostics(uri, 1);
    const base = join(dir, 'repo/t');
    expect(await hoverAt(uri, 0, 12)).toBe(
      `\`\`\`puppet\nepp('${secret}')\n\`\`\`\nRenders nothing: absolute paths are not allowed (a path is relative to ${base})`,
    );
    expect(await hoverAt(uri, 1, 12)).toMatch(new RegExp(`Renders nothing: it is outside ${base}$`));
    expect(await hoverAt(uri, 2, 12)).toMatch(new RegExp(`Renders nothing: it is outside ${base}$`));
    for (const line of [0, 1, 2]) expect(await definitionAt(uri, line, 12)).toBeNull();
    // Inside it, followed as before.
    expect(await hoverAt(uri, 3, 12)).toMatch(/Renders .*\/repo\/t\/partials\/footer\.epp$/);
    expect(await definitionAt(uri, 3, 12)).toMatchObject({
      uri: uriOf(join(dir, 'repo/t/partials/footer.epp')),
    });
  });

  it("refuses a bare file's epp() path that leads out of its directory, as `epp render` does", async () => {
    const uri = uriOf(join(dir, 'bare/sub/a.epp'));
    client.open(uri, "<%= epp('../x.epp') %>\n");
    await client.diagnostics(uri, 1);
    expect(await hoverAt(uri, 0, 10)).toMatch(/Renders nothing: it is outside .*\/bare\/sub$/);
    // Missing as well as outside: it is refused for where it is.
    client.change(uri, 2, [{ text: "<%= epp('../nosuch.epp') %>\n" }]);
    await client.diagnostics(uri, 2);
    expect(await hoverAt(uri, 0, 10)).toMatch(/Renders nothing: it is outside .*\/bare\/sub$/);
    expect(await definitionAt(uri, 0, 10)).toBeNull();
    const messages = client.received.filter((m: Message) => m.method === 'window/logMessage');
    expect(messages.filter((m) => /Error|at /.test(JSON.stringify(m.params)))).toEqual([]);
  });
});
