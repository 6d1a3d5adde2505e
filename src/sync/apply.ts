/**
 * `apply`: the one writer. Under the run lock it scans the target, finds every conflict before writing
 * anything, asks about adopted files, then removes, writes (atomically), runs `post` commands, records
 * the lock and checks that every path it touched reached its desired state.
 */
import type { RenderPlan } from '../engine/render-plan.js';
import type { FileState } from './classify.js';
import { type ConflictResult, stopOnConflicts } from './conflicts.js';
import type { FileDigests } from './digests.js';
import { SyncError } from './errors.js';
import { matchesBasename } from './glob.js';
import { clearJournal, recordPosted, writeJournal } from './journal.js';
import { type LockedFile, type LockFile, lockFor, writeLock } from './lock.js';
import { acquireRunLock, type RunLock } from './mutex.js';
import { lockEntryAfter, settleDirectories, verify } from './outcome.js';
import { type DiskState, derivedPath, NEW_SUFFIX, parentDir, Target } from './paths.js';
import { type PostResult, runPost } from './post.js';
import {
  entryOf,
  type Item,
  itemDiff,
  projectRoot,
  reportOf,
  type Scan,
  type StatusEntry,
  scan,
} from './status.js';
import { isInterruption, StopPoint, interrupted as stoppedBy } from './stop-point.js';
import { plural } from './text.js';
import { checkWritable } from './writable.js';
import { chmodFile, ensureDir, removeFile, removeTempFiles, saveBackup, writeFileAtomic } from './write.js';

export type { ConflictResult } from './conflicts.js';

export interface ApplyOptions {
  /** Write nothing; report what would change. */
  readonly noop?: boolean;
  /** Include unified diffs in the entries. */
  readonly diff?: boolean;
  /** Overwrite hand-edited, conflicting and adopted files; purge and remove hand-edited ones. */
  readonly force?: boolean;
  /** Only these paths (or directories, or globs); everything else is left as it is. */
  readonly paths?: readonly string[];
  /** Asked for each `adopt` file whose content differs, with its diff; true overwrites it. */
  readonly confirm?: (entry: StatusEntry, diff: string) => Promise<boolean> | boolean;
  /** The previous template output of a path (the engine reproduces it), for a three-way merge. */
  readonly previousOutput?: (path: string) => Promise<Uint8Array | undefined> | Uint8Array | undefined;
  /** fsync every written file (survives power loss; several times slower). The lock is always synced. */
  readonly durable?: boolean;
  /** Hears about long work (post-processing commands), for a progress line. */
  readonly onProgress?: (text: string) => void;
  /**
   * Called just before each file is removed or written, with its path. For progress, and for tests that
   * change the project between the scan and a write (the writer checks every file again at that moment).
   */
  readonly onBeforeWrite?: (path: string) => void;
  /** Hashes known from unchanged stats: see `StatusOptions.digests`. */
  readonly digests?: FileDigests;
  /**
   * Called (not under `noop`) once the run lock is held and the project scanned, before anything is
   * written (conflict files included), with every path as found. For a caller that must check the project
   * under the lock (the web interface: that apply would do what its preview showed): throwing stops the
   * run with nothing written, and what the caller writes itself happens under the lock.
   */
  readonly beforeChanges?: (entries: readonly StatusEntry[]) => void;
  /**
   * Aborted (with the signal's name as its reason) to stop the run between two files: what was done is
   * recorded in the lock, the files not reached are left as they were, and the run throws
   * `SYNC_INTERRUPTED` saying how far it got (stop-point.ts).
   */
  readonly signal?: AbortSignal;
}

/** A hand-edited file that `--force` overwrote or removed: its content was saved at `backup` first. */
export interface BackupEntry {
  readonly path: string;
  readonly backup: string;
}

export interface SkippedEntry {
  readonly path: string;
  readonly state: FileState;
  readonly reason: string;
}

export interface ApplyResult {
  readonly noop: boolean;
  /** False when a conflict stopped the run or a post command failed. */
  readonly ok: boolean;
  /** Every path as found before applying (with diffs when asked). */
  readonly entries: readonly StatusEntry[];
  /** Written (or, under noop, to be written), including mode-only changes. */
  readonly written: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: readonly string[];
  /** Left alone: hand-edited files, adopted files not confirmed. */
  readonly skipped: readonly SkippedEntry[];
  readonly conflicts: readonly ConflictResult[];
  readonly post: readonly PostResult[];
  readonly directoriesCreated: readonly string[];
  /** Hand edits that `--force` replaced or removed, each saved beside its file first. */
  readonly backups: readonly BackupEntry[];
  /** Files changed by someone else after the scan: left as they were, their lock entries unchanged. */
  readonly changedDuringRun: readonly string[];
  /** Files changed, or that would change under noop (adopt files awaiting confirmation included). */
  readonly changedCount: number;
  /** `Would have changed N files` (noop), `Changed N files`, a conflict summary, or ''. */
  readonly message: string;
  readonly lockChanged: boolean;
  /** An earlier apply was killed while writing (it left its journal): this run finishes (or would finish) it. */
  readonly interrupted: boolean;
}

type Action = 'write' | 'chmod' | 'remove' | 'none' | 'ask' | 'conflict';

function actionOf(item: Item, force: boolean): Action {
  switch (item.state) {
    case 'create':
      return 'write';
    case 'changed':
      return item.modeOnly ? 'chmod' : 'write';
    case 'delete':
    case 'purge':
      return 'remove';
    case 'edited':
      if (!force) return 'none';
      return item.planned && !item.planned.file.empty ? 'write' : 'remove';
    case 'conflict':
      return force ? 'write' : 'conflict';
    case 'adopt':
      return force ? 'write' : 'ask';
    default:
      return 'none';
  }
}

export async function apply(plan: RenderPlan, options: ApplyOptions = {}): Promise<ApplyResult> {
  const noop = options.noop === true;
  const force = options.force === true;
  const root = projectRoot(plan);
  let runLock: RunLock | undefined;
  try {
    if (!noop) {
      runLock = acquireRunLock(root);
      if (runLock.recovered)
        removeTempFiles(new Target(root), ['', ...plan.files.map((f) => parentDir(f.path))]);
    }
    const s = scan(plan, options);
    const entries = reportOf(s, options.diff === true).entries;
    const interrupted = s.journal !== undefined;
    if (!noop) options.beforeChanges?.(entries);
    const actions = new Map<Item, Action>();
    for (const item of s.items) actions.set(item, actionOf(item, force));
    const of = (a: Action): Item[] => s.items.filter((i) => actions.get(i) === a);

    const conflicting = of('conflict');
    if (conflicting.length > 0) {
      const { conflicts, message } = await stopOnConflicts(s, conflicting, noop, options);
      return { ...nothingDone(noop, entries, interrupted), ok: false, conflicts, message };
    }

    const asked = of('ask');
    const accepted = new Set<Item>();
    const skipped: SkippedEntry[] = of('none')
      .filter((i) => i.state === 'edited')
      .map((i) => ({ path: i.path, state: i.state as FileState, reason: i.reason ?? 'changed by hand' }));
    if (!noop) {
      for (const item of asked) {
        if (options.confirm && (await options.confirm(entryOf(item, false), itemDiff(item))))
          accepted.add(item);
        else
          skipped.push({
            path: item.path,
            state: 'adopt',
            reason: 'differs from the template output: not confirmed',
          });
      }
    }
    const writes = [...of('write'), ...of('chmod'), ...asked.filter((i) => noop || accepted.has(i))];
    const removes = of('remove');
    const unchanged = s.items
      .filter((i) => i.state !== 'absent' && actions.get(i) === 'none')
      .map((i) => i.path);
    const changedCount = writes.length + removes.length;
    if (noop) {
      return {
        noop,
        ok: true,
        entries,
        written: writes.map((i) => i.path).sort(),
        removed: removes.map((i) => i.path).sort(),
        unchanged,
        skipped: [
          ...skipped,
          ...asked.map((i) => ({
            path: i.path,
            state: 'adopt' as const,
            reason: 'needs confirmation or --force',
          })),
        ],
        conflicts: [],
        post: [],
        directoriesCreated: [],
        backups: [],
        changedDuringRun: [],
        changedCount,
        message: changedCount > 0 ? `Would have changed ${plural(changedCount, 'file')}` : '',
        lockChanged: false,
        interrupted,
      };
    }
    if (options.signal?.aborted) throw stoppedBy(options.signal, 'nothing was written');
    return await write(plan, s, { writes, removes, unchanged, skipped, entries, actions }, options);
  } finally {
    runLock?.release();
  }
}

interface Work {
  readonly writes: readonly Item[];
  readonly removes: readonly Item[];
  readonly unchanged: readonly string[];
  readonly skipped: readonly SkippedEntry[];
  readonly entries: readonly StatusEntry[];
  readonly actions: ReadonlyMap<Item, Action>;
}

async function write(plan: RenderPlan, s: Scan, work: Work, options: ApplyOptions): Promise<ApplyResult> {
  const durable = options.durable === true;
  const { root, target } = s;
  const written = new Set<string>();
  const removed = new Set<string>();
  const created: string[] = [];
  const backups: BackupEntry[] = [];
  const changedDuringRun: string[] = [];
  /**
   * The file as it is now, or undefined when it changed since the scan (kept, reported). Reading it checks
   * every directory on its path again: one swapped for a symlink after the scan is an error here, before
   * anything is written through it.
   */
  const unchangedSinceScan = (item: Item): DiskState | undefined => {
    options.onBeforeWrite?.(item.path);
    const now = target.readNow(item.path);
    if (sameContent(now, item.disk)) return now;
    changedDuringRun.push(item.path);
    return undefined;
  };
  /** Saves a hand edit that --force is about to destroy. */
  const keep = (item: Item, now: DiskState): void => {
    if (now.kind === 'file' && destroysHandEdit(item))
      backups.push({ path: item.path, backup: saveBackup(root, target, item.path, now, durable) });
  };
  // Every directory the run changes must let it, or nothing is written (not half of the files).
  checkWritable(target, [
    ...work.removes.map((i) => ({ path: i.path, how: 'remove' as const })),
    ...work.writes.map((i) => ({
      path: i.path,
      how: work.actions.get(i) === 'chmod' ? ('chmod' as const) : ('write' as const),
    })),
  ]);
  if (work.writes.length + work.removes.length > 0) writeJournal(root, intendedLock(plan, s, work));
  const stop = new StopPoint(options.signal);
  let failure: unknown; // an interruption's message is made below, once the counts are known
  try {
    for (const item of work.removes) {
      if (stop.turnDue) await stop.takeTurn();
      if (stop.asked) throw stoppedBy(options.signal, '');
      const now = unchangedSinceScan(item);
      if (now === undefined) continue;
      keep(item, now);
      removeFile(target, item.path);
      removed.add(item.path);
    }
    if (removed.size > 0) target.forget();
    for (const item of work.writes) {
      if (stop.turnDue) await stop.takeTurn();
      if (stop.asked) throw stoppedBy(options.signal, '');
      const file = item.planned!.file;
      const now = unchangedSinceScan(item);
      if (now === undefined) continue;
      if (work.actions.get(item) === 'chmod') {
        chmodFile(target, item.path, file.mode);
      } else {
        created.push(...ensureDir(target, parentDir(item.path)));
        keep(item, now);
        writeFileAtomic(root, item.path, file.content, file.mode, durable);
        // A forced conflict: the new output it waited on is now the file itself.
        if (item.state === 'conflict') removeFile(target, derivedPath(item.path, NEW_SUFFIX));
      }
      written.add(item.path);
    }
  } catch (error) {
    failure = error;
  }

  // post commands, then what each written file holds now
  const post: PostResult[] = [];
  const postFailed = new Set<string>();
  const diskAfter = new Map<string, string>();
  const after = new Target(root);
  let postStopped = 0; // files whose post commands an interruption left to the next run
  for (const item of work.writes) {
    if (!written.has(item.path)) continue;
    const chmodOnly = work.actions.get(item) === 'chmod';
    let hash = chmodOnly && item.disk.kind === 'file' ? item.disk.hash : item.planned!.hash;
    // After a failed write phase no post command runs; a file that needs one is redone next time.
    if (!chmodOnly && failure !== undefined) {
      if (plan.post.some((cmd) => matchesBasename(cmd.glob, item.path))) postFailed.add(item.path);
    } else if (!chmodOnly) {
      const needsPost = plan.post.some((cmd) => matchesBasename(cmd.glob, item.path));
      if (needsPost && stop.turnDue) await stop.takeTurn();
      if (needsPost && (postStopped > 0 || stop.asked)) {
        postStopped++; // written, its post commands not run: the next apply redoes it, as after a failure
        postFailed.add(item.path);
        diskAfter.set(item.path, hash);
        continue;
      }
      if (needsPost) options.onProgress?.(`post-processing ${item.path}`);
      const results = runPost(root, plan.post, item.path);
      post.push(...results);
      if (results.some((r) => !r.ok)) postFailed.add(item.path);
      if (results.length > 0) {
        const disk = after.read(item.path);
        if (disk.kind === 'file') hash = disk.hash;
        // The journal's record that this file is done, should the run be killed before the lock is written.
        if (!postFailed.has(item.path)) recordPosted(root, item.path, item.planned!.hash, hash, durable);
      }
    }
    diskAfter.set(item.path, hash);
  }

  const files = new Map<string, LockedFile>(s.lock?.files ?? []);
  for (const item of s.items) {
    const next = lockEntryAfter(item, written.has(item.path), removed.has(item.path), diskAfter, postFailed);
    if (next) files.set(item.path, next);
    else files.delete(item.path);
  }
  const directories = settleDirectories(root, [...(s.lock?.directories ?? []), ...created], removed.size > 0);
  let lockChanged = false;
  let lockFailure: unknown;
  try {
    lockChanged = writeLock(root, lockFor(plan, directories, files), s.lock);
    clearJournal(root); // the lock records the run now
  } catch (e) {
    // When writing already failed (a full disk), that first failure is the one to report.
    if (failure === undefined) throw e;
    lockFailure = e;
  }
  if (failure !== undefined) {
    const recorded =
      lockFailure === undefined
        ? 'the lock records them'
        : `the lock file could not be updated either (${(lockFailure as Error).message}); files written with the template's content are adopted on the next run`;
    if (isInterruption(failure)) {
      const removes = work.removes.length > 0 ? `, ${removed.size} of ${work.removes.length} removed` : '';
      throw stoppedBy(
        options.signal,
        `${written.size} of ${plural(work.writes.length, 'file')} written${removes}; ${recorded}`,
      );
    }
    const done = `${plural(written.size, 'file')} written and ${removed.size} removed before it; ${recorded}`;
    if (failure instanceof SyncError) {
      throw new SyncError(failure.code, `${failure.message} (${done})`, {
        ...(failure.path === undefined ? {} : { path: failure.path }),
        hint: 'Fix the cause and run apply again: it completes the job.',
        cause: failure,
      });
    }
    throw failure;
  }
  if (postStopped > 0) {
    throw stoppedBy(
      options.signal,
      `${plural(written.size, 'file')} written, the post commands of ${postStopped} not run; the lock records that (the next apply writes ${postStopped === 1 ? 'it' : 'them'} again and runs them)`,
    );
  }
  verify(root, files, written, removed, postFailed);
  const changed = written.size + removed.size;
  const failedPost = post.filter((r) => !r.ok).length;
  const skipped = [
    ...work.skipped,
    ...changedDuringRun.map((path) => ({
      path,
      state: 'edited' as const,
      reason: 'changed while apply ran: kept, not overwritten',
    })),
  ];
  return {
    noop: false,
    ok: failedPost === 0 && changedDuringRun.length === 0,
    entries: work.entries,
    written: [...written].sort(),
    removed: [...removed].sort(),
    unchanged: work.unchanged,
    skipped,
    conflicts: [],
    post,
    directoriesCreated: created,
    backups,
    changedDuringRun: changedDuringRun.sort(),
    changedCount: changed,
    message:
      failedPost > 0
        ? `${plural(failedPost, 'post command')} failed`
        : changedDuringRun.length > 0
          ? `${plural(changedDuringRun.length, 'file')} changed while apply ran, kept as they are (run apply again to see them): changed ${plural(changed, 'file')}`
          : changed > 0
            ? `Changed ${plural(changed, 'file')}`
            : '',
    lockChanged,
    interrupted: s.journal !== undefined,
  };
}

function nothingDone(noop: boolean, entries: readonly StatusEntry[], interrupted: boolean): ApplyResult {
  return {
    noop,
    ok: true,
    entries,
    written: [],
    removed: [],
    unchanged: [],
    skipped: [],
    conflicts: [],
    post: [],
    directoriesCreated: [],
    backups: [],
    changedDuringRun: [],
    changedCount: 0,
    message: '',
    lockChanged: false,
    interrupted,
  };
}

/** Whether a file is as the scan saw it: both missing, or both files with the same content. */
function sameContent(now: DiskState, scanned: DiskState): boolean {
  if (now.kind === 'missing' || scanned.kind === 'missing') return now.kind === scanned.kind;
  return now.hash === scanned.hash;
}

/**
 * Whether writing or removing this item destroys content someone wrote by hand (which only `--force`
 * does): a hand-edited or conflicting file, an existing file Pantograph never wrote (adopt), a purged
 * file changed since Pantograph wrote it.
 */
function destroysHandEdit(item: Item): boolean {
  if (item.disk.kind !== 'file') return false;
  switch (item.state) {
    case 'edited':
    case 'conflict':
      return true;
    case 'adopt':
      return item.planned === undefined || item.planned.hash !== item.disk.hash;
    case 'purge':
      return item.locked !== undefined && item.locked.disk !== item.disk.hash;
    default:
      return false;
  }
}

/**
 * The lock the project will have when every write of `work` succeeds, with the post commands of each
 * written file still to run (as if they had failed: they run again, see journal.ts): what the journal
 * records before the first write, so that a run killed midway is recognised and finished by the next one
 * instead of leaving "hand edits" behind.
 */
function intendedLock(plan: RenderPlan, s: Scan, work: Work): LockFile {
  const writes = new Set(work.writes);
  const removes = new Set(work.removes);
  const diskAfter = new Map<string, string>();
  const postPending = new Set<string>();
  for (const item of work.writes) {
    const chmodOnly = work.actions.get(item) === 'chmod';
    diskAfter.set(item.path, chmodOnly && item.disk.kind === 'file' ? item.disk.hash : item.planned!.hash);
    if (!chmodOnly && plan.post.some((cmd) => matchesBasename(cmd.glob, item.path)))
      postPending.add(item.path);
  }
  const files = new Map<string, LockedFile>(s.lock?.files ?? []);
  for (const item of s.items) {
    const next = lockEntryAfter(item, writes.has(item), removes.has(item), diskAfter, postPending);
    if (next) files.set(item.path, next);
    else files.delete(item.path);
  }
  return lockFor(plan, s.lock?.directories ?? [], files);
}
