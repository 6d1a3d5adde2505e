/**
 * Loads and plans the project in a directory the way `status` and `apply` do: git sources at the commits
 * the lock records (same location and `ref`), unless `followRefs` (what `update` does). One function, so
 * every client (the CLI, `fleet`, a web page, an editor) plans a project exactly alike.
 */

import { resolve } from 'node:path';
import { readLock } from '../sync/index.js';
import type { LockFile } from '../sync/lock.js';
import { plan as planProject } from './plan.js';
import { lockedCommitOf } from './previous-output.js';
import { loadProject, type ProjectOptions } from './project.js';
import { readRenderCache, renderCacheFile, writeRenderCache } from './render-cache.js';
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
}

export interface PlanAtOptions {
  /** Fetch each git source's `ref` and resolve it again instead of using the locked commit. */
  readonly followRefs?: boolean;
}

export async function planProjectAt(
  dir: string,
  options: ProjectOptions = {},
  how: PlanAtOptions = {},
): Promise<ProjectPlan> {
  const lock = readLock(dir);
  const cacheFile = renderCacheFile(cacheRoot(options.env), resolve(dir));
  const renderCache = readRenderCache(cacheFile);
  const project = await loadProject(dir, {
    ...options,
    ...(how.followRefs === true ? {} : { lockedCommit: lockedCommitOf(lock) }),
    renderCache,
  });
  const plan = await planProject(project);
  writeRenderCache(cacheFile, renderCache, plan.files);
  return { root: project.root, lock, options, plan };
}
