/**
 * Security review 20, finding 6: a git source of a megabyte named one blob of a gigabyte four times;
 * checking it out wrote 4 GB and the run used 8 GB of memory, then blamed the time limit. The sizes of a
 * commit's files are now read from its tree before anything is checked out: past a limit (100 MB a file,
 * 500 MB a source; PANTOGRAPH_GIT_FILE_SIZE_LIMIT and PANTOGRAPH_GIT_SOURCE_SIZE_LIMIT, in MB) the source
 * is an error naming the file and its size. (The limits are lowered here, so that the files stay small.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { treeFiles } from '../../src/engine/sources/git-size-limits.js';
import { removeTempDirs, snapshotDir, tempDir, writeTree } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const KB = 1024;

/** A git source whose template `big` has `copies` files of `bytes` zeros (one blob, as git stores them). */
function project(bytes: number, copies: number): { root: string; cache: string } {
  const remote = tempRemote();
  const zeros = new Uint8Array(bytes);
  const files: Record<string, Uint8Array | string> = {
    'big/template.json': JSON.stringify({ name: 'big', always_apply: true }),
  };
  for (let i = 1; i <= copies; i++) files[`big/files/b${i}.bin`] = zeros;
  remote.commit(files);
  const root = writeTree(tempDir(), {
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: git\n      location: ${remote.url}\n`,
  });
  return { root, cache: tempDir('pantograph-cache-') };
}

function pantograph(p: { root: string; cache: string }, env: Record<string, string>, ...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: p.root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1', PANTOGRAPH_CACHE_DIR: p.cache, ...env },
  });
}

/** The checkouts in the cache (none when the source was refused before it was checked out). */
function checkouts(cache: string): string[] {
  const git = join(cache, 'git');
  if (!existsSync(git)) return [];
  return readdirSync(git).flatMap((remote) => {
    const trees = join(git, remote, 'trees');
    return existsSync(trees) ? readdirSync(trees).filter((name) => !name.startsWith('.')) : [];
  });
}

describe('size limits of git sources', () => {
  it('a file past the limit: an error naming the source, the file, its size and the setting; nothing written', () => {
    const p = project(2048 * KB, 1);
    const before = snapshotDir(p.root);
    for (const command of ['status', 'apply']) {
      const r = pantograph(p, { PANTOGRAPH_GIT_FILE_SIZE_LIMIT: '1' }, command);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        /\.sync\.yml:4:7: error: git source '.*' has a file larger than 1 MB \(the limit of one file\): big\/files\/b1\.bin is 2 MB \(commit [0-9a-f]{12}\) \[GIT_TOO_LARGE\]/,
      );
      expect(r.stderr).toContain(
        'hint: nothing was checked out; if the repository is meant to hold such a file, raise the limit: PANTOGRAPH_GIT_FILE_SIZE_LIMIT=<MB>',
      );
    }
    expect(checkouts(p.cache)).toEqual([]);
    expect(snapshotDir(p.root)).toEqual(before);
  });

  it('one blob named many times: the total is what checking out would write', () => {
    const p = project(400 * KB, 4);
    const r = pantograph(p, { PANTOGRAPH_GIT_SOURCE_SIZE_LIMIT: '1' }, 'status');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /\.sync\.yml:4:7: error: git source '.*' is larger than 1 MB \(the limit of one source\): its 5 files are 1\.6 MB in all, the largest big\/files\/b\d\.bin \(400 KB\), big\/files\/b\d\.bin \(400 KB\), big\/files\/b\d\.bin \(400 KB\) \(commit [0-9a-f]{12}\) \[GIT_TOO_LARGE\]/,
    );
    expect(r.stderr).toContain('[GIT_TOO_LARGE]');
    expect(r.stderr).toContain('PANTOGRAPH_GIT_SOURCE_SIZE_LIMIT=<MB>');
    expect(checkouts(p.cache)).toEqual([]);
  });

  it('within the limits (the defaults, or raised), the source is checked out and applied', () => {
    const p = project(2048 * KB, 4);
    const raised = pantograph(
      p,
      { PANTOGRAPH_GIT_FILE_SIZE_LIMIT: '3', PANTOGRAPH_GIT_SOURCE_SIZE_LIMIT: '9' },
      'apply',
    );
    expect(raised.stderr).toBe('');
    expect(raised.status).toBe(0);
    expect(readdirSync(join(p.root)).sort()).toEqual([
      '.pantograph.lock',
      '.sync.yml',
      'b1.bin',
      'b2.bin',
      'b3.bin',
      'b4.bin',
    ]);
    const q = project(2048 * KB, 4);
    expect(pantograph(q, {}, 'apply').status).toBe(0);
  });

  it('reads the sizes of `git ls-tree -r -l -z`, whatever the names hold', () => {
    const listing =
      '100644 blob 0123abcd    1000\tt/a file\0' +
      '120000 blob 4567abcd      12\tt/link\0' +
      '160000 commit 89abcdef       -\tt/sub\0' +
      '100755 blob 0123abcd 2000000\tt/new\nline\0';
    expect(treeFiles(listing)).toEqual([
      { path: 't/a file', bytes: 1000 },
      { path: 't/link', bytes: 12 },
      { path: 't/new\nline', bytes: 2000000 },
    ]);
  });
});
