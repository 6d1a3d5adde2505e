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
import { loadProject, type Project, type ProjectOptions } from './project.js';
import {
  cacheable,
  digestsFile,
  readRenderCache,
  renderCacheFile,
  writeRenderCache,
} from './render-cache.js';
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
  /**
   * What the plan was made from, when that is files alone: set unless a template may depend on anything
   * else (see {@link PlanInputs}).
   */
  readonly inputs?: PlanInputs;
}

/**
 * A plan made from files alone: the project's `.sync.yml`, `metadata.json` and lock, and the files of its
 * sources' directories, with the engine and the options. So it is when every applied template's output may
 * come from the render cache (`cacheable`: trusted, no JavaScript hook, no per-file hook), every git
 * source is at its locked commit (a tree in the cache, not a fetch), the project is V2, and `.sync.yml`
 * is the file on disk. A caller that finds all of these unchanged may keep what it derived from the plan
 * (`status` keeps its answer: answer-memo.ts).
 */
export interface PlanInputs {
  /** The directory of every source, in search order (the templates any of them offers may be applied). */
  readonly sourceDirs: readonly string[];
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
  const inputs = fromFilesAlone(project, options, how, lock)
    ? { sourceDirs: project.sources.map((s) => s.dir) }
    : undefined;
  return { root: project.root, lock, options, plan, digests, ...(inputs ? { inputs } : {}) };
}

function fromFilesAlone(
  project: Project,
  options: ProjectOptions,
  how: PlanAtOptions,
  lock: LockFile | undefined,
): boolean {
  // Positions from another file (`syncOrigins`) are not the project's files either.
  if (
    project.v1 !== undefined ||
    options.syncText !== undefined ||
    options.syncOrigins !== undefined ||
    !project.applied.every(cacheable)
  )
    return false;
  const locked = lockedCommitOf(lock);
  return project.sources.every(
    (s) =>
      s.spec.type !== 'git' ||
      (how.followRefs !== true && locked(s.spec) !== undefined && locked(s.spec) === s.commit),
  );
}
