/**
 * Real git repositories in temporary directories: a bare "remote" reachable by a `file://` URL, filled
 * from inline trees, with branches, tags and the commits made.
 */
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetGitFetches } from '../../src/engine/sources/index.js';
import { removeTempDirs, type Tree, tempDir, writeTree } from './fs.js';

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export interface TempRemote {
  /** The bare repository's directory. */
  readonly bare: string;
  /** `file://` URL of the bare repository. */
  readonly url: string;
  /** Commits `tree` (added to what the branch has) on `branch` and pushes it; returns the commit id. */
  commit(tree: Tree, options?: { branch?: string; message?: string; remove?: string[] }): string;
  /** Tags a commit and pushes the tag. */
  tag(name: string, commit: string): void;
}

/** A bare repository with a work clone used to make commits; the default branch is `main`. */
export function tempRemote(): TempRemote {
  const bare = tempDir('pantograph-remote-');
  git(bare, 'init', '--bare', '--quiet', '--initial-branch=main');
  const work = tempDir('pantograph-work-');
  git(work, 'init', '--quiet', '--initial-branch=main');
  git(work, 'remote', 'add', 'origin', bare);
  const branches = new Set<string>();
  return {
    bare,
    url: pathToFileURL(bare).href,
    commit(tree, options = {}) {
      const branch = options.branch ?? 'main';
      if (branches.size === 0) git(work, 'checkout', '--quiet', '-B', branch);
      else if (branches.has(branch)) git(work, 'checkout', '--quiet', branch);
      else git(work, 'checkout', '--quiet', '-b', branch);
      branches.add(branch);
      for (const path of options.remove ?? []) git(work, 'rm', '-r', '--quiet', path);
      writeTree(work, tree);
      git(work, 'add', '-A');
      git(work, 'commit', '--quiet', '--allow-empty', '-m', options.message ?? 'commit');
      git(work, 'push', '--quiet', 'origin', branch);
      return git(work, 'rev-parse', 'HEAD');
    },
    tag(name, commit) {
      git(work, 'tag', name, commit);
      git(work, 'push', '--quiet', 'origin', name);
    },
  };
}

/**
 * Gives every test of the calling suite its own git cache (`PANTOGRAPH_CACHE_DIR`) and a process that has
 * fetched nothing yet, as a new run of the CLI would; temporary directories go after each test.
 */
export function useFreshGitCache(): void {
  beforeEach(() => {
    vi.stubEnv('PANTOGRAPH_CACHE_DIR', tempDir('pantograph-cache-'));
    resetGitFetches();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    removeTempDirs();
  });
}
