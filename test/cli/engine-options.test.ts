import { describe, expect, it } from 'vitest';
import { tempTree } from '../helpers/fs.js';
import { tempRemote, useFreshGitCache } from '../helpers/git.js';
import { run, runJson, templates } from './cli-helpers.js';

useFreshGitCache();

/** A project applying `hooked` from a git source; its template has a JavaScript hook. */
function gitProject(): { root: string; url: string } {
  const remote = tempRemote();
  remote.commit(
    templates('.', {
      hooked: {
        'template.json': { default_settings: { who: 'git' } },
        'hooks/after_default_settings.mjs':
          "export default (state) => ({ ...state, settings: { ...state.settings, who: 'hook' } });\n",
        'files/who.txt.epp': '<%= $who %>\n',
      },
    }),
  );
  const root = tempTree({
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: git\n      location: ${remote.url}\n  templates: [hooked]\n`,
  });
  return { root, url: remote.url };
}

describe('options shared by engine commands', () => {
  it('--trust lets an untrusted git source run its JavaScript hooks', async () => {
    const { root, url } = gitProject();
    const { code, json } = await runJson<{ problems: object[] }>(root, 'validate');
    expect(code).toBe(1);
    expect(json.problems).toEqual([
      expect.objectContaining({
        code: 'HOOK_UNTRUSTED',
        line: 4,
        column: 7,
        message: expect.stringContaining(url),
      }),
    ]);
    expect(await run(root, 'render', '--trust')).toEqual({
      code: 0,
      stdout: '==> who.txt (hooked) <==\nhook\n',
      stderr: '',
    });
  });

  it('--offline uses the cache only', async () => {
    const { root, url } = gitProject();
    const r = await run(root, 'list', '--offline');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^\\.sync\\.yml:4:7: error: git source '${url}' is not in the cache .*\\[GIT_OFFLINE\\]\\n`),
    );
    expect((await run(root, 'list')).code).toBe(0);
    expect((await run(root, 'list', '--offline')).code).toBe(0);
  });

  it('--no-strict renders an unknown variable empty, with a warning', async () => {
    const root = tempTree({
      '.sync.yml':
        'pdk_template:\n  version: 2\n  template_sources: [{type: filesystem, location: repo}]\n  templates: [loose]\n',
      ...templates('repo', { loose: { 'template.json': {}, 'files/x.txt.epp': 'a<%= $nope %>b\n' } }),
    });
    const strict = await runJson<{ problems: { code: string; line: number; column: number }[] }>(
      root,
      'render',
    );
    expect(strict.code).toBe(1);
    expect(strict.json.problems).toEqual([
      expect.objectContaining({ severity: 'error', code: 'EPP_UNKNOWN_VARIABLE', line: 1, column: 6 }),
    ]);
    const loose = await run(root, 'render', '--no-strict');
    expect(loose.code).toBe(0);
    expect(loose.stdout).toBe('==> x.txt (loose) <==\nab\n');
    expect(loose.stderr).toMatch(/warning: .*nope/);
  });
});
