/**
 * A git source that cannot be fetched (unreachable, or not cached under --offline) does not hide what can
 * be checked without it: every problem of `.sync.yml` and of `metadata.json` is reported with the source's
 * error, each at its place, and nothing is written.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { tempRemote, useFreshGitCache } from '../helpers/git.js';
import { run, runJson, templates } from './cli-helpers.js';

useFreshGitCache();

/** A `.sync.yml` with a typo on line 3 and the git source `location` on line 5. */
const syncWithTypo = (location: string) => `pdk_template:
  version: 2
  templats: [rubocop]
  template_sources:
    - { type: git, location: "${location}" }
    - default
`;

const TYPO = `.sync.yml:3:3: error: unknown key 'templats' in pdk_template [SYNC_UNKNOWN_KEY]
  1 | pdk_template:
  2 |   version: 2
> 3 |   templats: [rubocop]
    |   ^
  hint: did you mean 'templates'?
`;

describe('validate with a git source that cannot be fetched', () => {
  it('reports the problems of .sync.yml and metadata.json with the unreachable source', async () => {
    const missing = pathToFileURL(join(tempDir(), 'missing.git')).href;
    const root = tempTree({ '.sync.yml': syncWithTypo(missing), 'metadata.json': '{"name": "acme-m",}\n' });
    const before = snapshotDir(root);
    const r = await run(root, 'validate');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('invalid: 3 errors, 0 warnings\n');
    expect(r.stderr).toMatch(
      new RegExp(
        `^\\.sync\\.yml:5:7: error: git source '${missing}' cannot be fetched .*\\[GIT_UNREACHABLE\\]\\n`,
      ),
    );
    expect(r.stderr).toContain(TYPO);
    expect(r.stderr).toMatch(
      /\nmetadata\.json:1:19: error: metadata\.json is not valid JSON: .*\[PROJECT_METADATA\]\n/,
    );
    expect(snapshotDir(root)).toEqual(before);
  });

  it('reports them with a source not in the cache under --offline; apply refuses with them too', async () => {
    const remote = tempRemote();
    remote.commit(templates('.', { extra: { 'template.json': { default_settings: {} } } }));
    const root = tempTree({ '.sync.yml': syncWithTypo(remote.url) });
    const before = snapshotDir(root);
    const { code, json } = await runJson<{ problems: object[] }>(root, 'validate', '--offline');
    expect(code).toBe(1);
    expect(json.problems).toEqual([
      expect.objectContaining({ severity: 'error', code: 'GIT_OFFLINE', line: 5, column: 7 }),
      {
        severity: 'error',
        code: 'SYNC_UNKNOWN_KEY',
        message: "unknown key 'templats' in pdk_template",
        file: join(root, '.sync.yml'),
        line: 3,
        column: 3,
        hint: "did you mean 'templates'?",
      },
    ]);
    const applied = await run(root, 'apply', '--offline');
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('[GIT_OFFLINE]');
    expect(applied.stderr).toContain(TYPO);
    expect(existsSync(join(root, '.pantograph.lock'))).toBe(false);
    expect(snapshotDir(root)).toEqual(before);
  });
});
