/**
 * One repository of a fleet run, through the library as `status` and `apply` use it: get the working
 * copy (clone or fetch, git remotes only), reuse the previous run's record when nothing it depended on
 * moved (repository-resume.ts), else plan and report or apply (plan-and-apply.ts), and commit, push and
 * propose (commit-push-propose.ts). `update` plans with every git source at the latest commit of its
 * `ref` (as `pantograph update`), then goes on as apply.
 *
 * A repository whose apply would meet a conflict, or overwrite files Pantograph never wrote without
 * `--yes`, is left exactly as it was: the check runs before anything is written, and a clone is reset to
 * its starting point when anything fails on the way (here: an error or an interruption).
 */
import { EngineError } from '../engine/errors.js';
import type { Fleet, FleetRepository } from './fleet-file.js';
import { planAndApply } from './plan-and-apply.js';
import type { RepositoryRecord } from './record.js';
import { errorOf } from './repository-errors.js';
import type { RepositoryRunOptions, RunFacts } from './repository-options.js';
import { resumeKey, settled, unmoved } from './repository-resume.js';
import { prepareClone, readRefs, resetClone, settleClone, type WorkingCopy } from './working-copy.js';

/**
 * The steps an interrupted run stops a repository before: everything up to them is undone by resetting
 * the clone. Once committed, a repository goes on (push, pull request): stopping there would leave a
 * commit no one proposed, and both are short.
 */
const STOPS_AT = new Set(['cloning', 'fetching', 'checking out', 'planning', 'applying', 'committing']);

/** A repository stopped before `step` because the run was interrupted. */
class RepositoryInterrupted extends EngineError {
  constructor(step: string) {
    super('FLEET_INTERRUPTED', `the run was interrupted before ${step}`);
  }
}

/** Runs one repository; never throws: a failure is the record's `error`. */
export async function runRepository(
  fleet: Fleet,
  repo: FleetRepository,
  given: RepositoryRunOptions,
): Promise<RepositoryRecord> {
  const started = Date.now();
  const base = { name: repo.name, kind: repo.url !== undefined ? ('git' as const) : ('path' as const) };
  let copy: WorkingCopy | undefined;
  const options: RepositoryRunOptions = {
    ...given,
    onStep: (step) => {
      if (given.signal?.aborted === true && STOPS_AT.has(step)) throw new RepositoryInterrupted(step);
      given.onStep?.(step);
    },
  };
  try {
    let key: string | undefined;
    if (repo.url !== undefined) {
      copy = await prepareClone(
        fleet.workdir,
        repo,
        options.git,
        options.onStep,
        options.project.offline === true,
      );
      key = resumeKey(fleet, repo, copy, copy.refs, options);
      const previous = options.resume?.lookup(repo.name, key);
      if (previous && (await unmoved(fleet, repo, copy, previous.follow, options))) {
        // What this run did: nothing committed, pushed or proposed (docs/json-output.md).
        const { pullRequest: _pr, lock: _lock, ...record } = previous.record;
        return {
          ...record,
          ...(record.committed !== undefined ? { committed: false } : {}),
          ...(record.pushed !== undefined ? { pushed: false } : {}),
          resumed: true,
          durationMs: Date.now() - started,
        };
      }
    }
    const facts: RunFacts = { cacheable: false, follow: [] };
    const body = await planAndApply(fleet, repo, copy, options, facts);
    if (copy) settleClone(copy); // committed, or reset: clean again
    const cacheable = facts.cacheable;
    const record: RepositoryRecord = { ...base, ...body, durationMs: Date.now() - started };
    if (key !== undefined && cacheable && copy) {
      // The key is taken again after an apply: the run may have moved the branch (a commit, a push).
      const refs =
        options.mode !== 'status' && !options.noop ? await readRefs(copy.dir, options.git) : copy.refs;
      options.resume?.remember(
        repo.name,
        resumeKey(fleet, repo, copy, refs, options),
        settled(record, options),
        facts.follow,
      );
    }
    return record;
  } catch (e) {
    if (copy && options.mode !== 'status') {
      await resetClone(copy, options.git)
        .then(() => settleClone(copy!))
        .catch(() => undefined);
    }
    const interrupted = e instanceof EngineError && e.code === 'FLEET_INTERRUPTED';
    return {
      ...base,
      result: interrupted ? 'interrupted' : 'failed',
      files: [],
      templates: [],
      ...(copy?.baseCommit ? { baseCommit: copy.baseCommit } : {}),
      error: interrupted
        ? {
            code: e.code,
            message: `${e.message}: nothing of this run was kept${copy && options.mode !== 'status' ? ' (its clone was reset to its last commit)' : ''}`,
            hint: 'run the same command again: the repositories done are not redone',
          }
        : errorOf(e),
      durationMs: Date.now() - started,
    };
  }
}
