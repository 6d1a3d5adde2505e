/**
 * `status`: the plan against the target. Reads each path once (no symlinks followed), classifies it
 * (`classify.ts`) and reports it. `scan` is the shared reader that `apply` builds on.
 */
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import type { PlannedFile, RenderPlan } from '../engine/render-plan.js';
import { placeholderProblem } from '../shared/post-command.js';
import { type Classification, classify, DRIFT, type FileState } from './classify.js';
import { unifiedDiff } from './diff.js';
import type { FileDigests } from './digests.js';
import { errnoCode, SyncError } from './errors.js';
import {
  deletedOutputMessage,
  deletedOutputs,
  hasGlobChars,
  matchesAny,
  matchesBasename,
  matchesPath,
} from './glob.js';
import { sha256 } from './hash.js';
import { lockedEntry, readJournal } from './journal.js';
import { type LockedFile, type LockFile, readLock } from './lock.js';
import {
  checkOutputPath,
  type DiskState,
  derivedPath,
  LOCK_FILE,
  NEW_SUFFIX,
  RUN_LOCK_FILE,
  Target,
} from './paths.js';

export interface StatusOptions {
  /** Include a unified diff in each entry that is not stable. */
  readonly diff?: boolean;
  /** Only these paths (or directories, or globs). */
  readonly paths?: readonly string[];
  /**
   * Hashes known from unchanged stats (see digests.ts): files they know are not read. The scan records
   * the hashes it computes, and saves the record.
   */
  readonly digests?: FileDigests;
}

export interface StatusEntry {
  readonly path: string;
  readonly state: FileState;
  readonly template?: string;
  readonly kind?: 'file' | 'init';
  readonly reason?: string;
  readonly diff?: string;
}

export interface StatusReport {
  readonly projectRoot: string;
  /** Every path considered, sorted by path. */
  readonly entries: readonly StatusEntry[];
  readonly counts: Readonly<Record<FileState, number>>;
  /** True when anything is not in its desired state (`status --check` exits 2). */
  readonly drift: boolean;
  /**
   * True when an earlier apply was killed while writing (it left its journal, `.pantograph.lock.pending`):
   * the files it wrote are judged as Pantograph's, and the next apply finishes the job.
   */
  readonly interrupted: boolean;
}

/** One path as `scan` saw it. */
export interface Item extends Classification {
  readonly path: string;
  readonly planned: { readonly file: PlannedFile; readonly hash: string } | undefined;
  readonly locked: LockedFile | undefined;
  readonly disk: DiskState;
}

export interface Scan {
  readonly root: string;
  readonly target: Target;
  readonly lock: LockFile | undefined;
  /** What an interrupted run meant to record, when one left its journal. */
  readonly journal: LockFile | undefined;
  readonly isNew: boolean;
  /** Sorted by path; `absent` items included (they matter to the lock). */
  readonly items: readonly Item[];
}

const pendingReason = (path: string): string =>
  `awaiting \`pantograph resolve\` (the new template output is in ${derivedPath(path, NEW_SUFFIX)})`;

/**
 * Checks what sync needs of a plan: no errors, safe and unique paths, no planned path in `delete`, no
 * post command that would splice a path into an argument.
 */
export function checkPlan(plan: RenderPlan): void {
  const errors = plan.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    throw new SyncError(
      'SYNC_PLAN_INVALID',
      `The plan has ${errors.length} ${errors.length === 1 ? 'error' : 'errors'}: ${errors[0]!.message}`,
      {
        hint: 'Run `pantograph validate` and fix the errors first.',
      },
    );
  }
  for (const post of plan.post) {
    const problem = placeholderProblem(post.command);
    if (problem !== undefined)
      throw new SyncError('SYNC_PLAN_INVALID', problem.message, { hint: problem.hint });
  }
  const seen = new Set<string>();
  for (const file of plan.files) {
    checkOutputPath(file.path, file.template);
    if (seen.has(file.path)) {
      throw new SyncError('SYNC_PLAN_INVALID', `The plan has two files for ${file.path}`, {
        path: file.path,
      });
    }
    seen.add(file.path);
  }
  for (const path of plan.unmanagedOutputs ?? []) checkOutputPath(path);
  const deleted = deletedOutputs(plan.files, plan.delete, plan.unmanaged)[0];
  if (deleted !== undefined) {
    const { message, hint } = deletedOutputMessage(deleted);
    throw new SyncError('SYNC_PLAN_INVALID', message, { path: deleted.path, hint });
  }
}

export function projectRoot(plan: RenderPlan): string {
  try {
    const root = realpathSync(plan.projectRoot);
    if (lstatSync(root).isDirectory()) return root;
  } catch {
    // reported below
  }
  throw new SyncError('SYNC_PROJECT_MISSING', `The project directory ${plan.projectRoot} does not exist`, {
    hint: 'Create it, or point Pantograph at the directory holding `.sync.yml`.',
  });
}

/** Reads and classifies every path the plan, the lock or `delete` names. */
export function scan(plan: RenderPlan, options: Pick<StatusOptions, 'paths' | 'digests'> = {}): Scan {
  checkPlan(plan);
  const root = projectRoot(plan);
  const target = new Target(root, options.digests);
  const lock = readLock(root);
  // The directories a lock names are removed when empty: one reached through a symlink is an error here,
  // before anything is written, as a locked file's path would be (a hostile lock must not rmdir outside).
  for (const dir of lock?.directories ?? []) target.dir(dir);
  // What a run that was killed while writing meant to record (see journal.ts).
  const journal = readJournal(root);
  for (const dir of journal?.directories ?? []) target.dir(dir);
  const isNew = plan.isNew && lock === undefined;
  const planned = new Map<string, PlannedFile>();
  for (const f of plan.files) planned.set(f.path, f);
  const paths = new Set<string>(planned.keys());
  for (const p of lock?.files.keys() ?? []) paths.add(p);
  for (const p of journal?.files.keys() ?? []) paths.add(p);
  for (const p of deleteCandidates(plan, target)) paths.add(p);
  const unrendered = new Set(plan.unmanagedOutputs ?? []);
  for (const p of unrendered) paths.add(p);

  const only = options.paths ?? [];
  const selected = (p: string): boolean => only.length === 0 || only.some((s) => matchesPath(s, p));
  const items: Item[] = [];
  for (const path of [...paths].sort(cmp)) {
    if (!selected(path)) continue;
    const file = planned.get(path);
    // A locked path is checked like a planned one: a tampered lock must not make us delete outside.
    if (!file) checkOutputPath(path);
    const unmanaged = matchesAny(plan.unmanaged, path);
    // Unmanaged paths are never read: Pantograph does not touch them at all.
    const disk: DiskState = unmanaged ? { kind: 'missing' } : target.read(path);
    const locked = lockedEntry(path, disk, lock, journal);
    const plannedHash = file && { file, hash: file.empty ? '' : (file.hash ?? sha256(file.content)) };
    const c = classify({
      planned: plannedHash,
      locked,
      disk,
      isNew,
      purge: plan.purge,
      unmanaged,
      producedUnrendered: unrendered.has(path),
      deleted: !file && matchesAny(plan.delete, path),
      hasPost: plan.post.some((cmd) => matchesBasename(cmd.glob, path)),
    });
    const pending = c.state === 'conflict' && target.read(derivedPath(path, NEW_SUFFIX)).kind === 'file';
    items.push({
      path,
      planned: plannedHash,
      locked,
      disk,
      ...c,
      ...(pending ? { reason: pendingReason(path) } : {}),
    });
  }
  // What the scan hashed is kept for the next run (the bytes read later for diffs add nothing new).
  options.digests?.save({ partial: only.length > 0 });
  return { root, target, lock, journal, isNew, items };
}

/** Existing files that `delete` names: literal paths directly, globs by walking the project. */
function deleteCandidates(plan: RenderPlan, target: Target): string[] {
  const out: string[] = [];
  const globs: string[] = [];
  for (const pattern of plan.delete) {
    const clean = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
    if (hasGlobChars(clean)) {
      globs.push(clean);
      continue;
    }
    checkOutputPath(clean);
    try {
      if (lstatSync(target.abs(clean)).isDirectory()) {
        throw new SyncError('SYNC_IS_DIRECTORY', `delete names the directory ${clean}`, {
          path: clean,
          hint: 'List the files to delete, or a glob such as `dir/**`.',
        });
      }
      out.push(clean);
    } catch (error) {
      if (error instanceof SyncError) throw error;
      if (errnoCode(error) !== 'ENOENT' && errnoCode(error) !== 'ENOTDIR') throw error;
    }
  }
  // A glob never reaches a reserved file (`*.yml` does not delete `.sync.yml`).
  if (globs.length > 0) walk(target.root, '', (p) => matchesAny(globs, p) && !isReserved(p) && out.push(p));
  return out;
}

/** Visits every regular file under `dir`, skipping `.git` and Pantograph's own files. */
function walk(root: string, dir: string, visit: (path: string) => unknown): void {
  for (const entry of readdirSync(dir === '' ? root : `${root}/${dir}`, { withFileTypes: true })) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.name === '.git' || (dir === '' && (entry.name === LOCK_FILE || entry.name === RUN_LOCK_FILE)))
      continue;
    if (entry.isDirectory()) walk(root, path, visit);
    else if (entry.isFile()) visit(path);
  }
}

function isReserved(path: string): boolean {
  try {
    checkOutputPath(path);
    return false;
  } catch {
    return true;
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const NO_DIFF = new Set<FileState>(['stable', 'unmanaged', 'init']);

export function entryOf(item: Item, withDiff: boolean): StatusEntry {
  const state = item.state as FileState;
  const template = item.planned?.file.template ?? item.locked?.template;
  const kind = item.planned?.file.kind ?? item.locked?.kind;
  return {
    path: item.path,
    state,
    ...(template === undefined ? {} : { template }),
    ...(kind === undefined ? {} : { kind }),
    ...(item.reason === undefined ? {} : { reason: item.reason }),
    ...(withDiff && !NO_DIFF.has(state) ? { diff: itemDiff(item) } : {}),
  };
}

/** The diff of what applying (with `--force`) would do to this path. */
export function itemDiff(item: Item): string {
  const old = item.disk.kind === 'file' ? item.disk.content : undefined;
  const removes =
    item.state === 'delete' || item.state === 'purge' || !item.planned || item.planned.file.empty;
  return unifiedDiff(item.path, old, removes ? undefined : item.planned!.file.content);
}

export function reportOf(s: Scan, withDiff: boolean): StatusReport {
  const counts = Object.fromEntries(
    [
      'create',
      'changed',
      'stable',
      'edited',
      'conflict',
      'adopt',
      'delete',
      'purge',
      'unmanaged',
      'init',
    ].map((k) => [k, 0]),
  ) as Record<FileState, number>;
  const entries: StatusEntry[] = [];
  for (const item of s.items) {
    if (item.state === 'absent') continue;
    counts[item.state]++;
    entries.push(entryOf(item, withDiff));
  }
  return {
    projectRoot: s.root,
    entries,
    counts,
    drift: entries.some((e) => DRIFT.has(e.state)),
    interrupted: s.journal !== undefined,
  };
}

/** Classifies every path of the plan against the project. Synchronous: sync fs calls measured faster. */
export function status(plan: RenderPlan, options: StatusOptions = {}): StatusReport {
  return reportOf(scan(plan, options), options.diff === true);
}
