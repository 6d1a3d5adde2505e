/**
 * `pantograph status` and `pantograph apply` answered from their memo (command-memo.ts) before the command
 * line is loaded: where nothing changed since a clean answer, loading the command line's bundle was most of
 * the run. Only what the memo needs is loaded here; without a kept answer for these very arguments, in
 * this directory, the command line runs as always (told that the memo was looked up, so that the command
 * does not look again).
 */
import { commandMemo, type MemoCommand } from './command-memo.js';
import { isTerminalFd, standardOutput } from './standard-output.js';
import { foldWidth } from './wrap.js';

/** Prints the kept answer and returns the exit code (0), or undefined when there is none. */
export function keptAnswer(command: MemoCommand, argv: readonly string[]): number | undefined {
  const width = foldWidth(isTerminalFd(1), () => process.stdout.columns);
  const kept = commandMemo(command, argv, process.cwd(), colorsFor(argv), width).lookup();
  if (kept === undefined) return undefined;
  standardOutput(1, () => process.stdout).write(kept);
  return 0;
}

/**
 * Whether the command line would print in colour (io.ts: a terminal, no NO_COLOR, no `--no-color`). Were
 * this ever to differ from it, the request would differ from the one the answer was kept under: no answer.
 */
function colorsFor(argv: readonly string[]): boolean {
  return !argv.includes('--no-color') && isTerminalFd(1) && !process.env.NO_COLOR;
}
