/**
 * A modulesync user's `msync update` flags on `pantograph fleet`: the fleet's own where it has them
 * (`--exclude` for `--negative_filter`), else a clear error naming the fleet's way, before anything is
 * cloned or written (README "Coming from modulesync").
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs, 60_000);

function fleet(names: readonly string[]): string {
  const root = tempDir('fleet-msync-flags-');
  const entries = names.map((n) => `  - { name: ${n}, url: ${moduleRemote(root, n)} }\n`);
  writeFileSync(join(root, 'fleet.yml'), `version: 1\nrepositories:\n${entries.join('')}`);
  return root;
}

describe("modulesync's flags", () => {
  it.each([
    [['--remote_branch', 'x'], '--remote_branch', '--branch NAME'],
    [['-r', 'x'], '--remote-branch', '--branch NAME'],
    [['--pr-target-branch', 'develop'], '--pr-target-branch', 'set `base:`'],
    [['-x', 'legacy'], '--negative-filter', '--exclude GLOB'],
    [['--negative_filter', 'legacy'], '--negative_filter', '--exclude GLOB'],
    [['--bump'], '--bump', 'release each module'],
    [['--changelog'], '--changelog', 'release each module'],
    [['--tag'], '--tag', 'release each module'],
    [['--amend'], '--amend', 'continues the work branch'],
    [['--force'], '--force', 'never force-pushes'],
    [['--skip-broken'], '--skip-broken', 'failed repositories are listed at the end'],
    [['--pre-commit-script', 'x.sh'], '--pre-commit-script', '`post` commands'],
    [['-c', '.'], '--project-root', 'fleet import-modulesync'],
    [['--configs', '.'], '--configs', 'fleet import-modulesync'],
  ])('fleet apply %j: a clear error naming the fleet way, nothing cloned', (args, named, hint) => {
    const root = fleet(['puppet-ntp']);
    const r = pantograph(root, ['fleet', 'apply', '--noop', ...args]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`error: ${named} is modulesync's: `);
    expect(r.stderr).toContain(hint);
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);
  });

  it('--exclude leaves repositories out by name glob (msync --negative_filter), on plan-matrix too', () => {
    const root = fleet(['puppet-apache', 'puppet-legacy', 'puppet-ntp']);
    const r = pantograph(root, ['--format', 'json', 'fleet', 'status', '--exclude', '*legacy*']);
    const names = (JSON.parse(r.stdout).repositories as { name: string }[]).map((x) => x.name);
    expect(names).toEqual(['puppet-apache', 'puppet-ntp']);
    expect(existsSync(join(root, '.pantograph-fleet', 'puppet-legacy'))).toBe(false);
    const matrix = pantograph(root, ['fleet', 'plan-matrix', '--per-shard', '1', '--exclude', 'puppet-a*']);
    expect(JSON.parse(matrix.stdout).include).toHaveLength(2);
  });

  it("a --filter written as msync's regular expression selects nothing: the hint gives the glob", () => {
    const root = fleet(['puppet-apache', 'puppet-ntp']);
    const part = pantograph(root, ['fleet', 'status', '--filter', 'apache']);
    expect(part.status).toBe(1);
    expect(part.stderr).toContain("--filter '*apache*' selects the names containing 'apache'");
    const regex = pantograph(root, ['fleet', 'status', '--filter', '^puppet-(ntp|apache)$']);
    expect(regex.stderr).toContain("not modulesync's regular expressions");
  });
});
