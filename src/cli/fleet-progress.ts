/**
 * What `fleet status|apply` shows while it runs. On a terminal: a block redrawn in place, one line per
 * repository being worked on and a bar for the whole run, with each finished repository printed above it
 * for good. Elsewhere (a pipe, a CI log): one plain line per finished repository, nothing redrawn.
 */
import { type FleetEvent, lockNote, lockPending, type RepositoryRecord } from '../fleet/index.js';
import type { Io } from './io.js';
import { fold } from './wrap.js';

const UP = (n: number) => `\u001b[${n}A`;
const CLEAR_LINE = '\r\u001b[2K';

export class FleetProgress {
  private readonly running = new Map<string, string>();
  private drawn = 0;
  private finished = 0;

  constructor(
    private readonly io: Io,
    private readonly total: number,
    /** Redraw in place (standard error is a terminal). */
    private readonly live: boolean,
  ) {}

  hear(event: FleetEvent): void {
    if (this.io.quiet === true) return; // --quiet: the errors are reported at the end
    if (event.type === 'step') {
      this.running.set(event.name, event.step);
      if (this.live) this.redraw(undefined);
      return;
    }
    this.running.delete(event.record.name);
    this.finished = event.finished;
    const counter = `[${event.finished}/${event.total}] `;
    // Folded as the rest of the CLI's prose, continuation lines under the repository's name.
    this.print(`${counter}${recordLine(event.record)}\n`, counter.length);
  }

  /** A line of its own (an interruption's notice), above the live block; not dropped by --quiet. */
  note(text: string): void {
    this.print(text, 2);
  }

  private print(text: string, indent: number): void {
    const folded = fold(text, this.io.widths?.err, indent);
    if (this.live) this.redraw(folded);
    else this.io.err(folded);
  }

  /** Erases the live block (before the summary is printed). */
  finish(): void {
    if (this.live) this.clear();
  }

  private clear(): void {
    if (this.drawn === 0) return;
    this.io.err(`${UP(this.drawn)}${`${CLEAR_LINE}\n`.repeat(this.drawn)}${UP(this.drawn)}`);
    this.drawn = 0;
  }

  private redraw(finishedLine: string | undefined): void {
    this.clear();
    const lines = [...this.running].map(([name, step]) => `  ${name}: ${step}`);
    const width = 30;
    const filled = Math.min(width, Math.round((width * this.finished) / Math.max(1, this.total)));
    lines.push(`  [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.finished}/${this.total} done`);
    // Each line of the block is one row, cut at the terminal's width: a line the terminal wrapped would
    // take two rows, and the block's redraw (so many rows up) would leave the rest on the screen.
    const columns = this.io.widths?.err;
    const rows = lines.map((l) =>
      columns !== undefined && l.length >= columns ? `${l.slice(0, columns - 2)}…` : l,
    );
    this.io.err(`${finishedLine ?? ''}${rows.map((l) => `${CLEAR_LINE}${l}\n`).join('')}`);
    this.drawn = lines.length;
  }
}

/**
 * `nginx: drift (3 files)`, `archive: applied (no file changed; .pantograph.lock created)`,
 * `archive: drift (no file to change; .pantograph.lock to create)` or
 * `apache: failed: <message>`.
 */
export function recordLine(record: RepositoryRecord): string {
  const files = record.files.length;
  const lock = lockNote(record);
  const none = lockPending(record) ? 'no file to change' : 'no file changed';
  const counted = files > 0 ? `${files} file${files === 1 ? '' : 's'}` : lock ? none : '';
  const detail =
    record.result === 'failed' ||
    record.result === 'conflict' ||
    record.result === 'needs-confirmation' ||
    record.result === 'interrupted'
      ? `: ${record.error?.message ?? ''}`
      : counted !== ''
        ? ` (${[counted, lock].filter((s) => s !== undefined).join('; ')})`
        : '';
  return `${record.name}: ${record.result}${detail}${record.resumed ? ' [unchanged since the last run]' : ''}`;
}
