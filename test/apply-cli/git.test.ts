import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resetGitFetches } from '../../src/engine/sources/index.js';
import { readLock } from '../../src/sync/index.js';
import { run, runJson } from '../cli/cli-helpers.js';
import { snapshotDir, tempTree } from '../helpers/fs.js';
import { tempRemote, useFreshGitCache } from '../helpers/git.js';
import { read, repoTree } from './fixtures.js';

useFreshGitCache();

const gitSync = (url: string, ref = 'main') => `pdk_template:
  version: 2
  template_sources:
    - type: git
      location: ${url}
      ref: ${ref}
  templates: []
`;

const lockedCommit = (root: string) => readLock(root)!.sources[0]!.commit;

/** A new run of the CLI: git sources are fetched at most once per process. */
const again = (root: string, ...args: string[]) => {
  resetGitFetches();
  return run(root, ...args);
};

describe('git sources and update', () => {
  it('stay at the locked commit until update moves them', async () => {
    const remote = tempRemote();
    const c1 = remote.commit(repoTree());
    const root = tempTree({ '.sync.yml': gitSync(remote.url) });
    expect((await run(root, 'apply')).code).toBe(0);
    expect(lockedCommit(root)).toBe(c1);
    const c2 = remote.commit({ 'base/files/static.txt': 'static v2\n' });

    expect(await again(root, 'apply')).toEqual({ code: 0, stderr: '', stdout: 'Nothing to change\n' });
    expect((await again(root, 'status', '--check')).code).toBe(0);
    expect(lockedCommit(root)).toBe(c1);
    expect(read(root, 'static.txt')).toBe('static\n');

    const noop = await again(root, 'update', '--noop');
    expect(noop.stdout).toMatch(/Would have changed 1 file\n$/);
    expect(lockedCommit(root)).toBe(c1);
    const r = await again(root, 'update');
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: `source ${remote.url}#main: ${c1.slice(0, 12)} -> ${c2.slice(0, 12)}\nchanged   static.txt  (template output changed)\nChanged 1 file\n`,
    });
    expect(lockedCommit(root)).toBe(c2);
    expect(read(root, 'static.txt')).toBe('static v2\n');
    expect((await again(root, 'update')).stdout).toBe(
      `source ${remote.url}#main: already at ${c2.slice(0, 12)}\nNothing to change\n`,
    );
  });

  it('follow a changed ref without update', async () => {
    const remote = tempRemote();
    const c1 = remote.commit(repoTree());
    const c2 = remote.commit({ 'base/files/static.txt': 'next\n' }, { branch: 'next' });
    const root = tempTree({ '.sync.yml': gitSync(remote.url) });
    await run(root, 'apply');
    expect(lockedCommit(root)).toBe(c1);
    writeFileSync(join(root, '.sync.yml'), gitSync(remote.url, 'next'));
    expect((await again(root, 'status', '--check')).code).toBe(2);
    expect((await again(root, 'apply')).code).toBe(0);
    expect(lockedCommit(root)).toBe(c2);
    expect(read(root, 'static.txt')).toBe('next\n');
  });

  it('update merges a hand edit with the new output against the locked commit, then records it', async () => {
    const remote = tempRemote();
    const c1 = remote.commit(repoTree());
    const root = tempTree({ '.sync.yml': gitSync(remote.url) });
    await run(root, 'apply');
    writeFileSync(join(root, 'config.txt'), read(root, 'config.txt').replace('line 5', 'line 5: mine'));
    const c2 = remote.commit(
      repoTree({
        config:
          '<%- | String $greeting | -%>\n# config v2\ngreeting = <%= $greeting %>\nline 2\nline 3\nline 4\nline 5\nitems = a\n',
      }),
    );
    resetGitFetches();
    const { code, json } = await runJson(root, 'update');
    expect(code).toBe(1);
    expect(json).toMatchObject({
      sources: [{ location: remote.url, ref: 'main', from: c1, to: c2 }],
      ok: false,
      conflicts: [{ path: 'config.txt', resolution: 'merged', conflicts: 0 }],
    });
    expect(read(root, 'config.txt')).toBe(
      '# config v2\ngreeting = hello\nline 2\nline 3\nline 4\nline 5: mine\nitems = a\n',
    );
    expect(lockedCommit(root)).toBe(c1);
    expect((await run(root, 'resolve', 'config.txt')).code).toBe(0);
    expect((await again(root, 'update')).code).toBe(0);
    expect(lockedCommit(root)).toBe(c2);
    expect((await again(root, 'status', '--check')).code).toBe(0);
    expect(read(root, 'config.txt')).toContain('line 5: mine');
  });

  it('an unreachable remote is a positioned error and nothing is written', async () => {
    const root = tempTree({ '.sync.yml': gitSync('file:///nonexistent/repo.git') });
    const before = snapshotDir(root);
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(snapshotDir(root)).toEqual(before);
    expect(r.stderr).toMatch(
      /\.sync\.yml:4:7: error: git source 'file:\/\/\/nonexistent\/repo\.git' cannot be fetched/,
    );
  });

  it("names a template error's repository, commit and path, beside the cached tree's path", async () => {
    const remote = tempRemote();
    const c1 = remote.commit(repoTree({ config: '<%= 1 + [] %>\n' }));
    const root = tempTree({ '.sync.yml': gitSync(remote.url) });
    const before = snapshotDir(root);
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(snapshotDir(root)).toEqual(before);
    expect(r.stderr).toContain(
      `/trees/${c1}/base/files/config.txt.epp:1:9: error: The value '[]' cannot be converted to Numeric.`,
    );
    expect(r.stderr).toContain(
      `  in: base/files/config.txt.epp of git source ${remote.url} at ${c1.slice(0, 7)}\n`,
    );
    const { json } = await runJson<{ problems: { origin: unknown }[] }>(root, 'status');
    expect(json.problems[0]!.origin).toEqual({
      location: remote.url,
      commit: c1,
      path: 'base/files/config.txt.epp',
    });
  });
});
