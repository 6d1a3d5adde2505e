/**
 * Where a run that writes may stop when asked (Ctrl-C, SIGTERM: an aborted `AbortSignal`): between two
 * files, never inside one. The write phase is synchronous, and a signal's handler only runs when the event
 * loop gets a turn, so a stop point gives it one now and then (at most every YIELD_MS: a 10,000-file apply
 * stays as fast as without a signal).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SyncError } from './errors.js';

const YIELD_MS = 20;

/** A stop point for a loop: true once `signal` is aborted. Without a signal it never yields. */
export function stopPoint(signal: AbortSignal | undefined): () => Promise<boolean> {
  let lastTurn = performance.now();
  return async () => {
    if (signal === undefined) return false;
    if (performance.now() - lastTurn >= YIELD_MS) {
      await nextTurn();
      lastTurn = performance.now();
    }
    return signal.aborted;
  };
}

/** The error of a run stopped by `signal`; `done` says how far it got ("nothing was written"). */
export function interrupted(signal: AbortSignal | undefined, done: string): SyncError {
  const name = typeof signal?.reason === 'string' ? signal.reason : 'SIGINT';
  return new SyncError('SYNC_INTERRUPTED', `interrupted (${name}): ${done}`, {
    hint: 'run `pantograph apply` again to finish: every file is either as it was or as the template makes it',
  });
}

/** Whether `error` is the one a stop point's run throws. */
export function isInterruption(error: unknown): error is SyncError {
  return error instanceof SyncError && error.code === 'SYNC_INTERRUPTED';
}
