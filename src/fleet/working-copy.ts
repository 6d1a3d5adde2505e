/**
 * The fleet's clone of a repository: `<workdir>/<name>`, cloned once and fetched on each run (one fetch
 * per repository per run). The clone is the fleet's own: it is checked out and cleaned at will, and never
 * a directory the user works in (`path:` repositories are used in place and never go through here): a
 * directory is only reused when it holds the fleet's mark, written when the fleet cloned it.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { withoutCredentials } from '../shared/url-credentials.js';
import type { FleetRepository } from './fleet-file.js';
import type { GitRunner } from './git.js';
import { RUNS_DIR } from './run-lock.js';

export interface WorkingCopy {
  readonly dir: string;
  /** The remote, as the fleet file gives it: fetched from and pushed to by URL, whatever the clone says. */
  readonly url: string;
  /** Every branch after the fetch: `refs/remotes/origin/<b>` and `refs/heads/<b>` -> commit. */
  readonly refs: ReadonlyMap<string, string>;
  /** The branch work starts from and pull requests target. */
  readonly baseBranch: string;
  /** `origin/<base>` after the fetch. */
  readonly baseCommit: string;
}

export async function prepareClone(
  workdir: string,
  repo: FleetRepository,
  git: GitRunner,
  /** Hears `cloning` (the first run) or `fetching` (a clone made before), for the progress display. */
  onStep: (step: 'cloning' | 'fetching') => void = () => {},
  /**
   * `--offline` (msync's `update --offline`): the clone as the last run left it, with the branches its
   * last fetch saw; no clone, fetch or other call that reaches the remote. A repository not cloned yet
   * is refused (FLEET_OFFLINE), nothing made for it.
   */
  offline = false,
): Promise<WorkingCopy> {
  const dir = resolve(workdir, repo.name);
  const inside = relative(workdir, dir);
  // Names are plain (the fleet schema), and checked again here, where the path is used.
  if (inside === '' || inside.startsWith('..') || inside.includes('/') || inside.includes('\\')) {
    throw new EngineError('FLEET_PATH', `repository name '${repo.name}' would leave the workdir ${workdir}`, {
      position: repo.position,
      hint: 'use a plain name: letters, digits, . _ -',
    });
  }
  mkdirSync(workdir, { recursive: true });
  const url = repo.url!;
  // Few git calls per repository: each is a process, and starting one is most of a small fetch's cost.
  const fresh = !existsSync(dir);
  if (fresh && offline) {
    throw new EngineError(
      'FLEET_OFFLINE',
      `'${repo.name}' has no clone in ${workdir} yet, and --offline fetches nothing`,
      {
        position: repo.position,
        hint: `run once without --offline to clone it (e.g. \`pantograph fleet status --filter ${repo.name}\`), or leave it out (--exclude ${repo.name}); nothing was written for it`,
      },
    );
  }
  if (!offline) onStep(fresh ? 'cloning' : 'fetching');
  if (fresh) {
    // Cloned aside, marked, then moved into place: a run killed while cloning leaves no unmarked clone
    // under the repository's name, which every later run would refuse as "in the way" (found driving
    // the fleet: kill -9 during the first `fleet status`). The run lock makes the aside path this run's.
    const partial = join(workdir, RUNS_DIR, 'clones', repo.name);
    rmSync(partial, { recursive: true, force: true });
    // The clone's own directory is made here, not by git: git makes `clones/` then `clones/<name>` in two
    // steps, and another repository's clone that finished in between removed the empty `clones/` (below),
    // failing this one (seen under load: a clone failing with "could not create work tree dir"). A
    // non-empty `clones/` is never removed, and git clones into an empty directory.
    mkdirSync(partial, { recursive: true });
    try {
      await withRemoteContext(repo, git(workdir, ['clone', '--quiet', '--no-checkout', '--', url, partial]));
    } catch (e) {
      // A clone that failed or was stopped (the run interrupted) leaves nothing behind. The directory of
      // clones is left for the next clone made to remove.
      rmSync(partial, { recursive: true, force: true });
      throw e;
    }
    writeFileSync(cloneMark(partial), 'made by pantograph fleet: checked out and cleaned at will\n');
    renameSync(partial, dir);
    removeIfEmpty(dirname(partial)); // another shard may be cloning beside: then it stays
  } else if (!lstatSync(dir).isDirectory() || !existsSync(cloneMark(dir))) {
    // Checking out and cleaning a directory the fleet did not clone would destroy whatever the user has
    // there (uncommitted, untracked, ignored files), e.g. their own checkout under a `workdir: ..`.
    throw new EngineError('FLEET_PATH', `${dir} is in the way: it is not a clone made by the fleet`, {
      position: repo.position,
      hint: 'the fleet checks out and cleans its clones, which would destroy work in a directory of yours: move it away, or set another `workdir:` (a clone an older Pantograph made has no mark: delete it, the fleet clones it again)',
    });
  }
  await forgetCredentials(dir, url, git);
  const refs = parseRefs(
    await withRemoteContext(
      repo,
      git.steps(dir, [
        ...(fresh || offline
          ? []
          : [['fetch', '--quiet', '--prune', '--no-tags', '--', url, '+refs/heads/*:refs/remotes/origin/*']]),
        REFS,
      ]),
    ),
  );
  const baseBranch = repo.base ?? (await remoteHead(dir, git, offline));
  const baseCommit = refs.get(`refs/remotes/origin/${baseBranch}`);
  if (baseCommit === undefined) {
    throw new EngineError('FLEET_GIT', `the remote of '${repo.name}' has no branch '${baseBranch}'`, {
      position: repo.position,
      hint: "set `base:` to an existing branch, or leave it out to use the remote's default branch",
    });
  }
  return { dir, url, refs, baseBranch, baseCommit };
}

/**
 * Keeps a URL's credentials out of the clone's `.git/config`: the fleet fetches and pushes by the URL the
 * fleet file gives, so the clone's `origin` need only name the remote. Also cleans a clone an older
 * version made with the token in it. Reads the config file first: no git call when there is nothing to do.
 */
async function forgetCredentials(dir: string, url: string, git: GitRunner): Promise<void> {
  const identity = withoutCredentials(url);
  if (identity === url) return;
  let config: string;
  try {
    config = readFileSync(join(dir, '.git', 'config'), 'utf8');
  } catch {
    return;
  }
  if (!config.includes(url)) return;
  await git(dir, ['config', 'remote.origin.url', identity]);
}

const REFS = ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/remotes/origin', 'refs/heads'];

/** Every local and remote-tracking branch with its commit, in one git call. */
export async function readRefs(dir: string, git: GitRunner): Promise<Map<string, string>> {
  return parseRefs(await git(dir, REFS));
}

function parseRefs(out: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

async function remoteHead(dir: string, git: GitRunner, offline: boolean): Promise<string> {
  // The clone wrote it as a file (symbolic refs are never packed): read it without a git call.
  try {
    const text = readFileSync(join(dir, '.git', 'refs', 'remotes', 'origin', 'HEAD'), 'utf8');
    const match = /^ref: refs\/remotes\/origin\/(.+)$/m.exec(text);
    if (match?.[1]) return match[1].trim();
  } catch {
    // not there: ask git below
  }
  const read = () =>
    git(dir, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], { allowFailure: true });
  let head = await read();
  // Asking the remote for its default branch is a network call: not under --offline.
  if (!head.ok && !offline) {
    await git(dir, ['remote', 'set-head', 'origin', '--auto'], { allowFailure: true });
    head = await read();
  }
  if (!head.ok) {
    throw new EngineError('FLEET_GIT', `cannot tell the default branch of ${dir}'s remote`, {
      hint: 'set `base:` (e.g. main) for the repository or in `defaults:`',
    });
  }
  return head.stdout.trim().replace(/^origin\//, '');
}

/** The base commit, detached and clean: what the repository has now (`status`). */
export async function checkoutForStatus(copy: WorkingCopy, git: GitRunner): Promise<void> {
  await checkoutDetached(copy, copy.baseCommit, git);
}

/**
 * What `apply` or `update` would start from, detached and clean, for `--noop`: the commit
 * `checkoutForApply` would put the work branch on, without making the branch (noop makes nothing).
 */
export async function checkoutForNoop(copy: WorkingCopy, branch: string, git: GitRunner): Promise<void> {
  await checkoutDetached(copy, await workBranchStart(copy, branch, git), git);
}

/**
 * The work branch, clean, at `workBranchStart`: re-running adds no commit when nothing changed, and
 * never rewrites a pushed branch.
 */
export async function checkoutForApply(copy: WorkingCopy, branch: string, git: GitRunner): Promise<void> {
  markDirty(copy);
  const start = await workBranchStart(copy, branch, git);
  await git.steps(copy.dir, [
    ['checkout', '--quiet', '--force', '-B', branch, start],
    ['clean', '--quiet', '-ffdx'],
  ]);
}

/**
 * The commit the work branch continues from: the remote work branch (a previous run's, maybe with
 * someone's commits on it), or a local one ahead of it, else the base. A branch the base already
 * contains (its pull request was merged) starts over from the base. One answer for apply, update and
 * their `--noop`, so that noop plans on the tree the real run would change.
 */
export async function workBranchStart(copy: WorkingCopy, branch: string, git: GitRunner): Promise<string> {
  const remote = copy.refs.get(`refs/remotes/origin/${branch}`);
  const local = copy.refs.get(`refs/heads/${branch}`);
  let start = remote ?? local ?? copy.baseCommit;
  if (remote && local && remote !== local) {
    const ahead = await git(copy.dir, ['merge-base', '--is-ancestor', remote, local], { allowFailure: true });
    start = ahead.ok ? local : remote;
  }
  if (start !== copy.baseCommit) {
    const merged = await git(copy.dir, ['merge-base', '--is-ancestor', start, copy.baseCommit], {
      allowFailure: true,
    });
    if (merged.ok) start = copy.baseCommit;
  }
  return start;
}

/**
 * The work branch's commit when it is out of date: it does not contain the base's latest commit (the base
 * moved on after the branch was made). Planned there, a repository would miss the base's own changes
 * (its `.sync.yml`, its `metadata.json`), and the pull request may no longer merge. Undefined when the
 * work starts from the base, or the branch contains it.
 */
export async function outdatedWorkBranch(
  copy: WorkingCopy,
  branch: string,
  git: GitRunner,
): Promise<string | undefined> {
  const start = await workBranchStart(copy, branch, git);
  if (start === copy.baseCommit) return undefined;
  const contains = await git(copy.dir, ['merge-base', '--is-ancestor', copy.baseCommit, start], {
    allowFailure: true,
  });
  return contains.ok ? undefined : start;
}

/** `commit`, detached and clean; a clone no apply has touched since it was left there is not checked out again. */
async function checkoutDetached(copy: WorkingCopy, commit: string, git: GitRunner): Promise<void> {
  // Reading never writes in the clone: one a previous read left at this commit, and that no apply has
  // touched since (the marker), is already what a checkout would make of it.
  if (!existsSync(dirtyMarker(copy)) && readHead(copy) === commit) return;
  await git.steps(copy.dir, [
    ['checkout', '--quiet', '--force', '--detach', commit],
    ['clean', '--quiet', '-ffdx'],
  ]);
}

/** Marks the clone as being written (an apply); `settleClone` removes the mark when it is clean again. */
export function markDirty(copy: WorkingCopy): void {
  writeFileSync(dirtyMarker(copy), `${process.pid}\n`);
}

export function settleClone(copy: WorkingCopy): void {
  rmSync(dirtyMarker(copy), { force: true });
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or gone already
  }
}

/**
 * A clone or fetch that fails is the repository's entry to fix (or drop): its error points there, with a
 * hint when git's own message suggests none (a remote that was deleted or moved).
 */
async function withRemoteContext<T>(repo: FleetRepository, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (!(e instanceof EngineError) || e.code !== 'FLEET_GIT' || e.position !== undefined) throw e;
    throw new EngineError('FLEET_GIT', e.message, {
      position: repo.position,
      hint:
        e.hint ??
        `check the \`url:\` of '${repo.name}' in the fleet file (the repository may have been moved, renamed or deleted), or remove its entry; the other repositories are not affected`,
    });
  }
}

/** The mark the fleet leaves in the clones it makes: only a marked clone is ever checked out and cleaned. */
function cloneMark(dir: string): string {
  return join(dir, '.git', 'pantograph-fleet-clone');
}

function dirtyMarker(copy: WorkingCopy): string {
  return join(copy.dir, '.git', 'pantograph-writing');
}

function readHead(copy: WorkingCopy): string | undefined {
  try {
    return readFileSync(join(copy.dir, '.git', 'HEAD'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Undoes uncommitted changes: the clone is left as its last commit. */
export async function resetClone(copy: WorkingCopy, git: GitRunner): Promise<void> {
  await git.steps(copy.dir, [
    ['reset', '--quiet', '--hard'],
    ['clean', '--quiet', '-ffdx'],
  ]);
}
