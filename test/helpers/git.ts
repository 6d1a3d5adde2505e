/**
 * Real git repositories in temporary directories: a bare "remote" reachable by a `file://` URL, filled
 * from inline trees, with branches, tags and the commits made.
 */
import { execFileSync } from 'node:child_process';
import { posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetGitFetches } from '../../src/engine/sources/index.js';
import { removeTempDirs, type Tree, tempDir } from './fs.js';

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

/**
 * A bare repository filled without a work clone: each commit is one `git fast-import` run in the bare
 * repository itself (session 29: a clone, checkout, add, commit, push and rev-parse per commit were ~8 git
 * processes, and `tempRemote` is used by ~50 tests). The default branch is `main`. As a work clone would,
 * a commit on a new branch starts from the branch committed to last, and the first commit has no parent.
 */
export function tempRemote(): TempRemote {
  const bare = tempDir('pantograph-remote-');
  git(bare, 'init', '--bare', '--quiet', '--initial-branch=main');
  const tips = new Map<string, string>();
  let current: string | undefined;
  return {
    bare,
    url: pathToFileURL(bare).href,
    commit(tree, options = {}) {
      const branch = options.branch ?? 'main';
      const parent = tips.get(branch) ?? (current === undefined ? undefined : tips.get(current));
      const stream = fastImportCommit(
        branch,
        parent,
        tree,
        options.message ?? 'commit',
        options.remove ?? [],
      );
      const id = execFileSync('git', ['fast-import', '--quiet'], {
        cwd: bare,
        env,
        input: stream,
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'pipe'],
      }).trim();
      tips.set(branch, id);
      current = branch;
      return id;
    },
    tag(name, commit) {
      // The empty old value: refused if the tag exists, as `git tag` refuses it.
      git(bare, 'update-ref', `refs/tags/${name}`, commit, '');
    },
  };
}

/**
 * The `git fast-import` input for one commit of `tree` on `branch` after `parent` (its files kept unless
 * in `remove`), ending with `get-mark` so that the run prints the commit's id. Modes as `git add` records
 * them: a symlink, an executable file (the owner's x bit), or a plain file.
 */
function fastImportCommit(
  branch: string,
  parent: string | undefined,
  tree: Tree,
  message: string,
  remove: readonly string[],
): Buffer {
  const parts: Buffer[] = [];
  const line = (text: string) => parts.push(Buffer.from(`${text}\n`));
  const data = (bytes: string | Uint8Array) => {
    const buffer = Buffer.from(bytes);
    line(`data ${buffer.length}`);
    parts.push(buffer, Buffer.from('\n'));
  };
  // Content shared by several paths (the size-limit tests' copies of one large file) is sent once.
  const marks = new Map<string | Uint8Array, number>();
  const files: string[] = [];
  for (const [rel, entry] of Object.entries(tree)) {
    const path = quotePath(treePath(rel));
    if (typeof entry === 'object' && 'symlink' in entry) {
      files.push(`M 120000 ${blobMark(entry.symlink)} ${path}`);
    } else if (typeof entry === 'object' && 'mode' in entry) {
      const mode = entry.mode & 0o100 ? '100755' : '100644';
      files.push(`M ${mode} ${blobMark(entry.content)} ${path}`);
    } else files.push(`M 100644 ${blobMark(entry)} ${path}`);
  }
  function blobMark(content: string | Uint8Array): string {
    let mark = marks.get(content);
    if (mark === undefined) {
      mark = marks.size + 2; // :1 is the commit
      marks.set(content, mark);
      line('blob');
      line(`mark :${mark}`);
      data(content);
    }
    return `:${mark}`;
  }
  const now = Math.floor(Date.now() / 1000);
  line(`commit refs/heads/${branch}`);
  line('mark :1');
  line(`author Test <test@example.com> ${now} +0000`);
  line(`committer Test <test@example.com> ${now} +0000`);
  data(`${message.trimEnd()}\n`); // as `git commit -m` records it
  if (parent !== undefined) line(`from ${parent}`);
  for (const path of remove) line(`D ${quotePath(treePath(path))}`);
  for (const file of files) line(file);
  line('');
  line('get-mark :1');
  return Buffer.concat(parts);
}

/** A tree key as the path `writeTree` writes it to under a root: `./a//b` and `/a/b` are `a/b`. */
function treePath(key: string): string {
  return posix.normalize(key).replace(/^\/+/, '');
}

/** A path as fast-import reads it whatever its characters: C-style quoted. */
function quotePath(path: string): string {
  return `"${path.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\n')}"`;
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
