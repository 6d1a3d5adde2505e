/**
 * Loads and plans the project in a directory the way `status` and `apply` do: git sources at the commits
 * the lock records (same location and `ref`), unless `followRefs` (what `update` does). One function, so
 * every client (the CLI, `fleet`, a web page, an editor) plans a project exactly alike.
 */
import { readLock } from '../sync/index.js';
import type { LockFile } from '../sync/lock.js';
import { plan as planProject } from './plan.js';
import { lockedCommitOf } from './previous-output.js';
import { loadProject, type ProjectOptions } from './project.js';
import type { RenderPlan } from './render-plan.js';

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
  const project = await loadProject(dir, {
    ...options,
    ...(how.followRefs === true ? {} : { lockedCommit: lockedCommitOf(lock) }),
  });
  return { root: project.root, lock, options, plan: await planProject(project) };
}
