/**
 * One repository's working copy planned and reported (status), or applied (apply, update): the fleet's
 * overrides written into `.sync.yml`, the plan, its drift; a conflict or files to adopt without `--yes`
 * leave the repository as it was (checked before anything is written); then the files written and, in a
 * clone, committed, pushed and proposed (commit-push-propose.ts).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { previousOutputFor } from '../engine/previous-output.js';
import { SYNC_FILE } from '../engine/project-config.js';
import { planProjectAt } from '../engine/project-plan.js';
import { sourceMoves } from '../engine/source-moves.js';
import type { OverrideResult } from '../engine/sync-edit.js';
import { hasErrors } from '../engine/validate.js';
import { type StatusEntry, statusWithLock, apply as syncApply, unifiedDiff } from '../sync/index.js';
import type { LockFile } from '../sync/lock.js';
import { commitPushPropose } from './commit-push-propose.js';
import { fleetFence } from './fleet-fence.js';
import type { Fleet, FleetRepository } from './fleet-file.js';
import { pendingLockChange } from './lock-pending.js';
import { templatesOf } from './messages.js';
import { checkOwnInputs } from './own-inputs.js';
import type { RepositoryRecord } from './record.js';
import { planError, postError } from './repository-errors.js';
import type { RecordBody, RepositoryRunOptions, RunFacts } from './repository-options.js';
import {
  refuseModulesyncFile,
  refuseOwnSourcesForTemplateUrl,
  refusePdkModuleByModulesync,
} from './repository-refusals.js';
import { followedSources } from './repository-resume.js';
import { fleetOverrides } from './sync-overrides.js';
import { readSyncText } from './sync-text.js';
import { isV2SyncText, templateUrlFor } from './template-url-route.js';
import {
  checkoutForApply,
  checkoutForNoop,
  checkoutForStatus,
  outdatedWorkBranch,
  resetClone,
  type WorkingCopy,
} from './working-copy.js';

export async function planAndApply(
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
