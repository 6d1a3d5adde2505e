/**
 * Where a run that writes may stop when asked (Ctrl-C, SIGTERM: an aborted `AbortSignal`): between two
 * files, never inside one. The write phase is synchronous, and a signal's handler only runs when the event
 * loop gets a turn, so a stop point gives it one now and then (at most every YIELD_MS: a 10,000-file apply
 * stays as fast as without a signal).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SyncError } from './errors.js';

const YIELD_MS = 20;

/**
 * A loop's stop point: `asked` once the signal is aborted. Checking costs no await: a loop awaits
 * `takeTurn()` only when `turnDue`, which it never is without a signal (10,000 awaits of an answer already
 * known cost ~14 ms of a one-shot 10,000-file apply).
 */
export class StopPoint {
  private lastTurn = performance.now();

  constructor(private readonly signal: AbortSignal | undefined) {}

  /** Whether the event loop should get a turn now, so that a signal's handler can run. */
  get turnDue(): boolean {
    return this.signal !== undefined && performance.now() - this.lastTurn >= YIELD_MS;
  }

  async takeTurn(): Promise<void> {
    await nextTurn();
    this.lastTurn = performance.now();
  }

  /** The run was asked to stop. */
  get asked(): boolean {
    return this.signal?.aborted === true;
  }
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
