/**
 * `status`'s kept answers (src/engine/answer-memo.ts): what it printed, under the command line as typed,
 * where it was typed, whether the output had colours and the width it was folded at. One definition of the request, for the command
 * (commands/status.ts) and for the lookup made before the command line is loaded (fast-status.ts).
 */
import { type AnswerMemo, answerMemo } from '../engine/answer-memo.js';

export function statusMemo(
  argv: readonly string[],
  cwd: string,
  colors: boolean,
  width?: number,
): AnswerMemo {
  // The width prose is folded at (wrap.ts) is part of the request: the answer is printed as it was kept.
  return answerMemo({ command: 'status', argv, cwd, colors, ...(width === undefined ? {} : { width }) });
}
