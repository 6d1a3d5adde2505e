/**
 * The fleet's run lock: two runs on one workdir must not work on one clone at once (checkouts, cleans,
 * commits and pushes of both would meet). Each run writes what it works on, its repositories' names,
 * with its pid and host, into `<workdir>/.fleet-runs/<host>.<pid>.json` (written whole, then renamed
 * into place), then reads the others: one that is alive and shares a repository with it is refused,
 * naming the other run. So the shards of one run (`--shard i/n`, disjoint) may run at once in one
 * workdir, as a CI matrix on one machine does, while a second whole run, or a shard of another split,
 * waits its turn. A lock left by a dead process on this host (a killed run) is stale and removed. The
 * directory's name starts with a dot: no repository can be named so (names start with a letter or digit).
 * Two runs starting at the same instant may both see the other and both refuse: safe, and said so.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { MAX_FLEET_FILE_BYTES } from './fleet-file.js';

export const RUNS_DIR = '.fleet-runs';

export interface FleetRunLock {
  release(): void;
}

interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly command: string;
  readonly shard?: string;
  readonly started: string;
  readonly repositories: readonly string[];
}

export function acquireFleetLock(
  workdir: string,
  names: readonly string[],
  what: { readonly command: string; readonly shard?: string },
): FleetRunLock {
  const dir = join(workdir, RUNS_DIR);
  mkdirSync(dir, { recursive: true });
  const host = hostname();
  const file = join(dir, `${host.replace(/[^A-Za-z0-9._-]/g, '_')}.${process.pid}.json`);
  const owner: Owner = {
    pid: process.pid,
    host,
    command: what.command,
    ...(what.shard !== undefined ? { shard: what.shard } : {}),
    started: new Date().toISOString(),
    repositories: names,
  };
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(owner)}\n`);
  renameSync(tmp, file);
  const mine = new Set(names);
  for (const entry of readdirSync(dir)) {
    const other = join(dir, entry);
    if (other === file || !entry.endsWith('.json')) continue;
    const unreadable = unreadableLock(other);
    if (unreadable !== undefined) {
      rmSync(file, { force: true });
      throw new EngineError(
        'FLEET_LOCKED',
        `${other} is ${unreadable}, not a run lock the fleet writes: it was not read, so whether another run is working on this run's repositories cannot be told; nothing was cloned or written`,
        {
          position: { file: other, line: 1, column: 1 },
          hint: `delete ${other} if no fleet run is using this workdir (the fleet writes its locks there as small files of its own), then run again`,
        },
      );
    }
    const them = readOwner(other);
    if (!them) continue; // removed meanwhile, or not a lock
    if (them.host === host && !alive(them.pid)) {
      rmSync(other, { force: true }); // a killed run's
      continue;
    }
    const shared = them.repositories.filter((n) => mine.has(n));
    if (shared.length === 0) continue;
    rmSync(file, { force: true });
    const listed = shared.slice(0, 5).join(', ') + (shared.length > 5 ? ', ...' : '');
    throw new EngineError(
      'FLEET_LOCKED',
      `another fleet run (pid ${them.pid} on ${them.host}: \`fleet ${them.command}\`${them.shard !== undefined ? ` --shard ${them.shard}` : ''}, started ${them.started}) is working on ${shared.length === 1 ? 'a repository' : `${shared.length} repositories`} of this run in ${workdir}: ${listed}`,
      {
        hint: `wait for it to finish, then run again (if no such run exists, e.g. it was killed on another machine, delete ${other}); the shards of one run may run at once in one workdir: they share no repository`,
      },
    );
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    rmSync(file, { force: true });
  };
  // A run stopped at once (a second Ctrl-C: process.exit) leaves no lock behind either.
  process.on('exit', release);
  return { release };
}

/**
 * What a lock names is a repository name of a fleet file, itself at most `MAX_FLEET_FILE_BYTES`: a lock
 * larger than twice that is no lock of a run; nor is anything but a regular file (a FIFO would block the
 * read, a link lead elsewhere). Either is refused rather than skipped: it might stand for a run's lock.
 */
const MAX_LOCK_ENTRY_BYTES = 2 * MAX_FLEET_FILE_BYTES;

/** Why `file` is not read as a run lock (`a symbolic link`, `N bytes`), or `undefined` to read it. */
function unreadableLock(file: string): string | undefined {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(file);
  } catch {
    return undefined; // removed meanwhile: readOwner says so
  }
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (!stat.isFile()) return stat.isDirectory() ? 'a directory' : 'a FIFO, socket or device';
  if (stat.size > MAX_LOCK_ENTRY_BYTES) {
    return `${stat.size} bytes, larger than the ${MAX_LOCK_ENTRY_BYTES / 1024 / 1024} MiB a lock of a fleet file's repositories takes`;
  }
  return undefined;
}

function readOwner(file: string): Owner | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<Owner>;
    if (
      typeof data.pid !== 'number' ||
      typeof data.host !== 'string' ||
      !Array.isArray(data.repositories) ||
      typeof data.command !== 'string'
    )
      return undefined;
    return data as Owner;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
