/**
 * Writing to standard output and error without Node's stream objects when they are a pipe or a file.
 * The first touch of `process.stdout` builds a stream (and loads the stream modules, with `net` for a
 * pipe): ~5 ms of every command's start-up, where scripts and CI run Pantograph with its output piped.
 * A pipe or a file is written with `writeSync` on its descriptor, as Node's own streams for them do on
 * Linux and macOS; a terminal keeps its stream (Windows consoles need it). A descriptor set non-blocking
 * by whoever shares it answers EAGAIN: from then on, that output goes through the stream (in order, since
 * the earlier writes are done).
 */
import { fstatSync, writeSync } from 'node:fs';

export interface OutputChannel {
  write(text: string): void;
  /** The descriptor is a terminal. */
  readonly isTerminal: boolean;
}

export function standardOutput(fd: number, stream: () => NodeJS.WriteStream): OutputChannel {
  const isTerminal = isTerminalFd(fd);
  let viaStream = isTerminal;
  return {
    isTerminal,
    write(text) {
      if (viaStream) {
        stream().write(text);
        return;
      }
      const bytes = Buffer.from(text, 'utf8');
      let done = 0;
      try {
        while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // The reader closed the pipe early (`pantograph ... | head`): their choice, not an error to report.
        if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
        if (code !== 'EAGAIN') throw e;
        viaStream = true;
        stream().write(bytes.subarray(done));
      }
    },
  };
}

/**
 * `tty.isatty`, asked only of a character device: loading `node:tty` loads `net` and the streams, the
 * very cost this module avoids for a pipe or a file (which are never terminals).
 */
export function isTerminalFd(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false; // closed: nothing is a terminal there
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}
