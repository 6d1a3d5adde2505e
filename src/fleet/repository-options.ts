/**
 * What one repository's run is given (the run's flags, git, the progress hook) and what its parts hand each
 * other: the record's body, and what the run learnt about reusing it next time.
 */
import type { ProjectOptions } from '../engine/project.js';
import type { GitRunner } from './git.js';
import type { FleetMode, RepositoryRecord } from './record.js';
import type { FollowedSource, ResumeState } from './state.js';

export interface RepositoryRunOptions {
  /** The record of the previous run, when its inputs were the same (see state.ts). */
  readonly resume?: ResumeState;
  readonly mode: FleetMode;
  readonly noop: boolean;
  readonly diff: boolean;
  readonly push: boolean;
  readonly pr: boolean;
  /** Overwrite files Pantograph never wrote (adopt), as `apply --yes`. */
  readonly yes: boolean;
  /** The work branch for every repository (`--branch`), else each repository's. */
  readonly branch?: string;
  readonly message?: string;
  readonly project: ProjectOptions;
  readonly git: GitRunner;
  /** Whether git has a user name and email configured (asked once per run, shared by the repositories). */
  readonly gitIdentity: { known?: Promise<boolean> };
  readonly env: NodeJS.ProcessEnv;
  /** Hears each step, for the progress display. */
  readonly onStep?: (step: string) => void;
  /** The run was interrupted: stop at the next step that may stop (see `STOPS_AT` in repository-run.ts). */
  readonly signal?: AbortSignal;
}

/** A repository's record without what `runRepository` adds (its name, kind and duration). */
export type RecordBody = Omit<RepositoryRecord, 'name' | 'kind' | 'durationMs'>;

/** What the run learnt about reusing its record next time. */
export interface RunFacts {
  /** Every input of the plan is in the key (or `follow`). */
  cacheable: boolean;
  /** The git sources planned at their `ref`'s latest commit: the lock of the tree planned has none. */
  follow: FollowedSource[];
}
