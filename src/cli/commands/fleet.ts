/**
 * `pantograph fleet status|apply|plan-matrix|report|import-modulesync`: many repositories at once
 * (DESIGN 13a), on the library's fleet API (src/fleet). This file only reads flags and prints.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  FLEET_FILE,
  type FleetReport,
  importModulesync,
  loadFleet,
  matrixOf,
  mergeReports,
  parseShard,
  readReport,
  runFleet,
  selectRepositories,
} from '../../fleet/index.js';
import { UsageError } from '../errors.js';
import { FleetProgress, recordLine } from '../fleet-progress.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  engineCommand,
  printJson,
  printProblems,
  projectOptions,
  shortPath,
  table,
} from '../report.js';

export interface FleetSelectFlags {
  readonly fleet?: string;
  readonly filter?: string[];
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
}

export async function fleetStatus(io: Io, global: GlobalOptions, flags: FleetRunFlags): Promise<number> {
  return fleetRun(io, global, flags, 'status');
}

export async function fleetApply(io: Io, global: GlobalOptions, flags: FleetRunFlags): Promise<number> {
  return fleetRun(io, global, flags, 'apply');
}

async function fleetRun(
  io: Io,
  global: GlobalOptions,
  flags: FleetRunFlags,
  mode: 'status' | 'apply',
): Promise<number> {
  return engineCommand(io, global, async () => {
    const { fleet, repositories, shard } = select(io, global, flags);
    const jobs = flags.jobs !== undefined ? parseJobs(flags.jobs) : undefined;
    if (repositories.length === 0) {
      io.err(`no repository of ${shortPath(fleet.file, io.cwd)} is selected\n`);
      return 1;
    }
    const progress = new FleetProgress(
      io,
      repositories.length,
      io.progress !== undefined && global.format !== 'json',
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
      ...(shard !== undefined ? { shard } : {}),
      project: projectOptions(flags),
      onEvent: (event) => progress.hear(event),
    });
    progress.finish();
    printReport(io, global, report, flags.diff === true);
    return report.ok ? 0 : 1;
  });
}

export async function fleetPlanMatrix(
  io: Io,
  global: GlobalOptions,
  flags: FleetSelectFlags & { readonly perShard?: string; readonly shards?: string },
): Promise<number> {
  return engineCommand(io, global, async () => {
    if (flags.shard !== undefined)
      throw new UsageError('plan-matrix splits the whole selection: leave --shard out');
    const { repositories } = select(io, global, flags);
    const matrix =
      flags.shards !== undefined
        ? matrixOf(positive(flags.shards, '--shards'), 1)
        : matrixOf(repositories.length, positive(flags.perShard ?? '20', '--per-shard'));
    io.out(`${JSON.stringify(matrix)}\n`);
    return 0;
  });
}

export async function fleetReport(io: Io, global: GlobalOptions, files: string[]): Promise<number> {
  return engineCommand(io, global, async () => {
    const paths = files.map((f) => resolve(io.cwd, f));
    const report = mergeReports(paths.map(readReport), paths);
    printReport(io, global, report, false);
    return report.ok ? 0 : 1;
  });
}

export async function fleetImportModulesync(
  io: Io,
  global: GlobalOptions,
  dir: string | undefined,
  flags: { readonly output?: string; readonly force?: boolean },
): Promise<number> {
  return engineCommand(io, global, async () => {
    const configDir = resolve(io.cwd, dir ?? '.');
    const imported = importModulesync(configDir);
    if (flags.output === '-') io.out(imported.text);
    else {
      const out = resolve(io.cwd, flags.output ?? FLEET_FILE);
      if (existsSync(out) && flags.force !== true) {
        throw new UsageError(
          `${shortPath(out, io.cwd)} exists`,
          'pass --force to replace it, or --output FILE (- for standard output)',
        );
      }
      writeFileSync(out, imported.text);
      io.out(
        `wrote ${shortPath(out, io.cwd)}: ${imported.repositories} ${imported.repositories === 1 ? 'repository' : 'repositories'}\n`,
      );
    }
    for (const note of imported.notes) io.err(`note: ${note}\n`);
    return 0;
  });
}

function select(io: Io, global: GlobalOptions, flags: FleetSelectFlags) {
  const file = resolve(io.cwd, global.dir ?? '.', flags.fleet ?? FLEET_FILE);
  const fleet = loadFleet(file);
  printProblems(io, fleet.problems); // warnings (errors throw); standard error, so JSON output stays clean
  const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  const repositories = selectRepositories(fleet, {
    filters: flags.filter ?? [],
    labels: flags.label ?? [],
    groups: flags.group ?? [],
    ...(shard ? { shard } : {}),
  });
  return { fleet, repositories, shard: flags.shard };
}

function printReport(io: Io, global: GlobalOptions, report: FleetReport, diff: boolean): void {
  if (global.format === 'json') {
    printJson(io, report);
    return;
  }
  if (diff) {
    for (const r of report.repositories) {
      if (r.diff) io.out(`# ${r.name}\n${r.diff}`);
    }
  }
  const rows = report.repositories.map((r) => [
    r.name,
    r.result + (r.resumed ? '*' : ''),
    String(r.files.length),
    [
      r.branch && r.commit ? `${r.branch}@${r.commit.slice(0, 10)}` : '',
      r.pushed ? 'pushed' : '',
      r.pullRequest ? `${r.pullRequest.action} ${r.pullRequest.url}` : '',
    ]
      .filter((s) => s !== '')
      .join(' '),
  ]);
  io.out(table(['REPOSITORY', 'RESULT', 'FILES', 'BRANCH / PULL REQUEST'], rows));
  for (const r of report.repositories) {
    if (r.error)
      io.err(
        `${recordLine(r)}${r.error.file ? ` (${r.error.file}:${r.error.line}:${r.error.column})` : ''}\n${r.error.hint ? `  hint: ${r.error.hint}\n` : ''}`,
      );
  }
  const s = report.summary;
  const parts = (['in-line', 'drift', 'applied', 'conflict', 'needs-confirmation', 'failed'] as const)
    .filter((k) => s[k] > 0)
    .map((k) => `${s[k]} ${k}`);
  const resumed = report.repositories.filter((r) => r.resumed).length;
  io.out(
    `${s.total} ${s.total === 1 ? 'repository' : 'repositories'}: ${parts.join(', ')}${resumed > 0 ? ` (* ${resumed} unchanged since the last run, not redone)` : ''}${report.noop ? ' (noop: nothing written)' : ''}\n`,
  );
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
