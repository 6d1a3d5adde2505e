/**
 * Resuming a fleet run: each clone keeps, in `<workdir>/<name>/.git/pantograph-fleet-state.json`, the
 * record of its repository's last run and a key of everything that run depended on (the fleet's settings
 * for it, the run's flags, Pantograph's version, the base and work branch commits) and, for each git source
 * the plan took at its `ref`'s latest commit (one the repository's lock does not record yet), that commit:
 * a repository whose key is unchanged and whose followed sources have not moved is not planned or applied
 * again: an interrupted run, or one where some repositories failed, is re-run quickly. Failed records are
 * never reused. The file is the fleet's own data: a damaged one is ignored, not trusted. One file per
 * clone, written when its repository is done: runs working on other repositories of the workdir at the
 * same time (the shards of a CI matrix on one machine) never write over each other's records, and a
 * record goes with its clone.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RepositoryRecord } from './record.js';

/** The record of a repository, in its clone's `.git`. */
export const STATE_FILE = 'pantograph-fleet-state.json';
/** Where older versions kept every repository's record, in the workdir: removed when seen. */
const OLD_STATE_FILE = 'fleet-state.json';
const MAX_STATE_SIZE = 16 * 1024 * 1024;

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
  removeOldState(workdir);
  const fileOf = (name: string) => join(workdir, name, '.git', STATE_FILE);
  return {
    lookup(name, key) {
      if (options.fresh === true) return undefined;
      const entry = readEntry(fileOf(name));
      if (!entry || entry.key !== key || entry.record.result === 'failed') return undefined;
      return { record: entry.record, follow: entry.follow ?? [] };
    },
    remember(name, key, record, follow) {
      const { diff: _diff, resumed: _resumed, ...kept } = record;
      const entry: Entry = { key, record: kept, ...(follow.length > 0 ? { follow } : {}) };
      const file = fileOf(name);
      const tmp = `${file}.tmp-${process.pid}`;
      try {
        writeFileSync(tmp, `${JSON.stringify({ version: 2, ...entry })}\n`);
        renameSync(tmp, file);
      } catch {
        // Not kept: the repository is run again next time.
        rmSync(tmp, { force: true });
      }
    },
    flush() {
      // Each record is written when its repository is done.
    },
  };
}

function readEntry(file: string): Entry | undefined {
  try {
    // Looked at before it is read: a link, FIFO or file too large is no record of the fleet's (a FIFO
    // would block the run); the repository is then simply run again, and its record written anew.
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.size > MAX_STATE_SIZE) return undefined;
    const text = readFileSync(file, 'utf8');
    const e = JSON.parse(text) as Partial<Entry> & { version?: unknown };
    if (
      e.version !== 2 ||
      typeof e.key !== 'string' ||
      typeof e.record?.result !== 'string' ||
      !Array.isArray(e.record.files) ||
      !(
        e.follow === undefined ||
        (Array.isArray(e.follow) &&
          e.follow.every((f) => typeof f?.location === 'string' && typeof f.commit === 'string'))
      )
    )
      return undefined;
    return e as Entry;
  } catch {
    return undefined;
  }
}

/** The workdir-wide state file of older versions: its records are not read (the clones hold them now). */
function removeOldState(workdir: string): void {
  const file = join(workdir, OLD_STATE_FILE);
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.size > MAX_STATE_SIZE * 4) return;
    const data = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; repositories?: unknown };
    // Only the fleet's own file: a `workdir:` may be a directory of the user's.
    if (data.version === 1 && typeof data.repositories === 'object') rmSync(file, { force: true });
  } catch {
    // none, or not ours
  }
}

/** A stable hash of JSON-able inputs. */
export function keyOf(inputs: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(inputs, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)))
    .digest('hex');
}
