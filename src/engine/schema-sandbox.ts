/**
 * Settings checked against an untrusted template's JSON Schema, under the time and memory limits its
 * rendering has (security review 20, finding 4). A schema's `pattern` is a regular expression, and one
 * that backtracks (`^(a+)+$` on sixty `a`s and a `!`) runs for ever: in the main thread no limit could
 * stop it. Here ajv runs in a worker; the main thread waits for it (`Atomics.wait`, so that validation
 * stays synchronous for its callers) at most the time limit, then terminates it and names the pattern
 * that was running. One worker serves the process, started on first use (~0.1 s, ajv included) and
 * replaced after a limit was hit; trusted templates never start it.
 *
 * A worker that dies of its heap limit (a schema whose compiled form is huge) cannot say so, and a thread
 * blocked in `Atomics.wait` gets no events: it was found only at the time limit, and reported as one. So
 * the worker is started by a small monitor thread, whose event loop is free: it notes how the worker
 * ended in the shared state and wakes the waiting thread, at once.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { MessagePort, Worker } from 'node:worker_threads';
import { packagePath } from '../package-root.js';
import { workerThreads } from '../shared/builtins.js';
import type { SchemaDraft, SchemaViolation } from './json-schema.js';
import type { PositionLookup } from './model.js';
import type { Problem } from './render-plan.js';
import { type SandboxLimits, sandboxLimits } from './sandbox.js';
import { type SchemaPattern, schemaPatterns } from './schema-patterns.js';

/**
 * Indexes into the shared state: whether the reply is there, which pattern runs (1-based, 0 none), and
 * whether the worker has started (its start does not count against the time limit of a validation).
 */
export const DONE = 0;
export const RUNNING = 1;
export const READY = 2;
/** How the worker ended, noted by its monitor: 0 running, {@link OUT_OF_MEMORY}, or {@link DIED}. */
export const ENDED = 3;
const OUT_OF_MEMORY = 1;
const DIED = 2;

/**
 * The monitor: starts the worker (the script, options and shared state it is given) and, when the worker
 * ends, notes how in `ENDED` and wakes whoever waits for it to start or to answer. Terminating the monitor
 * terminates the worker.
 */
const MONITOR_SOURCE = `
const { Worker, workerData } = require('node:worker_threads');
const { script, options, state } = workerData;
const worker = new Worker(script, { ...options, transferList: [options.workerData.port] });
const ended = (how) => {
  if (Atomics.load(state, ${ENDED}) !== 0) return;
  Atomics.store(state, ${ENDED}, how);
  for (const index of [${READY}, ${DONE}]) {
    Atomics.store(state, index, 1);
    Atomics.notify(state, index);
  }
};
worker.on('error', (e) => ended(e && e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? ${OUT_OF_MEMORY} : ${DIED}));
worker.on('exit', () => ended(${DIED}));
`;

/** How long a worker may take to start (loading its bundle and ajv) on a busy machine. */
const STARTUP_MS = 60_000;

export interface ValidationJob {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly draft: SchemaDraft;
  /** The sources of the schema's regular expressions, in the order of `schemaPatterns`. */
  readonly patterns: readonly string[];
  readonly data: unknown;
}

export type ValidationReply = { readonly violations: SchemaViolation[] } | { readonly failure: string };

/**
 * A validation stopped at a limit: the time limit (`pattern` is the regular expression that was running,
 * if one was) or the memory limit (the worker died of its heap limit: compiling the schema, mostly).
 */
export class SchemaLimitError extends Error {
  constructor(
    readonly code: 'EPP_TIME_LIMIT' | 'EPP_MEMORY_LIMIT',
    readonly pattern: SchemaPattern | undefined,
    message: string,
  ) {
    super(message);
  }
}

interface Validator {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly state: Int32Array;
  /** Set when the worker died or was stopped: the next validation starts another. */
  failed?: Error;
}

let current: { validator: Validator; memoryMb: number } | undefined;

/** The violations of `data` against `schema`, found within `limits`; a SchemaLimitError past them. */
export function validateWithinLimits(
  schema: Readonly<Record<string, unknown>>,
  draft: SchemaDraft,
  data: unknown,
  limits: SandboxLimits,
): SchemaViolation[] {
  const patterns = schemaPatterns(schema);
  const v = validator(limits.memoryMb);
  if (Atomics.wait(v.state, READY, 0, STARTUP_MS) === 'timed-out') {
    stop(v);
    throw new Error('the worker that checks untrusted schemas did not start');
  }
  Atomics.store(v.state, DONE, 0);
  Atomics.store(v.state, RUNNING, 0);
  // Ended before the job (while starting, or after the last one): its monitor set DONE, reset above.
  if (Atomics.load(v.state, ENDED) === 0) {
    const job: ValidationJob = { schema, draft, patterns: patterns.map((p) => p.pattern), data };
    v.port.postMessage(job);
    Atomics.wait(v.state, DONE, 0, limits.timeMs);
  }
  const reply = workerThreads().receiveMessageOnPort(v.port)?.message as ValidationReply | undefined;
  if (reply === undefined) {
    const running = patterns[Atomics.load(v.state, RUNNING) - 1];
    const ended = Atomics.load(v.state, ENDED);
    stop(v);
    throw limitError(ended, running, limits);
  }
  if ('failure' in reply) throw new Error(`validating against the schema failed: ${reply.failure}`);
  return reply.violations;
}

/** Why no reply came: how the worker ended (its monitor's note in `ENDED`), else it ran out of time. */
export function limitError(ended: number, running: SchemaPattern | undefined, limits: SandboxLimits): Error {
  if (ended === OUT_OF_MEMORY) {
    return new SchemaLimitError(
      'EPP_MEMORY_LIMIT',
      undefined,
      `used more than ${limits.memoryMb} MB of memory (the limit of untrusted templates)`,
    );
  }
  if (ended === DIED) return new Error('the worker that checks untrusted schemas stopped');
  return new SchemaLimitError(
    'EPP_TIME_LIMIT',
    running,
    `ran longer than ${limits.timeMs / 1000} s (the time limit of untrusted templates)`,
  );
}

function validator(memoryMb: number): Validator {
  const old = current?.validator;
  // A worker that ended while idle (its monitor's note) is replaced too.
  if (old && current?.memoryMb === memoryMb && !old.failed && Atomics.load(old.state, ENDED) === 0) {
    return current.validator;
  }
  if (current) stop(current.validator);
  const threads = workerThreads();
  // The bundle the build makes (one file to load), else tsc's module (a build without the bundling step).
  const bundled = packagePath('dist', 'engine', 'schema-sandbox-worker.cjs');
  const script = existsSync(bundled) ? bundled : packagePath('dist', 'engine', 'schema-sandbox-worker.js');
  const { port1, port2 } = new threads.MessageChannel();
  const state = new Int32Array(new SharedArrayBuffer(16));
  const options = {
    workerData: { port: port2, state },
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32 },
    stdout: true,
    stderr: true,
  };
  // `worker` is the monitor (the worker is its child): stopping it stops both.
  const worker = new threads.Worker(MONITOR_SOURCE, {
    eval: true,
    workerData: { script, options, state },
    transferList: [port2],
    stdout: true,
    stderr: true,
  });
  const v: Validator = { worker, port: port1, state };
  worker.on('error', (e) => {
    v.failed = e;
  });
  worker.on('exit', () => {
    v.failed ??= new Error('the schema worker stopped');
  });
  worker.unref(); // an idle validator never keeps the command running
  port1.unref();
  current = { validator: v, memoryMb };
  return v;
}

function stop(v: Validator): void {
  v.failed ??= new Error('stopped');
  void v.worker.terminate();
  v.port.close();
  if (current?.validator === v) current = undefined;
}

/** The limits a schema is checked under: none for a trusted source's, else `given` or the environment's. */
export function schemaLimits(trusted: boolean, given?: SandboxLimits): SandboxLimits | undefined {
  return trusted ? undefined : (given ?? sandboxLimits(process.env));
}

/**
 * A validation stopped at a limit as the problem of template `name`: at the pattern that was running
 * (`prefix`: where the schema is in its file, for one inside template.json), else the schema.
 */
export function schemaLimitProblem(
  name: string,
  e: SchemaLimitError,
  file: string,
  positions: PositionLookup | undefined,
  prefix = '',
): Problem {
  const pointer = e.pattern ? prefix + e.pattern.pointer : prefix;
  const at =
    positions === undefined
      ? { file, line: 1, column: 1 }
      : e.pattern?.isKey
        ? positions.keyPositionOf(pointer)
        : positions.positionOf(pointer);
  const culprit =
    e.code === 'EPP_MEMORY_LIMIT'
      ? 'so is its memory (PANTOGRAPH_UNTRUSTED_MEMORY_LIMIT MB); a schema that is very large or deeply nested (its compiled form grows with every level) is the usual cause'
      : e.pattern
        ? `its pattern ${JSON.stringify(e.pattern.pattern)} was still matching when the time ran out (nested repetition such as (a+)+ can backtrack for ever)`
        : 'a pattern that backtracks for ever, or nested anyOf/oneOf, is the usual cause';
  return {
    severity: 'error',
    code: e.code,
    message: `template '${name}' (${basename(file)}): checking the settings ${e.message}`,
    file: at.file,
    line: at.line,
    column: at.column,
    hint: `its source is not trusted, so its schema is checked under the time limit (PANTOGRAPH_UNTRUSTED_TIME_LIMIT seconds); ${culprit}`,
  };
}
