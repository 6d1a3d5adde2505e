/** `epp validate|render|dump` of a template repository's file read with its template's `delimiters`. */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';
import { run } from './cli-helpers.js';

afterEach(removeTempDirs);

function repo(delimiters: unknown = ['[%', '%]']) {
  return tempTree({
    'app/template.json': JSON.stringify({ name: 'app', delimiters }),
    // `<% ... %>` is text for this template: the output is itself an ERB file.
    'app/files/conf.erb.epp': '[%- | String $who | -%]\n<%= @name %> [%= $who %]\n[%= 1 + %]\n',
    'app/partials/p.epp': '[%= "partial" %] <%= 1 + %>\n',
    'app/tests/basic/expected/x.epp': '<%= 1 %>\n',
  });
}

describe('epp with a template repository file', () => {
  it("validate reads a template file with its template's delimiters, at the right positions", async () => {
    const dir = repo();
    const before = snapshotDir(dir);
    const r = await run(dir, 'epp', 'validate', 'app/files/conf.erb.epp', 'app/partials/p.epp');
    expect(r.code).toBe(1);
    // Only the real error, in a `[% %]` tag; nothing about the `<% %>` text.
    expect(r.stderr.match(/^app\/\S+:\d+:\d+/gm)).toEqual(['app/files/conf.erb.epp:3:9']);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('--delimiters wins over the template', async () => {
    const dir = repo();
    const r = await run(dir, 'epp', 'validate', '--delimiters', '<% %>', 'app/partials/p.epp');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('app/partials/p.epp:1:');
  });

  it('render and dump use them too', async () => {
    const dir = repo();
    const r = await run(dir, 'epp', 'render', join(dir, 'app/partials/p.epp'));
    expect(r).toEqual({ code: 0, stdout: 'partial <%= 1 + %>\n', stderr: '' });
    const dump = await run(dir, 'epp', 'dump', 'app/partials/p.epp');
    expect(dump.code).toBe(0);
    expect(dump.stdout).toContain('"partial"');
  });

  it("a file outside files/, files_init/ and partials/, or a template without valid delimiters, is EPP's own", async () => {
    const dir = repo();
    expect(await run(dir, 'epp', 'validate', 'app/tests/basic/expected/x.epp')).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    const bad = repo(['', '%]']);
    const r = await run(bad, 'epp', 'validate', 'app/partials/p.epp');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('app/partials/p.epp:1:');
  });
});
