/**
 * Which repositories of a fleet a run works on: name globs (`--filter`, less `--exclude`), labels (`--label`, every one
 * given must be present), groups (`--group`), then one shard of them (`--shard i/n`) for a CI matrix.
 * An unknown label or group is an error (a typo would otherwise select nothing and report success).
 */
import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import { EngineError } from '../engine/errors.js';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import type { Fleet, FleetRepository } from './fleet-file.js';
import type { SelectionDigest } from './record.js';

export interface Selection {
  /** Name globs; a repository matching any is selected. */
  readonly filters?: readonly string[];
  /** Name globs; a repository matching any is left out (modulesync's `--negative_filter`). */
  readonly excludes?: readonly string[];
  /** Labels; a repository must carry every one. */
  readonly labels?: readonly string[];
  /** Group names; a repository in any is selected. */
  readonly groups?: readonly string[];
  /** `{ index, count }` (1-based index): this shard's part of the selection. */
  readonly shard?: Shard;
}

export interface Shard {
  readonly index: number;
  readonly count: number;
}

export function selectRepositories(fleet: Fleet, selection: Selection): FleetRepository[] {
  let chosen = [...fleet.repositories];
  const filters = selection.filters ?? [];
  if (filters.length > 0) {
    const matchers = filters.map((f) => picomatch(f, { dot: true }));
    chosen = chosen.filter((r) => matchers.some((m) => m(r.name)));
  }
  const excludes = selection.excludes ?? [];
  if (excludes.length > 0) {
    const matchers = excludes.map((f) => picomatch(f, { dot: true }));
    chosen = chosen.filter((r) => !matchers.some((m) => m(r.name)));
  }
  const labels = selection.labels ?? [];
  if (labels.length > 0) {
    const known = [...new Set(fleet.repositories.flatMap((r) => r.labels))];
    for (const label of labels) {
      if (!known.includes(label)) {
        throw new EngineError('FLEET_SELECT', `no repository of ${fleet.file} has the label '${label}'`, {
          hint: didYouMeanHint(label, known) ?? `labels in use: ${known.join(', ') || 'none'}`,
        });
      }
    }
    chosen = chosen.filter((r) => labels.every((l) => r.labels.includes(l)));
  }
  const groups = selection.groups ?? [];
  if (groups.length > 0) {
    const matchers = groups.flatMap((g) => {
      const members = fleet.groups.get(g);
      if (!members) {
        const known = [...fleet.groups.keys()];
        throw new EngineError('FLEET_SELECT', `${fleet.file} has no group '${g}'`, {
          hint: didYouMeanHint(g, known) ?? `groups: ${known.join(', ') || 'none (add `groups:`)'}`,
        });
      }
      return members.map((m) => picomatch(m, { dot: true }));
    });
    chosen = chosen.filter((r) => matchers.some((m) => m(r.name)));
  }
  return selection.shard ? shardOf(chosen, selection.shard) : chosen;
}

/**
 * Shard `index` of `count`: the repositories sorted by name, every `count`-th from `index`. Deterministic
 * (the same fleet file gives the same split on every machine), balanced to within one repository, and
 * together the shards cover every repository exactly once.
 */
export function shardOf<T extends { readonly name: string }>(items: readonly T[], shard: Shard): T[] {
  const sorted = [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted.filter((_, i) => i % shard.count === shard.index - 1);
}

/** Parses `i/n` (1 <= i <= n). */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = match ? Number(match[1]) : Number.NaN;
  const count = match ? Number(match[2]) : Number.NaN;
  if (!match || count < 1 || index < 1 || index > count || count > 1000) {
    throw new EngineError('FLEET_SHARD', `--shard must be i/n with 1 <= i <= n <= 1000, not '${text}'`, {
      hint: 'e.g. --shard 2/4 runs the second quarter; `pantograph fleet plan-matrix` lists the shards',
    });
  }
  return { index, count };
}

/** `i/n`, as reports record it (`02/4 ` is `2/4`). */
export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * The matrix a CI workflow runs: one entry per shard, `{ "include": [{ "shard": "1/4" }, ...] }`, with
 * `perShard` repositories each or `shards` shards. Never a shard without a repository (at most one shard
 * per repository): a CI job with nothing to do is a job to start, wait for and upload for nothing.
 * Nothing selected: no shard.
 */
export function matrixOf(
  selected: number,
  split: { readonly perShard: number } | { readonly shards: number },
  maxShards = 256,
): { include: { shard: string }[] } {
  const wanted = 'shards' in split ? split.shards : Math.ceil(selected / Math.max(1, split.perShard));
  const count = Math.max(0, Math.min(maxShards, selected, wanted));
  return { include: Array.from({ length: count }, (_, i) => ({ shard: `${i + 1}/${count}` })) };
}

/** What identifies a selection in a shard's report: its size and a digest of its names. */
export function selectionDigest(names: readonly string[]): SelectionDigest {
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    count: sorted.length,
    digest: createHash('sha256').update(sorted.join('\n')).digest('hex').slice(0, 16),
  };
}
