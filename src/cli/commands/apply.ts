/**
 * `pantograph apply [--noop] [--diff] [--force] [--yes] [PATH...]`: plans the project and applies the plan
 * with the sync library (run lock, atomic writes, post commands, lock file). A plan with errors is refused
 * before anything is written. Git sources stay at the commits the lock records until their `ref` changes
 * in `.sync.yml` (or `pantograph update` moves them).
 *
 * Files that exist but Pantograph never wrote (`adopt`) and differ from the template output: on a
 * terminal each diff is shown and the user confirms; `--yes` confirms them all (and only them: hand-edited
 * and conflicting managed files still need `--force`); otherwise the run is refused and nothing is
 * written. Conflicts are three-way merged when the previous output can be reproduced
 * (engine/previous-output.ts), else the new output goes to `<path>.pantograph-new`; exit 1 either way.
 *
 * Where nothing changed since an apply that had nothing to change, that answer is printed again
 * (command-memo.ts), from bin.cjs before the rest of Pantograph is even loaded: a re-run in CI or by habit
 * costs what `status` costs. It never answers where something would be written.
 *
 * `loadPlan`, `planFailed` and `runApply` are shared with status, update and init.
 */

import { previousOutputFor } from '../../engine/previous-output.js';
import { type ProjectPlan, planProjectAt } from '../../engine/project-plan.js';
import type { RenderPlan } from '../../engine/render-plan.js';
import { hasErrors } from '../../engine/validate.js';
import { didYouMeanHint } from '../../shared/did-you-mean.js';
import { matchesPath } from '../../sync/glob.js';
import {
  type ApplyOptions,
  type ApplyResult,
  conflictText,
  type StatusEntry,
  SyncError,
  apply as syncApply,
  status as syncStatus,
} from '../../sync/index.js';
import { reportError, UsageError } from '../errors.js';
import { catchInterrupts, exitStatusOf } from '../interrupt.js';
import { type Io, loud, sayErr } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  engineCommand,
  jsonProblem,
  plural,
  printJson,
  printProblems,
  projectDir,
  projectOptions,
  syncProblem,
} from '../report.js';
import { terminalAsk } from '../terminal-ask.js';
import { fold } from '../wrap.js';
import { gaveKeptAnswer, keepAnswer, memoOfRun, recordingIo } from './kept-answer.js';

export interface ApplyFlags extends EngineFlags {
  readonly noop?: boolean;
  readonly diff?: boolean;
  readonly force?: boolean;
  readonly yes?: boolean;
  /** False (`--no-memo`): no kept answer is given or kept. */
  readonly memo?: boolean;
}

/** Asks the user a question on the terminal and returns the answer. */
export type Ask = (question: string) => Promise<string>;

/** A planned project: see `planProjectAt`. */
export type LoadedPlan = ProjectPlan;

/** The terminal's questions, shared with init and update. */
export { terminalAsk };

export async function apply(
  io: Io,
  global: GlobalOptions,
  paths: string[],
  flags: ApplyFlags,
): Promise<number> {
  return applyWith(io, global, paths, flags, terminalAsk);
}

/** `apply` with the terminal question injected (tests, other front ends). */
export async function applyWith(
  io: Io,
  global: GlobalOptions,
  paths: readonly string[],
  flags: ApplyFlags,
  ask: Ask,
): Promise<number> {
  const memo = memoOfRun('apply', io, global, flags);
  if (gaveKeptAnswer(io, global, memo)) return 0;
  return engineCommand(
    io,
    global,
    async () => {
      const loaded = await loadPlan(io, global, flags);
      if (planFailed(io, global, loaded.plan)) return 1;
      checkPaths(paths, loaded);
      if (memo === undefined) return runApply(io, global, loaded, { paths, flags, ask });
      const recorded = recordingIo(io);
      let result: ApplyResult | undefined;
      const code = await runApply(recorded.io, global, loaded, {
        paths,
        flags,
        ask,
        applied: (r) => (result = r),
      });
      if (code === 0 && result !== undefined && nothingDone(result)) {
        keepAnswer(memo, loaded, result.entries, recorded.printed());
      }
      return code;
    },
    { writes: true },
  );
}

/** An apply that wrote, removed, asked, skipped, ran and finished nothing: a re-run would do the same. */
function nothingDone(result: ApplyResult): boolean {
  return (
    result.ok &&
    result.changedCount === 0 &&
    result.written.length === 0 &&
    result.removed.length === 0 &&
    result.skipped.length === 0 &&
    result.conflicts.length === 0 &&
    result.post.length === 0 &&
    result.directoriesCreated.length === 0 &&
    result.backups.length === 0 &&
    result.changedDuringRun.length === 0 &&
    !result.lockChanged &&
    !result.interrupted
  );
}

/**
 * Loads and plans the project. Git sources use their locked commits (same location and `ref` in the lock)
 * unless `followRefs` (update): then their `ref` is fetched and resolved again.
 */
export async function loadPlan(
  io: Io,
  global: GlobalOptions,
  flags: EngineFlags,
  how: { readonly followRefs?: boolean; readonly root?: string } = {},
): Promise<LoadedPlan> {
  const dir = how.root ?? projectDir(io, global);
  return planProjectAt(dir, projectOptions(flags, io), how);
}

/** Prints the plan's errors (and warnings) when it has any error: nothing may be written then. */
export function planFailed(io: Io, global: GlobalOptions, plan: RenderPlan): boolean {
  if (!hasErrors(plan.problems)) return false;
  if (global.format === 'json') printJson(io, { ok: false, problems: plan.problems.map(jsonProblem) });
  else {
    printProblems(io, plan.problems);
    const errors = plan.problems.filter((p) => p.severity === 'error').length;
    io.err(`${plural(errors, 'error')} in the plan: nothing was written\n`);
  }
  return true;
}

/**
 * Each PATH must name something Pantograph plans or manages (a file, a directory of them, or a glob):
 * a typo would otherwise quietly do nothing.
 */
export function checkPaths(paths: readonly string[], loaded: LoadedPlan): void {
  const known = [
    ...loaded.plan.files.map((f) => f.path),
    ...(loaded.lock?.files.keys() ?? []),
    ...loaded.plan.delete,
  ];
  for (const given of paths) {
    const clean = given.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
    if (clean === '' || clean === '.' || known.some((p) => matchesPath(clean, p))) continue;
    throw new UsageError(
      `no planned or managed file matches '${given}'`,
      didYouMeanHint(clean, known) ??
        'paths are relative to the project root; `pantograph status --all` lists them',
    );
  }
}

/** Raised from the confirmation callback when no one can confirm: the run stops before writing. */
class AdoptRefused extends Error {}

export interface RunApply {
  readonly paths: readonly string[];
  readonly flags: ApplyFlags;
  readonly ask: Ask;
  /** Said after conflicts, e.g. by update. */
  readonly conflictNote?: string;
  /** Told the result once the plan was applied (apply keeps an answer with nothing done). */
  readonly applied?: (result: ApplyResult) => void;
}

/** Applies a plan that has no errors and reports the result. Returns the exit code. */
export async function runApply(
  io: Io,
  global: GlobalOptions,
  loaded: LoadedPlan,
  run: RunApply,
): Promise<number> {
  const { plan, lock } = loaded;
  const { flags } = run;
  const json = global.format === 'json';
  const options: ApplyOptions = {
    noop: flags.noop === true,
    diff: flags.diff === true,
    force: flags.force === true,
    ...(run.paths.length > 0 ? { paths: run.paths } : {}),
    confirm: confirmer(io, flags, run.ask, json),
    ...(lock ? { previousOutput: previousOutputFor(loaded.root, lock, loaded.options) } : {}),
    ...(io.progress ? { onProgress: io.progress.bind(io) } : {}),
    digests: loaded.digests,
  };
  // Ctrl-C or SIGTERM while writing: the run stops between two files and says how far it got.
  const interruption = options.noop
    ? undefined
    : catchInterrupts(
        io,
        (signal) =>
          sayErr(
            io,
            `interrupted (${signal}): stopping after the file being written (${signal === 'SIGINT' ? 'press Ctrl-C' : 'send it'} again to stop at once)\n`,
          ),
        'the next `pantograph apply` finishes the job',
      );
  let result: ApplyResult;
  try {
    result = await syncApply(plan, {
      ...options,
      ...(interruption ? { signal: interruption.signal } : {}),
    });
  } catch (e) {
    if (e instanceof SyncError && e.code === 'SYNC_INTERRUPTED')
      return reportInterrupted(io, global, e, interruption!.signal.reason as string);
    if (!(e instanceof AdoptRefused)) throw e;
    return refuseAdopt(io, global, loaded, run);
  } finally {
    interruption?.dispose();
  }
  run.applied?.(result);
  if (json) {
    printJson(io, applyJson(result, plan.problems.map(jsonProblem)));
    return result.ok ? 0 : 1;
  }
  printProblems(io, plan.problems);
  io.out(resultText(result, flags.diff === true, io.widths?.out));
  if (result.conflicts.length > 0) {
    sayErr(io, `error: ${result.message}\n`);
    if (run.conflictNote) sayErr(io, `  hint: ${run.conflictNote}\n`);
    return 1;
  }
  const failed = result.post.filter((p) => !p.ok);
  for (const p of failed) {
    const status = p.status === null ? 'did not run' : `exit ${p.status}`;
    sayErr(io, `error: post command \`${p.command}\` failed on ${p.path} (${status})\n`);
    if (p.output.trim() !== '') io.err(indent(p.output));
  }
  if (failed.length > 0) {
    sayErr(io, `  hint: fix the command (post in .sync.yml) and run apply again: the file is redone\n`);
    return 1;
  }
  io.out(`${result.message || nothingText(result)}\n`);
  return 0;
}

/** A run stopped by a signal: what it did (the error says), exit 128 + the signal's number. */
function reportInterrupted(io: Io, global: GlobalOptions, e: SyncError, signal: string): number {
  if (global.format === 'json')
    printJson(io, { ok: false, interrupted: signal, problems: [jsonProblem(syncProblem(e))] });
  else reportError(e, io);
  return exitStatusOf(signal);
}

/** No file changed: said so, and that the lock file was still brought up to date (a diff to commit). */
function nothingText(result: ApplyResult): string {
  if (result.noop) return 'Nothing would change';
  return result.lockChanged ? 'No file to change; .pantograph.lock brought up to date' : 'Nothing to change';
}

/** How adopted files are confirmed: never asked under --force, yes under --yes, the user on a terminal. */
function confirmer(io: Io, flags: ApplyFlags, ask: Ask, json: boolean): NonNullable<ApplyOptions['confirm']> {
  if (flags.force === true || flags.yes === true) return () => true;
  if (!io.interactive || json) {
    return () => {
      throw new AdoptRefused();
    };
  }
  return async (entry, diff) => {
    loud(io).out(diff); // asked on a terminal: the diff is shown even under --quiet
    const answer = await ask(`${entry.path} exists and Pantograph never wrote it. Overwrite it? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  };
}

/** Adopted files that need a confirmation no one can give: list them, write nothing, exit 1. */
function refuseAdopt(io: Io, global: GlobalOptions, loaded: LoadedPlan, run: RunApply): number {
  const { plan, digests } = loaded;
  const report = syncStatus(plan, { diff: run.flags.diff === true, paths: run.paths, digests });
  const adopt = report.entries.filter((e) => e.state === 'adopt');
  const message = `${plural(adopt.length, 'file')} exist${adopt.length === 1 ? 's' : ''} and differ${adopt.length === 1 ? 's' : ''} from the template output, and Pantograph never wrote ${adopt.length === 1 ? 'it' : 'them'}: nothing was written`;
  const hint =
    'review with `pantograph status --diff`, then run apply on a terminal to confirm each file, with --yes to overwrite these files, or with --force to overwrite every file';
  if (global.format === 'json') {
    printJson(io, {
      ok: false,
      message,
      hint,
      adopt: adopt.map((e) => ({
        path: e.path,
        ...(e.template ? { template: e.template } : {}),
        ...(e.diff ? { diff: e.diff } : {}),
      })),
      problems: plan.problems.map(jsonProblem),
    });
    return 1;
  }
  printProblems(io, plan.problems);
  for (const e of adopt) {
    io.out(`adopt     ${e.path}${e.template ? ` (${e.template})` : ''}\n`);
    if (e.diff) io.out(e.diff);
  }
  sayErr(io, `error: ${message}\n  hint: ${hint}\n`);
  return 1;
}

/**
 * One line per file changed (or to change), the kept ones, conflicts, and diffs under `--diff`; a line
 * longer than `width` folds under its path (wrap.ts), a diff never.
 */
function resultText(result: ApplyResult, withDiff: boolean, width?: number): string {
  const state = new Map<string, StatusEntry>(result.entries.map((e) => [e.path, e]));
  const lines: string[] = [];
  if (result.interrupted) {
    const note = result.noop
      ? 'note: an earlier apply was interrupted (it left .pantograph.lock.pending): apply finishes it'
      : 'note: finishing an earlier apply that was interrupted (it left .pantograph.lock.pending)';
    lines.push(`${fold(note, width)}\n`);
  }
  const line = (what: string, path: string, note = '') =>
    lines.push(`${fold(`${what.padEnd(9)} ${path}${note}`, width, 10)}\n`);
  for (const c of result.conflicts) {
    line('conflict', c.path, `: ${conflictText(c)}`);
    // What apply writes (a merge, or the new output beside the file), not what --force would.
    const diff = c.diff ?? state.get(c.path)?.diff;
    if (withDiff && diff) lines.push(diff);
  }
  const touched = [...result.written, ...result.removed].sort();
  const backups = new Map(result.backups.map((b) => [b.path, b.backup]));
  for (const path of touched) {
    const e = state.get(path);
    const backup = backups.get(path);
    const done = result.removed.includes(path) ? 'removed' : 'overwritten';
    // An adopted file was confirmed (on the terminal, --yes or --force); a hand edit yields to --force only.
    const why =
      e?.state === 'adopt'
        ? `never written by Pantograph: ${done} as confirmed`
        : `changed by hand: ${done} under --force`;
    const note = backup
      ? `  (${why}; your version is saved as ${backup})`
      : e?.reason
        ? `  (${e.reason})`
        : '';
    line(e?.state ?? 'write', path, note);
    if (withDiff && e?.diff) lines.push(e.diff);
  }
  // Under noop, adopted files are listed above as changes; their "needs confirmation" is in the reason.
  for (const s of result.skipped) if (!touched.includes(s.path)) line('kept', s.path, `  (${s.reason})`);
  return lines.join('');
}

export function applyJson(result: ApplyResult, problems: readonly unknown[]): Record<string, unknown> {
  return {
    noop: result.noop,
    ok: result.ok,
    message: result.message,
    changed: result.changedCount,
    written: result.written,
    removed: result.removed,
    skipped: result.skipped,
    backups: result.backups,
    changedDuringRun: result.changedDuringRun,
    conflicts: result.conflicts,
    post: result.post,
    directoriesCreated: result.directoriesCreated,
    lockChanged: result.lockChanged,
    interrupted: result.interrupted,
    entries: result.entries.filter((e) => e.state !== 'stable'),
    problems,
  };
}

function indent(text: string): string {
  return `${text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n`;
}

/** An Io whose JSON output is kept, to be merged into one document by the caller (update, init). */
export function captureJson(io: Io): Io & { value(): Record<string, unknown> } {
  let text = '';
  return {
    ...io,
    out: (t: string) => {
      text += t;
    },
    value: () => (text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>)),
  };
}
