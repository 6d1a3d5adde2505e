/**
 * Where the templates of untrusted sources run (issue 11, item 5): a worker thread with a memory limit
 * (`resourceLimits`) and a watchdog that terminates it at the time limit. Inside the main thread a
 * template can be stopped only where the EPP runtime checks its deadline; a catastrophic regular
 * expression (`/^(a+)+$/` on "aaaa…!") or an allocation never reaches such a check. Terminating the
 * worker stops anything, and a worker that runs out of its heap dies alone, not the tool.
 *
 * Untrusted: a git source without `trusted: true` (or `--trust`), a filesystem source with `trusted:
 * false` (`source.trusted`). Their `.pp` hooks and file renders run here; trusted sources render in the
 * main thread, as they always did (the limits of Puppet itself: none, but the EPP runtime's own).
 *
 * One worker per plan, started on first use and reused for every untrusted template; a worker that was
 * terminated is replaced for the next job.
 */
import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { packagePath } from '../package-root.js';
import { workerThreads } from '../shared/builtins.js';
import type { HookOutcome, HookRunOptions, HookState } from './hooks.js';
import type { DataMap, HookFile, HookName, TemplateFile } from './model.js';
import type { PlannedFile, Problem } from './render-plan.js';

export interface SandboxLimits {
  /** Wall-clock milliseconds one job (a hook, or the files of one template) may run. */
  readonly timeMs: number;
  /** Megabytes of heap the worker may use. */
  readonly memoryMb: number;
}

/** The defaults: generous for any real template, small enough that an attack ends quickly. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { timeMs: 30_000, memoryMb: 512 };

/** The limits from the environment (`PANTOGRAPH_UNTRUSTED_TIME_LIMIT` s, `..._MEMORY_LIMIT` MB), else the defaults. */
export function sandboxLimits(env: NodeJS.ProcessEnv, given?: Partial<SandboxLimits>): SandboxLimits {
  const number = (text: string | undefined) => {
    const n = Number(text);
    return text !== undefined && text !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
  };
  const seconds = number(env.PANTOGRAPH_UNTRUSTED_TIME_LIMIT);
  const megabytes = number(env.PANTOGRAPH_UNTRUSTED_MEMORY_LIMIT);
  return {
    timeMs: given?.timeMs ?? (seconds !== undefined ? seconds * 1000 : DEFAULT_SANDBOX_LIMITS.timeMs),
    memoryMb: given?.memoryMb ?? megabytes ?? DEFAULT_SANDBOX_LIMITS.memoryMb,
  };
}

/** What the worker is started with. */
export interface SandboxWorkerData {
  /** Its heap limit, in megabytes (`SandboxLimits.memoryMb`). */
  readonly memoryMb: number;
}

/** A job that hit a limit: `during` is the file being rendered (or the hook) when it did. */
export class SandboxLimitError extends Error {
  constructor(
    readonly code: 'EPP_TIME_LIMIT' | 'EPP_MEMORY_LIMIT',
    readonly during: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** What the worker renders: one template's files with one set of settings (see sandbox-worker.ts). */
export interface RenderJob {
  readonly kind: 'render';
  readonly template: {
    readonly name: string;
    readonly dir: string;
    readonly version: string | null;
    readonly source: string;
    readonly delimiters: readonly [string, string] | undefined;
  };
  readonly files: readonly TemplateFile[];
  readonly settings: DataMap;
  readonly metadata: DataMap;
  readonly project: { readonly name: string; readonly is_new: boolean };
  readonly strict: boolean;
}

export interface RenderJobResult {
  readonly files: readonly PlannedFile[];
  readonly problems: readonly Problem[];
}

export interface HookJob {
  readonly kind: 'hook';
  readonly name: HookName;
  readonly hook: HookFile;
  readonly state: HookState;
  readonly options: HookRunOptions;
}

export class Sandbox {
  private worker: Worker | undefined;

  constructor(readonly limits: SandboxLimits) {}

  render(job: RenderJob): Promise<RenderJobResult> {
    return this.call(job) as Promise<RenderJobResult>;
  }

  hook(job: HookJob): Promise<HookOutcome> {
    return this.call(job) as Promise<HookOutcome>;
  }

  /** Stops the worker (the plan is done). */
  close(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private start(): Worker {
    // The bundle the build makes (one file to load), else tsc's module (a build without the bundling step).
    const bundled = packagePath('dist', 'engine', 'sandbox-worker.cjs');
    const script = existsSync(bundled) ? bundled : packagePath('dist', 'engine', 'sandbox-worker.js');
    const worker = new (workerThreads().Worker)(script, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb, maxYoungGenerationSizeMb: 32 },
      // The worker scales the size caps of templates to this heap (sandbox-worker.ts).
      workerData: { memoryMb: this.limits.memoryMb } satisfies SandboxWorkerData,
      stdout: true,
      stderr: true,
    });
    worker.unref(); // an idle sandbox never keeps the command running
    return worker;
  }

  private call(job: RenderJob | HookJob): Promise<unknown> {
    const worker = (this.worker ??= this.start());
    const what = job.kind === 'hook' ? `hook ${job.name}` : undefined;
    return new Promise((resolve, reject) => {
      let during = what;
      const finish = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const stop = (error: Error) => {
        finish();
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
        reject(error);
      };
      const timer = setTimeout(() => {
        const seconds = this.limits.timeMs / 1000;
        stop(
          new SandboxLimitError(
            'EPP_TIME_LIMIT',
            during,
            `ran longer than ${seconds} s (the time limit of untrusted templates)`,
          ),
        );
      }, this.limits.timeMs);
      const onMessage = (message: { progress?: string; result?: unknown; failure?: string }) => {
        if (message.progress !== undefined) {
          during = message.progress;
          return;
        }
        finish();
        if (message.failure !== undefined) reject(new Error(message.failure));
        else resolve(message.result);
      };
      const onError = (error: Error & { code?: string }) => {
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          stop(
            new SandboxLimitError(
              'EPP_MEMORY_LIMIT',
              during,
              `used more than ${this.limits.memoryMb} MB of memory (the limit of untrusted templates)`,
            ),
          );
        } else {
          stop(error);
        }
      };
      const onExit = (code: number) => stop(new Error(`the sandbox worker stopped (exit ${code})`));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.ref();
      worker.postMessage(job);
    }).finally(() => worker.unref());
  }
}
