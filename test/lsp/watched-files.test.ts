/**
 * Files that change on disk while not open (a `git pull` in a template repository): the server asks an
 * editor that can watch files to tell it of changes (`client/registerCapability`), as VS Code and Neovim
 * do when asked, and the open `.sync.yml` is validated again when one of its templates' files changes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
import { LspClient, type Message, uriOf } from './client.js';

const schema = (type: string) =>
  JSON.stringify({ type: 'object', properties: { port: { type } }, additionalProperties: false });

afterAll(() => removeTempDirs());

async function started(root: string, capabilities: unknown): Promise<LspClient> {
  const client = new LspClient(root);
  await client.request('initialize', { processId: process.pid, rootUri: uriOf(root), capabilities });
  client.notify('initialized', {});
  return client;
}

describe('files changed on disk', () => {
  it('asks an editor that can watch files for their changes, and validates .sync.yml again on one', async () => {
    const repo = tempTree({
      'ntp/template.json': '{ "name": "NTP" }\n',
      'ntp/template_schema.json': schema('integer'),
      'ntp/files/ntp.conf': 'server\n',
    });
    const syncText = `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: [ntp]\nntp:\n  port: eighty\n`;
    const project = tempTree({ '.sync.yml': syncText });
    const client = await started(project, {
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
    });
    const registration = await client.wait((m: Message) => m.method === 'client/registerCapability');
    expect(registration.params).toMatchObject({
      registrations: [
        {
          method: 'workspace/didChangeWatchedFiles',
          registerOptions: { watchers: [{ globPattern: '**/*' }] },
        },
      ],
    });
    client.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: registration.id, result: null }));
    const syncUri = uriOf(join(project, '.sync.yml'));
    client.open(syncUri, syncText, 'yaml');
    expect(await client.diagnostics(syncUri, 1)).toMatchObject([
      { code: 'SETTINGS_INVALID', range: { start: { line: 7, character: 8 } } },
    ]);
    // A pull makes the port a string; the editor reports the change it was asked to watch.
    const schemaFile = join(repo, 'ntp/template_schema.json');
    writeFileSync(schemaFile, schema('string'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(schemaFile), type: 2 }] });
    expect(await client.diagnostics(syncUri, 1)).toEqual([]);
    expect(await client.close()).toBe(0);
  });

  it('validates .sync.yml again when a template is added to one of its sources, as `git pull` adds it', async () => {
    const repo = tempTree({ 'ntp/template.json': '{ "name": "NTP" }\n' });
    const syncText = `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: [ntp, motd]\n`;
    const project = tempTree({ '.sync.yml': syncText });
    const client = await started(project, {
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
    });
    const syncUri = uriOf(join(project, '.sync.yml'));
    client.open(syncUri, syncText, 'yaml');
    expect(await client.diagnostics(syncUri, 1)).toMatchObject([
      { code: 'COMPOSITION_UNKNOWN_TEMPLATE', range: { start: { line: 5, character: 19 } } },
    ]);
    // The project is loaded (hover reads it): what it reads is known.
    await client.request('textDocument/hover', {
      textDocument: { uri: syncUri },
      position: { line: 0, character: 2 },
    });
    // The new template's directory is below no template the project had, nor below the project.
    const manifest = join(repo, 'motd/template.json');
    mkdirSync(join(repo, 'motd'));
    writeFileSync(manifest, '{ "name": "MOTD" }\n');
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(manifest), type: 1 }] });
    expect(await client.diagnostics(syncUri, 1)).toEqual([]);
    expect(await client.close()).toBe(0);
  });

  it('asks nothing of an editor that cannot', async () => {
    const client = await started(tempTree({ 'a.epp': '<%= 1 %>\n' }), {});
    const hover = await client.request('textDocument/hover', {
      textDocument: { uri: 'file:///nowhere.epp' },
      position: { line: 0, character: 0 },
    });
    expect(hover.error).toBeUndefined();
    expect(client.received.filter((m) => m.method === 'client/registerCapability')).toEqual([]);
    expect(await client.close()).toBe(0);
  });
});
