/**
 * Where commands write. Commands take an `Io` instead of touching `process` so tests can call them
 * directly and capture what they print.
 */
import type { Colors } from './format-error.js';
import { noColors } from './format-error.js';
import { TerminalProgress } from './progress.js';
import { standardOutput } from './standard-output.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  readonly colors: Colors;
  /** Standard input and output are a terminal: prompts and progress are allowed. */
  readonly interactive: boolean;
  readonly cwd: string;
  /**
   * Says what long work is doing (a line on a terminal, see progress.ts); `undefined` when it is over.
   * Absent: progress is not shown.
   */
  progress?(text: string | undefined): void;
}

export async function processIo(color: boolean | undefined): Promise<Io> {
  const stdout = standardOutput(1, () => withEpipeExit(process.stdout));
  const stderr = standardOutput(2, () => process.stderr);
  // Colour goes mostly to standard error (problems): both streams must be a terminal, so that
  // `pantograph apply 2> log` writes no escape codes into the log (found by QA in session 23).
  const useColor = color ?? (stdout.isTerminal && stderr.isTerminal && !process.env.NO_COLOR);
  let colors: Colors = noColors;
  if (useColor) {
    const pc = (await import('picocolors')).default;
    colors = { red: pc.red, yellow: pc.yellow, bold: pc.bold, dim: pc.dim, cyan: pc.cyan };
  }
  // Progress only where a person watches: standard error is a terminal (not a pipe, a file or CI's log).
  const line = stderr.isTerminal ? new TerminalProgress(process.stderr) : undefined;
  return {
    out: (text) => {
      line?.erase();
      stdout.write(text);
    },
    err: (text) => {
      line?.erase();
      stderr.write(text);
    },
    ...(line ? { progress: (text: string | undefined) => line.update(text) } : {}),
    colors,
    // A getter: touching process.stdin sets up a stream, a cost `epp render` should not pay.
    get interactive() {
      return stdout.isTerminal && process.stdin.isTTY === true;
    },
    cwd: process.cwd(),
  };
}

/** `pantograph ... | head` closes the pipe early: that is the reader's choice, not an error to report. */
function withEpipeExit(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!epipeHandled.has(stream)) {
    epipeHandled.add(stream);
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  return stream;
}
const epipeHandled = new WeakSet<NodeJS.WriteStream>();

/** An Io that collects output in strings (tests, library use); progress messages go to `progressLog`. */
export function memoryIo(
  cwd: string = process.cwd(),
): Io & { stdout: string; stderr: string; progressLog: string[] } {
  const io = {
    stdout: '',
    stderr: '',
    progressLog: [] as string[],
    out(text: string) {
      io.stdout += text;
    },
    err(text: string) {
      io.stderr += text;
    },
    progress(text: string | undefined) {
      if (text !== undefined) io.progressLog.push(text);
    },
    colors: noColors,
    interactive: false,
    cwd,
  };
  return io;
}
