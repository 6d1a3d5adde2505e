/**
 * `pantograph update [--noop] [--diff] [--force] [--yes]`: fetches every git source, resolves its `ref`
 * again (ignoring the commit the lock records), reports which sources moved, and applies: the lock then
 * records the new commits. Conflicts are merged against the output of the old commits where it can be
 * reproduced; after resolving them, `update` is run again to record the new commits.
 */
import { moveLine, sourceMoves } from '../../engine/source-moves.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { engineCommand, printJson } from '../report.js';
import {
  type ApplyFlags,
  type Ask,
  captureJson,
  loadPlan,
  planFailed,
  runApply,
  terminalAsk,
} from './apply.js';

export async function update(io: Io, global: GlobalOptions, flags: ApplyFlags): Promise<number> {
  return updateWith(io, global, flags, terminalAsk);
}

/** `update` with the terminal question injected (tests). */
export async function updateWith(
  io: Io,
  global: GlobalOptions,
  flags: ApplyFlags,
  ask: Ask,
): Promise<number> {
  return engineCommand(
    io,
    global,
    async () => {
      const loaded = await loadPlan(io, global, flags, { followRefs: true });
      if (planFailed(io, global, loaded.plan)) return 1;
      const moves = sourceMoves(loaded.lock, loaded.plan.sources);
      if (global.format === 'json') {
        // One JSON document: the apply result carries the moves.
        const captured = captureJson(io);
        const code = await runApply(captured, global, loaded, { paths: [], flags, ask });
        printJson(io, { sources: moves, ...captured.value() });
        return code;
      }
      if (moves.length === 0) io.out('no git sources to update\n');
      for (const m of moves) io.out(`source ${moveLine(m)}\n`);
      return runApply(io, global, loaded, {
        paths: [],
        flags,
        ask,
        conflictNote:
          'after resolving every conflict, run `pantograph update` again: the lock records the new commits only then',
      });
    },
    { writes: true },
  );
}
