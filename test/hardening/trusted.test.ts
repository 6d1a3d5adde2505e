/**
 * Issue 11, item 4: `trusted: false` on a filesystem source is a real option. Such a source is untrusted
 * exactly as a git source without `trusted: true`: its JavaScript hooks are refused (HOOK_UNTRUSTED, with
 * the same hint), never run; `--trust` trusts it. A value that is not a boolean is an error with its place.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

/** A template whose .mjs hook leaves a marker file when it runs (proof that JavaScript ran). */
function repoWithJsHook(marker: string): string {
  return tempTree({
    'js/template.json': JSON.stringify({
      name: 'js',
      always_apply: true,
      default_settings: { word: 'plain' },
    }),
    'js/files/out.txt.epp': '<%= $word %>\n',
    'js/hooks/after_default_settings.mjs': `import { writeFileSync } from 'node:fs';
export default (s) => { writeFileSync(${JSON.stringify(marker)}, 'ran'); return { ...s, settings: { word: 'hooked' } }; };
`,
  });
}

function project(repo: string, trusted: string): string {
  return writeTree(tempDir(), {
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n${trusted}`,
  });
}

describe('a filesystem source marked trusted: false', () => {
  it('refuses its JavaScript hooks, which never run', async () => {
    const marker = join(tempDir(), 'hook-ran');
    const root = project(repoWithJsHook(marker), '      trusted: false\n');
    for (const command of ['status', 'validate', 'apply']) {
      const r = await run(root, command);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('HOOK_UNTRUSTED');
      expect(r.stderr).toContain('is not trusted');
      expect(r.stderr).toContain('.sync.yml:4:7');
    }
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(root, 'out.txt'))).toBe(false);
  });

  it('runs them with --trust, and by default (filesystem sources are trusted unless marked)', async () => {
    const marker = join(tempDir(), 'hook-ran');
    const repo = repoWithJsHook(marker);
    const marked = project(repo, '      trusted: false\n');
    expect((await run(marked, 'apply', '--trust')).code).toBe(0);
    expect(readFileSync(join(marked, 'out.txt'), 'utf8')).toBe('hooked\n');
    const plain = project(repo, '');
    expect((await run(plain, 'apply')).code).toBe(0);
    expect(readFileSync(join(plain, 'out.txt'), 'utf8')).toBe('hooked\n');
  });

  it('refuses a trusted value that is not a boolean, with its position', async () => {
    const root = project(repoWithJsHook(join(tempDir(), 'm')), '      trusted: "no"\n');
    const r = await run(root, 'validate');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\.sync\.yml:6:\d+: error: .*trusted/);
  });

  it('can be added with `add source filesystem location=... trusted=false`', async () => {
    const repo = repoWithJsHook(join(tempDir(), 'm'));
    const root = writeTree(tempDir(), { '.sync.yml': 'pdk_template:\n  version: 2\n' });
    expect((await run(root, 'add', 'source', 'filesystem', `location=${repo}`, 'trusted=false')).code).toBe(
      0,
    );
    expect(readFileSync(join(root, '.sync.yml'), 'utf8')).toContain('trusted: false');
    expect((await run(root, 'status')).stderr).toContain('HOOK_UNTRUSTED');
  });
});
