/**
 * `status` when the memo has no answer (see status.ts): the project planned and classified, reported as
 * a table (state, path, template, reason) and a summary line, or as JSON.
 */

import type { AnswerMemo } from '../../engine/answer-memo.js';
import type { StatusEntry, StatusReport } from '../../sync/index.js';
import { status as syncStatus } from '../../sync/index.js';
import { foldedTable } from '../folded-table.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { engineCommand, jsonProblem, plural, printJson, printProblems } from '../report.js';
import { fold } from '../wrap.js';
import { checkPaths, loadPlan, planFailed } from './apply.js';
import { keepAnswer, recordingIo } from './kept-answer.js';
import type { StatusFlags } from './status.js';

/** `status` once the memo had no answer: plans, reports, and keeps a clean answer in `memo`. */
export async function statusWithPlan(
  io: Io,
  global: GlobalOptions,
  paths: string[],
  flags: StatusFlags,
  memo: AnswerMemo | undefined,
): Promise<number> {
  return engineCommand(io, global, async () => {
    const loaded = await loadPlan(io, global, flags);
    const { plan } = loaded;
    if (planFailed(io, global, loaded.plan)) return 1;
    checkPaths(paths, loaded);
    const report = syncStatus(plan, { diff: flags.diff === true, paths, digests: loaded.digests });
    const recorded = recordingIo(io);
    const out = recorded.io;
    if (global.format === 'json') {
      printJson(out, statusJson(report, plan.problems.map(jsonProblem)));
    } else {
      printProblems(io, plan.problems);
      out.out(statusText(report, flags.all === true, io.widths?.out));
      if (flags.diff === true) out.out(diffsText(report.entries));
    }
    // A clean answer is kept for the next run that finds nothing changed.
    if (!report.drift && !report.interrupted) keepAnswer(memo, loaded, report.entries, recorded.printed());
    return flags.check === true && report.drift ? 2 : 0;
  });
}

export function statusJson(report: StatusReport, problems: readonly unknown[]): Record<string, unknown> {
  return {
    projectRoot: report.projectRoot,
    drift: report.drift,
    interrupted: report.interrupted,
    counts: report.counts,
    entries: report.entries,
    problems,
  };
}

/** The table of entries (stable ones only with `all`) and the summary line, folded at `width` (wrap.ts). */
export function statusText(report: StatusReport, all: boolean, width?: number): string {
  const shown = report.entries.filter((e) => all || (e.state !== 'stable' && e.state !== 'init'));
  const rows = shown.map((e) => [e.state, e.path, e.template ?? '-', e.reason ?? '']);
  const folded = rows.length > 0 ? foldedTable(['STATE', 'PATH', 'TEMPLATE', 'REASON'], rows, width) : '';
  const note = report.interrupted ? INTERRUPTED_STATUS : '';
  return `${note}${folded}${fold(summaryLine(report), width)}\n`;
}

/** Said first when an earlier apply was killed while writing (it left its journal). */
const INTERRUPTED_STATUS =
  'note: an earlier apply was interrupted (it left .pantograph.lock.pending); the files\n' +
  "      it wrote are known as Pantograph's, and `pantograph apply` finishes the job\n";

/** `24 stable, 1 edited, 2 create: drift` or `all 24 files stable`. */
export function summaryLine(report: StatusReport): string {
  const parts = Object.entries(report.counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  if (parts.length === 0) return 'no managed files';
  if (!report.drift) {
    const stable = report.counts.stable + report.counts.init;
    const rest = parts.filter((p) => !/ (stable|init)$/.test(p));
    return `${stable === report.entries.length ? 'all ' : ''}${plural(stable, 'file')} in line${rest.length > 0 ? ` (${rest.join(', ')})` : ''}: no drift`;
  }
  const c = report.counts;
  const todo = [
    c.create + c.changed + c.adopt + c.delete + c.purge > 0 ? 'run `pantograph apply`' : '',
    // Apply stops at a conflict: it writes the new output beside the file to merge, resolve accepts it.
    c.conflict > 0
      ? 'merge each conflict (`pantograph apply` writes the new output beside it), then `pantograph resolve <path>`; if `pantograph update` stopped on them, run it again once they are resolved'
      : '',
    c.edited > 0
      ? 'keep changes made by hand with `pantograph resolve <path>`, or restore the template output with `pantograph apply --force`'
      : '',
  ].filter((t) => t !== '');
  return `${parts.join(', ')}: drift (${todo.join('; ')})`;
}

/** The entries' diffs, one after the other. */
export function diffsText(entries: readonly StatusEntry[]): string {
  return entries
    .map((e) => e.diff ?? '')
    .filter((d) => d !== '')
    .map((d) => (d.endsWith('\n') ? d : `${d}\n`))
    .join('');
}
