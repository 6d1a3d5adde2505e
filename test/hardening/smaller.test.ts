/**
 * Issue 11, "smaller ones": a broken template that is not applied is still reported by `validate`; an
 * `always_apply` that is not a boolean is an error, not a silent "not applied"; an unknown keyword in a
 * template's schema is an error with a did-you-mean; a file too large to read says that it is too large.
 */
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syncYml } from '../apply-cli/fixtures.js';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

function project(repo: Record<string, string>, templates = '[]'): string {
  return writeTree(tempDir(), { '.sync.yml': syncYml(tempTree(repo), '', templates) });
}

describe('templates a project does not apply', () => {
  it('validate warns about a broken one, naming it', async () => {
    const root = project({
      'good/template.json': '{"name": "good", "always_apply": true}',
      'good/files/a.txt': 'a\n',
      'broken/template.json': '{"name": "broken", "versoin": "1.0.0"}',
    });
    const r = await run(root, 'validate');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /broken\/template\.json:1:\d+: warning: template 'broken' \(not applied\): unknown key 'versoin'/,
    );
    expect(r.stderr).toContain("did you mean 'version'?");
  });

  it('"always_apply": "yes" is a type error for every command, not a silent "not applied"', async () => {
    const root = project({
      'yes/template.json': '{"name": "yes", "always_apply": "yes"}',
      'yes/files/a.txt': 'a\n',
    });
    for (const command of ['validate', 'status', 'apply']) {
      const r = await run(root, command);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /yes\/template\.json:1:\d+: error: template\.json\/always_apply must be true or false/,
      );
    }
  });
});

describe("an unknown keyword in a template's schema", () => {
  it('is an error at the keyword, with a did-you-mean; x- extensions are fine', async () => {
    const root = project(
      {
        't/template.json': '{"name": "t", "default_settings": {"port": 80}}',
        't/template_schema.json': JSON.stringify(
          { type: 'object', properties: { port: { tpye: 'integer', 'x-ui': 'number' } } },
          null,
          2,
        ),
        't/files/a.txt.epp': '<%= $port %>\n',
      },
      '[t]',
    );
    const r = await run(root, 'validate');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /template_schema\.json:5:\d+: error: unknown keyword 'tpye' in the schema at \/properties\/port\/tpye/,
    );
    expect(r.stderr).toContain("did you mean 'type'?");
    expect(r.stderr).not.toContain('x-ui');
  });
});

describe('a project file too large to read', () => {
  it('says it is too large, and what to do', async () => {
    const repo = { 't/template.json': '{"name": "t", "always_apply": true}', 't/files/big.bin': 'small\n' };
    const root = project(repo);
    const fd = openSync(join(root, 'big.bin'), 'w');
    ftruncateSync(fd, 1024 ** 3 + 1); // sparse: no disk space used
    closeSync(fd);
    const r = await run(root, 'status');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'big.bin is too large to read (1,073,741,825 bytes; Pantograph reads files of up to 1 GiB)',
    );
    expect(r.stderr).toContain('unmanaged');
    expect(r.stderr).not.toContain('permissions');
  });
});
