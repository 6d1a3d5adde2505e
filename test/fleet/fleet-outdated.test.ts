/**
 * A work branch the base moved past: `fleet apply` continues the remote work branch of a previous run,
 * which then lacks the base's new commits (here its own `.sync.yml` change). The run says so, writes
 * nothing and is not green; once the base is merged into the branch, the fleet goes on. Real git.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { appendSync, branches, git, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

interface Record {
  result: string;
  branch?: string;
  commit?: string;
  error?: { code: string; message: string; hint?: string };
}

describe('an out-of-date work branch', () => {
  it('is reported (nothing written, exit 1) until the base is merged into it', () => {
    const root = tempDir('fleet-outdated-');
    const bare = moduleRemote(root, 'm', (w) => appendSync(w, 'puppet_lint:\n  fail_on_warnings: false\n'));
    writeFileSync(
      join(root, 'fleet.yml'),
      'version: 1\nrepositories:\n  - { name: m, url: remotes/m.git }\n',
    );
    const first = pantograph(root, ['fleet', 'apply', '--push']);
    expect(first.status, first.stderr).toBe(0);

    // Someone changes the base's .sync.yml while the pull request is open.
    const dev = join(root, 'dev');
    git(root, 'clone', '--quiet', bare, dev);
    appendSync(dev, 'rubocop:\n  selected_profile: cleanups_only\n');
    git(dev, 'commit', '--quiet', '-am', 'base moves on');
    git(dev, 'push', '--quiet', 'origin', 'main');
    const before = branches(bare);

    for (const args of [
      ['apply', '--push'],
      ['apply', '--noop'],
      ['update', '--push'],
    ]) {
      const r = pantograph(root, ['--format', 'json', 'fleet', ...args]);
      expect(r.status, args.join(' ')).toBe(1);
      const record = (JSON.parse(r.stdout) as { repositories: Record[] }).repositories[0]!;
      expect(record).toMatchObject({
        result: 'conflict',
        branch: 'pantograph/update',
        commit: before['pantograph/update'],
      });
      expect(record.error?.code).toBe('FLEET_OUTDATED');
      expect(record.error?.message).toContain(
        `the work branch pantograph/update (${before['pantograph/update']!.slice(0, 10)}) does not contain main's latest commit ${before.main!.slice(0, 10)}`,
      );
      expect(record.error?.hint).toContain('merge main into pantograph/update');
    }
    expect(branches(bare)).toEqual(before); // nothing pushed
    const text = pantograph(root, ['fleet', 'apply', '--push']);
    expect(text.stderr).toContain('m: conflict: the work branch pantograph/update');

    // What the hint says: merge the base into the work branch, push, run again.
    git(dev, 'fetch', '--quiet');
    git(dev, 'checkout', '--quiet', '-b', 'pantograph/update', 'origin/pantograph/update');
    git(dev, 'merge', '--quiet', '--no-edit', '-X', 'theirs', 'main');
    git(dev, 'push', '--quiet', 'origin', 'pantograph/update');
    const after = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--push']);
    expect(after.status, after.stdout).toBe(0);
    const record = (JSON.parse(after.stdout) as { repositories: Record[] }).repositories[0]!;
    expect(['applied', 'in-line']).toContain(record.result);
    expect(git(bare, 'merge-base', '--is-ancestor', 'main', 'pantograph/update')).toBe('');
  });
});
