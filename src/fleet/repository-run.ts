/**
 * One repository of a fleet run, through the library as `status` and `apply` use it: get the working
 * copy (clone or fetch, git remotes only), write the fleet's overrides into `.sync.yml`, plan, then
 * report drift (status) or apply, commit on the work branch, push and propose (apply). `update` plans
 * with every git source at the latest commit of its `ref` (as `pantograph update`), then goes on as apply.
 *
 * A repository whose apply would meet a conflict, or overwrite files Pantograph never wrote without
 * `--yes`, is left exactly as it was: the check runs before anything is written, and a clone is reset to
 * its starting point when anything fails on the way.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { modulesyncMark, modulesyncModuleError } from '../engine/module-manager.js';
import { lockedCommitOf, previousOutputFor } from '../engine/previous-output.js';
import type { ProjectOptions } from '../engine/project.js';
import { SYNC_FILE } from '../engine/project-config.js';
import { planProjectAt } from '../engine/project-plan.js';
import type { Problem, RenderPlan } from '../engine/render-plan.js';
import { type SourceMove, sourceMoves } from '../engine/source-moves.js';
import { gitSourceHead } from '../engine/sources/index.js';
import type { OverrideResult } from '../engine/sync-edit.js';
import { MODULESYNC_TEMPLATE_NAME } from '../engine/v1/repository.js';
import { templateUrlPosition } from '../engine/v1/template-url-position.js';
import { hasErrors } from '../engine/validate.js';
import { jsonPointer, parseYamlData } from '../engine/yaml-data.js';
import { maskCredentials, sameLocation } from '../shared/url-credentials.js';
import { type StatusEntry, statusWithLock, apply as syncApply, unifiedDiff } from '../sync/index.js';
import type { LockFile } from '../sync/lock.js';
import type { PostResult } from '../sync/post.js';
import { engineVersion } from '../version.js';
import { fleetFence } from './fleet-fence.js';
import type { Fleet, FleetRepository } from './fleet-file.js';
import { ensurePullRequest, forgeProjectOf } from './forge.js';
import type { GitRunner } from './git.js';
import { pendingLockChange } from './lock-pending.js';
import { commitMessage, prBody, subjectOf, templatesOf } from './messages.js';
import { checkOwnInputs } from './own-inputs.js';
import type { FleetMode, RepositoryRecord } from './record.js';
import { type FollowedSource, keyOf, type ResumeState } from './state.js';
import { fleetOverrides, templateSourcesOf } from './sync-overrides.js';
import { readSyncText } from './sync-text.js';
import {
  checkoutForApply,
  checkoutForNoop,
  checkoutForStatus,
  outdatedWorkBranch,
  prepareClone,
  readRefs,
  resetClone,
  settleClone,
  type WorkingCopy,
} from './working-copy.js';

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
  /** The run was interrupted: stop at the next step that may stop (see `STOPS_AT`). */
  readonly signal?: AbortSignal;
}

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
    const body = await runIn(fleet, repo, copy, options, facts);
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

/**
 * What running the repository again would report: after an apply, its branch is in line and there is
 * nothing to commit, push or propose (a pull request once opened stays as it is).
 */
function settled(record: RepositoryRecord, options: RepositoryRunOptions): RepositoryRecord {
  if (options.mode === 'status' || options.noop || record.result !== 'applied') return record;
  const { pullRequest: _pr, lock: _lock, ...rest } = record;
  return { ...rest, result: 'in-line', files: [], committed: false, pushed: false };
}

type RecordBody = Omit<RepositoryRecord, 'name' | 'kind' | 'durationMs'>;

/** What the run learnt about reusing its record next time. */
interface RunFacts {
  /** Every input of the plan is in the key (or `follow`). */
  cacheable: boolean;
  /** The git sources planned at their `ref`'s latest commit: the lock of the tree planned has none. */
  follow: FollowedSource[];
}

/**
 * Whether the git sources a previous plan took at their `ref`'s latest commit are still there (fetched
 * once per process, as planning would). Anything that cannot tell means "moved": the repository is
 * planned again.
 */
async function unmoved(
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
function followedSources(plan: RenderPlan, lock: LockFile | undefined): FollowedSource[] {
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

async function runIn(
  fleet: Fleet,
  repo: FleetRepository,
  copy: WorkingCopy | undefined,
  options: RepositoryRunOptions,
  facts: RunFacts,
): Promise<RecordBody> {
  const dir = copy?.dir ?? repo.path!;
  const writing = options.mode !== 'status';
  const applying = writing && !options.noop;
  const branch = options.branch ?? repo.branch;
  // Status reads the base; apply and update read the work branch they continue, under --noop too.
  // Said as its own step: on a large repository the checkout is the long part, not the fetch before it.
  if (copy) options.onStep?.('checking out');
  if (copy && writing) {
    const outdated = await outdatedWorkBranch(copy, branch, options.git);
    if (outdated !== undefined) {
      return {
        result: 'conflict',
        files: [],
        templates: [],
        baseCommit: copy.baseCommit,
        branch,
        commit: outdated,
        error: {
          code: 'FLEET_OUTDATED',
          message: `the work branch ${branch} (${outdated.slice(0, 10)}) does not contain ${copy.baseBranch}'s latest commit ${copy.baseCommit.slice(0, 10)}: ${copy.baseBranch} moved on after it was made, so it would be planned without ${copy.baseBranch}'s changes, and its pull request may not merge; nothing was written`,
          hint: `merge ${copy.baseBranch} into ${branch} in the repository (resolving any conflict there) and push it, or delete the remote branch ${branch} (closing its pull request) so that the next run starts again from ${copy.baseBranch}; then run the fleet again`,
        },
      };
    }
  }
  if (copy) {
    if (applying) await checkoutForApply(copy, branch, options.git);
    else if (writing) await checkoutForNoop(copy, branch, options.git);
    else await checkoutForStatus(copy, options.git);
  }
  checkOwnInputs(dir);
  const syncFile = join(dir, SYNC_FILE);
  const original = readSyncText(syncFile);
  // A .sync.yml without pdk_template (PDK V1, modulesync, none) is rendered with the fleet's template_url
  // as it is: the V2 overrides (template_sources, settings) are not written into it.
  const byTemplateUrl = fleet.templateUrl !== undefined && !isV2SyncText(original, syncFile);
  if (!byTemplateUrl) refuseModulesyncFile(dir, original, syncFile);
  else refuseOwnSourcesForTemplateUrl(fleet, repo);
  const {
    committed: overridden,
    planned,
    origins,
  } = byTemplateUrl
    ? { committed: unchanged(original), planned: unchanged(original), origins: [] }
    : fleetOverrides(fleet, repo, original);
  options.onStep?.('planning');
  const loaded = await planProjectAt(
    dir,
    {
      ...options.project,
      fence: fleetFence(fleet),
      ...(overridden.changed.length > 0 || planned.changed.length > 0 ? { syncText: planned.text } : {}),
      ...(origins.length > 0 ? { syncOrigins: origins } : {}),
      ...(byTemplateUrl
        ? {
            templateUrl: templateUrlFor(fleet.templateUrl!, fleet.templateUrlRelative === true, dir),
            modulesyncModule: repo.forgeProject ?? repo.name,
          }
        : {}),
    },
    { followRefs: options.mode === 'update' },
  );
  const { plan } = loaded;
  if (byTemplateUrl) refusePdkModuleByModulesync(dir, plan, fleet.file);
  // Update: where each git source goes; one that moves changes the lock even when no file changes.
  const moves = options.mode === 'update' ? sourceMoves(loaded.lock, plan.sources) : undefined;
  const moved = moves?.some((m) => m.from !== m.to) === true;
  const sources = moves ? { sources: moves } : {};
  // Filesystem sources can change without a commit anywhere: such a repository is always run again.
  facts.cacheable = loaded.lock !== undefined && plan.sources.every((s) => s.type !== 'filesystem');
  // A git source the lock does not record is planned at its ref's latest commit, which the key cannot
  // hold (it moves with no commit in the repository): remembered beside it and compared on reuse.
  facts.follow = followedSources(plan, loaded.lock);
  const templates = templatesOf(plan);
  const where = { ...(copy ? { baseCommit: copy.baseCommit } : {}), ...sources };
  if (hasErrors(plan.problems)) throw planError(plan.problems);

  // The lock apply would record for the files as they are, from the same scan: status says its change.
  const { report, lockIfNoWrite } = statusWithLock(plan, { diff: options.diff, digests: loaded.digests });
  const syncEntry: StatusEntry[] =
    overridden.changed.length > 0
      ? [
          {
            path: SYNC_FILE,
            state: 'changed',
            reason: `fleet sets ${overridden.changed.join(', ')}`,
            ...(options.diff
              ? { diff: unifiedDiff(SYNC_FILE, Buffer.from(original), Buffer.from(overridden.text)) }
              : {}),
          },
        ]
      : [];
  const pending = [
    ...syncEntry,
    ...report.entries.filter((e) => !['stable', 'init', 'unmanaged'].includes(e.state)),
  ];
  const diff = options.diff ? diffOf([...syncEntry, ...report.entries]) : undefined;
  const files = pending.map((e) => ({
    path: e.path,
    state: e.state,
    ...(e.template ? { template: e.template } : {}),
  }));

  const conflicts = pending.filter((e) => e.state === 'conflict');
  if (writing && conflicts.length > 0) {
    if (copy) await resetClone(copy, options.git);
    return {
      result: 'conflict',
      files,
      templates,
      ...where,
      error: {
        code: 'FLEET_CONFLICT',
        message: `hand edits meet template changes in ${conflicts.map((c) => c.path).join(', ')}: nothing was written`,
        hint: 'resolve them in the repository (`pantograph apply` there merges and shows them), then run the fleet again',
      },
    };
  }
  const adopt = pending.filter((e) => e.state === 'adopt');
  if (writing && adopt.length > 0 && !options.yes) {
    if (copy) await resetClone(copy, options.git);
    return {
      result: 'needs-confirmation',
      files,
      templates,
      ...where,
      error: {
        code: 'FLEET_ADOPT',
        message: `would overwrite files Pantograph never wrote: ${adopt.map((a) => a.path).join(', ')}`,
        hint: 'check the diffs (`fleet status --diff`), then run with --yes to take the template output',
      },
    };
  }
  if (!applying) {
    // Said as apply would say it: a repository whose lock alone apply would write (a modulesync module's
    // first apply) is not in line, or status would pass what apply then commits.
    const lock = pendingLockChange(loaded.lock, lockIfNoWrite);
    return {
      result: pending.length > 0 || moved || lock !== undefined ? 'drift' : 'in-line',
      files,
      ...(lock ? { lock } : {}),
      templates,
      ...where,
      ...(diff ? { diff } : {}),
    };
  }

  // Apply: the overrides go into the file first, so that the lock and the commit carry them.
  options.onStep?.('applying');
  if (overridden.changed.length > 0) writeSyncText(syncFile, overridden.text);
  const result = await syncApply(plan, {
    confirm: () => options.yes,
    digests: loaded.digests,
    ...(loaded.lock ? { previousOutput: previousOutputFor(loaded.root, loaded.lock, loaded.options) } : {}),
  });
  if (!result.ok) {
    if (copy) await resetClone(copy, options.git);
    const failed = result.post.filter((p) => !p.ok);
    if (failed.length > 0) throw postError(failed, original, syncFile, copy !== undefined);
    throw new EngineError('FLEET_APPLY', result.message, {
      hint: 'run `pantograph apply` in the repository to see the details',
    });
  }
  // The lock written (and committed) now records every git source at the commit planned.
  facts.follow = [];
  // What changed: files written or removed (hand-edited ones are kept, as apply keeps them), and .sync.yml.
  const touched = new Set([...result.written, ...result.removed]);
  if (overridden.changed.length > 0) touched.add(SYNC_FILE);
  const changedFiles = files.filter((f) => touched.has(f.path));
  // The lock is no template's file, but it changed too: a first apply may write nothing else (a
  // modulesync module in line with its configuration), which "applied, 0 files" did not say.
  const lock = lockChange(result.lockChanged, loaded.lock);
  if (!copy)
    return {
      result: changedFiles.length > 0 || result.lockChanged ? 'applied' : 'in-line',
      files: changedFiles,
      ...(lock ? { lock } : {}),
      templates,
      ...sources,
      ...(diff ? { diff } : {}),
    };
  return commitPushPropose(
    fleet,
    repo,
    copy,
    branch,
    { plan, files: changedFiles, lock, templates, diff, moves },
    options,
  );
}

/** What applying did to `.pantograph.lock`: made it (there was none), changed it, or nothing. */
function lockChange(changed: boolean, before: LockFile | undefined): RepositoryRecord['lock'] {
  if (!changed) return undefined;
  return before === undefined ? 'created' : 'updated';
}

async function commitPushPropose(
  fleet: Fleet,
  repo: FleetRepository,
  copy: WorkingCopy,
  branch: string,
  done: {
    plan: RenderPlan;
    files: RepositoryRecord['files'];
    lock: RepositoryRecord['lock'];
    templates: RepositoryRecord['templates'];
    diff: string | undefined;
    /** Update: the git sources moved (the lock records them). */
    moves: readonly SourceMove[] | undefined;
  },
  options: RepositoryRunOptions,
): Promise<RecordBody> {
  const { git } = options;
  const dirty = (await git(copy.dir, ['status', '--porcelain'])).trim() !== '';
  let committed = false;
  if (dirty) {
    options.onStep?.('committing');
    const message =
      options.message ??
      fleet.commit.message ??
      commitMessage(done.plan, done.templates, done.files, done.moves, done.lock);
    const who = await identity(copy.dir, fleet, options);
    await git.steps(copy.dir, [
      ['add', '--all'],
      [...who, 'commit', '--quiet', '--no-verify', '-m', message],
    ]);
    committed = true;
  }
  const commit = (await git(copy.dir, ['rev-parse', 'HEAD'])).trim();
  const ahead = commit !== copy.baseCommit;
  let pushed = false;
  if (options.push && ahead) {
    if (copy.refs.get(`refs/remotes/origin/${branch}`) !== commit) {
      options.onStep?.('pushing');
      await git.steps(copy.dir, [
        ['push', '--quiet', '--', copy.url, `HEAD:refs/heads/${branch}`],
        ['update-ref', `refs/remotes/origin/${branch}`, commit],
      ]);
      pushed = true;
    }
  }
  let pullRequest: RepositoryRecord['pullRequest'];
  if (options.pr && ahead && fleet.forge) {
    options.onStep?.('pull request');
    const project = repo.forgeProject ?? forgeProjectOf(repo.url ?? '');
    if (!project) {
      throw new EngineError(
        'FLEET_FORGE',
        `cannot tell the ${fleet.forge.type} project of '${repo.name}' from its URL`,
        {
          position: repo.position,
          hint: 'set forge_project: owner/name on the repository in the fleet file',
        },
      );
    }
    pullRequest = await ensurePullRequest(
      {
        project,
        head: branch,
        base: copy.baseBranch,
        title: fleet.pullRequest.title ?? subjectOf(done.plan),
        body: prBody(done.templates, await changedSinceBase(copy, git), done.moves),
        labels: fleet.pullRequest.labels,
      },
      { forge: fleet.forge, env: options.env },
    );
  }
  return {
    result: done.files.length > 0 || committed ? 'applied' : 'in-line',
    files: done.files,
    // Said when committed: a lock changed but not committed (nothing to commit) was not changed by this run.
    ...(done.lock && committed ? { lock: done.lock } : {}),
    templates: done.templates,
    baseCommit: copy.baseCommit,
    ...(done.moves ? { sources: done.moves } : {}),
    // A branch that adds nothing to the base is not worth naming.
    ...(ahead ? { branch, commit } : {}),
    committed,
    pushed,
    ...(pullRequest ? { pullRequest } : {}),
    ...(done.diff ? { diff: done.diff } : {}),
  };
}

/** Everything a repository's run depends on besides its files: see state.ts. */
function resumeKey(
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

/** `-c user.name=... -c user.email=...` when the fleet names an author or git has none configured. */
async function identity(dir: string, fleet: Fleet, options: RepositoryRunOptions): Promise<string[]> {
  let author = fleet.commit.author;
  if (author === undefined) {
    // The same answer for every clone (user.name/email are global settings): asked once per run.
    options.gitIdentity.known ??= options
      .git(dir, ['config', '--get-regexp', '^user\\.(name|email)$'], { allowFailure: true })
      .then((r) => r.ok && /^user\.name /m.test(r.stdout) && /^user\.email /m.test(r.stdout));
    if (await options.gitIdentity.known) return [];
    author = 'Pantograph <pantograph@localhost>';
  }
  const match = /^(.+?) <(.+)>$/.exec(author)!;
  return ['-c', `user.name=${match[1]}`, '-c', `user.email=${match[2]}`];
}

/** Files the work branch changes against its base, for the pull request's body. */
async function changedSinceBase(copy: WorkingCopy, git: GitRunner): Promise<string[]> {
  const out = await git(copy.dir, ['diff', '--name-status', `${copy.baseCommit}..HEAD`]);
  return out.split('\n').filter((l) => l.trim() !== '');
}

/**
 * The fleet's `template_url` as this repository is given it: a directory the fleet file names relatively
 * is named relative to the repository (`../../modulesync_config`), so that the lock committed there
 * records no path of this machine (v1/template-url.ts keeps a relative path relative).
 */
function templateUrlFor(url: string, namedRelative: boolean, dir: string): string {
  if (!namedRelative) return url;
  const hash = url.indexOf('#');
  const path = hash < 0 ? url : url.slice(0, hash);
  const rel = relative(dir, path).split(sep).join('/');
  const named = rel === '' ? '.' : rel === '..' || rel.startsWith('../') ? rel : `./${rel}`;
  return hash < 0 ? named : `${named}${url.slice(hash)}`;
}

/**
 * A modulesync module's `.sync.yml` (keyed by file, no `pdk_template`) configures modulesync's templates:
 * without the fleet's `template_url`, said as such, rather than planned with the fleet's sources (which
 * would find no `pdk_template.version`).
 */
function refuseModulesyncFile(dir: string, text: string, file: string): void {
  const msync = modulesyncMark(dir);
  if (msync === undefined) return;
  const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });
  if (!isMapping(parsed.data) || Object.hasOwn(parsed.data, 'pdk_template')) return;
  throw modulesyncModuleError(msync, parsed.positions.positionOf(''), true);
}

/**
 * A repository's own `template_sources` are V2's, written into its `.sync.yml`; one rendered by the fleet's
 * `template_url` (no `pdk_template`) would silently not take them, so it fails at them.
 */
function refuseOwnSourcesForTemplateUrl(fleet: Fleet, repo: FleetRepository): void {
  if (repo.templateSources === undefined) return;
  const index = fleet.repositories.indexOf(repo);
  throw new EngineError(
    'FLEET_INVALID',
    `'${repo.name}' has no \`pdk_template\` in its .sync.yml: it is rendered with the fleet's template_url, which its own \`template_sources\` (V2 templates) cannot change`,
    {
      position: fleet.positions.positionOf(`/repositories/${index}/template_sources`),
      hint: 'remove `template_sources` from its entry, or move the repository to V2 templates (`pdk_template: {version: 2, ...}` in its .sync.yml) for them to apply',
    },
  );
}

/**
 * A PDK module (metadata.json names its V1 templates, no `.msync.yml`) in a fleet whose `template_url` is a
 * modulesync configuration would be rendered as msync renders its modules, and fail on PDK's `.sync.yml`
 * keys with msync's words (found driving a mixed fleet). A fleet has one `template_url`: said so, at the
 * module's `template-url`.
 */
function refusePdkModuleByModulesync(dir: string, plan: RenderPlan, fleetFile: string): void {
  if (plan.templates[0]?.name !== MODULESYNC_TEMPLATE_NAME || modulesyncMark(dir) !== undefined) return;
  let named: unknown;
  try {
    named = (JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8')) as Record<string, unknown>)[
      'template-url'
    ];
  } catch {
    return;
  }
  if (typeof named !== 'string' || named === '') return;
  throw new EngineError(
    'FLEET_MIXED',
    `this is a PDK module (its metadata.json names the V1 templates ${maskCredentials(named)}), but the fleet's template_url is a modulesync configuration, which would render it as msync renders its modules`,
    {
      position: templateUrlPosition(dir),
      hint: `a fleet has one template_url (${fleetFile}): keep the PDK modules in a fleet file of their own whose template_url names their V1 templates, or move this module to V2 (\`pantograph convert\`), or give it a .msync.yml if modulesync is to manage it`,
    },
  );
}

/** `.sync.yml` is V2 (a mapping with `pdk_template`); a file that does not parse counts as V2 (its errors are the plan's). */
function isV2SyncText(text: string, file: string): boolean {
  if (text.trim() === '') return false;
  const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });
  if (parsed.data === undefined) return true;
  return isMapping(parsed.data) && Object.hasOwn(parsed.data, 'pdk_template');
}

function isMapping(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && !Array.isArray(data);
}

function unchanged(text: string): OverrideResult {
  return { text, changed: [] };
}

function writeSyncText(file: string, text: string): void {
  const tmp = `${file}.pantograph-tmp`;
  writeFileSync(tmp, text, { flag: 'w', mode: 0o644 });
  renameSync(tmp, file);
}

function diffOf(entries: readonly StatusEntry[]): string | undefined {
  const text = entries
    .map((e) => e.diff ?? '')
    .filter((d) => d !== '')
    .map((d) => (d.endsWith('\n') ? d : `${d}\n`))
    .join('');
  return text === '' ? undefined : text;
}

function planError(problems: readonly Problem[]): EngineError {
  const errors = problems.filter((p) => p.severity === 'error');
  const first = errors[0]!;
  const more =
    errors.length > 1
      ? ` (and ${errors.length - 1} more: \`pantograph validate\` in the repository lists them)`
      : '';
  return new EngineError(first.code as 'SYNC_INVALID', `${first.message}${more}`, {
    position:
      first.file !== undefined
        ? { file: first.file, line: first.line ?? 1, column: first.column ?? 1 }
        : undefined,
    hint: first.hint,
    problems: errors,
  });
}

/** At most this much of a failing post command's output is kept in the report (its end). */
const MAX_POST_OUTPUT = 4000;

/**
 * A failing post command as the one-project `apply` reports it: the command, the file, the exit status
 * and the output, at the command's place in the repository's `.sync.yml` (the clone's copy, which is
 * the repository's own: the fleet sets no `post`).
 */
function postError(
  failed: readonly PostResult[],
  original: string,
  syncFile: string,
  clone: boolean,
): EngineError & { output?: string } {
  const first = failed[0]!;
  const status = first.status === null ? 'did not run' : `exit ${first.status}`;
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
  const error: EngineError & { output?: string } = new EngineError(
    'FLEET_APPLY',
    `post command \`${first.command}\` failed on ${first.path} (${status})${more}`,
    {
      position: postPosition(original, syncFile, first.command),
      hint: `fix the command (\`post\` in the repository's .sync.yml${clone ? ', as the fleet clone shows it' : ''}) and run the fleet again: nothing was ${clone ? 'committed' : 'kept'} for this repository`,
    },
  );
  // The first one's output; each other's under a line naming it.
  const output = failed
    .map((p, i) =>
      i === 0
        ? p.output.trim()
        : `-- \`${p.command}\` on ${p.path} (${p.status === null ? 'did not run' : `exit ${p.status}`}):\n${p.output.trim()}`,
    )
    .filter((o) => o !== '')
    .join('\n');
  if (output !== '') {
    error.output = output.length > MAX_POST_OUTPUT ? `...${output.slice(-MAX_POST_OUTPUT)}` : output;
  }
  return error;
}

/** Where `.sync.yml` lists a post command (the first entry with that command line). */
function postPosition(text: string, file: string, command: string) {
  try {
    const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });
    const post = (parsed.data as { pdk_template?: { post?: unknown } } | undefined)?.pdk_template?.post;
    if (!Array.isArray(post)) return undefined;
    for (const [i, item] of post.entries()) {
      if (typeof item !== 'object' || item === null) continue;
      for (const [glob, value] of Object.entries(item as Record<string, unknown>)) {
        if (value === command) {
          return parsed.positions.positionOf(jsonPointer(['pdk_template', 'post', i, glob]));
        }
      }
    }
  } catch {
    // no position then
  }
  return undefined;
}

/** A failure as the report records it; a URL's password in it is masked (reports are kept as artifacts). */
function errorOf(e: unknown): NonNullable<RepositoryRecord['error']> {
  if (
    e instanceof EngineError ||
    (e instanceof Error && typeof (e as { code?: unknown }).code === 'string')
  ) {
    const err = e as Error & {
      code: string;
      position?: { file: string; line: number; column: number };
      hint?: string;
      output?: unknown;
    };
    return {
      code: err.code,
      message: maskCredentials(err.message),
      ...(err.position
        ? { file: err.position.file, line: err.position.line, column: err.position.column }
        : {}),
      ...(err.hint ? { hint: maskCredentials(err.hint) } : {}),
      ...(typeof err.output === 'string' ? { output: maskCredentials(err.output) } : {}),
    };
  }
  return { code: 'INTERNAL', message: maskCredentials(e instanceof Error ? e.message : String(e)) };
}
