/**
 * Opening a project in an editor runs none of its code (found by QA: a cloned repository whose .sync.yml
 * names a template source inside it ran that template's JavaScript hook as soon as `.sync.yml` was opened,
 * and again after each pause in typing). `pantograph lsp --trust` runs it, as `pantograph status` does.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, tempTree } from '../helpers/fs.js';
import { LspClient, uriOf } from './client.js';

afterAll(removeTempDirs);

/** A cloned repository: its own template source, whose hook leaves `marker` when it runs. */
function clonedRepository(marker: string): string {
  return tempTree({
    'tpl/evil/template.json': JSON.stringify({ name: 'evil', always_apply: true, default_settings: {} }),
    'tpl/evil/files/hello.txt': 'hello\n',
    'tpl/evil/hooks/after_default_settings.mjs': `import { writeFileSync } from 'node:fs';\nexport default (state) => { writeFileSync(${JSON.stringify(marker)}, 'ran'); return state; };\n`,
    '.sync.yml':
      'pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ./tpl\n',
  });
}

async function diagnosticsOnOpen(root: string, args: string[]) {
  const client = new LspClient(root, process.env, args);
  try {
    await client.initialize(uriOf(root));
    const uri = uriOf(join(root, '.sync.yml'));
    client.open(uri, readFileSync(join(root, '.sync.yml'), 'utf8'), 'yaml');
    return await client.diagnostics(uri, 1);
  } finally {
    await client.close();
  }
}

describe('the language server and the project’s code', () => {
  it('runs no JavaScript hook of a project by default, and says why its template is not checked', async () => {
    const marker = join(tempDir(), 'ran');
    const root = clonedRepository(marker);
    const diagnostics = await diagnosticsOnOpen(root, []);
    expect(existsSync(marker)).toBe(false);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'HOOK_UNTRUSTED', severity: 2 });
    const hook = join(root, 'tpl/evil/hooks/after_default_settings.mjs');
    expect(diagnostics[0]!.message).toBe(
      `template 'evil' is not checked here: its JavaScript hooks (${hook}) do not run\n` +
        'the language server runs no code of a project (JavaScript hooks, V1 templates) unless it is started as `pantograph lsp --trust`: set that in your editor for projects you trust',
    );
    // At the source that holds the hook (line 4, `type: filesystem`), 0-based in the protocol.
    expect(diagnostics[0]!.range.start.line).toBe(3);
  });

  it('runs them with --trust, as status does', async () => {
    const marker = join(tempDir(), 'ran');
    const root = clonedRepository(marker);
    expect(await diagnosticsOnOpen(root, ['--trust'])).toEqual([]);
    expect(readFileSync(marker, 'utf8')).toBe('ran');
  });

  it('does not run a V1 template repository (Ruby) by default', async () => {
    const marker = join(tempDir(), 'ran');
    const root = tempTree({
      'v1/moduleroot/README.md.erb': `<% File.write(${JSON.stringify(marker)}, 'ran') %>readme\n`,
      'v1/moduleroot_init/.keep': '',
      '.sync.yml': '---\nREADME.md:\n  x: 1\n',
    });
    const metadata = { name: 'acme-x', version: '0.1.0', 'template-url': `file://${join(root, 'v1')}` };
    writeFileSync(join(root, 'metadata.json'), JSON.stringify(metadata));
    const diagnostics = await diagnosticsOnOpen(root, []);
    expect(existsSync(marker)).toBe(false);
    expect(diagnostics.map((d) => d.code)).toEqual(['V1_UNTRUSTED']);
    expect(diagnostics[0]!.message).toContain('runs Ruby code (its ERB templates), which does not run here');
    // Trusted, it runs (as `validate` does): the refusal above is what kept the marker away.
    await diagnosticsOnOpen(root, ['--trust']);
    expect(readFileSync(marker, 'utf8')).toBe('ran');
  });
});

describe('a trusted project whose template never ends', () => {
  it('is validated under the time limit; the server answers meanwhile, hover on its settings included', async () => {
    const root = tempTree({
      'tpl/redos/template.json': JSON.stringify({ name: 'redos', default_settings: { n: 1 } }),
      'tpl/redos/files/r.txt.epp': "<%= 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' =~ /^(a+)+$/ %>\n",
      '.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ./tpl\n  templates:\n    - redos\nredos:\n  n: 2\n',
      'probe.epp': '<%- | String $a | -%>\n<%= $a %>\n',
    });
    const client = new LspClient(root, { ...process.env, PANTOGRAPH_LSP_TIME_LIMIT: '3' }, ['--trust']);
    try {
      await client.initialize(uriOf(root));
      const probe = uriOf(join(root, 'probe.epp'));
      client.open(probe, readFileSync(join(root, 'probe.epp'), 'utf8'));
      await client.diagnostics(probe, 1);
      const uri = uriOf(join(root, '.sync.yml'));
      const start = performance.now();
      client.open(uri, readFileSync(join(root, '.sync.yml'), 'utf8'), 'yaml');
      const diagnostics = client.diagnostics(uri, 1);
      await new Promise((r) => setTimeout(r, 500));
      // The project is being validated (rendering the template, in the server's worker): hovers answer.
      const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
        textDocument: { uri: probe },
        position: { line: 0, character: 15 },
      });
      expect(hover.result?.contents.value).toContain('String $a');
      expect(performance.now() - start).toBeLessThan(2500);
      expect(await diagnostics).toEqual([
        expect.objectContaining({
          code: 'LSP_TIME_LIMIT',
          message: expect.stringMatching(/^not checked: validating the project ran longer than 3 s/),
        }),
      ]);
      // Hover on a setting plans the project: in the worker too, stopped at the limit; the hover says so.
      const setting = await client.request<{ contents: { value: string } }>('textDocument/hover', {
        textDocument: { uri },
        position: { line: 8, character: 3 },
      });
      expect(setting.error).toBeUndefined();
      expect(setting.result?.contents.value).toMatch(
        /^no hover: planning the project \(rendering its templates, as `pantograph show` does\) ran longer than 3 s, the language server's time limit/,
      );
    } finally {
      await client.close();
    }
  }, 30_000);
});
