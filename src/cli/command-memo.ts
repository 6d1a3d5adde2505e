/**
 * The kept answers of `status` and `apply` (src/engine/answer-memo.ts): what the command printed, under the
 * command line as typed, where it was typed, whether the output had colours and the width it was folded
 * at. One definition of the request, for the commands (commands/status.ts, commands/apply.ts) and for the
 * lookup made before the command line is loaded (fast-answer.ts). Light: that lookup loads this module.
 */
import { type AnswerMemo, answerMemo } from '../engine/answer-memo.js';

/** The commands whose answer is kept while nothing it came from changed. */
export type MemoCommand = 'status' | 'apply';

export function commandMemo(
  command: MemoCommand,
  argv: readonly string[],
  cwd: string,
  colors: boolean,
  width?: number,
): AnswerMemo {
  // The width prose is folded at (wrap.ts) is part of the request: the answer is printed as it was kept.
  return answerMemo({ command, argv, cwd, colors, ...(width === undefined ? {} : { width }) });
}
