/**
 * Loads and plans the project in a directory the way `status` and `apply` do: git sources at the commits
 * the lock records (same location and `ref`), unless `followRefs` (what `update` does). One function, so
 * every client (the CLI, `fleet`, a web page, an editor) plans a project exactly alike.
 */

import { resolve } from 'node:path';
import { FileDigests } from '../sync/digests.js';
import { readLock } from '../sync/index.js';
import type { LockFile } from '../sync/lock.js';
import { plan as planProject } from './plan.js';
import { lockedCommitOf } from './previous-output.js';
import { loadProject, type ProjectOptions } from './project.js';
import { digestsFile, readRenderCache, renderCacheFile, writeRenderCache } from './render-cache.js';
import type { RenderPlan } from './render-plan.js';
import { cacheRoot } from './sources/git.js';

export interface ProjectPlan {
  /** The project root (the directory holding `.sync.yml`). */
  readonly root: string;
  /** The lock as it was before this run. */
  readonly lock: LockFile | undefined;
  /** The engine options used (without locked commits). */
  readonly options: ProjectOptions;
  readonly plan: RenderPlan;
  /**
   * Hashes known from unchanged stats, with those computed while planning: give it to the sync library's
   * `status`/`apply` (`digests` option), which reads only the project files it does not know and saves it.
   */
  readonly digests: FileDigests;
}

export interface PlanAtOptions {
  /** Fetch each git source's `ref` and resolve it again instead of using the locked commit. */
  readonly followRefs?: boolean;
  /** The digest record to use instead of the project's own (`digestsFile`). */
  readonly digests?: FileDigests;
}

export async function planProjectAt(
  dir: string,
  options: ProjectOptions = {},
  how: PlanAtOptions = {},
): Promise<ProjectPlan> {
  const lock = readLock(dir);
  const cacheFile = renderCacheFile(cacheRoot(options.env), resolve(dir));
  const renderCache = readRenderCache(cacheFile);
  const digests = how.digests ?? FileDigests.open(digestsFile(cacheRoot(options.env), resolve(dir)));
  const project = await loadProject(dir, {
    ...options,
    ...(how.followRefs === true ? {} : { lockedCommit: lockedCommitOf(lock) }),
    renderCache,
    digests,
  });
  const plan = await planProject(project);
  writeRenderCache(cacheFile, renderCache, plan.files);
  return { root: project.root, lock, options, plan, digests };
}
