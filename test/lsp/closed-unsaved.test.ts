/**
 * A file closed without saving: what was read from its unsaved text goes with it. The open template files
 * whose settings came from an edited `template.json` are checked against the one on disk again.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
import { type Diagnostic, LspClient, type Message, uriOf } from './client.js';
import { TypedDocument } from './typed-document.js';

const MANIFEST = '{\n  "name": "greet",\n  "default_settings": { "greeting": "Hello" }\n}\n';
const FILE = "<%= $settings['colour'] %> <%= $greeting %>\n";

let dir: string;
let client: LspClient;

beforeAll(async () => {
  dir = tempTree({ 'greet/template.json': MANIFEST, 'greet/files/a.txt.epp': FILE });
  client = new LspClient(dir);
  await client.initialize(uriOf(dir));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

/** The next diagnostics of `uri` that pass `test`. */
async function next(uri: string, test: (d: readonly Diagnostic[]) => boolean): Promise<Diagnostic[]> {
  const m = await client.wait((x: Message) => {
    if (x.method !== 'textDocument/publishDiagnostics') return false;
    const p = x.params as { uri: string; diagnostics: Diagnostic[] };
    return p.uri === uri && test(p.diagnostics);
  }, 10_000);
  return (m.params as { diagnostics: Diagnostic[] }).diagnostics;
}

describe('template.json closed unsaved', () => {
  it("its template's open files are checked against the template.json on disk again", async () => {
    const file = new TypedDocument(client, uriOf(join(dir, 'greet/files/a.txt.epp')), FILE, 'epp');
    const unknown = await file.diagnostics();
    expect(unknown.map((d) => [d.code, d.range.start])).toEqual([
      ['ANALYSIS_UNKNOWN_SETTING', { line: 0, character: 14 }],
    ]);
    // The setting typed into template.json (not saved): it is one now.
    const manifest = new TypedDocument(client, uriOf(join(dir, 'greet/template.json')), MANIFEST, 'json');
    expect(await manifest.diagnostics()).toEqual([]);
    manifest.type(', "colour": 1', MANIFEST.indexOf(' }'));
    expect(await manifest.diagnostics()).toEqual([]);
    await next(file.uri, (d) => d.length === 0);
    // Those published while template.json was typed in are past.
    for (const m of client.received.filter((x) => (x.params as { uri?: string }).uri === file.uri))
      client.received.splice(client.received.indexOf(m), 1);
    // Closed without saving: on disk it has no `colour`, and the file says so again.
    client.notify('textDocument/didClose', { textDocument: { uri: manifest.uri } });
    expect(await next(file.uri, (d) => d.length > 0)).toEqual(unknown);
  });
});
