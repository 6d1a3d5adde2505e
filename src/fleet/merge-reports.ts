/**
 * `fleet report`: the JSON reports of a run's shards (one per CI job) merged into one, as if one machine
 * had run the whole fleet. Reports come from other machines' artifacts: each is checked for shape and
 * size, and a repository reported twice (overlapping shards) or a shard missing (a job that died before
 * uploading) is an error, not a silent pick or a smaller fleet.
 */
import { EngineError } from '../engine/errors.js';
import { jsonSyntaxError } from '../shared/json-syntax.js';
import { lineColumn } from '../shared/position.js';
import { MiB, readInputText } from './input-text.js';
import {
  type FleetReport,
  MODES,
  RESULTS,
  type RepositoryRecord,
  reportOk,
  type SelectionDigest,
  summarize,
} from './record.js';
import { parseShard, selectionDigest, shardText } from './select.js';
import { missingShards } from './shard-coverage.js';

/** A report of ten thousand repositories, each with its files and diffs, stays well under this. */
const MAX_REPORT_BYTES = 64 * MiB;

export function readReport(file: string): FleetReport {
  const text = readInputText(file, {
    code: 'FLEET_REPORT',
    maxBytes: MAX_REPORT_BYTES,
    what: 'fleet report',
    afterFix: 'run `fleet report` again',
  });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // JSON.parse names an offset at best: the syntax scan says where, as line and column.
    const mistake = jsonSyntaxError(text);
    const { line, column } = lineColumn(text, mistake?.offset ?? 0);
    throw new EngineError(
      'FLEET_REPORT',
      `${file} is not JSON: ${mistake?.message ?? 'a JSON reader refuses it'}`,
      {
        position: { file, line, column },
        hint: 'give the output of `pantograph --format json fleet status|apply|update`',
      },
    );
  }
  const report = data as Partial<FleetReport>;
  const recordsOk =
    Array.isArray(report.repositories) &&
    report.repositories.every(
      (r: Partial<RepositoryRecord>) =>
        typeof r?.name === 'string' && RESULTS.includes(r.result as never) && Array.isArray(r.files),
    );
  if (
    typeof report.fleet !== 'string' ||
    !MODES.includes(report.mode as never) ||
    !recordsOk ||
    !shardsOk(report.shards) ||
    !selectionOk(report.selection)
  ) {
    throw new EngineError('FLEET_REPORT', `${file} is not a fleet report`, {
      position: { file, line: 1, column: 1 },
      hint: 'give the output of `pantograph --format json fleet status|apply|update`',
    });
  }
  return report as FleetReport;
}

function runOf(report: FleetReport): string {
  return `${report.mode}${report.noop ? ' --noop' : ''}`;
}

function selectionOk(selection: unknown): boolean {
  if (selection === undefined) return true;
  const s = selection as Partial<SelectionDigest> | null;
  return typeof s?.count === 'number' && typeof s.digest === 'string';
}

function shardsOk(shards: unknown): boolean {
  if (!Array.isArray(shards)) return false;
  try {
    return shards.every((s) => typeof s === 'string' && parseShard(s) !== undefined);
  } catch {
    return false;
  }
}

export interface MergeOptions {
  /**
   * Merge even when shards are missing (they are named in `missingShards`); the result then says only
   * what the shards there are found.
   */
  readonly allowMissing?: boolean;
}

export function mergeReports(
  reports: readonly FleetReport[],
  files: readonly string[],
  options: MergeOptions = {},
): FleetReport {
  const first = reports[0];
  if (!first) throw new EngineError('FLEET_REPORT', 'no report to merge', { hint: 'give the shard reports' });
  const twice = files.findIndex((f, i) => files.indexOf(f) !== i);
  if (twice >= 0) {
    throw new EngineError('FLEET_REPORT', `${files[twice]} is given twice`, {
      hint: 'give each shard report once',
    });
  }
  const selection = oneSelection(reports, files);
  const missing = missingShards(reports, files);
  if (missing.length > 0 && options.allowMissing !== true) {
    const covered = reports.flatMap((r) => r.shards);
    throw new EngineError(
      'FLEET_REPORT',
      `${missing.length === 1 ? 'shard' : 'shards'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing: the reports given are of ${covered.length === 1 ? 'shard' : 'shards'} ${covered.join(', ')}`,
      {
        hint: `a CI job may have stopped before uploading its report: run it again (\`--shard ${missing[0]}\`), or pass --allow-missing to merge the reports there are`,
      },
    );
  }
  const seen = new Map<string, string>();
  const records: RepositoryRecord[] = [];
  reports.forEach((report, i) => {
    if (report.mode !== first.mode || report.noop !== first.noop) {
      throw new EngineError(
        'FLEET_REPORT',
        `${files[i]} is the report of \`fleet ${runOf(report)}\`, ${files[0]} of \`fleet ${runOf(first)}\``,
        {
          hint: 'merge the shards of one run',
        },
      );
    }
    for (const record of report.repositories) {
      const other = seen.get(record.name);
      if (other !== undefined) {
        throw new EngineError(
          'FLEET_REPORT',
          `repository '${record.name}' is in ${other} and in ${files[i]}`,
          {
            hint: 'the shards of one run cover each repository once: were two reports from different runs?',
          },
        );
      }
      seen.set(record.name, files[i] ?? '?');
      records.push(record);
    }
  });
  records.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const interrupted = reports.find((r) => typeof r.interrupted === 'string')?.interrupted;
  if (selection && missing.length === 0) {
    const covered = selectionDigest(records.map((r) => r.name));
    if (covered.digest !== selection.digest) {
      const lost = selection.count - covered.count;
      throw new EngineError(
        'FLEET_REPORT',
        lost > 0
          ? `${lost} of the ${selection.count} repositories the shards were split from ${lost === 1 ? 'is' : 'are'} in no shard report`
          : `the shard reports hold ${covered.count} repositories, not the ${selection.count} they were split from`,
        { hint: 'a report was edited or cut short: run the shards again' },
      );
    }
  }
  return {
    fleet: first.fleet,
    mode: first.mode,
    noop: first.noop,
    shards: reports
      .flatMap((r) => r.shards)
      .map(parseShard)
      .sort((a, b) => a.index - b.index)
      .map(shardText),
    ...(selection ? { selection } : {}),
    ...(missing.length > 0 ? { missingShards: missing } : {}),
    // A shard interrupted (a CI job cancelled) makes the whole run one that was.
    ...(interrupted !== undefined ? { interrupted } : {}),
    repositories: records,
    summary: summarize(records),
    ok: reportOk(first.mode, records),
  };
}

/**
 * The selection the shard reports were split from, when they say (reports of older versions do not):
 * shards of different selections (a fleet file changed between the jobs, another one, other
 * `--filter`/`--label`/`--group`) are refused, since together they may cover some repository twice and
 * another never.
 */
function oneSelection(
  reports: readonly FleetReport[],
  files: readonly string[],
): SelectionDigest | undefined {
  const groups = new Map<string, { selection?: SelectionDigest; fleets: Set<string>; members: string[] }>();
  reports.forEach((report, i) => {
    if (report.shards.length === 0) return;
    const key = report.selection ? `${report.selection.count}:${report.selection.digest}` : 'unknown';
    const group = groups.get(key) ?? { fleets: new Set<string>(), members: [] };
    if (report.selection) group.selection = report.selection;
    group.fleets.add(report.fleet);
    group.members.push(`${files[i]} (${report.shards.join(', ')})`);
    groups.set(key, group);
  });
  if (groups.size <= 1) return [...groups.values()][0]?.selection;
  const fleets = new Set(reports.map((r) => r.fleet));
  const described = [...groups.values()].map(
    (g) =>
      `${g.members.join(', ')} from ${g.selection ? `a selection of ${g.selection.count} ${g.selection.count === 1 ? 'repository' : 'repositories'}` : 'an unknown selection (an older Pantograph)'}${fleets.size > 1 ? ` of ${[...g.fleets].join(', ')}` : ''}`,
  );
  throw new EngineError(
    'FLEET_REPORT',
    `the shard reports were split from different selections of repositories: ${described.join('; ')}`,
    {
      hint: 'the jobs of one run select the same repositories (one fleet file, unchanged, and the same --filter, --label and --group): run the shards again from one',
    },
  );
}
