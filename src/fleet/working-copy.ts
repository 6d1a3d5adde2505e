/**
 * The fleet's clone of a repository: `<workdir>/<name>`, cloned once and fetched on each run (one fetch
 * per repository per run). The clone is the fleet's own: it is checked out and cleaned at will, and never
 * a directory the user works in (`path:` repositories are used in place and never go through here).
 */
import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { EngineError } from '../engine/errors.js';
import type { FleetRepository } from './fleet-file.js';
import type { GitRunner } from './git.js';

export interface WorkingCopy {
  readonly dir: string;
  /** The branch work starts from and pull requests target. */
  readonly baseBranch: string;
  /** `origin/<base>` after the fetch. */
  readonly baseCommit: string;
}

export async function prepareClone(
  workdir: string,
  repo: FleetRepository,
  git: GitRunner,
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
  if (!existsSync(dir)) {
    await git(workdir, ['clone', '--quiet', '--no-checkout', '--', url, dir]);
  } else {
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || !existsSync(join(dir, '.git'))) {
      throw new EngineError('FLEET_PATH', `${dir} is in the way: it is not a clone made by the fleet`, {
        hint: 'move it away (the fleet clones the repository there), or set another workdir',
      });
    }
    await git(dir, ['remote', 'set-url', 'origin', url]);
    await git(dir, ['fetch', '--quiet', '--prune', 'origin']);
  }
  const baseBranch = repo.base ?? (await remoteHead(dir, git));
  const base = await git(
    dir,
    ['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${baseBranch}^{commit}`],
    {
      allowFailure: true,
    },
  );
  if (!base.ok) {
    throw new EngineError('FLEET_GIT', `the remote of '${repo.name}' has no branch '${baseBranch}'`, {
      position: repo.position,
      hint: "set `base:` to an existing branch, or leave it out to use the remote's default branch",
    });
  }
  return { dir, baseBranch, baseCommit: base.stdout.trim() };
}

async function remoteHead(dir: string, git: GitRunner): Promise<string> {
  const read = () =>
    git(dir, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], { allowFailure: true });
  let head = await read();
  if (!head.ok) {
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

/** The base commit, detached and clean: what the repository has now. */
export async function checkoutForStatus(copy: WorkingCopy, git: GitRunner): Promise<void> {
  await git(copy.dir, ['checkout', '--quiet', '--force', '--detach', copy.baseCommit]);
  await git(copy.dir, ['clean', '--quiet', '-ffdx']);
}

/**
 * The work branch, clean. It continues the remote work branch (a previous run's, maybe with someone's
 * commits on it), or a local one ahead of it, else starts at the base: re-running adds no commit when
 * nothing changed, and never rewrites a pushed branch.
 */
export async function checkoutForApply(copy: WorkingCopy, branch: string, git: GitRunner): Promise<void> {
  const sha = async (ref: string) => {
    const r = await git(copy.dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
      allowFailure: true,
    });
    return r.ok ? r.stdout.trim() : undefined;
  };
  const remote = await sha(`refs/remotes/origin/${branch}`);
  const local = await sha(`refs/heads/${branch}`);
  let start = remote ?? local ?? copy.baseCommit;
  if (remote && local && remote !== local) {
    const ahead = await git(copy.dir, ['merge-base', '--is-ancestor', remote, local], { allowFailure: true });
    start = ahead.ok ? local : remote;
  }
  await git(copy.dir, ['checkout', '--quiet', '--force', '-B', branch, start]);
  await git(copy.dir, ['clean', '--quiet', '-ffdx']);
}

/** Undoes uncommitted changes: the clone is left as its last commit. */
export async function resetClone(copy: WorkingCopy, git: GitRunner): Promise<void> {
  await git(copy.dir, ['reset', '--quiet', '--hard']);
  await git(copy.dir, ['clean', '--quiet', '-ffdx']);
}
