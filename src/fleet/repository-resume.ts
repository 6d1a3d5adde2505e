/**
 * Reusing a repository's previous record (state.ts keeps it in the clone): the key of everything its run
 * depended on, whether the git sources it took at their `ref`'s latest commit are still there, and the
 * record a second run of an applied repository would make.
 */
import { lockedCommitOf } from '../engine/previous-output.js';
import type { RenderPlan } from '../engine/render-plan.js';
import { gitSourceHead } from '../engine/sources/index.js';
import { sameLocation } from '../shared/url-credentials.js';
import type { LockFile } from '../sync/lock.js';
import { engineVersion } from '../version.js';
import type { Fleet, FleetRepository } from './fleet-file.js';
import type { RepositoryRecord } from './record.js';
import type { RepositoryRunOptions } from './repository-options.js';
import { type FollowedSource, keyOf } from './state.js';
import { templateSourcesOf } from './sync-overrides.js';
import type { WorkingCopy } from './working-copy.js';

/**
 * What running the repository again would report: after an apply, its branch is in line and there is
 * nothing to commit, push or propose (a pull request once opened stays as it is).
 */
export function settled(record: RepositoryRecord, options: RepositoryRunOptions): RepositoryRecord {
  if (options.mode === 'status' || options.noop || record.result !== 'applied') return record;
  const { pullRequest: _pr, lock: _lock, ...rest } = record;
  return { ...rest, result: 'in-line', files: [], committed: false, pushed: false };
}

/**
 * Whether the git sources a previous plan took at their `ref`'s latest commit are still there (fetched
 * once per process, as planning would). Anything that cannot tell means "moved": the repository is
 * planned again.
 */
export async function unmoved(
  fleet: Fleet,
  repo: FleetRepository,
  copy: WorkingCopy,
  follow: readonly FollowedSource[],
  options: RepositoryRunOptions,
): Promise<boolean> {
  for (const source of follow) {
    try {
      const head = await gitSourceHead(
        {
          type: 'git',
          location: fleetLocation(fleet, repo, source),
          ...(source.ref !== undefined ? { ref: source.ref } : {}),
        },
        {
          root: copy.dir,
          env: options.project.env ?? options.env,
          ...(options.project.offline !== undefined ? { offline: options.project.offline } : {}),
          ...(options.project.gitBinary !== undefined ? { gitBinary: options.project.gitBinary } : {}),
        },
      );
      if (head !== source.commit) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** A followed source's location with the credentials the fleet file gives it (the state keeps none). */
function fleetLocation(fleet: Fleet, repo: FleetRepository, source: FollowedSource): string {
  for (const s of templateSourcesOf(fleet, repo) ?? []) {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) continue;
    const spec = s as { type?: unknown; location?: unknown; ref?: unknown };
    if (spec.type !== 'git' || typeof spec.location !== 'string') continue;
    if (sameLocation(spec.location, source.location) && (spec.ref ?? undefined) === source.ref) {
      return spec.location;
    }
  }
  return source.location;
}

/** The git sources of a plan that the lock does not record: planned at their `ref`'s latest commit. */
export function followedSources(plan: RenderPlan, lock: LockFile | undefined): FollowedSource[] {
  const locked = lockedCommitOf(lock);
  return plan.sources.flatMap((s) =>
    s.type === 'git' &&
    s.commit !== undefined &&
    locked({ type: 'git', location: s.location, ...(s.ref !== undefined ? { ref: s.ref } : {}) }) ===
      undefined
      ? [{ location: s.location, ...(s.ref !== undefined ? { ref: s.ref } : {}), commit: s.commit }]
      : [],
  );
}

/** Everything a repository's run depends on besides its files: see state.ts. */
export function resumeKey(
  fleet: Fleet,
  repo: FleetRepository,
  copy: WorkingCopy,
  refs: ReadonlyMap<string, string>,
  options: RepositoryRunOptions,
): string {
  const branch = options.branch ?? repo.branch;
  // Where things are written in the fleet file is not an input: moving a line redoes nothing.
  const { position: _position, labels: _labels, settingOrigins: _origins, ...spec } = repo;
  return keyOf({
    version: engineVersion(),
    mode: options.mode,
    noop: options.noop,
    flags: [options.push, options.pr, options.yes, options.diff, options.message ?? null, branch],
    spec,
    fleet: [
      fleet.templateSources ?? null,
      fleet.templateUrl ?? null,
      fleet.commit,
      fleet.pullRequest,
      fleet.forge ?? null,
    ],
    strict: options.project.strict ?? true,
    trust: options.project.trust ?? false,
    base: copy.baseCommit,
    remoteBranch: refs.get(`refs/remotes/origin/${branch}`) ?? null,
    localBranch: refs.get(`refs/heads/${branch}`) ?? null,
  });
}
