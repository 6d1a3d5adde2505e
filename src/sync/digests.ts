/**
 * Hashes known without reading (issue 13), as git's index knows them for `git status`. A file's SHA-256
 * is recorded with its stat identity (size, mtime, ctime, inode); while the identity is the same, the hash
 * is trusted and the file is not read. Any write changes ctime, which no user can set back, so a changed
 * file is always read again.
 *
 * "Racy" files are never recorded: a file whose ctime or mtime is less than {@link SETTLE_MS} older than
 * the run that hashed it could change again within the same timestamp tick (1-2 s on some file systems)
 * and keep its identity. So a file written moments ago is read on every run until it has settled.
 *
 * The record is a cache kept outside the project (one file per project, in Pantograph's cache directory):
 * its shape is checked, nothing else in it is trusted, and losing it only costs reading.
 */
import type { Stats } from 'node:fs';
import { readRecordLines, writeRecordLines } from '../shared/record-lines.js';
import { isSha256Hex } from './hash.js';
import { identityOf, isSettled, SETTLE_MS, type StatIdentity } from './stat-identity.js';

export { identityOf, isSettled, SETTLE_MS, type StatIdentity };

/** The record's first line: its format and version (a record of another version is ignored). */
const HEADER = 'pantograph-digests 3';
/** A record larger than this is ignored (and written anew): ~100 bytes per file, so a million files. */
const MAX_RECORD_SIZE = 128 * 1024 * 1024;

export interface KnownDigest {
  readonly hash: string;
  /** What the caller noted of the content when it recorded it (say, whether a template calls `epp()`). */
  readonly flags: number;
}

/** What a file was when hashed: its stat identity, its SHA-256 and what the hasher noted about it. */
interface Entry extends KnownDigest {
  readonly identity: string;
}

/** The times of an identity made by {@link identityOf}. */
function fieldsOf(identity: string): Pick<Stats, 'mtimeMs' | 'ctimeMs'> {
  const [, mtimeMs, ctimeMs] = identity.split(':').map(Number);
  return { mtimeMs: mtimeMs ?? Number.NaN, ctimeMs: ctimeMs ?? Number.NaN };
}

export class FileDigests {
  /** What this run looked up or recorded: what is saved, so that files gone from the project drop out. */
  private readonly used = new Map<string, Entry>();
  /** Whether this run recorded anything (a lookup only ever reuses a known entry). */
  private recorded = false;

  private constructor(
    private readonly file: string | undefined,
    private readonly known: ReadonlyMap<string, Entry>,
    private readonly startedMs: number,
  ) {}

  /**
   * The record kept in `file`; empty when absent, damaged or not ours. `startedMs`: when the run started
   * (default now), what a file's ctime is compared with; tests give a later time to skip the settle wait.
   */
  static open(file: string, { startedMs = Date.now() }: { startedMs?: number } = {}): FileDigests {
    return new FileDigests(file, readRecord(file), startedMs);
  }

  /** A record for this run only (nothing read or saved). */
  static inMemory({ startedMs = Date.now() }: { startedMs?: number } = {}): FileDigests {
    return new FileDigests(undefined, new Map(), startedMs);
  }

  /**
   * The recorded digest of the file at absolute `path`, if `stat` (or its {@link identityOf}) is still
   * the identity it was hashed with.
   */
  lookup(path: string, stat: StatIdentity | string): KnownDigest | undefined {
    const entry = this.used.get(path) ?? this.known.get(path);
    if (entry === undefined || entry.identity !== (typeof stat === 'string' ? stat : identityOf(stat)))
      return undefined;
    this.used.set(path, entry);
    return entry;
  }

  /**
   * Records the hash of the file at `path` as read after `stat` was taken (a stat taken after the read
   * could hide a write in between), unless the file is racy.
   */
  record(path: string, stat: StatIdentity | string, hash: string, flags = 0): void {
    const fields = typeof stat === 'string' ? fieldsOf(stat) : stat;
    if (!isSettled(fields, this.startedMs)) return;
    const identity = typeof stat === 'string' ? stat : identityOf(stat);
    this.used.set(path, { identity, hash, flags });
    this.recorded = true;
  }

  /**
   * Writes what this run used (files gone from the project drop out), unless it is what the record says
   * already. `partial`: the run looked at some files only (`status PATH`), so the others are kept too. A
   * cache that cannot be written only costs time.
   */
  save({ partial = false }: { partial?: boolean } = {}): void {
    const entries = partial ? new Map([...this.known, ...this.used]) : this.used;
    if (this.file === undefined || !this.changed(entries)) return;
    writeRecordLines(
      this.file,
      HEADER,
      Array.from(entries, ([path, e]) => [path, [e.identity, e.hash, e.flags]] as const),
    );
  }

  /**
   * Whether `entries` differ from the record read. Without a new record, every entry used is one read
   * (`lookup` only reuses them, under their own path): the same number of them is the same record.
   */
  private changed(entries: ReadonlyMap<string, Entry>): boolean {
    return this.recorded || entries.size !== this.known.size;
  }
}

function readRecord(file: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  readRecordLines(file, HEADER, 3, MAX_RECORD_SIZE, ([path, identity, hash, flags]) => {
    const flagBits = Number(flags);
    if (isSha256Hex(hash!) && Number.isInteger(flagBits))
      entries.set(path!, { identity: identity!, hash: hash!, flags: flagBits });
  });
  return entries;
}
