/**
 * A fleet run: the selected repositories, each run by `runRepository` in a bounded pool (`jobs`, default
 * the core count); one failing repository never stops the others. Clones, git template sources (fetched
 * once per process by the engine) and the template load are shared by the whole run, which is what makes
 * it faster than a loop of `pantograph status`/`apply`/`update`.
 */
import { availableParallelism } from 'node:os';
import { EngineError } from '../engine/errors.js';
import type { ProjectOptions } from '../engine/project.js';
import { BRANCH_HINT, branchNameProblem } from './branch-name.js';
import { duplicateProblem, type Fleet, type FleetRepository } from './fleet-file.js';
import { type GitRunner, gitRunner } from './git.js';
import { type FleetMode, type FleetReport, type RepositoryRecord, reportOk, summarize } from './record.js';
import { duplicateEntries } from './repository-identity.js';
import { runRepository } from './repository-run.js';
import { acquireFleetLock } from './run-lock.js';
import { selectionDigest } from './select.js';
import { openState } from './state.js';

export interface FleetRunOptions {
  /**
   * `status`: report drift; `apply`: apply and commit; `update`: as apply, with every git source moved
   * to the latest commit of its `ref` first (as `pantograph update` in each repository).
   */
  readonly mode: FleetMode;
  /** Apply: write nothing anywhere (no file, commit, push or pull request); report what would change. */
  readonly noop?: boolean;
  readonly diff?: boolean;
  /** Apply: push the work branch to the remote. */
  readonly push?: boolean;
  /** Apply: open or update a pull (merge) request per changed repository; needs `push`. */
  readonly pr?: boolean;
  /** Apply: overwrite existing files Pantograph never wrote (as `apply --yes`). */
  readonly yes?: boolean;
  /** The work branch of every repository (else each repository's `branch`). */
  readonly branch?: string;
  /** The commit message (else the fleet file's, else one naming the templates applied). */
  readonly message?: string;
  /** Repositories worked on at once (default: the number of cores). */
  readonly jobs?: number;
  /** Ignore the previous run's state: every repository is run again (git sources stay where locked). */
  readonly fresh?: boolean;
  /** The shard this run is, for the report (`i/n`). */
  readonly shard?: string;
  /** A shard's whole selection (the names it was split from), recorded so that `fleet report` checks it. */
  readonly selected?: readonly string[];
  /** Engine options (trust, strictness, offline) for every repository. */
  readonly project?: ProjectOptions;
  readonly env?: NodeJS.ProcessEnv;
  readonly gitBinary?: string;
  /** Time limit of one git call in milliseconds (default 120 s). */
  readonly gitTimeoutMs?: number;
  /** Hears each repository start, step and finish (progress display). */
  readonly onEvent?: (event: FleetEvent) => void;
  /**
   * Interrupts the run (the CLI aborts it on SIGINT and SIGTERM, with the signal's name as the reason):
   * no repository is started any more, those under way stop at their next step with their clone reset
   * (`interrupted`), and the report says which were done, interrupted and not started.
   */
  readonly signal?: AbortSignal;
}

export type FleetEvent =
  | { readonly type: 'step'; readonly name: string; readonly step: string }
  | {
      readonly type: 'done';
      readonly record: RepositoryRecord;
      readonly finished: number;
      readonly total: number;
    };

export async function runFleet(
  fleet: Fleet,
  repositories: readonly FleetRepository[],
  options: FleetRunOptions,
): Promise<FleetReport> {
  if (
    options.project?.offline === true &&
    options.noop !== true &&
    (options.push === true || options.pr === true)
  ) {
    // msync's --offline pushes nothing either: a push or a pull request is the network.
    throw new EngineError(
      'FLEET_USAGE',
      `${options.pr === true ? '--pr' : '--push'} needs the network, and --offline reaches no remote`,
      {
        hint: 'leave --offline out to push and propose, or leave --push and --pr out to commit on the work branch in the clones only',
      },
    );
  }
  if (options.pr === true && options.push !== true && options.noop !== true) {
    throw new EngineError('FLEET_FORGE', '--pr needs --push: a pull request proposes a pushed branch', {
      hint: 'run `pantograph fleet apply --push --pr`',
    });
  }
  if (options.pr === true && !fleet.forge) {
    throw new EngineError('FLEET_FORGE', `--pr needs a \`forge:\` in ${fleet.file}`, {
      hint: 'add `forge: { type: github }` (or gitlab, with `api:` for your own instance)',
    });
  }
  if (options.branch !== undefined) {
    const why = branchNameProblem(options.branch);
    if (why !== undefined) {
      throw new EngineError(
        'FLEET_USAGE',
        `--branch '${options.branch}' is not a valid branch name for git: it ${why}`,
        {
          hint: BRANCH_HINT,
        },
      );
    }
  }
  if (options.push === true && options.noop !== true) checkOneBranchEach(repositories, options.branch);
  const env = options.env ?? process.env;
  const git = gitRunner({
    env,
    ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
    ...(options.gitTimeoutMs !== undefined ? { timeoutMs: options.gitTimeoutMs } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  // No other run may work on these clones meanwhile; the shards of one run share none, so they may. A
  // `path:` repository is used in place, under the project's own run lock (as `apply` there).
  const clones = repositories.filter((r) => r.url !== undefined).map((r) => r.name);
  const lock =
    clones.length > 0
      ? acquireFleetLock(fleet.workdir, clones, {
          command: options.noop === true ? `${options.mode} --noop` : options.mode,
          ...(options.shard !== undefined ? { shard: options.shard } : {}),
        })
      : undefined;
  try {
    return await runLocked(fleet, repositories, options, env, git);
  } finally {
    lock?.release();
  }
}

async function runLocked(
  fleet: Fleet,
  repositories: readonly FleetRepository[],
  options: FleetRunOptions,
  env: NodeJS.ProcessEnv,
  git: GitRunner,
): Promise<FleetReport> {
  const resume = openState(fleet.workdir, { fresh: options.fresh === true });
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), 64));
  const gitIdentity = {};
  let finished = 0;
  const records = await pool(repositories, jobs, async (repo) => {
    if (options.signal?.aborted === true) return notStarted(repo);
    const record = await runRepository(fleet, repo, {
      mode: options.mode,
      noop: options.noop === true,
      diff: options.diff === true,
      push: options.push === true,
      pr: options.pr === true,
      yes: options.yes === true,
      ...(options.branch !== undefined ? { branch: options.branch } : {}),
      ...(options.message !== undefined ? { message: options.message } : {}),
      // Diffs are not kept in the state: a run that shows them runs every repository. Nor is an update
      // resumed: what it does depends on the templates' latest commits, which only a fetch can tell.
      ...(options.diff === true || options.mode === 'update' ? {} : { resume }),
      project: { ...options.project, env },
      git,
      gitIdentity,
      env,
      onStep: (step) => options.onEvent?.({ type: 'step', name: repo.name, step }),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    });
    finished++;
    options.onEvent?.({ type: 'done', record, finished, total: repositories.length });
    return record;
  });
  resume.flush();
  return {
    fleet: fleet.file,
    mode: options.mode,
    noop: options.noop === true,
    shards: options.shard !== undefined ? [options.shard] : [],
    ...(options.shard !== undefined && options.selected !== undefined
      ? { selection: selectionDigest(options.selected) }
      : {}),
    ...(options.signal?.aborted === true ? { interrupted: interruptionOf(options.signal) } : {}),
    repositories: records,
    summary: summarize(records),
    ok: reportOk(options.mode, records),
  };
}

function notStarted(repo: FleetRepository): RepositoryRecord {
  return {
    name: repo.name,
    kind: repo.url !== undefined ? 'git' : 'path',
    result: 'not-started',
    files: [],
    templates: [],
    durationMs: 0,
  };
}

/** The abort's reason when it names the signal (`SIGINT`), else `abort`. */
function interruptionOf(signal: AbortSignal): string {
  return typeof signal.reason === 'string' ? signal.reason : 'abort';
}

/**
 * Throws FLEET_DUPLICATE when `branch` (`--branch`, one work branch for every entry) would make two
 * entries of one remote push to the same branch: entries the fleet file keeps apart by their own
 * `branch:` (one remote kept in line on two base branches). A sharded run checks its whole selection
 * (the pair may fall into two shards).
 */
export function checkOneBranchEach(
  repositories: readonly FleetRepository[],
  branch: string | undefined,
): void {
  if (branch === undefined) return;
  const twice = duplicateEntries(repositories, branch)[0];
  if (!twice) return;
  const position = repositories[twice.index]!.position;
  throw new EngineError('FLEET_DUPLICATE', duplicateProblem(repositories, twice, position).message, {
    position,
    hint: 'leave --branch out (each entry pushes its own `branch:`), or select one of them',
  });
}

/** Runs `work` on every item with at most `jobs` at once; results in the items' order. */
export async function pool<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}
