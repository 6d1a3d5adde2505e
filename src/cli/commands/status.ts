/**
 * `pantograph status [--check] [--diff] [--all] [--no-memo] [PATH...]`: every path of the plan, the lock
 * and `delete` classified against the project (DESIGN 8), as a table (state, path, template, reason) and
 * a summary line. Stable and `init` files are counted but listed only with `--all`. `--check` exits 2 on
 * drift (anything not in its desired state), so CI can fail on it; errors exit 1. Git sources stay at
 * their locked commits, so upstream moving is no drift.
 *
 * Where nothing changed since a clean answer, that answer is printed again before the rest of Pantograph
 * is even loaded (command-memo.ts, kept-answer.ts); else status-report.ts plans and reports.
 */
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import type { EngineFlags } from '../report.js';
import { gaveKeptAnswer, memoOfRun } from './kept-answer.js';

export interface StatusFlags extends EngineFlags {
  readonly check?: boolean;
  readonly diff?: boolean;
  readonly all?: boolean;
  /** False (`--no-memo`): no kept answer is given or kept. */
  readonly memo?: boolean;
}

export async function status(
  io: Io,
  global: GlobalOptions,
  paths: string[],
  flags: StatusFlags,
): Promise<number> {
  const memo = memoOfRun('status', io, global, flags);
  if (gaveKeptAnswer(io, global, memo)) return 0;
  return (await import('./status-report.js')).statusWithPlan(io, global, paths, flags, memo);
}
