/**
 * `post` commands: run after a file is written, without a shell. The command line is split like a shell
 * would split words (POSIX quotes and backslashes, nothing else: no variables, globs or pipes); `{}` in an argument becomes the file's
 * project-relative path, appended as the last argument when no `{}` is present.
 */
import type { PostCommand } from '../engine/render-plan.js';
import { childProcess } from '../shared/builtins.js';
import { matchesBasename } from './glob.js';

export interface PostResult {
  readonly path: string;
  readonly command: string;
  readonly ok: boolean;
  /** Exit status, or null when it did not start or was killed. */
  readonly status: number | null;
  /** Combined stdout and stderr (and the spawn error, if any). */
  readonly output: string;
}

export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && '$`"\\\n'.includes(command[i + 1] ?? 'x')) word += command[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The argv for one file; a path starting with `-` is prefixed with `./` so it is never an option. */
export function commandArgs(command: string, path: string): string[] {
  const arg = path.startsWith('-') ? `./${path}` : path;
  const words = splitCommand(command);
  if (!words.some((w) => w.includes('{}'))) return [...words, arg];
  return words.map((w) => w.split('{}').join(arg));
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
