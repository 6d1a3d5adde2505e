/**
 * JavaScript hooks (`hooks/<hook>.mjs`, trusted sources only): run one at a time in a worker thread, so
 * that one that loops forever is stopped at its time limit. What a hook prints is captured in the worker
 * and reported as HOOK_OUTPUT warnings at the lines that printed it, never passed to the command's own
 * output; the state goes in as JavaScript values (Integers as numbers) and comes back as settings data.
 */

import { statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { workerThreads } from '../shared/builtins.js';
import { problem } from './errors.js';
import { stackPosition, syntaxErrorPosition } from './hook-js-errors.js';
import { type HookStoppedAt, whereHookStopped } from './hook-stopped-at.js';
import type { Data, DataMap, HookFile, Position } from './model.js';
import type { Problem } from './render-plan.js';
import { isDataMap, NotDataError, setOwn } from './settings.js';

/** What one JavaScript hook run may print, reported as warnings: calls, and characters a call. */
const HOOK_OUTPUT_LINES = 20;
const HOOK_OUTPUT_CHARS = 2000;

/** A JavaScript hook stopped at its time limit, with what it had printed (the clue to where it hung). */
export class HookTimeout extends Error {
  constructor(
    readonly lastPrinted?: string,
    /** Where a JavaScript hook was when stopped; undefined for a Puppet hook, or when not known. */
    readonly stoppedAt?: HookStoppedAt,
  ) {
    super('hook timeout');
  }
}

/**
 * JavaScript hooks run in a worker thread, so that one that loops forever can be stopped at the time
 * limit (the worker is terminated, and a new one started for the next hook). The worker imports the
 * module (the file's mtime in the URL, so an edited hook is loaded afresh) and calls its default export.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { AsyncLocalStorage } = require('node:async_hooks');
const { format } = require('node:util');
// What a hook prints is captured, not passed on: the command's standard output is its report (JSON, a
// render), and a worker's output reaches the terminal only after the command may have exited. Each print
// is posted at once, so that a hook stopped at its time limit has said what it printed; the run it belongs
// to is the async context it was printed in, so that a timer left by one hook is not reported as the
// next hook's output: what a run prints after its reply is posted as late (held while no run is in
// progress, when no one listens, and posted when the next one starts). Every late print and timer carries
// the plan (owner) whose hook made it: plans run concurrently (a server's), and each reports its own.
const runs = new AsyncLocalStorage();
let inProgress = 0;
let held = [];
function postLate(run, entry) {
  const message = { late: { url: run.url, owner: run.owner, ...entry } };
  if (inProgress > 0) parentPort.postMessage(message);
  else held.push(message);
}
function clip(text) {
  text = String(text).replace(/\\r?\\n$/, '');
  return text.length > ${HOOK_OUTPUT_CHARS} ? text.slice(0, ${HOOK_OUTPUT_CHARS}) + '...' : text;
}
function capture(via, text) {
  const run = runs.getStore();
  if (run === undefined) return; // printed outside any hook run: there is no hook to report it at
  if (run.done) {
    // Bounded as a run's own output is: the first calls, then one note of the rest.
    run.lateCalls++;
    if (run.lateCalls <= ${HOOK_OUTPUT_LINES}) postLate(run, { via, text: clip(text), stack: new Error().stack });
    else if (run.lateCalls === ${HOOK_OUTPUT_LINES} + 1) postLate(run, { more: true });
    return;
  }
  if (run.printed >= ${HOOK_OUTPUT_LINES}) {
    run.dropped++;
    // A hook looping on a print may never answer: powers of two keep the count in sight, cheaply.
    if ((run.dropped & (run.dropped - 1)) === 0) parentPort.postMessage({ dropped: run.dropped });
    return;
  }
  run.printed++;
  parentPort.postMessage({ print: { via, text: clip(text), stack: new Error().stack } });
}
for (const name of ['log', 'info', 'debug', 'warn', 'error', 'trace']) {
  console[name] = (...args) => capture('console.' + name, format(...args));
}
for (const name of ['stdout', 'stderr']) {
  process[name].write = (chunk, encoding, done) => {
    capture('process.' + name + '.write', typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    (typeof encoding === 'function' ? encoding : done)?.();
    return true;
  };
}
// Timers a hook started and left running, by the run that started them (the stack: where): said when a
// command's hooks are done (flush), since what they print after that is seen by no one.
const pendingTimers = new Map();
const untrackedImmediate = setImmediate;
const timers = require('node:timers');
function trackTimers(start, clear) {
  const startTimer = timers[start];
  const clearTimer = timers[clear];
  const tracked = function (callback, ...rest) {
    const run = runs.getStore();
    if (run === undefined || typeof callback !== 'function') return startTimer(callback, ...rest);
    const handle = startTimer(function (...args) {
      if (start !== 'setInterval') pendingTimers.delete(handle);
      return callback.apply(this, args);
    }, ...rest);
    pendingTimers.set(handle, { url: run.url, owner: run.owner, via: start, stack: new Error().stack });
    return handle;
  };
  const untracked = function (handle) {
    pendingTimers.delete(handle);
    return clearTimer(handle);
  };
  timers[start] = globalThis[start] = tracked;
  timers[clear] = globalThis[clear] = untracked;
}
trackTimers('setTimeout', 'clearTimeout');
trackTimers('setInterval', 'clearInterval');
trackTimers('setImmediate', 'clearImmediate');
require('node:module').syncBuiltinESMExports(); // \`import { setTimeout } from 'node:timers'\` too
function flush(owner) {
  for (const message of held) parentPort.postMessage(message);
  held = [];
  const left = [];
  for (const [handle, timer] of pendingTimers) {
    if (timer.owner !== owner) continue; // another plan's, still running
    left.push(timer);
    pendingTimers.delete(handle); // said once: a later print from it is late output
  }
  parentPort.postMessage({ flushed: left.slice(0, ${HOOK_OUTPUT_LINES}), more: Math.max(0, left.length - ${HOOK_OUTPUT_LINES}) });
}
function reply(run, message) {
  // Once: a result that cannot be posted (a function) throws here, and the failure is the reply.
  if (!run.done) inProgress--;
  run.done = true;
  parentPort.postMessage({ ...message, dropped: run.dropped });
}
parentPort.on('message', ({ url, state, owner, flush: flushing }) => {
  // After the immediates a hook queued before returning: the port hands over every message it holds in
  // one go, so a flush posted at once (a busy machine) came before them and called them pending.
  if (flushing) return untrackedImmediate(() => flush(owner));
  inProgress++;
  for (const message of held) parentPort.postMessage(message);
  held = [];
  const run = { url, owner, printed: 0, dropped: 0, done: false, lateCalls: 0 };
  runs.run(run, async () => {
    try {
      const mod = await import(url);
      if (typeof mod.default !== 'function') throw new Error('the module has no default export function');
      const result = await mod.default(state);
      reply(run, { ok: true, result });
    } catch (e) {
      reply(run, {
        ok: false,
        message: e instanceof Error ? e.message : String(e),
        stack: e instanceof Error ? e.stack : undefined,
        syntax: e instanceof SyntaxError,
      });
    }
  });
});
`;

/** What a JavaScript hook printed in one run: each call, up to a limit, and how many calls were left out. */
interface HookPrinted {
  output: { via: string; text: string; stack?: string }[];
  dropped: number;
}

/**
 * One print of an earlier run (the hook at `url`) after it had returned, from a timer or the like; `more`
 * when it printed more than {@link HOOK_OUTPUT_LINES} times so (said once).
 */
type LatePrint = { readonly url: string; readonly owner: number } & (
  | HookPrinted['output'][number]
  | { readonly more: true }
);

type WorkerReply = { dropped: number } & (
  | { ok: true; result: unknown }
  | { ok: false; message: string; stack?: string; syntax: boolean }
);

/** A timer a hook started and left running: where it was started (`via` being `setTimeout` and the like). */
interface PendingTimer {
  readonly url: string;
  readonly via: string;
  readonly stack?: string;
}

/** What the worker posts while a hook runs: a print, the count of prints left out, or the reply. */
type WorkerMessage =
  | { print: HookPrinted['output'][number] }
  | { late: LatePrint }
  | { flushed: PendingTimer[]; more: number }
  | { dropped: number; ok?: undefined }
  | WorkerReply;

/** A JavaScript hook's own error, with where in the hook's file it happened when that is known. */
export class HookScriptError extends Error {
  constructor(
    message: string,
    readonly position: Position | undefined,
  ) {
    super(message);
  }
}

/** A JavaScript hook that ended its worker (`process.exit()`), instead of returning the state. */
export class HookExited extends Error {}

let hookWorker: Worker | undefined;
/** One JavaScript hook at a time: the worker answers one message at a time (plans may run concurrently). */
let hookQueue: Promise<unknown> = Promise.resolve();

/**
 * The plans whose hooks may still print late, by owner ({@link newHookOwner}), with what they printed
 * after returning while another plan's hook ran: reported by their own plan ({@link lateHookOutput}).
 */
const lateByOwner = new Map<number, Problem[]>();
let lastOwner = 0;

/**
 * A new owner of JavaScript hook runs: one plan. What its hooks print after returning, and the timers
 * they leave, are its own, never another plan's that runs at the same time; {@link lateHookOutput}
 * reports them and ends it.
 */
export function newHookOwner(): number {
  lastOwner++;
  lateByOwner.set(lastOwner, []);
  return lastOwner;
}

/** A late print, to the plan whose hook made it (dropped when that plan has ended: no one would see it). */
function routeLate(late: LatePrint, owner: number | undefined, logs: Problem[]): void {
  if (late.owner === owner) logs.push(latePrintWarning(late));
  else lateByOwner.get(late.owner)?.push(latePrintWarning(late));
}

/**
 * Runs the hook's default export on `input` (the state as data) in the worker, after any hook queued
 * before it; what it printed is pushed to `logs`. Throws {@link HookTimeout}, {@link HookScriptError},
 * {@link HookExited}, or NotDataError for a result that is no data.
 */
export function runJsHook(
  hook: HookFile,
  input: DataMap,
  limit: number,
  logs: Problem[],
  /** The plan it runs for ({@link newHookOwner}); without one, a run on its own. */
  owner?: number,
): Promise<Data> {
  const run = hookQueue.then(() => callHookWorker(hook, input, limit, logs, owner));
  hookQueue = run.catch(() => undefined);
  return run;
}

async function callHookWorker(
  hook: HookFile,
  input: DataMap,
  limit: number,
  logs: Problem[],
  owner: number | undefined,
): Promise<Data> {
  const url = `${pathToFileURL(hook.path).href}?mtime=${statSync(hook.path).mtimeMs}`;
  hookWorker ??= startHookWorker();
  const worker = hookWorker;
  worker.ref();
  let timer: NodeJS.Timeout | undefined;
  let reply: WorkerReply;
  // Posted as the hook prints: kept when it is stopped at the time limit.
  const printed: HookPrinted = { output: [], dropped: 0 };
  let replied = false;
  try {
    reply = await new Promise<WorkerReply>((resolve, reject) => {
      timer = setTimeout(() => {
        // Where it was, before the worker is terminated (a reply meanwhile wins: it did return).
        void whereHookStopped(worker).then((stoppedAt) => {
          const last = printed.output.at(-1);
          if (!replied) logs.push(...printedWarnings(hook.path, printed, 'stopped'));
          reject(
            new HookTimeout(
              last && printed.dropped === 0 ? `${last.via}(): ${last.text}` : undefined,
              stoppedAt,
            ),
          );
        });
      }, limit);
      worker.on('message', (message: WorkerMessage) => {
        if ('print' in message) printed.output.push(message.print);
        // An earlier hook's: reported at its own lines, never this one's, by the plan that ran it.
        else if ('late' in message) routeLate(message.late, owner, logs);
        else if ('flushed' in message)
          return; // answers a flush only, never a run
        else if (message.ok === undefined) printed.dropped = message.dropped;
        else {
          replied = true;
          resolve(message);
        }
      });
      worker.once('error', reject);
      // Without this, a hook calling process.exit() would be reported only at the time limit.
      worker.once('exit', (code) =>
        reject(new HookExited(`ended the worker it runs in (exit code ${code}), as process.exit() does`)),
      );
      worker.postMessage({ url, owner, state: dataToJs(input) });
    });
  } catch (e) {
    // A timed-out or broken worker is not reused.
    hookWorker = undefined;
    void worker.terminate();
    throw e;
  } finally {
    clearTimeout(timer);
    worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
    worker.unref();
  }
  logs.push(...printedWarnings(hook.path, { output: printed.output, dropped: reply.dropped }));
  if (!reply.ok) {
    const position = reply.syntax ? syntaxErrorPosition(hook.path) : stackPosition(hook.path, reply.stack);
    throw new HookScriptError(reply.message, position);
  }
  return jsToData(reply.result, input, '');
}

/**
 * What the JavaScript hooks `owner`'s plan ran said after they had returned, and the timers they left
 * running: called when its hooks are done, since no next hook's run would report them (a print from a
 * timer the hook did not await, once the last hook had returned, was seen by no one). Ends `owner`.
 * Empty when no JavaScript hook ran.
 */
export function lateHookOutput(owner?: number): Promise<Problem[]> {
  const run = hookQueue.then(() => flushHookWorker(owner));
  hookQueue = run.catch(() => undefined);
  return run;
}

async function flushHookWorker(owner: number | undefined): Promise<Problem[]> {
  const out: Problem[] = owner !== undefined ? (lateByOwner.get(owner) ?? []) : [];
  try {
    const worker = hookWorker;
    if (worker !== undefined) await flushWorker(worker, owner, out);
  } finally {
    if (owner !== undefined) lateByOwner.delete(owner);
  }
  return out;
}

/** Asks the worker for `owner`'s timers still pending and whatever late prints it holds. */
async function flushWorker(worker: Worker, owner: number | undefined, out: Problem[]): Promise<void> {
  worker.ref();
  try {
    await new Promise<void>((resolve) => {
      worker.on('message', (message: WorkerMessage) => {
        if ('late' in message) routeLate(message.late, owner, out);
        else if ('flushed' in message) {
          out.push(...pendingTimerWarnings(message.flushed, message.more));
          resolve();
        }
      });
      // A worker that has ended has nothing more to say.
      worker.once('error', () => resolve());
      worker.once('exit', () => resolve());
      worker.postMessage({ flush: true, owner });
    });
  } finally {
    worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
    worker.unref();
  }
}

/** Timers left running when the hooks were done: warnings where each was started. */
function pendingTimerWarnings(timers: readonly PendingTimer[], more: number): Problem[] {
  const hint =
    "a hook's work ends when it returns: await the timer (node:timers/promises) or clear it before returning the state";
  const warnings = timers.map(({ url, via, stack }) => {
    const hookPath = fileURLToPath(url);
    return problem(
      'warning',
      'HOOK_PENDING_TIMER',
      `${via}() still pending when the hooks were done: the command ends without it, and what it prints is not seen`,
      stackPosition(hookPath, stack) ?? { file: hookPath, line: 1, column: 1 },
      hint,
    );
  });
  if (more > 0 && timers[0] !== undefined) {
    const message = `and ${more} more timer${more === 1 ? '' : 's'} still pending, not shown (the first ${HOOK_OUTPUT_LINES} are)`;
    warnings.push(
      problem(
        'warning',
        'HOOK_PENDING_TIMER',
        message,
        { file: fileURLToPath(timers[0].url), line: 1, column: 1 },
        hint,
      ),
    );
  }
  return warnings;
}

function startHookWorker(): Worker {
  // Not piped to this process's own streams: the worker captures what the hook prints.
  return new (workerThreads().Worker)(WORKER_SOURCE, { eval: true, stdout: true, stderr: true });
}

/** When a hook printed: while it ran, or before it was stopped at its time limit. */
type PrintedWhen = 'running' | 'stopped';

/**
 * What a JavaScript hook printed, as warnings at the lines that printed it (`HOOK_OUTPUT`), as a Puppet
 * hook's notice() is a warning at its line: seen by validate, status and apply, never mixed into output.
 */
function printedWarnings(hookPath: string, printed: HookPrinted, when: PrintedWhen = 'running'): Problem[] {
  const warnings = printed.output.map(({ via, text, stack }) =>
    problem(
      'warning',
      'HOOK_OUTPUT',
      `${via}(): ${text}`,
      stackPosition(hookPath, stack) ?? { file: hookPath, line: 1, column: 1 },
    ),
  );
  if (printed.dropped > 0) {
    // A stopped hook's count is what the worker had posted when it was stopped: a lower bound.
    const count = `${when === 'stopped' ? 'at least ' : ''}${printed.dropped} more call${printed.dropped === 1 ? '' : 's'}`;
    warnings.push(
      problem(
        'warning',
        'HOOK_OUTPUT',
        `and ${count} that printed, not shown (the first ${HOOK_OUTPUT_LINES} are)`,
        // Where the last shown one printed: a loop that prints is usually the rest of them too.
        stackPosition(hookPath, printed.output.at(-1)?.stack) ?? { file: hookPath, line: 1, column: 1 },
        'a hook reports through its return value or a thrown error; print only while debugging it',
      ),
    );
  }
  return warnings;
}

/** A print of an earlier hook after it had returned: a warning at that hook's own line, never this one's. */
function latePrintWarning(late: LatePrint): Problem {
  const hookPath = fileURLToPath(late.url); // its ?mtime= query is no part of the path
  const hint =
    'it printed from a timer or a promise the hook did not await: await it before returning the state';
  if ('more' in late) {
    const message = `and more calls that printed after the hook had returned, not shown (the first ${HOOK_OUTPUT_LINES} are)`;
    return problem('warning', 'HOOK_OUTPUT', message, { file: hookPath, line: 1, column: 1 }, hint);
  }
  return problem(
    'warning',
    'HOOK_OUTPUT',
    `${late.via}(), after the hook had returned: ${late.text}`,
    stackPosition(hookPath, late.stack) ?? { file: hookPath, line: 1, column: 1 },
    hint,
  );
}

/** Settings data as JavaScript hooks see it: Integers as numbers when they fit. */
function dataToJs(data: Data): unknown {
  if (typeof data === 'bigint') {
    return data <= BigInt(Number.MAX_SAFE_INTEGER) && data >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(data)
      : data;
  }
  if (Array.isArray(data)) return data.map(dataToJs);
  if (isDataMap(data)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(data)) setOwn(out, k, dataToJs(v));
    return out;
  }
  return data;
}

/** What a JavaScript hook returned, as data; `old` (the value it replaces) keeps Floats Floats. */
function jsToData(js: unknown, old: Data | undefined, pointer: string): Data {
  if (js === null || js === undefined) return null;
  switch (typeof js) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return js;
    case 'number':
      return Number.isInteger(js) && typeof old !== 'number' ? BigInt(js) : js;
    case 'object': {
      if (Array.isArray(js))
        return js.map((v, i) => jsToData(v, Array.isArray(old) ? old[i] : undefined, `${pointer}/${i}`));
      const proto = Object.getPrototypeOf(js) as unknown;
      if (proto !== Object.prototype && proto !== null) {
        throw new NotDataError(
          `a ${(js as object).constructor?.name ?? 'object'} is not data`,
          pointer || '/',
        );
      }
      const out: DataMap = {};
      for (const [k, v] of Object.entries(js)) {
        setOwn(out, k, jsToData(v, isDataMap(old) ? old[k] : undefined, `${pointer}/${k}`));
      }
      return out;
    }
    default:
      throw new NotDataError(`a ${typeof js} is not data`, pointer || '/');
  }
}
