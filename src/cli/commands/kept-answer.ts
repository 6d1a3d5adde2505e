/**
 * What `status` and `apply` share about their kept answers (command-memo.ts, src/engine/answer-memo.ts):
 * whether a run may use one, giving it, recording what the run prints, and keeping that.
 */
import type { AnswerMemo } from '../../engine/answer-memo.js';
import { hasGlobChars } from '../../sync/glob.js';
import { commandMemo, type MemoCommand } from '../command-memo.js';
import { noColors } from '../format-error.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import type { EngineFlags } from '../report.js';
import type { LoadedPlan } from './apply.js';

/**
 * The memo of this run of `command`, or undefined under `--no-memo` (`memo: false`). Kept answers are only
 * for the command line as typed (`main` gives its arguments), and not with a V1 repository's URL among
 * them (it may carry credentials; the memo is written in plain text).
 */
export function memoOfRun(
  command: MemoCommand,
  io: Io,
  global: GlobalOptions,
  flags: EngineFlags & { readonly memo?: boolean },
): AnswerMemo | undefined {
  if (
    global.argv === undefined ||
    flags.memo === false ||
    flags.templateUrl !== undefined ||
    flags.templateRef !== undefined
  ) {
    return undefined;
  }
  return commandMemo(command, global.argv, io.cwd, io.colors !== noColors, io.widths?.out);
}

/** Prints the kept answer, unless bin.cjs looked already (fast-answer.ts); whether there was one. */
export function gaveKeptAnswer(io: Io, global: GlobalOptions, memo: AnswerMemo | undefined): boolean {
  const kept = global.memoMissed === true ? undefined : memo?.lookup();
  if (kept === undefined) return false;
  io.out(kept);
  return true;
}

/** `io`, recording what it prints on standard output (nothing under --quiet, which prints nothing of it). */
export function recordingIo(io: Io): { readonly io: Io; printed(): string } {
  let printed = '';
  // Object.create: `io`'s getters stay lazy (see io.ts).
  const recording: Io = Object.create(io, {
    out: {
      value: (text: string) => {
        printed += io.quiet === true ? '' : text;
        io.out(text);
      },
    },
  });
  return { io: recording, printed: () => printed };
}

/**
 * Keeps `printed` as the answer about the planned project, where the plan had no problem and no glob in
 * `delete` (it walks the whole project, which the memo does not watch). `reported`: the paths the answer
 * named besides those planned and locked.
 */
export function keepAnswer(
  memo: AnswerMemo | undefined,
  loaded: LoadedPlan,
  reported: readonly { readonly path: string }[],
  printed: string,
): void {
  const { plan } = loaded;
  if (memo === undefined || plan.problems.length > 0 || plan.delete.some(hasGlobChars)) return;
  memo.save(loaded.root, loaded.inputs, answeredPaths(loaded, reported), printed);
}

/** Every project path an answer was about: planned, locked (files and directories) and reported. */
function answeredPaths(loaded: LoadedPlan, reported: readonly { readonly path: string }[]): string[] {
  const paths = loaded.plan.files.map((f) => f.path);
  for (const path of loaded.lock?.files.keys() ?? []) paths.push(path);
  paths.push(...(loaded.lock?.directories ?? []));
  for (const e of reported) paths.push(e.path);
  return paths;
}
