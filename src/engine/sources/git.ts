/**
 * A `git` source, with the system `git`. Each remote has a bare mirror in the cache
 * (`<cache>/git/<sha256 of url>/repo.git`), cloned or fetched at most once per process; every commit used
 * is checked out once into its own read-only-by-convention tree (`.../trees/<commit>`), so two refs or a
 * locked commit of one remote can be used side by side. `offline` uses the cache only.
 *
 * Cache root: see cache-dir.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { childProcess } from '../../shared/builtins.js';
import { didYouMean } from '../../shared/did-you-mean.js';
import { maskCredentials, withoutCredentials } from '../../shared/url-credentials.js';
import { cacheRoot } from '../cache-dir.js';
import { EngineError } from '../errors.js';
import type { ResolvedSource, SourceSpec } from '../model.js';
import { gitSizeLimits, sizeProblem, treeFiles } from './git-size-limits.js';

export { cacheRoot };

export interface GitOptions {
  /** Project root: a git location that is a local path is relative to it. */
  readonly root: string;
  /** Use the cache only; never touch the network. */
  readonly offline?: boolean;
  /** Trust every git source (`--trust`): their `.mjs` hooks may run. */
  readonly trust?: boolean;
  /** The `git` executable (default `git` on PATH). */
  readonly gitBinary?: string;
  /** Environment for cache lookup and git (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Use this commit instead of resolving `ref` (the lock file's commit). */
  readonly commit?: string;
  /** Hears about a clone or fetch about to start (they can take a while). */
  readonly onProgress?: (text: string) => void;
}

/** A git location as git takes it: URLs and `host:path` as written, local paths made absolute. */
export function gitUrl(location: string, root: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location) || /^[^/\\]+@[^/\\]+:/.test(location)) return location;
  if (/^[^/\\:]{2,}:/.test(location) && !existsSync(resolve(root, location))) return location; // host:path
  return isAbsolute(location) ? location : resolve(root, location);
}

/** Cache directory of one remote, by its identity: a rotated token finds the same cache. */
export function remoteCacheDir(url: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'git', createHash('sha256').update(withoutCredentials(url)).digest('hex'));
}

/** Remotes already fetched (or being fetched) in this process, by cache directory. */
const fetched = new Map<string, Promise<void>>();

/** Forgets which remotes were fetched in this process (tests; a long-running server between runs). */
export function resetGitFetches(): void {
  fetched.clear();
}

/**
 * Resolves a git source: fetches (once per process) and resolves `ref`, or takes `options.commit` (the
 * locked commit; no fetch when the cache has it), and checks the commit out.
 */
export async function resolveGitSource(
  spec: SourceSpec,
  index: number,
  options: GitOptions,
): Promise<ResolvedSource> {
  const git = new Git(spec, options);
  let commit: string;
  if (options.commit) commit = await git.knownCommit(options.commit);
  else {
    await git.ensureFetched();
    commit = await git.resolveRef(spec.ref);
  }
  const dir = await git.checkout(commit);
  return { spec, index, dir, commit, trusted: spec.trusted === true || options.trust === true };
}

/**
 * The commit a git source's `ref` names now (its remote's default branch without one), fetched at most
 * once per process as `resolveGitSource` does; nothing is checked out. What a plan made without a locked
 * commit depends on: a caller that keeps such a plan's result (the fleet's resume) compares it.
 */
export async function gitSourceHead(spec: SourceSpec, options: GitOptions): Promise<string> {
  const git = new Git(spec, options);
  await git.ensureFetched();
  return git.resolveRef(spec.ref);
}

/** The directory of `commit` of a git source (e.g. the locked commit, to reproduce earlier output). */
export async function checkoutCommit(spec: SourceSpec, commit: string, options: GitOptions): Promise<string> {
  const git = new Git(spec, options);
  return git.checkout(await git.knownCommit(commit));
}

class Git {
  private readonly url: string;
  private readonly cache: string;
  private readonly repo: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    private readonly spec: SourceSpec,
    private readonly options: GitOptions,
  ) {
    this.url = gitUrl(spec.location, options.root);
    this.env = options.env ?? process.env;
    this.cache = remoteCacheDir(this.url, this.env);
    this.repo = join(this.cache, 'repo.git');
  }

  ensureFetched(): Promise<void> {
    if (this.options.offline) {
      if (existsSync(this.repo)) return Promise.resolve();
      return Promise.reject(
        this.error(
          'GIT_OFFLINE',
          'is not in the cache and --offline forbids fetching it',
          'run once without --offline',
        ),
      );
    }
    let done = fetched.get(this.cache);
    if (!done) {
      done = existsSync(this.repo) ? this.fetch() : this.clone();
      fetched.set(this.cache, done);
      done.catch(() => fetched.delete(this.cache));
    }
    return done;
  }

  private async clone(): Promise<void> {
    this.options.onProgress?.(`cloning git source ${maskCredentials(this.url)}`);
    mkdirSync(this.cache, { recursive: true });
    const tmp = join(this.cache, `.clone-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await this.run(['clone', '--bare', '--quiet', '--', this.url, tmp], 'unreachable');
      // Fetches name the URL each time: the mirror's config need not keep credentials on disk.
      const identity = withoutCredentials(this.url);
      if (identity !== this.url) {
        await this.run(['--git-dir', tmp, 'config', 'remote.origin.url', identity], 'none');
      }
      try {
        renameSync(tmp, this.repo);
      } catch {
        // Another process cloned it meanwhile: use theirs.
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }

  private async fetch(): Promise<void> {
    this.options.onProgress?.(`fetching git source ${maskCredentials(this.url)}`);
    await this.git(
      [
        'fetch',
        '--quiet',
        '--prune',
        '--tags',
        '--force',
        '--update-head-ok',
        '--',
        this.url,
        '+refs/heads/*:refs/heads/*',
      ],
      'unreachable',
    );
  }

  /** `ref` as a branch, then a tag, then a commit id; no ref is the remote's default branch. */
  async resolveRef(ref: string | undefined): Promise<string> {
    if (ref === undefined) {
      const head = await this.revParse('HEAD');
      if (head) return head;
      throw this.error('GIT_BAD_REF', 'has no default branch; name a `ref`');
    }
    for (const candidate of [`refs/heads/${ref}`, `refs/tags/${ref}`]) {
      const commit = await this.revParse(candidate);
      if (commit) return commit;
    }
    return this.resolveCommit(ref);
  }

  /** A given commit (a locked one): from the cache when it is there, without fetching; else fetched. */
  async knownCommit(id: string): Promise<string> {
    if (existsSync(this.repo) && /^[0-9a-f]{4,64}$/i.test(id)) {
      const commit = await this.revParse(id);
      if (commit) return commit;
    }
    await this.ensureFetched();
    try {
      return await this.resolveCommit(id);
    } catch (e) {
      if (!(e instanceof EngineError) || e.code !== 'GIT_BAD_REF') throw e;
      // The lock names it, not .sync.yml: most often the remote's history was rewritten (a force-push).
      const ref = this.spec.ref === undefined ? 'its default branch' : `'${this.spec.ref}'`;
      throw this.error(
        'GIT_BAD_REF',
        `no longer has commit ${id.slice(0, 12)}, which .pantograph.lock records (was its history rewritten?)`,
        `\`pantograph update --noop\` shows what moving the lock to the latest commit of ${ref} changes; \`pantograph update\` moves it`,
      );
    }
  }

  /** A commit id (full or abbreviated), fetched by id when the mirror does not have it. */
  async resolveCommit(id: string): Promise<string> {
    const isId = /^[0-9a-f]{4,64}$/i.test(id);
    let commit = isId ? await this.revParse(id) : undefined;
    if (!commit && isId && id.length >= 40 && !this.options.offline) {
      await this.git(['fetch', '--quiet', '--', this.url, id], 'none').catch(() => undefined);
      commit = await this.revParse(id);
    }
    if (commit) return commit;
    const names = await this.refNames();
    const near = didYouMean(id, names);
    throw this.error(
      'GIT_BAD_REF',
      `has no branch, tag or commit '${id}'`,
      near !== undefined
        ? `did you mean '${near}'?`
        : names.length
          ? `known refs (branches, then tags, newest first): ${names.slice(0, 10).join(', ')}`
          : undefined,
    );
  }

  /** The tree of `commit`, checked out once into the cache. */
  async checkout(commit: string): Promise<string> {
    const trees = join(this.cache, 'trees');
    const dir = join(trees, commit);
    if (existsSync(dir)) return dir;
    mkdirSync(trees, { recursive: true });
    const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
    const tmp = join(trees, `.tmp-${suffix}`);
    const index = join(trees, `.index-${suffix}`);
    await this.checkSizes(commit);
    mkdirSync(tmp);
    try {
      const env = { GIT_INDEX_FILE: index };
      await this.git(['--work-tree', tmp, 'read-tree', commit], 'none', env);
      await this.git(['--work-tree', tmp, 'checkout-index', '--all', '--force'], 'none', env);
      try {
        renameSync(tmp, dir);
      } catch (e) {
        if (!existsSync(dir)) throw e; // else another process checked it out meanwhile
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      rmSync(index, { force: true });
    }
    return dir;
  }

  /** Refuses a tree whose files are past the size limits, before anything of it is written. */
  private async checkSizes(commit: string): Promise<void> {
    const listing = await this.git(['ls-tree', '-r', '-l', '-z', commit], 'none');
    const problem = sizeProblem(treeFiles(listing), gitSizeLimits(this.env));
    if (problem)
      throw this.error('GIT_TOO_LARGE', `${problem.what} (commit ${commit.slice(0, 12)})`, problem.hint);
  }

  private async revParse(rev: string): Promise<string | undefined> {
    try {
      const out = await this.git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], 'none');
      return out.trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** Branches, then tags, each newest first: a hint shows the refs a user most likely means. */
  private async refNames(): Promise<string[]> {
    try {
      const out = await this.git(
        ['for-each-ref', '--sort=-creatordate', '--format=%(refname)', 'refs/heads', 'refs/tags'],
        'none',
      );
      const refs = out.split('\n').filter(Boolean);
      const named = (prefix: string) =>
        refs.filter((r) => r.startsWith(prefix)).map((r) => r.slice(prefix.length));
      return [...named('refs/heads/'), ...named('refs/tags/')];
    } catch {
      return [];
    }
  }

  private git(
    args: string[],
    failure: 'unreachable' | 'none',
    env: Record<string, string> = {},
  ): Promise<string> {
    return this.run(['--git-dir', this.repo, ...args], failure, env);
  }

  /** Runs git; a missing binary and (for network commands) a failure become clear EngineErrors. */
  private run(
    args: string[],
    failure: 'unreachable' | 'none',
    extraEnv: Record<string, string> = {},
  ): Promise<string> {
    const bin = this.options.gitBinary ?? 'git';
    const env = { ...this.env, ...extraEnv, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
    return new Promise((resolvePromise, reject) => {
      childProcess().execFile(
        bin,
        args,
        { env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 },
        (err, stdout, stderr) => {
          if (!err) return resolvePromise(stdout);
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
            return reject(
              this.error(
                'GIT_NOT_FOUND',
                `needs git, and \`${bin}\` was not found`,
                'install git and put it on PATH',
              ),
            );
          }
          // git's first `fatal:` line says what went wrong; the lines after it are advice.
          const lines = stderr.trim().split('\n').filter(Boolean);
          const detail = maskCredentials(
            (lines.find((l) => l.startsWith('fatal:')) ?? lines[0] ?? err.message).replace(/^fatal:\s*/, ''),
          );
          if (failure === 'unreachable') {
            return reject(
              this.error(
                'GIT_UNREACHABLE',
                `cannot be fetched from ${maskCredentials(this.url)}: ${detail}`,
                'check the location, your network and credentials',
              ),
            );
          }
          return reject(this.error('GIT_FAILED', `git ${maskCredentials(args.join(' '))} failed: ${detail}`));
        },
      );
    });
  }

  private error(
    code:
      | 'GIT_NOT_FOUND'
      | 'GIT_UNREACHABLE'
      | 'GIT_BAD_REF'
      | 'GIT_OFFLINE'
      | 'GIT_FAILED'
      | 'GIT_TOO_LARGE',
    what: string,
    hint?: string,
  ) {
    return new EngineError(code, `git source '${maskCredentials(this.spec.location)}' ${what}`, {
      position: this.spec.position,
      hint,
    });
  }
}
