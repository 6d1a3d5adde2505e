/**
 * The V1 / modulesync mode through the library (src/index.ts), as README's "The library API" shows it:
 * `templateUrl` names the repository, `project.v1` says what renders the project, `apply` writes, and a
 * later load without `templateUrl` takes the repository the lock recorded, telling `onNote`.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apply, loadProject, plan, planProjectAt, type V1Project } from '../../../src/index.js';
import { removeTempDirs, tempDir } from '../../helpers/fs.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/modulesync');
const CONFIGURATION = join(FIXTURES, 'modulesync_config-10.8.0');

beforeEach(() => vi.stubEnv('PANTOGRAPH_CACHE_DIR', tempDir('pantograph-cache-')));
afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

describe('the V1 / modulesync mode from the library', () => {
  it('templateUrl, project.v1, apply, then the lock names the configuration', async () => {
    const root = join(tempDir(), 'puppet-autofs');
    cpSync(join(FIXTURES, 'modules/puppet-autofs'), root, { recursive: true });
    const project = await loadProject(root, { templateUrl: CONFIGURATION });
    const v1: V1Project | undefined = project.v1;
    expect([v1?.kind, v1?.origin, v1?.url]).toEqual(['modulesync', '--template-url', CONFIGURATION]);
    const planned = await planProjectAt(root, { templateUrl: CONFIGURATION });
    expect(planned.plan.problems).toEqual([]);
    const result = await apply(planned.plan, { confirm: () => true });
    expect(result.ok).toBe(true);
    expect(readFileSync(join(root, '.pantograph.lock'), 'utf8')).toContain('"modulesync"');
    const notes: string[] = [];
    const again = await loadProject(root, { onNote: (text) => notes.push(text) });
    expect(again.v1?.origin).toBe('.pantograph.lock');
    expect(notes).toEqual([
      `the modulesync configuration is ${CONFIGURATION}, which an earlier run recorded in .pantograph.lock (--template-url names another)`,
    ]);
    expect((await plan(again)).files.map((f) => f.path)).toEqual(planned.plan.files.map((f) => f.path));
  });
});
