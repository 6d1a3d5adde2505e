/**
 * The progress line of long work on a terminal (DESIGN 10): one line on standard error saying what is
 * being done ("fetching git source ...", "rendering template 3/9 ..."), rewritten in place and erased
 * before anything else is printed. It appears only after a short delay, so quick commands never flicker,
 * and never when standard error is not a terminal (pipes, CI logs, `--format json` output stays clean).
 */

/** Where the line is drawn: a terminal stream (`process.stderr`). */
export interface ProgressStream {
  write(text: string): unknown;
  readonly columns?: number | undefined;
}

export interface ProgressOptions {
  /** How long work must run before its line appears (default 250 ms). */
  readonly delayMs?: number;
}

/** Moves to the start of the line and clears it. */
const ERASE = '\r\u001b[2K';

export class TerminalProgress {
  private readonly delayMs: number;
  private latest: string | undefined;
  private shown = false;
  private timer: NodeJS.Timeout | undefined;
  /** When the command started: work that starts after the delay shows at once (it may block the loop). */
  private readonly started = Date.now();

  constructor(
    private readonly stream: ProgressStream,
    options: ProgressOptions = {},
  ) {
    this.delayMs = options.delayMs ?? 250;
  }

  /** Says what is being done now; `undefined` erases the line (the work is over). */
  update(text: string | undefined): void {
    this.latest = text;
    if (text === undefined) {
      this.erase();
      return;
    }
    if (this.shown) {
      this.draw();
      return;
    }
    // A step of a command that already runs for a while is shown at once: post-processing commands run
    // synchronously, so a timer could not fire while they work.
    if (Date.now() - this.started >= this.delayMs) {
      this.draw();
      return;
    }
    // unref: a pending line must never keep the process alive.
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      if (this.latest !== undefined) this.draw();
    }, this.delayMs).unref();
  }

  /** Erases the line (if drawn) so that other output starts on a clean line; the next update redraws. */
  erase(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.shown) return;
    this.stream.write(ERASE);
    this.shown = false;
  }

  private draw(): void {
    const text = this.latest ?? '';
    // One line only: a wrapped line could not be erased.
    // A terminal of unknown width (some ptys say 0) is taken as 80 columns.
    const width = Math.max(20, (this.stream.columns || 80) - 1);
    const line = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    this.stream.write(`${ERASE}${line}`);
    this.shown = true;
  }
}
