/**
 * Where commands write. Commands take an `Io` instead of touching `process` so tests can call them
 * directly and capture what they print.
 */
import type { Colors } from './format-error.js';
import { noColors } from './format-error.js';
import { TerminalProgress } from './progress.js';
import { standardOutput } from './standard-output.js';
import { fold, foldWidth } from './wrap.js';

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
  /** Widths to fold prose at, per stream (wrap.ts); absent: not folded. */
  readonly widths?: { readonly out?: number | undefined; readonly err?: number | undefined };
  /** `--quiet`: see {@link quietIo}. */
  readonly quiet?: boolean;
  /** Under `--quiet`, the Io that still prints (a command's product, a question's diff). */
  readonly loud?: Io;
}

/** Prose on standard output, folded at its width (wrap.ts); `indent`: of continuation lines. */
export function sayOut(io: Io, text: string, indent?: number): void {
  io.out(fold(text, io.widths?.out, indent));
}

/** Prose on standard error, folded at its width. */
export function sayErr(io: Io, text: string, indent?: number): void {
  io.err(fold(text, io.widths?.err, indent));
}

/**
 * `--quiet` for a command that reports: its report (standard output), notes, warnings and progress are
 * dropped (a problem's warning in report.ts); errors still go to standard error. What a command exists to print goes
 * through `loud` (main.ts says which commands report).
 */
export function quietIo(io: Io): Io {
  return Object.create(io, {
    out: { value: () => {} },
    err: { value: (text: string) => (/^(note|warning): /.test(text) ? undefined : io.err(text)) },
    progress: { value: undefined },
    quiet: { value: true },
    loud: { value: io },
  }) as Io;
}

/** Where a command's product goes: standard output even under `--quiet`. */
export function loud(io: Io): Io {
  return io.loud ?? io;
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
  const widths = {
    out: foldWidth(stdout.isTerminal, () => process.stdout.columns),
    err: foldWidth(stderr.isTerminal, () => process.stderr.columns),
  };
  return {
    widths,
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
