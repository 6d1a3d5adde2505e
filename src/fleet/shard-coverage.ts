/**
 * Whether the reports given to `fleet report` are the whole of a sharded run: one split (every report's
 * shards out of the same total), each shard once, none missing. A missing shard is usually a CI job that
 * died before it uploaded its report; merged without it, the other shards would pass for the whole fleet.
 */
import { EngineError } from '../engine/errors.js';
import { parseShard, type Shard, shardText } from './select.js';

export interface ShardedReport {
  readonly shards: readonly string[];
}

/**
 * The shards missing from the reports (`[]`: all there, or no report is a shard). Throws FLEET_REPORT
 * for reports of different splits, a shard given twice, or shards mixed with a run of the whole selection.
 */
export function missingShards(reports: readonly ShardedReport[], files: readonly string[]): string[] {
  const whole = reports.findIndex((r) => r.shards.length === 0);
  const sharded = reports.findIndex((r) => r.shards.length > 0);
  if (sharded < 0) return []; // runs without --shard (e.g. one per group): nothing to cover
  if (whole >= 0) {
    throw new EngineError(
      'FLEET_REPORT',
      `${files[whole]} is a run without --shard, ${files[sharded]} is shard ${reports[sharded]!.shards[0]}`,
      { hint: 'merge the shard reports of one run (each job ran `--shard i/n` of the same n)' },
    );
  }
  const seen = new Map<number, string>();
  let split: { readonly shard: Shard; readonly file: string } | undefined;
  for (const [i, report] of reports.entries()) {
    const file = files[i] ?? '?';
    for (const text of report.shards) {
      const shard = parseShard(text);
      split ??= { shard, file };
      if (split.shard.count !== shard.count) {
        throw new EngineError(
          'FLEET_REPORT',
          `${file} is shard ${shardText(shard)} and ${split.file} shard ${shardText(split.shard)}: the shards of one run are all of the same total`,
          { hint: 'merge the shard reports of one run (each job ran `--shard i/n` of the same n)' },
        );
      }
      const other = seen.get(shard.index);
      if (other !== undefined) {
        throw new EngineError('FLEET_REPORT', `shard ${shardText(shard)} is in ${other} and in ${file}`, {
          hint: 'give each shard report once: were two reports from different runs?',
        });
      }
      seen.set(shard.index, file);
    }
  }
  const count = split?.shard.count ?? 0;
  return Array.from({ length: count }, (_, i) => i + 1)
    .filter((index) => !seen.has(index))
    .map((index) => shardText({ index, count }));
}
