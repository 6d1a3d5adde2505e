/**
 * `pantograph status` answered from its memo (status-memo.ts) before the command line is loaded: where
 * nothing changed since a clean answer, loading the command line's bundle was most of the run. Only what
 * the memo needs is loaded here; without a kept answer for these very arguments, in this directory, the
 * command line runs as always (and `status` looks the memo up again, for an answer to a terminal).
 */
import { isTerminalFd, standardOutput } from './standard-output.js';
import { statusMemo } from './status-memo.js';

/** Prints the kept answer and returns the exit code (0), or undefined when there is none. */
export function keptStatus(argv: readonly string[]): number | undefined {
  // A terminal may get colours (io.ts): that answer is the command line's to give.
  if (isTerminalFd(1)) return undefined;
  const kept = statusMemo({ argv, cwd: process.cwd(), colors: false }).lookup();
  if (kept === undefined) return undefined;
  standardOutput(1, () => process.stdout).write(kept);
  return 0;
}
