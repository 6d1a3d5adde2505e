/**
 * `pantograph fleet status|apply|update|plan-matrix|report|import-modulesync`: many repositories at once
 * (DESIGN 13a), on the library's fleet API (src/fleet). This file only reads flags and prints.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EngineError } from '../../engine/errors.js';
import { moveLine } from '../../engine/source-moves.js';
import {
  checkOneBranchEach,
  FLEET_FILE,
  type Fleet,
  type FleetMode,
  type FleetReport,
  importModulesync,
  loadFleet,
  lockNote,
  matrixOf,
  mergeReports,
  parseShard,
  RESULTS,
  readReport,
  runFleet,
  selectRepositories,
  shardOf,
  shardText,
} from '../../fleet/index.js';
import { UsageError } from '../errors.js';
import { FleetProgress, recordLine } from '../fleet-progress.js';
import { foldedTable } from '../folded-table.js';
import { fileOrigin } from '../format-error.js';
import { catchInterrupts, exitStatusOf } from '../interrupt.js';
import { type Io, loud, sayErr, sayOut } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { refuseModulesyncFlags } from '../modulesync-flags.js';
import { writeOutputFile } from '../output-file.js';
import {
  type EngineFlags,
  engineCommand,
  printJson,
  printProblems,
  projectOptions,
  shortPath,
} from '../report.js';

export interface FleetSelectFlags {
  readonly fleet?: string;
  readonly filter?: string[];
  readonly exclude?: string[];
  readonly label?: string[];
  readonly group?: string[];
  readonly shard?: string;
}

export interface FleetRunFlags extends FleetSelectFlags, EngineFlags {
  readonly jobs?: string;
  readonly diff?: boolean;
  readonly fresh?: boolean;
  readonly noop?: boolean;
  readonly push?: boolean;
  readonly pr?: boolean;
  readonly branch?: string;
  readonly message?: string;
  readonly yes?: boolean;
  readonly prTitle?: string;
  readonly prLabels?: string[];
  /** msync's spellings (Thor takes both). */
  readonly pr_title?: string;
  readonly pr_labels?: string[];
}

export async function fleetStatus(io: Io, global: GlobalOptions, flags: FleetRunFlags): Promise<number> {
  return fleetRun(io, global, flags, 'status');
}

export async function fleetApply(io: Io, global: GlobalOptions, flags: FleetRunFlags): Promise<number> {
  return fleetRun(io, global, flags, 'apply');
}

/** `update` in every repository: git sources to their ref's latest commit, then as `fleet apply`. */
export async function fleetUpdate(io: Io, global: GlobalOptions, flags: FleetRunFlags): Promise<number> {
  return fleetRun(io, global, flags, 'update');
}

async function fleetRun(
  io: Io,
  global: GlobalOptions,
  flags: FleetRunFlags,
  mode: FleetMode,
): Promise<number> {
  return fleetCommand(io, global, async () => {
    refuseModulesyncFlags(flags as unknown as Record<string, unknown>);
    const chosen = select(io, global, flags);
    const { selected, repositories, shard } = chosen;
    const fleet = withPullRequestFlags(chosen.fleet, flags);
    const jobs = flags.jobs !== undefined ? parseJobs(flags.jobs) : undefined;
    if (flags.push === true && flags.noop !== true) checkOneBranchEach(selected, flags.branch);
    const progress = new FleetProgress(
      io,
      repositories.length,
      io.progress !== undefined && global.format !== 'json',
    );
    // Ctrl-C or a CI job's cancel (SIGTERM): the run stops cleanly and reports what it did.
    const interruption = catchInterrupts(io, (signal) =>
      progress.note(
        `interrupted (${signal}): no repository is started any more; those under way stop at their next step, their clones reset (${signal === 'SIGINT' ? 'press Ctrl-C' : 'send it'} again to stop at once)\n`,
      ),
    );
    const report = await runFleet(fleet, repositories, {
      mode,
      noop: flags.noop === true,
      diff: flags.diff === true,
      push: flags.push === true,
      pr: flags.pr === true,
      yes: flags.yes === true,
      fresh: flags.fresh === true,
      ...(flags.branch !== undefined ? { branch: flags.branch } : {}),
      ...(flags.message !== undefined ? { message: flags.message } : {}),
      ...(jobs !== undefined ? { jobs } : {}),
      ...(shard !== undefined ? { shard: shardText(shard), selected: selected.map((r) => r.name) } : {}),
      project: projectOptions(flags),
      onEvent: (event) => progress.hear(event),
      signal: interruption.signal,
    }).finally(() => interruption.dispose());
    progress.finish();
    if (repositories.length === 0 && shard && global.format !== 'json') {
      // The fleet shrank after the matrix was planned: this job has nothing to do, and says so.
      sayOut(
        io,
        `shard ${shardText(shard)} has no repository: ${selected.length} selected, fewer than its ${shard.count} shards\n`,
      );
    }
    printReport(io, global, report, { diff: flags.diff === true, offline: flags.offline === true });
    if (report.interrupted !== undefined) return exitStatusOf(report.interrupted);
    return report.ok ? 0 : 1;
  });
}

export async function fleetPlanMatrix(
  io: Io,
  global: GlobalOptions,
  flags: FleetSelectFlags & { readonly perShard?: string; readonly shards?: string },
): Promise<number> {
  return fleetCommand(io, global, async () => {
    if (flags.shard !== undefined)
      throw new UsageError('plan-matrix splits the whole selection: leave --shard out');
    // Two ways to size the shards: taking one in silence would give a matrix the user did not ask for.
    if (flags.shards !== undefined && flags.perShard !== undefined)
      throw new UsageError(
        '--shards and --per-shard both size the shards: give one of them',
        '--shards N for N shards, --per-shard N for N repositories in each',
      );
    const { selected } = select(io, global, flags);
    const split =
      flags.shards !== undefined
        ? { shards: positive(flags.shards, '--shards') }
        : { perShard: positive(flags.perShard ?? '20', '--per-shard') };
    const matrix = matrixOf(selected.length, split);
    io.out(`${JSON.stringify(matrix)}\n`);
    const count = matrix.include.length;
    if ('perShard' in split && count < Math.ceil(selected.length / split.perShard)) {
      sayErr(
        io,
        `note: ${count} shards of up to ${Math.ceil(selected.length / count)} repositories, not ${split.perShard} a shard: ${count} is the most a CI matrix takes\n`,
      );
    }
    if ('shards' in split && count < split.shards) {
      // Standard error: the matrix on standard output is read by the workflow.
      const why =
        count === selected.length
          ? `${counted(count, 'repository', 'repositories')} selected, and a shard never goes without one`
          : `${count} is the most a CI matrix takes`;
      sayErr(io, `note: ${counted(count, 'shard', 'shards')}, not ${split.shards}: ${why}\n`);
    }
    return 0;
  });
}

export async function fleetReport(
  io: Io,
  global: GlobalOptions,
  files: string[],
  flags: { readonly allowMissing?: boolean } = {},
): Promise<number> {
  return fleetCommand(io, global, async () => {
    const paths = files.map((f) => resolve(io.cwd, f));
    const report = mergeReports(paths.map(readReport), paths, { allowMissing: flags.allowMissing === true });
    if (report.missingShards && global.format !== 'json') {
      sayErr(
        io,
        `warning: not in this report: the repositories of ${report.missingShards.length === 1 ? 'shard' : 'shards'} ${report.missingShards.join(', ')} (--allow-missing)\n`,
      );
    }
    printReport(io, global, report, { diff: false, offline: false });
    return report.ok ? 0 : 1;
  });
}

export async function fleetImportModulesync(
  io: Io,
  global: GlobalOptions,
  dir: string | undefined,
  flags: { readonly output?: string; readonly force?: boolean },
): Promise<number> {
  return fleetCommand(io, global, async () => {
    const configDir = resolve(io.cwd, dir ?? '.');
    const out = flags.output === '-' ? undefined : resolve(io.cwd, flags.output ?? FLEET_FILE);
    // The fleet file names the configuration relative to itself (standard output: to here).
    const imported = importModulesync(configDir, out === undefined ? io.cwd : dirname(out));
    if (out === undefined) loud(io).out(imported.text);
    else {
      if (existsSync(out) && flags.force !== true) {
        throw new UsageError(
          `${shortPath(out, io.cwd)} exists`,
          'pass --force to replace it, or --output FILE (- for standard output)',
        );
      }
      writeOutputFile(out, imported.text, io.cwd, 'give another --output (- for standard output)');
      io.out(
        `wrote ${shortPath(out, io.cwd)}: ${imported.repositories} ${imported.repositories === 1 ? 'repository' : 'repositories'}\n`,
      );
    }
    for (const note of imported.notes) sayErr(io, `note: ${note}\n`);
    return 0;
  });
}

/**
 * A fleet command. Its output is read by CI jobs and `fleet report`: under `--format json` every error
 * that stops it is `{ "problems": [...] }` on standard output (engineCommand), a mistake in a flag too.
 */
function fleetCommand(io: Io, global: GlobalOptions, body: () => Promise<number>): Promise<number> {
  return engineCommand(io, global, async () => {
    try {
      return await body();
    } catch (e) {
      if (global.format !== 'json' || !(e instanceof UsageError)) throw e;
      throw new EngineError('FLEET_USAGE', e.message, e.hint !== undefined ? { hint: e.hint } : {});
    }
  });
}

/**
 * The repositories the flags select, and this shard's part of them. Selecting none is an error (a typo
 * in a flag must not pass for success); a shard with none is not (the fleet shrank after the matrix
 * was planned): its run reports nothing, and `fleet report` merges that.
 */
function select(io: Io, global: GlobalOptions, flags: FleetSelectFlags) {
  const file = resolve(io.cwd, global.dir ?? '.', flags.fleet ?? FLEET_FILE);
  const fleet = loadFleet(file);
  printProblems(io, fleet.problems); // warnings (errors throw); standard error, so JSON output stays clean
  const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  const selected = selectRepositories(fleet, {
    filters: flags.filter ?? [],
    excludes: flags.exclude ?? [],
    labels: flags.label ?? [],
    groups: flags.group ?? [],
  });
  if (selected.length === 0) {
    const listed = fleet.repositories.length;
    throw new EngineError('FLEET_SELECT', `no repository of ${shortPath(fleet.file, io.cwd)} is selected`, {
      hint:
        listed === 0
          ? 'it lists none: add them under `repositories:`'
          : (regexFilterHint(flags.filter ?? [], fleet.repositories) ??
            `none of its ${counted(listed, 'repository', 'repositories')} matches --filter, --exclude, --label and --group as given`),
    });
  }
  return { fleet, selected, repositories: shard ? shardOf(selected, shard) : selected, shard };
}

/**
 * msync's `--filter` is a regular expression matched anywhere in the name (`apache`, `^puppet-(ntp|nginx)$`);
 * the fleet's is a glob of the whole name. A filter that selected nothing but reads as such an expression,
 * or is part of a name, is answered with the glob that means it.
 */
function regexFilterHint(
  filters: readonly string[],
  repositories: readonly { readonly name: string }[],
): string | undefined {
  const regex = filters.find((f) => /[()|^$\\+]|\.\*/.test(f));
  if (regex !== undefined) {
    return `--filter takes name globs matched against the whole name, not modulesync's regular expressions: for '${regex}' give one --filter per glob, e.g. --filter 'puppet-*' --filter '*-nginx'`;
  }
  const part = filters.find((f) => !/[*?[\]{}]/.test(f) && repositories.some((r) => r.name.includes(f)));
  if (part !== undefined) {
    return `--filter takes name globs matched against the whole name (modulesync's matches anywhere in it): --filter '*${part}*' selects the names containing '${part}'`;
  }
  return undefined;
}

/** `--pr-title` and `--pr-labels` (msync's names) in place of the fleet file's `pull_request:`. */
function withPullRequestFlags(fleet: Fleet, flags: FleetRunFlags): Fleet {
  const title = flags.prTitle ?? flags.pr_title;
  const given = flags.prLabels ?? flags.pr_labels;
  if (title === undefined && given === undefined) return fleet;
  // msync takes `--pr-labels a b` and modulesync.yml `pr_labels: "a, b"`: both spellings here.
  const labels = given
    ?.flatMap((l) => l.split(','))
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return {
    ...fleet,
    pullRequest: {
      ...fleet.pullRequest,
      ...(title !== undefined ? { title } : {}),
      ...(labels !== undefined ? { labels } : {}),
    },
  };
}

function printReport(
  io: Io,
  global: GlobalOptions,
  report: FleetReport,
  { diff, offline }: { diff: boolean; offline: boolean },
): void {
  if (global.format === 'json') {
    printJson(io, report);
    return;
  }
  printMoves(io, report, offline);
  if (diff) {
    for (const r of report.repositories) {
      if (r.diff) io.out(`# ${r.name}\n${r.diff}`);
    }
  }
  const rows = report.repositories.map((r) => [
    r.name,
    r.result + (r.resumed ? '*' : ''),
    // The lock file is said beside the count when the count alone would hide it (a first apply).
    [String(r.files.length), lockNote(r)]
      .filter((s) => s !== undefined)
      .join(' + '),
    [
      r.branch && r.commit ? `${r.branch}@${r.commit.slice(0, 10)}` : '',
      r.pushed ? 'pushed' : '',
      r.pullRequest ? `${r.pullRequest.action} ${r.pullRequest.url}` : '',
    ]
      .filter((s) => s !== '')
      .join(' '),
  ]);
  if (rows.length > 0) {
    io.out(foldedTable(['REPOSITORY', 'RESULT', 'FILES', 'BRANCH / PULL REQUEST'], rows, io.widths?.out));
  }
  for (const r of report.repositories) {
    // An interrupted repository is named once, in the interruption's summary below.
    if (!r.error || r.result === 'interrupted') continue;
    // A file of a git source's cached tree is named by its source, the repository to fix.
    const origin = fileOrigin(r.error.file);
    // The command's output is shown as it was; the prose around it is folded.
    sayErr(
      io,
      `${recordLine(r)}${r.error.file ? ` (${r.error.file}:${r.error.line}:${r.error.column})` : ''}\n${origin ? `  in: ${origin}\n` : ''}`,
    );
    if (r.error.output) io.err(indentLines(r.error.output));
    if (r.error.hint) sayErr(io, `  hint: ${r.error.hint}\n`);
  }
  if (report.interrupted !== undefined) printInterruption(io, report);
  const s = report.summary;
  const parts = RESULTS.filter((k) => (s[k] ?? 0) > 0).map((k) => `${s[k]} ${k}`);
  const resumed = report.repositories.filter((r) => r.resumed).length;
  sayOut(
    io,
    `${counted(s.total, 'repository', 'repositories')}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}${resumed > 0 ? ` (* ${resumed} unchanged since the last run, not redone)` : ''}${report.noop ? ' (noop: nothing written)' : ''}\n`,
  );
}

/**
 * An interrupted run: which repositories were done, stopped half way (reset), and not started, on
 * standard error (under --quiet too: the run did not do what was asked).
 */
function printInterruption(io: Io, report: FleetReport): void {
  const named = (result: string) => {
    const names = report.repositories.filter((r) => r.result === result).map((r) => r.name);
    const listed = names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
    return { count: names.length, listed };
  };
  const stopped = named('interrupted');
  const waiting = named('not-started');
  const done = report.repositories.length - stopped.count - waiting.count;
  const parts = [
    `${done} done`,
    ...(stopped.count > 0 ? [`${stopped.count} stopped and reset, nothing kept (${stopped.listed})`] : []),
    ...(waiting.count > 0 ? [`${waiting.count} not started (${waiting.listed})`] : []),
  ];
  sayErr(
    io,
    `interrupted (${report.interrupted}): ${parts.join('; ')}\n  hint: run the same command again to carry on${report.mode === 'update' ? '' : ': the repositories done are not redone'}\n`,
  );
}

/** Update: where the git sources went, once per move, with how many repositories took it. */
function printMoves(io: Io, report: FleetReport, offline: boolean): void {
  const moves = new Map<string, number>();
  for (const r of report.repositories) {
    for (const m of r.sources ?? []) {
      const line = moveLine(m);
      moves.set(line, (moves.get(line) ?? 0) + 1);
    }
  }
  for (const [line, n] of moves) io.out(`source ${line} (${counted(n, 'repository', 'repositories')})\n`);
  // "already at" under --offline means "at the newest commit an earlier fetch saw": the remote may be ahead.
  if (offline && moves.size > 0) {
    io.out(
      'note: --offline takes the latest commits the cache holds (fetched by an earlier run); the remotes may have newer ones\n',
    );
  }
}

/** `1 repository`, `3 repositories`. */
function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function parseJobs(text: string): number {
  return positive(text, '--jobs');
}

function positive(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a positive whole number, not '${text}'`);
  return n;
}

/** Output of a command, indented under the line that names it. */
function indentLines(text: string): string {
  return `${text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n`;
}
