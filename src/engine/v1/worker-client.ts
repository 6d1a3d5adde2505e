/**
 * The one long-lived `ruby` process of a run (ruby/pantograph-v1/worker.rb), spoken to in JSON lines:
 * `load` once, then `render` per file. Each request has a time limit; a reply larger than the output limit
 * stops the worker; `close()` ends it when the plan is done. A worker that died (a limit, a crash) is
 * started again on the next request, with the last `load` replayed, so one bad file costs only itself.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { packagePath } from '../../package-root.js';
import { childProcess } from '../../shared/builtins.js';
import { RubyNotFoundError, RubyWorkerError } from './errors.js';

export interface RubyLimits {
  /** Per request, in milliseconds. */
  readonly timeMs: number;
  /** Bytes of one rendered file. */
  readonly outputBytes: number;
  /** Address space of the worker in bytes (RLIMIT_AS; 0: none). */
  readonly memoryBytes: number;
}

/** Limits from `PANTOGRAPH_RUBY_TIME_LIMIT` (seconds, default 30), `..._OUTPUT_LIMIT` and `..._MEMORY_LIMIT` (MB: 16, 2048). */
export function rubyLimits(env: NodeJS.ProcessEnv): RubyLimits {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    timeMs: number('PANTOGRAPH_RUBY_TIME_LIMIT', 30) * 1000,
    outputBytes: Math.round(number('PANTOGRAPH_RUBY_OUTPUT_LIMIT', 16) * 1024 * 1024),
    memoryBytes: Math.round(number('PANTOGRAPH_RUBY_MEMORY_LIMIT', 2048) * 1024 * 1024),
  };
}

/** The worker script: shipped in the package's `ruby/` (package.json `files`), found from src/, dist/ and the bundle. */
export function workerScript(): string {
  return packagePath('ruby', 'pantograph-v1', 'worker.rb');
}

export interface WorkerOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly limits: RubyLimits;
  /** The repository, for messages. */
  readonly repository: string;
}

interface Pending {
  readonly id: number;
  readonly during: string | undefined;
  readonly resolve: (reply: Reply) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export interface Reply {
  readonly id: number;
  readonly ok: boolean;
  readonly [key: string]: unknown;
}

export class RubyWorker {
  private child: ChildProcessWithoutNullStreams | undefined;
  private pending: Pending | undefined;
  private buffer: Buffer[] = [];
  private buffered = 0;
  private stderr = '';
  private nextId = 1;
  /** The last `load`, replayed into a restarted worker. */
  private loadRequest: Record<string, unknown> | undefined;
  private readonly executable: string;

  constructor(private readonly options: WorkerOptions) {
    this.executable = (options.env ?? process.env).PANTOGRAPH_RUBY || 'ruby';
  }

  /** `load`: the repository, `.sync.yml` and metadata.json; replies with the files and their statuses. */
  async load(request: Record<string, unknown>): Promise<Reply> {
    this.loadRequest = { ...request, op: 'load' };
    return this.request(this.loadRequest, undefined);
  }

  /** `render` one output path. */
  async render(path: string): Promise<Reply> {
    if (this.child === undefined && this.loadRequest !== undefined) {
      await this.request(this.loadRequest, undefined);
    }
    return this.request({ op: 'render', path }, path);
  }

  /** `object`: one object template (`object_templates/*.erb`) rendered with the given values (`pantograph new`). */
  async object(file: string, data: Readonly<Record<string, string>>): Promise<Reply> {
    return this.request({ op: 'object', file, data }, file);
  }

  /** Ends the worker (the run is done); idempotent. */
  close(): void {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    child.stdin.end(`${JSON.stringify({ op: 'exit' })}\n`);
    // An `exit` it does not get to (a template that never returns) is a kill.
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    timer.unref();
    child.once('exit', () => clearTimeout(timer));
    child.unref();
  }

  private request(body: Record<string, unknown>, during: string | undefined): Promise<Reply> {
    const child = this.child ?? this.start();
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        const seconds = this.options.limits.timeMs / 1000;
        this.fail(
          new RubyWorkerError(
            'V1_TIME_LIMIT',
            `rendering took longer than ${seconds} s (PANTOGRAPH_RUBY_TIME_LIMIT)`,
            during,
          ),
        );
      }, this.options.limits.timeMs);
      this.pending = { id, during, resolve, reject, timer };
      child.stdin.write(`${JSON.stringify({ ...body, id })}\n`);
    });
  }

  private start(): ChildProcessWithoutNullStreams {
    const { limits } = this.options;
    // node:child_process only when a V1 project is planned (see src/sync/child-process.ts).
    const child = childProcess().spawn(
      this.executable,
      [workerScript(), String(limits.outputBytes), String(limits.memoryBytes)],
      {
        env: { ...(this.options.env ?? process.env), RUBYOPT: '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    this.buffer = [];
    this.buffered = 0;
    this.stderr = '';
    child.stdout.on('data', (chunk: Buffer) => this.onData(child, chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.stdin.on('error', () => {}); // a worker that died is reported by 'exit'
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.rejectPending(
        e.code === 'ENOENT'
          ? new RubyNotFoundError(this.executable, this.options.repository)
          : new RubyWorkerError('V1_WORKER', `cannot start ${this.executable}: ${e.message}`),
      );
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      const why = signal ? `was killed (${signal})` : `exited with ${code}`;
      const said = this.stderr.trim();
      this.rejectPending(
        new RubyWorkerError(
          'V1_WORKER',
          `the Ruby worker ${why}${said ? `: ${said.split('\n').slice(-5).join('\n')}` : ''}`,
          this.pending?.during,
        ),
      );
    });
    return child;
  }

  private onData(child: ChildProcessWithoutNullStreams, chunk: Buffer): void {
    if (this.child !== child) return;
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
      this.buffer.push(chunk.subarray(start, i));
      const line = Buffer.concat(this.buffer).toString('utf8');
      this.buffer = [];
      this.buffered = 0;
      start = i + 1;
      this.onLine(line);
    }
    if (start < chunk.length) {
      this.buffer.push(chunk.subarray(start));
      this.buffered += chunk.length - start;
      // Base64 makes a file 4/3 larger; past that (and some room for JSON), it is too much.
      if (this.buffered > (this.options.limits.outputBytes * 4) / 3 + 65536) {
        this.fail(
          new RubyWorkerError(
            'V1_OUTPUT_LIMIT',
            `the output is larger than ${this.options.limits.outputBytes} bytes (PANTOGRAPH_RUBY_OUTPUT_LIMIT)`,
            this.pending?.during,
          ),
        );
      }
    }
  }

  private onLine(line: string): void {
    const pending = this.pending;
    if (!pending) return;
    let reply: Reply;
    try {
      reply = JSON.parse(line) as Reply;
    } catch {
      this.fail(
        new RubyWorkerError(
          'V1_WORKER',
          `the Ruby worker sent something else than JSON: ${line.slice(0, 200)}`,
        ),
      );
      return;
    }
    if (reply.id !== pending.id) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    pending.resolve(reply);
  }

  /** Kills the worker and fails the request in progress. */
  private fail(error: Error): void {
    const child = this.child;
    this.child = undefined;
    child?.kill('SIGKILL');
    this.rejectPending(error);
  }

  private rejectPending(error: Error): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    pending.reject(error);
  }
}
