/**
 * The server driven as an editor drives it while a user types: a document opened, changed one key at a
 * time with incremental edits (a range and the character typed, as VS Code and Neovim send them), saved
 * and closed. A bare EPP file typed from nothing, a template's file with a typo made and fixed, a
 * project's `.sync.yml` with a wrong value and a key being typed: the diagnostics of the last version are
 * exact, go when the problem is fixed, and are cleared on close; completion, hover and go-to-definition
 * answer along the way.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
import { type Diagnostic, LspClient, uriOf } from './client.js';
import { TypedDocument } from './typed-document.js';

let root: string;
let client: LspClient;

beforeAll(async () => {
  root = tempTree({
    'tpl/ntp/template.json': JSON.stringify({
      name: 'NTP',
      description: 'Configures ntp.',
      version: '1.0.0',
      default_settings: { port: 123, servers: ['pool.ntp.org'] },
    }),
    'tpl/ntp/template_schema.json': JSON.stringify({
      type: 'object',
      additionalProperties: false,
      properties: {
        servers: { type: 'array', items: { type: 'string' }, description: 'NTP servers.' },
        port: { type: 'integer', description: 'The port.' },
      },
    }),
    'tpl/ntp/files/ntp.conf.epp': '<% $servers.each |$s| { -%>\nserver <%= $s %>\n<% } -%>\n',
    'bare/.keep': '',
  });
  client = new LspClient(root);
  await client.initialize(uriOf(root));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

/** A document typed into the server this file starts. */
class Buffer extends TypedDocument {
  constructor(uri: string, text: string, languageId: string) {
    super(client, uri, text, languageId);
  }
}

const codes = (ds: readonly Diagnostic[]) =>
  ds.map((d) => [
    d.code,
    `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
  ]);

type Items = { label: string; detail?: string; kind?: number }[] | { items: { label: string }[] };
const labels = (r: Items | undefined) => (Array.isArray(r) ? r : (r?.items ?? [])).map((i) => i.label);

describe('typing, as an editor sends it', () => {
  it('a bare EPP file typed from nothing: completion mid-word, exact diagnostics, hover and definition, cleared on close', async () => {
    const b = new Buffer(uriOf(join(root, 'bare/motd.epp')), '', 'epp');
    b.type("<%- | String $name = 'x' | -%>\nHello <%= $na");
    const completion = await client.request<Items>('textDocument/completion', b.position(b.text.length));
    expect(labels(completion.result)).toContain('name');
    expect(codes(await b.diagnostics())).toEqual([['EPP_UNCLOSED_TAG', '1:6-1:13']]);
    b.type('me %>\n');
    expect(await b.diagnostics()).toEqual([]);
    const at = b.text.indexOf('$name %>') + 2;
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', b.position(at));
    expect(hover.result?.contents.value).toContain("String $name = 'x'");
    const definition = await client.request<{ range: unknown }>('textDocument/definition', b.position(at));
    expect(definition.result?.range).toEqual({
      start: { line: 0, character: 13 },
      end: { line: 0, character: 18 },
    });
    // A typo made with backspaces: the unknown variable at its exact range, gone once fixed.
    const name = b.text.indexOf('$name %>') + 1;
    b.erase(name, 4);
    b.type('nmae', name);
    expect(codes(await b.diagnostics())).toEqual([['ANALYSIS_UNKNOWN_VARIABLE', '1:10-1:15']]);
    b.erase(name, 4);
    b.type('name', name);
    expect(await b.diagnostics()).toEqual([]);
    b.type('<%= $broken');
    expect(codes(await b.diagnostics())).toHaveLength(1);
    expect(await b.close()).toEqual([]);
  });

  it("a template's file: a setting misspelt and fixed, hover and completion with the schema's words", async () => {
    const file = join(root, 'tpl/ntp/files/ntp.conf.epp');
    const b = new Buffer(uriOf(file), '<% $servers.each |$s| { -%>\nserver <%= $s %>\n<% } -%>\n', 'epp');
    expect(await b.diagnostics()).toEqual([]);
    b.type('port <%= $prot %>\n');
    const [typo] = await b.diagnostics();
    expect(codes([typo!])).toEqual([['ANALYSIS_UNKNOWN_VARIABLE', '3:9-3:14']]);
    expect(typo!.message).toContain("'$prot' is neither a setting of template 'ntp'");
    const at = b.text.indexOf('$prot') + 2;
    b.erase(at, 2);
    b.type('or', at);
    expect(await b.diagnostics()).toEqual([]);
    const hover = await client.request<{ contents: { value: string } }>(
      'textDocument/hover',
      b.position(b.text.indexOf('$port') + 2),
    );
    expect(hover.result?.contents.value).toBe(
      "```puppet\n$port: integer\n```\nsetting of template 'ntp'\n\nThe port.\n\ndefault: `123`",
    );
    expect(await b.close()).toEqual([]);
  });

  it('.sync.yml: a wrong value and a key typed under a template, each problem where it is, then none', async () => {
    const text = `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${join(root, 'tpl')}\n  templates:\n    - ntp\nntp:\n  port: 124\n`;
    const b = new Buffer(uriOf(join(root, 'project/.sync.yml')), text, 'yaml');
    expect(await b.diagnostics()).toEqual([]);
    const value = b.text.indexOf('124');
    b.erase(value, 3);
    b.type('eighty', value);
    expect(codes(await b.diagnostics())).toEqual([['SETTINGS_INVALID', '8:8-8:14']]);
    b.erase(value, 6);
    b.type('80', value);
    expect(await b.diagnostics()).toEqual([]);
    // A key half typed: the YAML error says what is missing (a colon), and completion offers the settings.
    b.type('  se');
    const [partial] = await b.diagnostics();
    expect(codes([partial!])).toEqual([['SYNC_YAML', '9:2-9:4']]);
    expect(partial!.message).toContain('end the key with `:`');
    expect(partial!.message).not.toContain('quote');
    const completion = await client.request<Items>('textDocument/completion', b.position(b.text.length));
    expect(labels(completion.result)).toEqual(['servers', 'port']);
    b.type('rvers: [a.example]\n');
    expect(await b.diagnostics()).toEqual([]);
    const hover = await client.request<{ contents: { value: string } }>(
      'textDocument/hover',
      b.position(b.text.indexOf('servers') + 2),
    );
    expect(hover.result?.contents.value).toContain('value: `["pool.ntp.org","a.example"]`');
    expect(hover.result?.contents.value).toContain('from: project (.sync.yml:10:12)');
    expect(await b.close()).toEqual([]);
  });
});
