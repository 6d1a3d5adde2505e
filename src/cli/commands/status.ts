/**
 * `pantograph status [--check] [--diff] [--all] [PATH...]`: every path of the plan, the lock and `delete`
 * classified against the project (DESIGN 8), as a table (state, path, template, reason) and a summary
 * line. Stable and `init` files are counted but listed only with `--all`. `--check` exits 2 on drift (anything not
 * in its desired state), so CI can fail on it; errors exit 1. Git sources stay at their locked commits,
 * so upstream moving is no drift.
 */
import type { StatusEntry, StatusReport } from '../../sync/index.js';
import { status as syncStatus } from '../../sync/index.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  engineCommand,
  jsonProblem,
  plural,
  printJson,
  printProblems,
  table,
} from '../report.js';
import { checkPaths, loadPlan, planFailed } from './apply.js';

export interface StatusFlags extends EngineFlags {
  readonly check?: boolean;
  readonly diff?: boolean;
  readonly all?: boolean;
}

export async function status(
  io: Io,
  global: GlobalOptions,
  paths: string[],
  flags: StatusFlags,
): Promise<number> {
  return engineCommand(io, global, async () => {
    const loaded = await loadPlan(io, global, flags);
    const { plan } = loaded;
    if (planFailed(io, global, loaded.plan)) return 1;
    checkPaths(paths, loaded);
    const report = syncStatus(plan, { diff: flags.diff === true, paths, digests: loaded.digests });
    if (global.format === 'json') {
      printJson(io, statusJson(report, plan.problems.map(jsonProblem)));
    } else {
      printProblems(io, plan.problems);
      io.out(statusText(report, flags.all === true));
      if (flags.diff === true) io.out(diffsText(report.entries));
    }
    return flags.check === true && report.drift ? 2 : 0;
  });
}

export function statusJson(report: StatusReport, problems: readonly unknown[]): Record<string, unknown> {
  return {
    projectRoot: report.projectRoot,
    drift: report.drift,
    counts: report.counts,
    entries: report.entries,
    problems,
  };
}

/** The table of entries (stable ones only with `all`) and the summary line. */
export function statusText(report: StatusReport, all: boolean): string {
  const shown = report.entries.filter((e) => all || (e.state !== 'stable' && e.state !== 'init'));
  const rows = shown.map((e) => [e.state, e.path, e.template ?? '-', e.reason ?? '']);
  const head = rows.length > 0 ? table(['STATE', 'PATH', 'TEMPLATE', 'REASON'], rows) : '';
  return `${head}${summaryLine(report)}\n`;
}

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
    c.create + c.changed + c.adopt + c.delete + c.purge + c.conflict > 0 ? 'run `pantograph apply`' : '',
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
