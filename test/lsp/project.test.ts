/**
 * The language server in a template repository (template.json, template_schema.json, files reading
 * settings) and on a project's `.sync.yml` (validate's problems at their line, completion of template
 * names and setting keys, hover with what `show` says), over stdio.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
import { type Diagnostic, LspClient, uriOf } from './client.js';

const MANIFEST = JSON.stringify(
  { name: 'NTP', description: 'Keeps ntp.conf.', default_settings: { servers: ['pool.ntp.org'] } },
  null,
  2,
);
const SCHEMA = JSON.stringify(
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      servers: { type: 'array', items: { type: 'string' }, description: 'The time servers.' },
      port: { type: 'integer', description: 'The port to query.' },
    },
    additionalProperties: false,
  },
  null,
  2,
);
const NTP_CONF = '<% $servers.each |$s| { -%>\nserver <%= $s %>:<%= $prot %>\n<% } -%>\n';

let repo: string;
let project: string;
let client: LspClient;

function sync(extra = ''): string {
  return `pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: ${repo}
  templates:
    - ntp
ntp:
  servers: [a.example, b.example]
${extra}`;
}

beforeAll(async () => {
  repo = tempTree({
    'ntp/template.json': MANIFEST,
    'ntp/template_schema.json': SCHEMA,
    'ntp/files/ntp.conf.epp': NTP_CONF,
    'motd/template.json': JSON.stringify({ name: 'MOTD', description: 'The message of the day.' }),
    'motd/files/motd': 'hello\n',
  });
  project = tempTree({ '.sync.yml': sync() });
  client = new LspClient(project);
  await client.initialize(uriOf(project));
});

afterAll(async () => {
  await client.close();
  removeTempDirs();
});

describe('a template repository', () => {
  it("flags a file's read of a setting the schema does not declare, where it reads it", async () => {
    const uri = uriOf(join(repo, 'ntp/files/ntp.conf.epp'));
    client.open(uri, NTP_CONF);
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'ANALYSIS_UNKNOWN_VARIABLE',
        range: { start: { line: 1, character: 21 }, end: { line: 1, character: 26 } },
        message: expect.stringMatching(
          /^'\$prot' is neither a setting of template 'ntp'.*\n.*did you mean 'port'/s,
        ),
      }),
    ]);
    // Hover on a setting: its type, description and default from the template's files.
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 5 },
    });
    expect(hover.result?.contents.value).toContain('$servers: array of string');
    expect(hover.result?.contents.value).toContain('The time servers.');
    expect(hover.result?.contents.value).toContain('default: `["pool.ntp.org"]`');
  });

  it("flags a $settings['key'] naming no setting, at the key", async () => {
    const uri = uriOf(join(repo, 'ntp/files/hash.conf.epp'));
    client.open(uri, "<%= $settings['port'] %>\n<%= $settings['prot'] %>\n");
    expect(await client.diagnostics(uri, 1)).toEqual([
      expect.objectContaining({
        code: 'ANALYSIS_UNKNOWN_SETTING',
        severity: 2,
        range: { start: { line: 1, character: 14 }, end: { line: 1, character: 20 } },
        message: "$settings['prot'] reads a setting template 'ntp' does not declare\ndid you mean 'port'?",
      }),
    ]);
  });

  it('checks an unsaved template_schema.json, and the open files against it', async () => {
    const schemaUri = uriOf(join(repo, 'ntp/template_schema.json'));
    const fileUri = uriOf(join(repo, 'ntp/files/ntp.conf.epp'));
    // `prot` declared (unsaved): the file's problem goes.
    const declared = SCHEMA.replace('"port": {', '"prot": { "type": "integer" },\n    "port": {');
    client.open(schemaUri, declared, 'json');
    expect(await client.diagnostics(schemaUri, 1)).toEqual([]);
    expect(await client.diagnostics(fileUri, 1)).toEqual([]);
    // A schema that is no JSON Schema Pantograph takes.
    client.change(schemaUri, 2, [{ text: '{ "$schema": "http://example.com/nope", "type": "object" }' }]);
    const diagnostics = await client.diagnostics(schemaUri, 2);
    expect(diagnostics).toMatchObject([
      { code: 'TEMPLATE_SCHEMA', range: { start: { line: 0, character: 13 } } },
    ]);
    expect(diagnostics[0]!.message).toContain('unsupported $schema');
    client.notify('textDocument/didClose', { textDocument: { uri: schemaUri } });
  });

  it('keeps the last schema that parsed while template_schema.json is being edited', async () => {
    const uri = uriOf(join(repo, 'ntp/files/other.conf.epp'));
    client.open(uri, '<%= $servers %> <%= $prot %>\n');
    const before = await client.diagnostics(uri, 1);
    expect(before.map((d) => d.message.split('\n')[0])).toEqual([
      "'$prot' is neither a setting of template 'ntp' nor a top-scope name ($settings, $metadata, $project, $template)",
    ]);
    const schemaUri = uriOf(join(repo, 'ntp/template_schema.json'));
    client.open(schemaUri, SCHEMA, 'json');
    await client.diagnostics(schemaUri, 1);
    client.change(schemaUri, 2, [{ text: '{"type": "object", "properties": {' }]);
    expect(await client.diagnostics(schemaUri, 2)).toMatchObject([{ code: 'TEMPLATE_SCHEMA' }]);
    // $servers is still a setting: only $prot is flagged, as before the edit.
    expect(await latest(uri)).toEqual(before);
    client.notify('textDocument/didClose', { textDocument: { uri: schemaUri } });
    client.notify('textDocument/didClose', { textDocument: { uri } });
    await latest(uri);
  });

  it('validates template.json against the published schema', async () => {
    const uri = uriOf(join(repo, 'ntp/template.json'));
    client.open(uri, '{\n  "name": "NTP",\n  "always_apply": "yes",\n  "colour": 1\n}\n', 'json');
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([
      ['TEMPLATE_INVALID', 2],
      ['TEMPLATE_INVALID', 3],
    ]);
    expect(diagnostics[0]!.message).toContain('template.json/always_apply');
    expect(diagnostics[1]!.message).toContain("'colour'");
    client.change(uri, 2, [{ text: '{ "name": ' }]);
    expect(await client.diagnostics(uri, 2)).toMatchObject([{ code: 'TEMPLATE_JSON' }]);
    // Closed unsaved: the projects' checks below read the file on disk again, not this buffer.
    client.notify('textDocument/didClose', { textDocument: { uri } });
  });
});

describe('.sync.yml', () => {
  const uri = () => uriOf(join(project, '.sync.yml'));

  it('shows validate problems at their line: unknown template with did-you-mean, wrong type, unknown setting', async () => {
    const text = sync('  port: eighty\n  colour: blue\n').replace('    - ntp\n', '    - ntp\n    - mtod\n');
    client.open(uri(), text, 'yaml');
    const diagnostics = await client.diagnostics(uri());
    expect(diagnostics).toEqual([
      {
        range: { start: { line: 7, character: 6 }, end: { line: 7, character: 10 } },
        severity: 1,
        code: 'COMPOSITION_UNKNOWN_TEMPLATE',
        source: 'pantograph',
        message: "unknown template 'mtod': no template source has it\ndid you mean 'motd'?",
      },
      {
        range: { start: { line: 10, character: 8 }, end: { line: 10, character: 14 } },
        severity: 1,
        code: 'SETTINGS_INVALID',
        source: 'pantograph',
        message: "ntp: setting 'port' must be a whole number",
      },
      {
        range: { start: { line: 11, character: 2 }, end: { line: 11, character: 8 } },
        severity: 1,
        code: 'SETTINGS_UNKNOWN_KEY',
        source: 'pantograph',
        message: "unknown setting 'colour' for template 'ntp'",
      },
    ]);
  });

  it('keeps up with edits: fixed problems go', async () => {
    client.change(uri(), 2, [{ text: sync() }]);
    expect(await client.diagnostics(uri(), 2)).toEqual([]);
  });

  it('completes template names and setting keys from the composed schemas', async () => {
    const text = `${sync()}  \n`;
    client.change(uri(), 3, [{ text }]);
    await client.diagnostics(uri(), 3);
    const keys = await client.request<{ label: string; detail: string }[]>('textDocument/completion', {
      textDocument: { uri: uri() },
      position: { line: 9, character: 2 },
    });
    expect(keys.result?.map((i) => i.label).sort()).toEqual(['port', 'servers']);
    expect(keys.result?.find((i) => i.label === 'port')?.detail).toBe('integer');
    const names = await client.request<{ label: string }[]>('textDocument/completion', {
      textDocument: { uri: uri() },
      position: { line: 6, character: 6 },
    });
    expect(names.result?.map((i) => i.label)).toEqual(expect.arrayContaining(['motd', 'ntp']));
  });

  it('completes and hovers template names in a one-line list, as `init` writes `templates: []`', async () => {
    const text = sync().replace(/ {2}templates:\n(?: {4}- .*\n)+/, '  templates: [ntp, ]\n');
    client.change(uri(), 40, [{ text }]);
    await client.diagnostics(uri(), 40);
    try {
      const line = text.split('\n').findIndex((l) => l.startsWith('  templates: ['));
      const names = await client.request<{ label: string }[]>('textDocument/completion', {
        textDocument: { uri: uri() },
        position: { line, character: '  templates: [ntp, '.length },
      });
      expect(names.result?.map((i) => i.label)).toEqual(expect.arrayContaining(['motd', 'ntp']));
      expect(names.result?.map((i) => i.label)).not.toContain('version');
      const hover = await client.request<{ contents: { value: string }; range: unknown }>(
        'textDocument/hover',
        {
          textDocument: { uri: uri() },
          position: { line, character: '  templates: [n'.length },
        },
      );
      expect(hover.result?.contents.value).toMatch(/^\*\*ntp\*\*/);
      expect(hover.result?.range).toEqual({ start: { line, character: 14 }, end: { line, character: 17 } });
    } finally {
      // The next tests start from the block list.
      client.change(uri(), 41, [{ text: sync() }]);
      await client.diagnostics(uri(), 41);
    }
  });

  it('completes and hovers in a flow list or mapping that runs over lines, by its nodes (session 34)', async () => {
    const text = sync()
      .replace(/ {2}templates:\n(?: {4}- .*\n)+/, '  templates: [motd,\n    ntp]\n')
      .replace(
        'ntp:\n  servers: [a.example, b.example]\n',
        'ntp: {servers: [a.example,\n    b.example],\n  port: 123}\n',
      );
    client.change(uri(), 42, [{ text }]);
    await client.diagnostics(uri(), 42);
    try {
      const lines = text.split('\n');
      const second = lines.indexOf('    ntp]');
      // The list's second line: template names (it was read as a key `ntp]` under templates: nothing).
      const names = await client.request<{ label: string }[]>('textDocument/completion', {
        textDocument: { uri: uri() },
        position: { line: second, character: 4 },
      });
      expect(names.result?.map((i) => i.label).sort()).toEqual(['motd', 'ntp']);
      const hover = await client.request<{ contents: { value: string }; range: unknown }>(
        'textDocument/hover',
        { textDocument: { uri: uri() }, position: { line: second, character: 5 } },
      );
      expect(hover.result?.contents.value).toMatch(/^\*\*ntp\*\*/);
      expect(hover.result?.range).toEqual({
        start: { line: second, character: 4 },
        end: { line: second, character: 7 },
      });
      // A key of the flow mapping, after `ntp: {` on its key's line (it was the place after `ntp:`).
      const map = lines.indexOf('ntp: {servers: [a.example,');
      const setting = await client.request<{ contents: { value: string }; range: unknown }>(
        'textDocument/hover',
        { textDocument: { uri: uri() }, position: { line: map, character: 8 } },
      );
      expect(setting.result?.contents.value).toContain('**servers** (array of string)');
      expect(setting.result?.range).toEqual({
        start: { line: map, character: 6 },
        end: { line: map, character: 13 },
      });
      const keys = await client.request<{ label: string }[]>('textDocument/completion', {
        textDocument: { uri: uri() },
        position: { line: map, character: 7 },
      });
      expect(keys.result?.map((i) => i.label).sort()).toEqual(['port', 'servers']);
    } finally {
      client.change(uri(), 43, [{ text: sync() }]);
      await client.diagnostics(uri(), 43);
    }
  });

  it("hovers a setting with its description, type, default and the value's origin", async () => {
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: uri() },
      position: { line: 8, character: 4 },
    });
    const value = hover.result?.contents.value ?? '';
    expect(value).toContain('**servers** (array of string)');
    expect(value).toContain('The time servers.');
    expect(value).toContain('default: `["pool.ntp.org"]`');
    // Arrays merge over the default, as `show` says.
    expect(value).toContain('value: `["pool.ntp.org","a.example","b.example"]`');
    expect(value).toContain('from: project (.sync.yml:9:12)');
  });

  it('keeps hovering a setting while the YAML does not parse (the last text that loaded is planned)', async () => {
    // An unclosed flow sequence further down, as while typing one.
    client.change(uri(), 4, [{ text: `${sync()}  extra: [a, b\n` }]);
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: uri() },
      position: { line: 8, character: 4 },
    });
    expect(hover.result?.contents.value).toContain('**servers** (array of string)');
    const keys = await client.request<{ label: string }[]>('textDocument/completion', {
      textDocument: { uri: uri() },
      position: { line: 9, character: 2 },
    });
    expect(keys.result?.map((i) => i.label).sort()).toEqual(['port', 'servers']);
    client.change(uri(), 5, [{ text: `${sync()}  \n` }]);
    await client.diagnostics(uri(), 5);
  });
});

/** The diagnostics of `uri` once they pass `test` (those published before are passed over). */
async function until(uri: string, test: (d: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
  for (;;) {
    const d = await client.diagnostics(uri);
    if (test(d)) return d;
  }
}

/** The last diagnostics published for `uri` once the server is quiet (those before are passed over). */
async function latest(uri: string): Promise<Diagnostic[]> {
  let last = await client.diagnostics(uri);
  for (;;) {
    await new Promise((r) => setTimeout(r, 400));
    const more = client.received.filter(
      (m) => m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri,
    );
    if (more.length === 0) return last;
    for (const m of more) client.received.splice(client.received.indexOf(m), 1);
    last = (more.at(-1)!.params as { diagnostics: Diagnostic[] }).diagnostics;
  }
}

/** Forgets what was published for `uri` and not read yet. */
function drain(uri: string): void {
  const stale = client.received.filter(
    (m) => m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri,
  );
  for (const m of stale) client.received.splice(client.received.indexOf(m), 1);
}

describe('.sync.yml and its templates', () => {
  it("publishes the render errors validate finds on the template's file, where validate says they are", async () => {
    const conf = "port=<%= $port + 'x' %>\n";
    const templates = tempTree({
      'conf/template.json': JSON.stringify({ name: 'Conf', default_settings: { port: 80 } }),
      'conf/files/conf.epp': conf,
    });
    const dir = tempTree({
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${templates}\n  templates:\n    - conf\n`,
    });
    const file = join(templates, 'conf/files/conf.epp');
    const cli = await run(dir, 'validate');
    expect(cli.code).toBe(1);
    expect(cli.stdout + cli.stderr).toContain(
      `${file}:1:18: error: The value 'x' cannot be converted to Numeric. [EPP_OPERATOR]`,
    );
    const syncUri = uriOf(join(dir, '.sync.yml'));
    client.open(syncUri, readFileSync(join(dir, '.sync.yml'), 'utf8'), 'yaml');
    const fileUri = uriOf(file);
    // The file is not open: its diagnostics come all the same (the Problems view lists them).
    const rendered = await client.diagnostics(fileUri);
    expect(rendered).toEqual([
      {
        range: { start: { line: 0, character: 17 }, end: { line: 0, character: 20 } },
        severity: 1,
        code: 'EPP_OPERATOR',
        source: 'pantograph',
        message: "The value 'x' cannot be converted to Numeric.",
      },
    ]);
    expect(await client.diagnostics(syncUri)).toEqual([]);
    // Open, the file shows them beside its own; fixed (unsaved), they go.
    client.open(fileUri, conf);
    expect(await client.diagnostics(fileUri, 1)).toMatchObject([{ code: 'EPP_OPERATOR' }]);
    client.change(fileUri, 2, [{ text: 'port=<%= $port %>\n' }]);
    expect(await client.diagnostics(fileUri, 2)).toEqual([]);
    // Closed unsaved: the project validates the file on disk again, and finds the error there again.
    // (What was published for the text before the edit is passed over: from now on the open file's
    // diagnostics are empty until it is closed.)
    drain(fileUri);
    client.notify('textDocument/didClose', { textDocument: { uri: fileUri } });
    expect(await until(fileUri, (d) => d.length > 0)).toMatchObject([{ code: 'EPP_OPERATOR' }]);
    // The project closed, what it found goes with it.
    client.notify('textDocument/didClose', { textDocument: { uri: syncUri } });
    expect(await until(fileUri, (d) => d.length === 0)).toEqual([]);
  });

  it("checks .sync.yml again when its template's schema changes, unsaved or saved", async () => {
    const syncUri = uriOf(join(project, '.sync.yml'));
    const text = sync('  port: eighty\n');
    client.open(syncUri, text, 'yaml');
    expect(await client.diagnostics(syncUri)).toMatchObject([
      { code: 'SETTINGS_INVALID', message: "ntp: setting 'port' must be a whole number" },
    ]);
    const schemaUri = uriOf(join(repo, 'ntp/template_schema.json'));
    client.open(schemaUri, SCHEMA, 'json');
    await client.diagnostics(schemaUri, 1);
    const stringPort = SCHEMA.replace('"type": "integer"', '"type": "string"');
    client.change(schemaUri, 2, [{ text: stringPort }]);
    // The open .sync.yml is validated against the edited (unsaved) schema, as the open EPP files are.
    expect(await client.diagnostics(syncUri)).toEqual([]);
    // The edit is dropped (closed without saving): the schema on disk holds again.
    client.notify('textDocument/didClose', { textDocument: { uri: schemaUri } });
    expect(await client.diagnostics(syncUri)).toMatchObject([{ code: 'SETTINGS_INVALID' }]);
    client.notify('textDocument/didClose', { textDocument: { uri: syncUri } });
  });
});

describe('pantograph schema', () => {
  it("writes the .sync.yml schema with each template's settings", async () => {
    const r = await run(project, 'schema', '--output', 'sync-schema.json');
    expect(r.code).toBe(0);
    const schema = JSON.parse(readFileSync(join(project, 'sync-schema.json'), 'utf8'));
    expect(schema.properties.ntp.properties.port).toEqual({
      type: 'integer',
      description: 'The port to query.',
    });
    expect(schema.properties.ntp.additionalProperties).toBe(false);
    expect(schema.properties.motd.description).toBe('The message of the day.');
    expect(schema.properties.pdk_template.properties.templates.items.examples).toEqual(['motd', 'ntp']);
    const printed = await run(project, 'schema');
    expect(JSON.parse(printed.stdout)).toEqual(schema);
  });
});
