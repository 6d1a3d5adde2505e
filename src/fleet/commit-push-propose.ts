/**
 * An applied clone's last steps: commit on the work branch (as the fleet's author, or git's), push it, and
 * open or update its pull request. A branch that adds nothing to the base is neither pushed nor proposed.
 */
import { EngineError } from '../engine/errors.js';
import type { RenderPlan } from '../engine/render-plan.js';
import type { SourceMove } from '../engine/source-moves.js';
import type { Fleet, FleetRepository } from './fleet-file.js';
import { ensurePullRequest, forgeProjectOf } from './forge.js';
import type { GitRunner } from './git.js';
import { commitMessage, prBody, subjectOf } from './messages.js';
import type { RepositoryRecord } from './record.js';
import type { RecordBody, RepositoryRunOptions } from './repository-options.js';
import type { WorkingCopy } from './working-copy.js';

export async function commitPushPropose(
  fleet: Fleet,
  repo: FleetRepository,
  copy: WorkingCopy,
  branch: string,
  done: {
    plan: RenderPlan;
    files: RepositoryRecord['files'];
    lock: RepositoryRecord['lock'];
    templates: RepositoryRecord['templates'];
    diff: string | undefined;
    /** Update: the git sources moved (the lock records them). */
    moves: readonly SourceMove[] | undefined;
  },
  options: RepositoryRunOptions,
): Promise<RecordBody> {
  const { git } = options;
  const dirty = (await git(copy.dir, ['status', '--porcelain'])).trim() !== '';
  let committed = false;
  if (dirty) {
    options.onStep?.('committing');
    const message =
      options.message ??
      fleet.commit.message ??
      commitMessage(done.plan, done.templates, done.files, done.moves, done.lock);
    const who = await identity(copy.dir, fleet, options);
    await git.steps(copy.dir, [
      ['add', '--all'],
      [...who, 'commit', '--quiet', '--no-verify', '-m', message],
    ]);
    committed = true;
  }
  const commit = (await git(copy.dir, ['rev-parse', 'HEAD'])).trim();
  const ahead = commit !== copy.baseCommit;
  let pushed = false;
  if (options.push && ahead) {
    if (copy.refs.get(`refs/remotes/origin/${branch}`) !== commit) {
      options.onStep?.('pushing');
      await git.steps(copy.dir, [
        ['push', '--quiet', '--', copy.url, `HEAD:refs/heads/${branch}`],
        ['update-ref', `refs/remotes/origin/${branch}`, commit],
      ]);
      pushed = true;
    }
  }
  let pullRequest: RepositoryRecord['pullRequest'];
  if (options.pr && ahead && fleet.forge) {
    options.onStep?.('pull request');
    const project = repo.forgeProject ?? forgeProjectOf(repo.url ?? '');
    if (!project) {
      throw new EngineError(
        'FLEET_FORGE',
        `cannot tell the ${fleet.forge.type} project of '${repo.name}' from its URL`,
        {
          position: repo.position,
          hint: 'set forge_project: owner/name on the repository in the fleet file',
        },
      );
    }
    pullRequest = await ensurePullRequest(
      {
        project,
        head: branch,
        base: copy.baseBranch,
        title: fleet.pullRequest.title ?? subjectOf(done.plan),
        body: prBody(done.templates, await changedSinceBase(copy, git), done.moves),
        labels: fleet.pullRequest.labels,
      },
      { forge: fleet.forge, env: options.env },
    );
  }
  return {
    result: done.files.length > 0 || committed ? 'applied' : 'in-line',
    files: done.files,
    // Said when committed: a lock changed but not committed (nothing to commit) was not changed by this run.
    ...(done.lock && committed ? { lock: done.lock } : {}),
    templates: done.templates,
    baseCommit: copy.baseCommit,
    ...(done.moves ? { sources: done.moves } : {}),
    // A branch that adds nothing to the base is not worth naming.
    ...(ahead ? { branch, commit } : {}),
    committed,
    pushed,
    ...(pullRequest ? { pullRequest } : {}),
    ...(done.diff ? { diff: done.diff } : {}),
  };
}

/** `-c user.name=... -c user.email=...` when the fleet names an author or git has none configured. */
async function identity(dir: string, fleet: Fleet, options: RepositoryRunOptions): Promise<string[]> {
  let author = fleet.commit.author;
  if (author === undefined) {
    // The same answer for every clone (user.name/email are global settings): asked once per run.
    options.gitIdentity.known ??= options
      .git(dir, ['config', '--get-regexp', '^user\\.(name|email)$'], { allowFailure: true })
      .then((r) => r.ok && /^user\.name /m.test(r.stdout) && /^user\.email /m.test(r.stdout));
    if (await options.gitIdentity.known) return [];
    author = 'Pantograph <pantograph@localhost>';
  }
  const match = /^(.+?) <(.+)>$/.exec(author)!;
  return ['-c', `user.name=${match[1]}`, '-c', `user.email=${match[2]}`];
}

/** Files the work branch changes against its base, for the pull request's body. */
async function changedSinceBase(copy: WorkingCopy, git: GitRunner): Promise<string[]> {
  const out = await git(copy.dir, ['diff', '--name-status', `${copy.baseCommit}..HEAD`]);
  return out.split('\n').filter((l) => l.trim() !== '');
}
