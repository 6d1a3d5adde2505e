/**
 * The fleet checks out and cleans its clones at will (`git checkout --force`, `git clean -ffdx`), so it
 * must only ever do that to a clone it made: a `workdir:` that reaches a checkout of the user's (found by
 * the security review: `workdir: ..` beside the user's own clone wiped its uncommitted, untracked and
 * ignored files) is refused, and nothing in it changes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fs.js';
import { git, moduleRemote, pantograph } from './fleet-helpers.js';

describe('the fleet workdir', () => {
  it("refuses a directory it did not clone, and leaves the user's work in it as it was", () => {
    const root = tempDir('fleet-workdir-');
    const remote = moduleRemote(root, 'work');
    // The user's own checkout of the same repository, with work in progress, where the fleet would clone.
    const mine = join(root, 'checkouts', 'work');
    mkdirSync(join(root, 'checkouts'));
    git(root, 'clone', '--quiet', remote, mine);
    writeFileSync(join(mine, '.gitignore'), '*.log\n');
    writeFileSync(join(mine, 'metadata.json'), `${readFileSync(join(mine, 'metadata.json'), 'utf8')}\n`);
    writeFileSync(join(mine, 'notes.txt'), 'untracked\n');
    writeFileSync(join(mine, 'debug.log'), 'ignored\n');
    const head = git(mine, 'rev-parse', 'HEAD');
    const status = git(mine, 'status', '--porcelain', '--ignored');
    const fleetDir = join(root, 'fleet');
    mkdirSync(fleetDir);
    writeFileSync(
      join(fleetDir, 'fleet.yml'),
      `version: 1\nworkdir: ../checkouts\nrepositories:\n  - { name: work, url: ${remote} }\n`,
    );

    for (const command of [['status'], ['apply']]) {
      const r = pantograph(fleetDir, ['fleet', ...command]);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout + r.stderr).toContain(`${mine} is in the way: it is not a clone made by the fleet`);
      expect(r.stdout + r.stderr).toContain(`${join(fleetDir, 'fleet.yml')}:4:5`);
    }
    const json = pantograph(fleetDir, ['--format', 'json', 'fleet', 'status']);
    const report = JSON.parse(json.stdout) as { repositories: { error?: { code: string; line?: number } }[] };
    expect(report.repositories[0]!.error).toMatchObject({ code: 'FLEET_PATH', line: 4 });
    expect(git(mine, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(mine, 'status', '--porcelain', '--ignored')).toBe(status);
    expect(readFileSync(join(mine, 'notes.txt'), 'utf8')).toBe('untracked\n');
    expect(readFileSync(join(mine, 'debug.log'), 'utf8')).toBe('ignored\n');
  });

  it('reuses the clones it made, run after run', () => {
    const root = tempDir('fleet-workdir-');
    const remote = moduleRemote(root, 'mod');
    writeFileSync(join(root, 'fleet.yml'), `version: 1\nrepositories:\n  - { name: mod, url: ${remote} }\n`);
    for (let run = 0; run < 2; run++) {
      const r = pantograph(root, ['fleet', 'status']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('in the way');
    }
  });
});
