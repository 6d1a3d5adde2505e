/**
 * Questions on the terminal: `init`'s metadata, `apply`'s confirmations, `convert`'s. One reader serves
 * every question of a run: a reader per question, closed after its answer, dropped the lines typed or
 * pasted ahead with it (three answers pasted into `init` gave the first, then "Aborted with Ctrl+D").
 * Between questions the reader is paused, so that the command ends when nothing more is asked; what is
 * typed meanwhile waits in the terminal for the next question.
 */
import type { Interface } from 'node:readline';

interface Reader {
  readonly rl: Interface;
  /** Lines read ahead of their question. */
  readonly lines: string[];
  closed: boolean;
  /** The question waiting for its line: given it, or undefined on Ctrl+D, or an error on Ctrl+C. */
  waiting?: ((answer: string | Error | undefined) => void) | undefined;
}

let reader: Reader | undefined;

/** Asks `question` on standard error and returns the line typed; Ctrl+C or Ctrl+D abort (ABORT_ERR). */
export async function terminalAsk(question: string): Promise<string> {
  const r = reader ?? (reader = await openReader());
  rawMode(true);
  r.rl.setPrompt(question);
  r.rl.prompt(); // also resumes reading
  const queued = r.lines.shift();
  if (queued !== undefined) process.stderr.write(`${queued}\n`); // answered ahead: shown after its question
  const answer =
    queued ??
    (r.closed ? undefined : await new Promise<string | Error | undefined>((done) => (r.waiting = done)));
  r.rl.pause();
  rawMode(false); // Ctrl+C during the work that follows is a signal again, as without a reader
  if (answer instanceof Error) throw answer;
  if (answer === undefined) throw aborted('Ctrl+D');
  return answer;
}

async function openReader(): Promise<Reader> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const r: Reader = { rl, lines: [], closed: false };
  const give = (answer: string | Error | undefined) => {
    const waiting = r.waiting;
    r.waiting = undefined;
    waiting?.(answer);
    return waiting !== undefined;
  };
  rl.on('line', (line) => {
    if (!give(line)) r.lines.push(line);
  });
  rl.on('close', () => {
    r.closed = true;
    give(undefined);
  });
  // On a terminal, readline takes Ctrl+C as input: the question is aborted, as readline/promises did.
  rl.on('SIGINT', () => {
    process.stderr.write('\n');
    if (!give(aborted('Ctrl+C'))) process.kill(process.pid, 'SIGINT');
  });
  return r;
}

/** readline reads a terminal raw (it echoes and edits the line itself); only while a question waits. */
function rawMode(on: boolean): void {
  if (process.stdin.isTTY) process.stdin.setRawMode(on);
}

function aborted(keys: string): Error {
  return Object.assign(new Error(`Aborted with ${keys}`), { name: 'AbortError', code: 'ABORT_ERR' });
}
