/**
 * The steps a fleet run says each repository is at (the live progress lines on a terminal): the real one,
 * a clone's first `cloning` or a later `fetching`, then `checking out` (on a large repository the long
 * part), not `fetching` until planning starts. Real git remotes, the library as the CLI calls it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FleetEvent, loadFleet, runFleet } from '../../src/fleet/index.js';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { appendSync, gitEnv, moduleRemote } from './fleet-helpers.js';

afterAll(removeTempDirs, 60_000);

/** The steps the run reported for each repository, in order. */
async function stepsOf(fleetFile: string, mode: 'status' | 'apply'): Promise<Record<string, string[]>> {
  const fleet = loadFleet(fleetFile);
  const steps: Record<string, string[]> = {};
  const onEvent = (event: FleetEvent) => {
    if (event.type === 'step') (steps[event.name] ??= []).push(event.step);
  };
  const report = await runFleet(fleet, fleet.repositories, { mode, env: gitEnv, jobs: 1, onEvent });
  expect(report.repositories.map((r) => r.error)).toEqual([undefined]);
  return steps;
}

describe('the step a fleet run shows for a repository', () => {
  it('is cloning, then checking out, on the first run; fetching, then checking out, on the next', async () => {
    const root = tempDir('fleet-steps-');
    const remote = moduleRemote(root, 'drifting', (work) =>
      appendSync(work, 'puppet_lint:\n  fail_on_warnings: false\n'),
    );
    const file = join(root, 'fleet.yml');
    writeFileSync(file, `version: 1\nrepositories:\n  - { name: drifting, url: ${remote} }\n`);

    expect(await stepsOf(file, 'status')).toEqual({ drifting: ['cloning', 'checking out', 'planning'] });
    expect(await stepsOf(file, 'apply')).toEqual({
      drifting: ['fetching', 'checking out', 'planning', 'applying', 'committing'],
    });
  });
});
