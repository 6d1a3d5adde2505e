/**
 * `post` commands: run after a file is written, without a shell, with the file's path as an argument of
 * its own (shared/post-command.ts says how a command line becomes the arguments).
 */
import type { PostCommand } from '../engine/render-plan.js';
import { childProcess } from '../shared/builtins.js';
import { commandArgs } from '../shared/post-command.js';
import { matchesBasename } from './glob.js';

export { commandArgs, splitCommand } from '../shared/post-command.js';

export interface PostResult {
  readonly path: string;
  readonly command: string;
  readonly ok: boolean;
  /** Exit status, or null when it did not start or was killed. */
  readonly status: number | null;
  /** Combined stdout and stderr (and the spawn error, if any). */
  readonly output: string;
}

/** Runs every command whose glob matches the basename of `path`, in order, in the project root. */
export function runPost(root: string, commands: readonly PostCommand[], path: string): PostResult[] {
  const results: PostResult[] = [];
  for (const post of commands) {
    if (!matchesBasename(post.glob, path)) continue;
    const [cmd, ...args] = commandArgs(post.command, path);
    if (cmd === undefined) {
      results.push({ path, command: post.command, ok: false, status: null, output: 'empty command' });
      continue;
    }
    const run = childProcess().spawnSync(cmd, args, {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      timeout: 300_000,
    });
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? String(run.error.message) : ''}`;
    results.push({
      path,
      command: post.command,
      ok: run.status === 0 && !run.error,
      status: run.status,
      output,
    });
  }
  return results;
}
