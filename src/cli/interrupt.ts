/**
 * Ctrl-C (SIGINT) and SIGTERM (a CI job cancelled, `kill`) during a long command that can stop cleanly
 * (`fleet status|apply|update`, `apply`, which stops between two files): the first one aborts an AbortSignal the command passes on, and the
 * command ends with its partial report and the conventional status (128 + the signal's number); a
 * second one stops the process at once, with that status too. Without this, Node dies on the first
 * signal and prints nothing: no word of which repositories were done.
 */
import { type Io, sayErr } from './io.js';

const NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;
type Caught = keyof typeof NUMBERS;

export interface Interruption {
  /** Aborted on the first signal, with the signal's name (`SIGINT`, `SIGTERM`) as its reason. */
  readonly signal: AbortSignal;
  /** Stops listening: the signals kill the process again as they normally do. */
  dispose(): void;
}

/** The exit status of a command stopped by `signal` (130 for SIGINT, 143 for SIGTERM), as shells give it. */
export function exitStatusOf(signal: string): number {
  return 128 + (NUMBERS[signal as Caught] ?? NUMBERS.SIGINT);
}

/**
 * Listens for SIGINT and SIGTERM. `onFirst` hears the first (it says what stopping cleanly means for the
 * command); a second one exits at once, saying `again` (what the next run does about the work cut short).
 */
export function catchInterrupts(
  io: Io,
  onFirst: (signal: string) => void,
  again = 'the next run resets any clone left half applied',
): Interruption {
  const controller = new AbortController();
  const handlers = (Object.keys(NUMBERS) as Caught[]).map((name) => {
    const handler = () => {
      if (!controller.signal.aborted) {
        onFirst(name);
        controller.abort(name);
        return;
      }
      sayErr(io, `interrupted again (${name}): stopping at once; ${again}\n`);
      process.exit(exitStatusOf(name));
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    dispose() {
      for (const [name, handler] of handlers) process.removeListener(name, handler);
    },
  };
}
