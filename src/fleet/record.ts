/**
 * What a fleet run says about each repository, and about the run: plain JSON data (docs/json-output.md),
 * the same for `--format json`, shard reports and `fleet report`'s merge of them.
 */

/** What a run does: report drift, apply, or move git sources to their latest commits and apply. */
export type FleetMode = 'status' | 'apply' | 'update';

export const MODES: readonly FleetMode[] = ['status', 'apply', 'update'];

/**
 * - `in-line`: nothing would change (status), or nothing had to (apply, update).
 * - `drift`: status found files (or the fleet's overrides of `.sync.yml`) that apply would change; under
 *   `--noop`, files apply or update would change, or (update) git sources that would move.
 * - `applied`: apply or update changed files or moved sources (committed on the branch when the
 *   repository is a git remote).
 * - `conflict`: hand edits and template changes meet, or the work branch does not contain the base's
 *   latest commit (`FLEET_OUTDATED`); nothing was written in this repository.
 * - `needs-confirmation`: files exist that Pantograph never wrote and would overwrite; `--yes` allows it.
 * - `failed`: the repository could not be fetched, planned or applied; see `error`.
 * - `interrupted`: the run was interrupted (Ctrl-C, a CI job cancelled) while this repository was worked
 *   on: it stopped at its next step and its clone was reset to its last commit (`FLEET_INTERRUPTED`).
 * - `not-started`: the run was interrupted before this repository's turn.
 */
export type RepositoryResult =
  | 'in-line'
  | 'drift'
  | 'applied'
  | 'conflict'
  | 'needs-confirmation'
  | 'failed'
  | 'interrupted'
  | 'not-started';

export interface RepositoryRecord {
  readonly name: string;
  /** `git`: cloned from a remote; `path`: a directory used in place. */
  readonly kind: 'git' | 'path';
  readonly result: RepositoryResult;
  /** Files that changed (apply) or would change (status, noop). */
  readonly files: readonly { readonly path: string; readonly state: string; readonly template?: string }[];
  /**
   * Apply and update: this run `created` `.pantograph.lock` (the repository had none: its first apply,
   * as for a modulesync module) or `updated` it; absent when it was left as it was. Status and `--noop`:
   * what apply would do, `to-create` or `to-update` (a repository whose lock alone would change drifts).
   * Not in `files`, which are the files the templates make.
   */
  readonly lock?: 'created' | 'updated' | 'to-create' | 'to-update';
  /** The templates applied, with their versions and sources. */
  readonly templates: readonly {
    readonly name: string;
    readonly version?: string;
    readonly source: string;
  }[];
  /** The commit the work started from (git). */
  readonly baseCommit?: string;
  /** The work branch and its commit after the run (git, apply). */
  readonly branch?: string;
  readonly commit?: string;
  /** True when this run made a new commit. */
  readonly committed?: boolean;
  /** True when the branch was pushed by this run. */
  readonly pushed?: boolean;
  readonly pullRequest?: {
    readonly number: number;
    readonly url: string;
    readonly action: 'created' | 'updated';
  };
  /** Update: each git source, from the commit the lock had to its ref's latest. */
  readonly sources?: readonly {
    readonly location: string;
    readonly ref?: string;
    readonly from?: string;
    readonly to: string;
  }[];
  /** Unified diffs (with `--diff`). */
  readonly diff?: string;
  /** True when this record was taken from the previous run (same commits, same fleet, nothing to redo). */
  readonly resumed?: boolean;
  readonly error?: {
    readonly code: string;
    readonly message: string;
    readonly file?: string;
    readonly line?: number;
    readonly column?: number;
    readonly hint?: string;
    /** A failing post command's output (its end, when long). */
    readonly output?: string;
  };
  readonly durationMs: number;
}

export interface FleetReport {
  readonly fleet: string;
  readonly mode: FleetMode;
  readonly noop: boolean;
  /** The shards this report covers, e.g. `["1/4"]`; several after `fleet report` merges shard reports. */
  readonly shards: readonly string[];
  /**
   * The whole selection a sharded run split (every shard's, before sharding): how many repositories, and a
   * digest of their names. `fleet report` merges only shards of one selection.
   */
  readonly selection?: SelectionDigest;
  /** `fleet report --allow-missing`: the shards of the run no report was given for. */
  readonly missingShards?: readonly string[];
  /**
   * Set when the run was interrupted: the signal (`SIGINT`, `SIGTERM`), or `abort` when the caller's
   * AbortSignal gave no reason. Its repositories are then done, `interrupted` or `not-started`.
   */
  readonly interrupted?: string;
  readonly repositories: readonly RepositoryRecord[];
  readonly summary: Readonly<Record<RepositoryResult, number>> & { readonly total: number };
  /** False when any repository failed, conflicts or needs confirmation (or drifts, for status). */
  readonly ok: boolean;
}

export interface SelectionDigest {
  readonly count: number;
  /** SHA-256 of the names, sorted, one per line (hex, first 16 digits). */
  readonly digest: string;
}

export const RESULTS: readonly RepositoryResult[] = [
  'in-line',
  'drift',
  'applied',
  'conflict',
  'needs-confirmation',
  'failed',
  'interrupted',
  'not-started',
];

/**
 * The lock file's change in words, where the files alone would not tell it: always when it was created
 * (a repository's first apply), and when it is the only change (`applied` with no file).
 */
export function lockNote(record: Pick<RepositoryRecord, 'lock' | 'files'>): string | undefined {
  const alone = record.files.length === 0;
  switch (record.lock) {
    case 'created':
      return '.pantograph.lock created';
    case 'to-create':
      return '.pantograph.lock to create';
    case 'updated':
      return alone ? '.pantograph.lock brought up to date' : undefined;
    case 'to-update':
      return alone ? '.pantograph.lock to bring up to date' : undefined;
    default:
      return undefined;
  }
}

/** The lock is still to be written (status, `--noop`), not written by this run. */
export function lockPending(record: Pick<RepositoryRecord, 'lock'>): boolean {
  return record.lock === 'to-create' || record.lock === 'to-update';
}

export function summarize(records: readonly RepositoryRecord[]): FleetReport['summary'] {
  const summary = Object.fromEntries(RESULTS.map((r) => [r, 0])) as Record<RepositoryResult, number>;
  for (const r of records) summary[r.result]++;
  return { ...summary, total: records.length };
}

/** Whether a run with these records succeeded: status fails on drift too (for CI). */
export function reportOk(mode: FleetReport['mode'], records: readonly RepositoryRecord[]): boolean {
  return records.every(
    (r) => r.result === 'in-line' || r.result === 'applied' || (mode !== 'status' && r.result === 'drift'),
  );
}
