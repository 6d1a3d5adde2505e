/**
 * Issue 11, item 11 (and the UTF-16 `.sync.yml`): invalid UTF-8 in `.sync.yml` or in an `.epp` file was
 * silently replaced with U+FFFD and ended in the output. It is an error with its position; a file that is
 * not an `.epp` template is copied byte for byte as before.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/shared/text-file.js';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const LATIN1_E = Buffer.from([0xe9]); // é in Latin-1: not UTF-8

function project(files: Record<string, string | Uint8Array>, sync?: Uint8Array): string {
  const repo = tempTree({
    't/template.json': JSON.stringify({ name: 't', always_apply: true }),
    't/partials/p.epp': 'partial\n',
    ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`t/${k}`, v])),
  });
  const root = writeTree(tempDir(), {
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n`,
  });
  if (sync) writeFileSync(join(root, '.sync.yml'), sync);
  return root;
}

describe('invalid UTF-8', () => {
  it('in an .epp file: an error at the byte, nothing written', async () => {
    const bad = Buffer.concat([Buffer.from('line one\ncaf'), LATIN1_E, Buffer.from(' <%= 1 %>\n')]);
    const root = project({ 'files/out.txt.epp': bad });
    const before = snapshotDir(root);
    for (const command of ['apply', 'validate']) {
      const r = await run(root, command);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /out\.txt\.epp:2:4: error: files\/out\.txt\.epp is not valid UTF-8: byte 0xe9 at line 2, column 4 \[EPP_ENCODING\]/,
      );
    }
    expect(snapshotDir(root)).toEqual(before);
  });

  it('in a partial called with epp(): an error naming it', async () => {
    const root = project({
      'files/out.txt.epp': "<%= epp('partials/bad.epp') %>",
      'partials/bad.epp': Buffer.concat([Buffer.from('x'), Buffer.from([0xff, 0xfe]), Buffer.from('y')]),
    });
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "template 'partials/bad.epp' is not valid UTF-8: byte 0xff at line 1, column 2",
    );
  });

  it('in a copied (non-.epp) file: copied byte for byte', async () => {
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xe9, 0xff, 0x00, 0x01]);
    const root = project({ 'files/logo.png': binary });
    expect((await run(root, 'apply')).code).toBe(0);
    expect(readFileSync(join(root, 'logo.png'))).toEqual(binary);
  });

  it('in .sync.yml: an error with its position', async () => {
    const sync = Buffer.concat([
      Buffer.from('pdk_template:\n  version: 2\n# caf'),
      LATIN1_E,
      Buffer.from('\n'),
    ]);
    const r = await run(project({}, sync), 'status');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /\.sync\.yml:3:6: error: \.sync\.yml is not valid UTF-8: byte 0xe9 at line 3, column 6 \[SYNC_ENCODING\]/,
    );
    expect(r.stderr).toContain('hint: save it as UTF-8');
  });

  it('a .sync.yml saved as UTF-16 says so', async () => {
    const text = 'pdk_template:\n  version: 2\n';
    for (const bytes of [
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      Buffer.from(text, 'utf16le'),
    ]) {
      const r = await run(project({}, bytes), 'status');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('.sync.yml is encoded as UTF-16 (little-endian), not UTF-8');
      expect(r.stderr).toContain('save it as UTF-8');
    }
  });

  it('`epp render` of such a file: an error with file:line:col', () => {
    const dir = writeTree(tempDir(), { 't.epp': Buffer.concat([Buffer.from('ok\n\n  x'), LATIN1_E]) });
    const r = spawnSync(process.execPath, [bin, 'epp', 'render', 't.epp'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      't.epp:3:4: error: the template is not valid UTF-8: byte 0xe9 at line 3, column 4 [EPP_ENCODING]\n',
    );
    expect(r.stderr).not.toContain('> 3 | ');
  });

  it('`epp render --values-file` / `--facts` of such a file: an error at the byte, nothing rendered', () => {
    const dir = writeTree(tempDir(), {
      't.epp': '<%= $x %>\n',
      'v.yaml': Buffer.concat([Buffer.from('y: 1\nx: "caf'), LATIN1_E, Buffer.from('"\n')]),
      'v.json': Buffer.concat([Buffer.from('{"x": "caf'), LATIN1_E, Buffer.from('"}\n')]),
      'f.yaml': Buffer.from('x: 1\n', 'utf16le'),
    });
    const epp = (...args: string[]) =>
      spawnSync(process.execPath, [bin, 'epp', 'render', 't.epp', ...args], { cwd: dir, encoding: 'utf8' });
    const yaml = epp('--values-file', 'v.yaml');
    expect(yaml.status).toBe(1);
    expect(yaml.stdout).toBe('');
    expect(yaml.stderr).toContain(
      'v.yaml:2:8: error: the values file is not valid UTF-8: byte 0xe9 at line 2, column 8 [VALUES_ENCODING]\n',
    );
    expect(yaml.stderr).toContain('save it as UTF-8');
    const json = epp('--values-file', 'v.json');
    expect([json.status, json.stdout]).toEqual([1, '']);
    expect(json.stderr).toContain('v.json:1:11: error: the values file is not valid UTF-8: byte 0xe9');
    const facts = epp('--facts', 'f.yaml');
    expect([facts.status, facts.stdout]).toEqual([1, '']);
    expect(facts.stderr).toContain(
      'f.yaml:1:1: error: the facts file is encoded as UTF-16 (little-endian), not UTF-8 [VALUES_ENCODING]',
    );
  });

  it('the decoder keeps a BOM and multi-byte characters, and finds overlong and surrogate encodings', () => {
    expect(decodeUtf8(Buffer.from('\uFEFFé€😀'))).toEqual({ text: '\uFEFFé€😀' });
    expect(decodeUtf8(Buffer.from([0x61, 0xc0, 0xaf]))).toMatchObject({ problem: { line: 1, column: 2 } });
    expect(decodeUtf8(Buffer.from([0x61, 0x0a, 0xed, 0xa0, 0x80]))).toMatchObject({
      problem: { line: 2, column: 1 },
    });
    expect(decodeUtf8(Buffer.from('é\né'.replace(/é$/, '')))).toEqual({ text: 'é\n' });
  });
});
