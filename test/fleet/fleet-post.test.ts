/**
 * A repository's `post` command failing under `fleet apply`: the report says which command, on which
 * file, with what exit status and output, at the command's line in the repository's `.sync.yml`, as the
 * one-project `apply` does; nothing is committed or pushed. Real git repositories.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { branches, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

describe('a failing post command in a fleet repository', () => {
  it('is reported with its command, file, exit status, output and line, and nothing is committed', () => {
    const root = tempDir('fleet-post-');
    const bare = moduleRemote(root, 'm', (work) => {
      writeFileSync(
        join(work, '.sync.yml'),
        [
          'pdk_template:',
          '  version: 2',
          '  post:',
          '    - { "Rakefile": "sh -c \\"echo post-out; echo post-err >&2; exit 3\\"" }',
          'puppet_lint:',
          '  fail_on_warnings: false',
          '',
        ].join('\n'),
      );
    });
    writeFileSync(
      join(root, 'fleet.yml'),
      'version: 1\nrepositories:\n  - { name: m, url: remotes/m.git }\n',
    );
    const before = branches(bare);

    const text = pantograph(root, ['fleet', 'apply', '--push']);
    expect(text.status).toBe(1);
    const syncFile = join(root, '.pantograph-fleet', 'm', '.sync.yml');
    expect(text.stderr).toMatch(
      /m: failed: post command `sh -c "echo post-out; echo post-err >&2; exit 3"` failed on Rakefile \(exit 3\)/,
    );
    expect(text.stderr).toContain(`(${syncFile}:4:21)`);
    expect(text.stderr).toContain('    post-out\n    post-err\n');
    expect(text.stderr).toContain("hint: fix the command (`post` in the repository's .sync.yml");
    expect(text.stderr).not.toContain('run `pantograph apply` in the repository');
    // The position is the repository's own file, as the clone shows it.
    expect(readFileSync(syncFile, 'utf8').split('\n')[3]!.slice(20)).toMatch(/^"sh -c/);

    const json = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--push']);
    const record = (JSON.parse(json.stdout) as { repositories: { result: string; error: object }[] })
      .repositories[0]!;
    expect(record.result).toBe('failed');
    expect(record.error).toMatchObject({
      code: 'FLEET_APPLY',
      file: syncFile,
      line: 4,
      column: 21,
      output: 'post-out\npost-err',
    });
    expect(branches(bare)).toEqual(before); // nothing pushed
  });
});
