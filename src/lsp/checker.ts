/**
 * Checks run off the server's thread, in a worker it can terminate (check-worker.ts). Nothing a file
 * holds may stop the server: a check that runs past its time limit, or past its memory, is stopped, the
 * worker replaced, and the document gets one diagnostic naming the limit. Meanwhile every other request
 * (hover, completion, another file's check) is answered.
 *
 * Two workers serve the EPP and JSON checks (a file stopped at the limit holds one, the other files go on
 * in the other), a third the `.sync.yml` ones (a project's validation may take seconds: typing in a
 * template must not wait behind it). Each runs one job at a time; a second is started on first need.
 */
import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import type { ModulePathEntry, Problem, ProjectOptions, SettingView, SpanProblem } from '../index.js';
import { packagePath } from '../package-root.js';
import { workerThreads } from '../shared/builtins.js';
import type { EppQuery, EppQueryResult } from './epp-query.js';
import type { ProjectOutline } from './project-outline.js';
import type { TemplateSummary, TemplateTexts } from './template-summary.js';

export type CheckJob =
  | {
      readonly kind: 'epp';
      readonly text: string;
      readonly file: string;
      /** The texts of the file's template; the worker makes its context of them (template-summary.ts). */
      readonly template: EppTemplateJob | undefined;
      readonly modulePath: readonly ModulePathEntry[] | undefined;
    }
  | { readonly kind: 'template-file'; readonly text: string; readonly file: string }
  | EppQuery
  | {
      readonly kind: 'sync';
      readonly root: string;
      readonly text: string;
      /** Serializable options only (no callbacks). */
      readonly options: ProjectOptions;
      /** The editor's unsaved buffers of other files, by absolute path. */
      readonly overlay: readonly (readonly [string, string])[];
      /** Instead of validating: the settings of this template as `show` says them. */
      readonly views?: string;
      /** Instead of validating: what completion and hover need of the project (see project-outline.ts). */
      readonly outline?: boolean;
    };

/** The template of an EPP file to check, as the server read its files (parsed in the worker). */
export interface EppTemplateJob {
  readonly texts: TemplateTexts;
  /** The last texts that parsed, for while `texts` do not (being edited). */
  readonly lastGood: TemplateTexts | undefined;
  /** Whether the server needs the summary of these texts (it has it otherwise: it is not sent again). */
  readonly wantSummary: boolean;
}

export interface EppTemplateAnswer {
  /** Whether `texts` do not parse (or are too large): the check used `lastGood`'s context. */
  readonly broken: boolean;
  /** When asked: what hover and completion need of the template; null when it has no context. */
  readonly summary?: TemplateSummary | null;
}

export type CheckResult =
  | {
      readonly kind: 'epp';
      /** Whether the text parses (its tree is made again where it is needed: sending it costs more). */
      readonly parsed: boolean;
      readonly problems: SpanProblem[];
      readonly more: number;
      readonly template?: EppTemplateAnswer;
    }
  | { readonly kind: 'template-file'; readonly problems: SpanProblem[]; readonly more: number }
  | { readonly kind: 'sync'; readonly problems: Problem[] }
  | { readonly kind: 'views'; readonly views: SettingView[] | undefined }
  /** What an EPP request (hover, definition, symbols, completion) needs of the text's tree. */
  | ({ readonly kind: 'epp-query' } & EppQueryResult)
  /** `undefined` when the project does not load (its problems are the validation's). */
  | { readonly kind: 'outline'; readonly outline: ProjectOutline | undefined };

export type CheckReply =
  | { readonly id: number; readonly result: CheckResult }
  | { readonly id: number; readonly failure: string };

export interface CheckLimits {
  /** Wall-clock milliseconds one check may run. */
  readonly timeMs: number;
  /** Megabytes of heap the worker may use. */
  readonly memoryMb: number;
}

/** A check stopped at a limit: its message says which, for the diagnostic. */
export class CheckLimitError extends Error {
  constructor(
    readonly code: 'LSP_TIME_LIMIT' | 'LSP_MEMORY_LIMIT',
    message: string,
  ) {
    super(message);
  }
}

/** How long a new worker may take to load its bundle on a busy machine (not counted against a check). */
const STARTUP_MS = 60_000;

/** A job dropped before it ran: a later one of the same key replaced it. */
export class SupersededError extends Error {
  constructor() {
    super('replaced by a later job');
  }
}

interface Pending {
  readonly id: number;
  readonly job: CheckJob;
  readonly key: string | undefined;
  /** What a limit stops, in its message, when not the checker's. */
  readonly what: string | undefined;
  readonly resolve: (result: CheckResult) => void;
  readonly reject: (error: Error) => void;
}

/** Runs jobs in up to `size` workers, each job in the first free one, in the order they came. */
export class Checker {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(
    readonly limits: CheckLimits,
    /** What a limit stops, in its message ("not checked: checking this file"). */
    private readonly what: string,
    private readonly size = 1,
  ) {}

  /**
   * Runs `job` when a worker is free. A job given a `key` replaces the waiting one of that key (a
   * document's older text): that one fails with SupersededError, so that a burst of them runs no backlog.
   * `what` names what a limit stops, when it is not what the checker's jobs do.
   */
  run(job: CheckJob, { key, what }: { key?: string; what?: string } = {}): Promise<CheckResult> {
    if (key !== undefined) {
      for (const old of this.queue.filter((p) => p.key === key)) {
        this.queue.splice(this.queue.indexOf(old), 1);
        old.reject(new SupersededError());
      }
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, key, what, resolve, reject });
      this.next();
    });
  }

  /** Starts a worker before the first job needs it (loading its bundle takes a few hundred ms). */
  warm(): void {
    if (this.slots.length > 0) return;
    const slot = new Slot(this.limits, this.what, () => this.next());
    this.slots.push(slot);
    slot.warm();
  }

  /** Stops the workers (the server is exiting). */
  close(): void {
    for (const slot of this.slots) slot.close();
  }

  private next(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) {
        slot = new Slot(this.limits, this.what, () => this.next());
        this.slots.push(slot);
      }
      if (!slot) return;
      slot.run(this.queue.shift()!);
    }
  }
}

/** One worker, running one job at a time; replaced when a job hits a limit. */
class Slot {
  private worker: Worker | undefined;
  private ready = false;
  private running: (Pending & { timer: NodeJS.Timeout | undefined }) | undefined;

  constructor(
    private readonly limits: CheckLimits,
    private readonly what: string,
    /** Called when the slot is free again. */
    private readonly freed: () => void,
  ) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  run(job: Pending): void {
    const worker = this.start();
    this.running = { ...job, timer: undefined };
    if (this.ready) this.arm();
    worker.postMessage({ id: job.id, job: job.job });
  }

  warm(): void {
    this.start();
  }

  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  /** Starts the running job's clock (once the worker has loaded). */
  private arm(): void {
    const running = this.running;
    if (!running || running.timer) return;
    const seconds = this.limits.timeMs / 1000;
    running.timer = setTimeout(
      () =>
        this.fail(
          new CheckLimitError(
            'LSP_TIME_LIMIT',
            `${running.what ?? this.what} ran longer than ${seconds} s, the language server's time limit (a regular expression that backtracks, a loop or a very large file is the usual cause)`,
          ),
        ),
      this.limits.timeMs,
    );
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const bundled = packagePath('dist', 'lsp', 'check-worker.cjs');
    const script = existsSync(bundled) ? bundled : packagePath('dist', 'lsp', 'check-worker.js');
    const worker = new (workerThreads().Worker)(script, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    this.ready = false;
    const startup = setTimeout(() => {
      if (this.worker === worker && !this.ready) this.fail(new Error('the check worker did not start'));
    }, STARTUP_MS);
    worker.on('message', (message: CheckReply | { ready: true }) => {
      if (this.worker !== worker) return;
      if ('ready' in message) {
        clearTimeout(startup);
        this.ready = true;
        this.arm();
        return;
      }
      const running = this.running;
      if (!running || running.id !== message.id) return;
      clearTimeout(running.timer);
      this.running = undefined;
      if ('failure' in message) running.reject(new Error(message.failure));
      else running.resolve(message.result);
      this.freed();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      clearTimeout(startup);
      this.fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new CheckLimitError(
              'LSP_MEMORY_LIMIT',
              `${this.running?.what ?? this.what} used more than ${this.limits.memoryMb} MB of memory, the language server's limit`,
            )
          : error,
      );
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      clearTimeout(startup);
      this.fail(new Error(`the check worker stopped (exit ${code})`));
    });
    return worker;
  }

  /** The running job fails; the worker is stopped and the next job gets a new one. */
  private fail(error: Error): void {
    const running = this.running;
    this.running = undefined;
    if (running) clearTimeout(running.timer);
    this.close();
    running?.reject(error);
    this.freed();
  }
}
