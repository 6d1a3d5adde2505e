/**
 * A trusted V1 `.sync.yml` typed at as an editor types (`pantograph lsp --trust`: the repository's Ruby runs
 * on each validation): a misspelt file key and a misspelt flag typed one character at a time, without
 * waiting, then fixed. Each validation renders the whole repository in Ruby (seconds), so a burst of
 * keys meets validations still running: the diagnostics of the last version must be exact, none of an
 * older text may come after a newer one's, and nothing may time out or crash the server.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { type Diagnostic, LspClient, uriOf } from './client.js';
import { TypedDocument } from './typed-document.js';

const PDK_TEMPLATES = resolve(import.meta.dirname, '../fixtures/pdk-templates-3.5.1');
/** A validation runs Ruby over ~40 templates: on a loaded machine a burst may take a while. */
const PATIENCE = 180_000;

let root: string;
let client: LspClient;

beforeAll(async () => {
  root = tempDir();
  writeFileSync(
    join(root, 'metadata.json'),
    JSON.stringify({ name: 'acme-demo', version: '0.1.0', 'template-url': PDK_TEMPLATES }),
  );
  writeFileSync(join(root, '.sync.yml'), '---\n');
  client = new LspClient(root, process.env, ['--trust']);
  await client.initialize(uriOf(root));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

const codes = (ds: readonly Diagnostic[]) =>
  ds.map((d) => [
    d.code,
    `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
  ]);

type Published = { uri: string; version?: number; diagnostics: Diagnostic[] };

describe('a trusted V1 .sync.yml, typed one character at a time', () => {
  it('keys misspelt and fixed: exact diagnostics for the last version, none stale, no time limit hit', async () => {
    const uri = uriOf(join(root, '.sync.yml'));
    const doc = new TypedDocument(client, uri, "---\nspec/spec_helper.rb:\n  mock_with: ':rspec'\n", 'yaml');
    expect(await doc.diagnostics(PATIENCE)).toEqual([]);

    // A file key without its dot: PDK ignores its settings (and the half-typed texts on the way are YAML
    // errors, keys of no file, a flag of no file...).
    doc.type('rubocop.yml:\n  include_todos: true\n');
    const [misspelt] = await doc.diagnostics(PATIENCE);
    expect(codes([misspelt!])).toEqual([['V1_SYNC_KEY', '3:0-3:11']]);
    expect(misspelt!.message).toContain("did you mean '.rubocop.yml'?");
    const hover = async () =>
      (
        await client.request<{ contents: { value: string } }>(
          'textDocument/hover',
          doc.position(doc.text.indexOf('include_todos') + 3),
        )
      ).result?.contents.value;
    expect(await hover()).toContain(
      'no template of `rubocop.yml` in `moduleroot/` or `moduleroot_init/` reads it.',
    );

    doc.type('.', doc.text.indexOf('rubocop.yml:\n  include'));
    expect(await doc.diagnostics(PATIENCE)).toEqual([]);
    expect(await hover()).toContain(
      "read as `@configs['include_todos']` by `moduleroot/.rubocop.yml.erb` (line 31).",
    );

    // A flag misspelt, then erased and typed again, key by key.
    doc.type('Gemfile:\n  unamanged: true\n');
    expect(codes(await doc.diagnostics(PATIENCE))).toEqual([['V1_SYNC_KEY', '6:2-6:11']]);
    const flag = doc.text.indexOf('unamanged');
    doc.erase(flag, 'unamanged'.length);
    doc.type('unmanaged', flag);
    expect(await doc.diagnostics(PATIENCE)).toEqual([]);
    // A request answered after the last publication: anything the server still had to say is said.
    await hover();

    const published = client.log
      .filter((m) => m.method === 'textDocument/publishDiagnostics')
      .map((m) => m.params as Published)
      .filter((p) => p.uri === uri);
    const versions = published.map((p) => p.version ?? 0);
    // Never an older text's diagnostics after a newer one's: the last published is the last version's.
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(versions.at(-1)).toBe(doc.version);
    expect(published.at(-1)!.diagnostics).toEqual([]);
    // Nothing stopped at the time limit, and the server is still there.
    expect(published.flatMap((p) => p.diagnostics.map((d) => d.code))).not.toContain('LSP_TIME_LIMIT');
    expect(client.child.exitCode).toBe(null);
    expect(await doc.close()).toEqual([]);
  }, 600_000);
});
