/**
 * Issue 11, item 12: a 245-byte file name is a legal output, but `.<name>.pantograph-tmp` was not
 * (ENAMETOOLONG), so such a file could never be applied while the hint promised that a re-run would finish
 * the job. The temporary name has a fixed length now, and derived names (`.pantograph-new`) are shortened
 * with a hash when they would be too long.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { derivedPath, NAME_MAX } from '../../src/sync/paths.js';
import { tmpName } from '../../src/sync/write.js';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bytes = (s: string) => Buffer.byteLength(s);

/** A template with one file: rendered from `name.epp` when that fits in a name, else copied as `name`. */
function project(name: string, content: string): { root: string; repo: string } {
  const source = bytes(`${name}.epp`) <= NAME_MAX ? `t/files/${name}.epp` : `t/files/${name}`;
  const repo = tempTree({
    't/template.json': JSON.stringify({ name: 't', always_apply: true, default_settings: { v: content } }),
    [source]: source.endsWith('.epp') ? '<%= $v %>\n' : `${content}\n`,
  });
  const root = writeTree(tempDir(), {
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n`,
  });
  return { root, repo };
}

describe('file names near the 255-byte limit', () => {
  it.each([
    [245],
    [250],
    [255],
  ])('a %i-byte name is applied, and applying again changes nothing', async (n) => {
    const name = 'n'.repeat(n - 4) + '.txt';
    expect(bytes(name)).toBe(n);
    const { root } = project(name, 'one');
    const first = await run(root, 'apply');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(readFileSync(join(root, name), 'utf8')).toBe('one\n');
    expect((await run(root, 'apply')).stdout).not.toContain(name.slice(0, 20));
    expect(readdirSync(root).filter((f) => f.includes('pantograph-tmp'))).toEqual([]);
  });

  it('a conflict on a 250-byte name writes its new output beside it, under a name that fits', async () => {
    const name = `${'é'.repeat(123)}.txt`; // 250 bytes of two-byte characters
    expect(bytes(name)).toBe(250);
    const { root, repo } = project(name, 'one');
    expect((await run(root, 'apply')).code).toBe(0);
    writeFileSync(join(root, name), 'edited by hand\n');
    // The template file itself changes: its previous output cannot be reproduced, so no three-way merge.
    writeFileSync(join(repo, `t/files/${name}.epp`), 'two <%= $v %>\n');
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    const derived = derivedPath(name, '.pantograph-new');
    expect(bytes(derived)).toBeLessThanOrEqual(NAME_MAX);
    expect(readFileSync(join(root, derived), 'utf8')).toBe('two one\n');
    expect(r.stderr + r.stdout).toContain(derived);
    expect(readFileSync(join(root, name), 'utf8')).toBe('edited by hand\n');
  });

  it('temporary and derived names never exceed the limit, and stay unique', () => {
    for (const n of [1, 100, 239, 240, 255]) {
      const name = 'x'.repeat(n);
      expect(bytes(tmpName(`dir/${name}`).split('/').pop()!)).toBeLessThanOrEqual(NAME_MAX);
      expect(bytes(derivedPath(name, '.pantograph-new'))).toBeLessThanOrEqual(NAME_MAX);
    }
    expect(derivedPath('short.txt', '.pantograph-new')).toBe('short.txt.pantograph-new');
    expect(derivedPath(`${'a'.repeat(250)}1`, '.x')).not.toBe(derivedPath(`${'a'.repeat(250)}2`, '.x'));
  });
});
