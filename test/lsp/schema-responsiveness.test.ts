/**
 * A template repository's large `template_schema.json` being edited, as the editor sees it over stdio:
 * the schema is parsed for its template's EPP files in the check worker, never on the server's thread, so
 * while the schema itself is checked (ajv compiling 20,000 patterns runs into the time limit) the
 * template's open EPP file is checked again with the edited settings and another file is hovered. And
 * the server's thread parses no schema to make a check's job (the worker makes the template's context
 * from the texts it is sent, once per texts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { removeTempDirs, tempDir, tempTree } from '../helpers/fs.js';
import { LspClient, type Message, uriOf } from './client.js';

const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/engine/json-data.js', async (original) => {
  const actual = await original<typeof import('../../src/engine/json-data.js')>();
  return {
    ...actual,
    parseJsonData: (...args: Parameters<typeof actual.parseJsonData>) => {
      parses.count++;
      return actual.parseJsonData(...args);
    },
  };
});

const { EppDocuments } = await import('../../src/lsp/epp.js');
const { contextFromTexts } = await import('../../src/lsp/template-summary.js');

/** 20,000 settings, each with a pattern (~1.1 MB): ajv takes many seconds to compile it. */
function largeSchema(): string {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 20_000; i++) properties[`setting_${i}`] = { type: 'string', pattern: '^[a-z]+$' };
  return JSON.stringify({ description: `salt ${Math.random()}`, type: 'object', properties }, null, 1);
}

let repo: string;
let schemaText: string;
let client: LspClient;

beforeAll(async () => {
  schemaText = largeSchema();
  repo = tempTree({
    'big/template.json': JSON.stringify({ name: 'Big', description: 'many settings' }),
    'big/template_schema.json': schemaText,
    'big/files/a.txt.epp': '<%= $setting_1 %> <%= $added %>\n',
    'other/b.epp': '<%- | String $name | -%>\n<%= $name %>\n',
  });
  client = new LspClient(repo, {
    ...process.env,
    PANTOGRAPH_LSP_TIME_LIMIT: '3',
    PANTOGRAPH_CACHE_DIR: tempDir(),
  });
  await client.initialize(uriOf(repo));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

const published = (uri: string, version: number) => (m: Message) =>
  m.method === 'textDocument/publishDiagnostics' &&
  (m.params as { uri: string; version?: number }).uri === uri &&
  (m.params as { version?: number }).version === version;

describe('a large template_schema.json being edited', () => {
  it("rechecks the template's EPP file with the edited settings and hovers another file while the schema is checked", async () => {
    const schema = uriOf(join(repo, 'big/template_schema.json'));
    const epp = uriOf(join(repo, 'big/files/a.txt.epp'));
    const other = uriOf(join(repo, 'other/b.epp'));
    client.open(epp, '<%= $setting_1 %> <%= $added %>\n');
    client.open(other, '<%- | String $name | -%>\n<%= $name %>\n');
    const before = await client.diagnostics(epp, 1);
    expect(before).toMatchObject([
      {
        code: 'ANALYSIS_UNKNOWN_VARIABLE',
        range: { start: { line: 0, character: 22 }, end: { line: 0, character: 28 } },
      },
    ]);
    await client.diagnostics(other, 1);

    client.open(schema, schemaText, 'json');
    // The user adds the setting the file reads, while the schema's first check still compiles.
    const at = schemaText.indexOf('"properties": {') + '"properties": {'.length;
    const position = TextDocument.create(schema, 'json', 1, schemaText).positionAt(at);
    client.change(schema, 2, [
      {
        range: { start: position, end: position },
        text: '\n  "added": {"type": "string", "description": "Added just now."},',
      },
    ]);
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: other },
      position: { line: 1, character: 6 },
    });
    expect(hover.result?.contents.value).toContain('String $name');
    // The EPP file is checked again with the new setting, its warning cleared ...
    expect(await client.diagnostics(epp, 1)).toEqual([]);
    const addedHover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: epp },
      position: { line: 0, character: 24 },
    });
    expect(addedHover.result?.contents.value).toContain('$added: string');
    expect(addedHover.result?.contents.value).toContain('Added just now.');
    // ... all of it before the schema's own check of that text ends (stopped at the 3 s limit).
    expect(client.received.some(published(schema, 2))).toBe(false);
    const schemaDiagnostics = (await client.wait(published(schema, 2))).params as {
      diagnostics: { code: string }[];
    };
    expect(schemaDiagnostics.diagnostics).toMatchObject([{ code: 'LSP_TIME_LIMIT' }]);
  });
});

describe("the server's thread", () => {
  it('parses no template.json or template_schema.json to make an EPP check (the worker does, once per texts)', async () => {
    const dir = tempTree({
      't/template.json': JSON.stringify({ name: 'T', description: 'd', default_settings: { port: 80 } }),
      't/template_schema.json': schemaText,
    });
    const file = join(dir, 't/files/x.epp');
    const documents = new EppDocuments(readOrUndefined, async () => undefined, 2_000_000);
    const document = TextDocument.create(uriOf(file), 'epp', 1, '<%= $port %>\n');
    const before = parses.count;
    const job = documents.job(document);
    expect(parses.count).toBe(before);
    expect(job.job.template?.texts.schema).toBe(schemaText);
    expect(job.job.template?.wantSummary).toBe(true);
    // In the worker: made once for these texts, however many files of the template are checked.
    const made = contextFromTexts(job.job.template!.texts);
    expect(made.broken).toBe(false);
    expect(made.context?.settings.get('port')?.default).toBe(80n);
    const counted = parses.count;
    // An equal text, not the same string (each job's texts are copies).
    contextFromTexts({ ...job.job.template!.texts, schema: schemaText.slice(0, -1) + schemaText.slice(-1) });
    expect(parses.count).toBe(counted);
  });
});

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
