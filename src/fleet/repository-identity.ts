/**
 * When two entries of a fleet file are one repository under two names. `path:` entries in one directory
 * would be planned and applied in it at once; `url:` entries of one remote would push the same work
 * branch to it, each over the other. Names and spellings differ (`/x/local`, `/x/local/`, `../local`;
 * `https://tok@GitHub.com/acme/x.git`, `git@github.com:acme/x`), so entries are compared by what they
 * point at.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FleetRepository } from './fleet-file.js';

export interface DuplicateEntry {
  /** The later entry (index into the repositories), where the problem is reported. */
  readonly index: number;
  /** The earlier entry it repeats. */
  readonly first: number;
  readonly key: 'path' | 'url';
  /** What they share, for the message: the directory, or the remote and the branch both would push. */
  readonly shared: string;
}

/**
 * Entries that repeat an earlier one: the same directory, or the same remote with the same base branch
 * or the same work branch (`branch` overrides every entry's, as `--branch` does). One remote may be listed
 * twice only to keep two base branches in line, each on its own work branch.
 */
export function duplicateEntries(
  repositories: readonly FleetRepository[],
  branch?: string,
): DuplicateEntry[] {
  const found: DuplicateEntry[] = [];
  const directories = new Map<string, number>();
  const remotes = new Map<string, number[]>();
  repositories.forEach((repo, index) => {
    if (repo.path !== undefined) {
      const dir = directoryKey(repo.path);
      const first = directories.get(dir);
      if (first !== undefined) found.push({ index, first, key: 'path', shared: dir });
      else directories.set(dir, index);
      return;
    }
    if (repo.url === undefined) return;
    const remote = remoteKey(repo.url);
    const earlier = remotes.get(remote) ?? [];
    const work = branch ?? repo.branch;
    const first = earlier.find((i) => {
      const other = repositories[i]!;
      return (branch ?? other.branch) === work || other.base === repo.base;
    });
    if (first !== undefined) {
      const other = repositories[first]!;
      const same =
        (branch ?? other.branch) === work ? `branch '${work}'` : `base branch '${repo.base ?? 'default'}'`;
      found.push({ index, first, key: 'url', shared: `${remote}, ${same}` });
    }
    remotes.set(remote, [...earlier, index]);
  });
  return found;
}

/** A directory as the file system sees it: resolved, without a trailing slash, through symlinks. */
export function directoryKey(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync.native(absolute);
  } catch {
    return absolute; // not there (yet): compared as written
  }
}

/**
 * A remote as a forge sees it: host (lower case) and path, without credentials, port, scheme, a trailing
 * slash or `.git`; `git@host:org/x.git`, `ssh://git@host/org/x` and `https://host/org/x` are one
 * repository. A path on this machine (or a `file://` URL) is its directory.
 */
export function remoteKey(url: string): string {
  if (url.startsWith('file://')) {
    try {
      return `file:${directoryKey(fileURLToPath(url))}`;
    } catch {
      return url; // the fleet file's check says what is wrong with it
    }
  }
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
  const scp = !scheme && /^(?:[^@/]+@)?([^/:]+):(.*)$/.exec(url);
  if (!scheme && !scp) return `file:${directoryKey(url)}`;
  let host: string;
  let path: string;
  if (scp) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    try {
      const parsed = new URL(url);
      host = parsed.hostname;
      path = decodeURIComponent(parsed.pathname);
    } catch {
      return url; // git will say what is wrong with it
    }
  }
  const bare = path
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/^\/+/, '')
    .replace(/\/+$/, '');
  const lowerHost = host.toLowerCase();
  // These forges take an owner's and a repository's name in any case: `Acme/X` is `acme/x` there.
  return `${lowerHost}/${CASELESS_FORGES.has(lowerHost) ? bare.toLowerCase() : bare}`;
}

const CASELESS_FORGES = new Set(['github.com', 'www.github.com', 'gitlab.com', 'bitbucket.org']);
