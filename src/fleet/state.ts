/**
 * Resuming a fleet run: `<workdir>/fleet-state.json` keeps, per repository, the record of its last run and
 * a key of everything that run depended on (the fleet's settings for it, the run's flags, Pantograph's
 * version, the base and work branch commits) and, for each git source the plan took at its `ref`'s latest
 * commit (one the repository's lock does not record yet), that commit: a repository whose key is
 * unchanged and whose followed sources have not moved is not planned or applied again: an interrupted run, or one where some repositories failed, is re-run quickly. Failed
 * records are never reused. The file is the fleet's own data: a damaged one is ignored, not trusted.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RepositoryRecord } from './record.js';

export const STATE_FILE = 'fleet-state.json';
const MAX_STATE_SIZE = 64 * 1024 * 1024;

/**
 * A git source a plan took at the latest commit of its `ref` (the lock has no entry for it): the plan
 * depends on that commit, which moves without any commit in the repository. Its location is without
 * credentials (the state file holds no secret).
 */
export interface FollowedSource {
  readonly location: string;
  readonly ref?: string;
  readonly commit: string;
}

export interface Remembered {
  readonly record: RepositoryRecord;
  /** Reusable only while every one of these is still at its commit. */
  readonly follow: readonly FollowedSource[];
}

export interface ResumeState {
  lookup(name: string, key: string): Remembered | undefined;
  remember(name: string, key: string, record: RepositoryRecord, follow: readonly FollowedSource[]): void;
  /** Saves what is remembered (at the end of a run). */
  flush(): void;
}

interface Entry {
  readonly key: string;
  readonly record: RepositoryRecord;
  readonly follow?: readonly FollowedSource[];
}

export function openState(workdir: string, options: { readonly fresh?: boolean } = {}): ResumeState {
  const file = join(workdir, STATE_FILE);
  const entries = new Map<string, Entry>(options.fresh === true ? [] : readEntries(file));
  let savedAt = 0;
  const save = () => {
    mkdirSync(workdir, { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, `${JSON.stringify({ version: 1, repositories: Object.fromEntries(entries) })}\n`);
    renameSync(tmp, file);
    savedAt = Date.now();
  };
  return {
    lookup(name, key) {
      const entry = entries.get(name);
      if (!entry || entry.key !== key) return undefined;
      if (entry.record.result === 'failed') return undefined;
      return { record: entry.record, follow: entry.follow ?? [] };
    },
    remember(name, key, record, follow) {
      const { diff: _diff, resumed: _resumed, ...kept } = record;
      entries.set(name, { key, record: kept, ...(follow.length > 0 ? { follow } : {}) });
      // Saved as the run goes (at most once a second), so that an interrupted run keeps what it did.
      if (Date.now() - savedAt >= 1000) save();
    },
    flush() {
      if (entries.size > 0) save();
    },
  };
}

function readEntries(file: string): [string, Entry][] {
  try {
    const text = readFileSync(file, 'utf8');
    if (text.length > MAX_STATE_SIZE) return [];
    const data = JSON.parse(text) as { version?: unknown; repositories?: Record<string, Entry> };
    if (data.version !== 1 || typeof data.repositories !== 'object' || data.repositories === null) return [];
    return Object.entries(data.repositories).filter(
      ([, e]) =>
        typeof e?.key === 'string' &&
        typeof e.record?.result === 'string' &&
        Array.isArray(e.record.files) &&
        (e.follow === undefined ||
          (Array.isArray(e.follow) &&
            e.follow.every((f) => typeof f?.location === 'string' && typeof f.commit === 'string'))),
    );
  } catch {
    return [];
  }
}

/** A stable hash of JSON-able inputs. */
export function keyOf(inputs: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(inputs, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)))
    .digest('hex');
}
