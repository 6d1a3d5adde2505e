/**
 * Lifecycle hooks (DESIGN 6). A hook gets the template's state and returns the new state:
 * `{ template: {name, path, version}, settings, published, files_to_render, project: {name, is_new},
 * metadata }`, plus `file: {path, source}` before each file's render.
 *
 * - `hooks/<hook>.pp`: Puppet language, evaluated sandboxed by the EPP runtime (no file or network
 *   access) with `$state` bound; the value of the file is the new state. Always allowed.
 * - `hooks/<hook>.mjs`: a JavaScript module whose default export (may be async) maps state to state. Only
 *   for trusted sources. It runs in a worker thread (so it can be stopped at the time limit) and sees
 *   Integers as JavaScript numbers; a whole number it returns becomes an Integer, unless the value it
 *   replaces was a Float.
 *
 * What a hook may change: `settings` always; `published` up to `after_project_settings` (after which what
 * a template publishes is final); `files_to_render` only by removing entries, and not before a single
 * file's render. `template`, `project`, `metadata` and `file` are read-only. A hook running longer than
 * the time limit is an error: a `.pp` hook is stopped by the EPP runtime's time limit (iterating a huge
 * Integer range is the Puppet language's only unbounded loop) and measured; a `.mjs` one by its worker.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { EppError } from '../epp/errors.js';
import { evaluatePuppet, type LogSource, logLabel } from '../epp/index.js';
import { checkCopySize } from '../epp/runtime/text-size.js';
import { workerThreads } from '../shared/builtins.js';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { lineColumn } from '../shared/position.js';
import { type EngineErrorCode, problem } from './errors.js';
import { stackPosition, syntaxErrorPosition } from './hook-js-errors.js';
import type { Data, DataMap, HookFile, HookName, Position } from './model.js';
import type { Problem } from './render-plan.js';
import {
  cloneData,
  dataEquals,
  dataToValue,
  isDataMap,
  NotDataError,
  setOwn,
  valueToData,
} from './settings.js';

/** What one JavaScript hook run may print, reported as warnings: calls, and characters a call. */
const HOOK_OUTPUT_LINES = 20;
const HOOK_OUTPUT_CHARS = 2000;

/** The default time limit of one hook run. */
export const HOOK_TIME_LIMIT_MS = 5000;

export interface HookState {
  readonly template: { readonly name: string; readonly path: string; readonly version: string | null };
  readonly settings: DataMap;
  readonly published: DataMap;
  readonly files_to_render: readonly string[];
  readonly project: { readonly name: string; readonly is_new: boolean };
  readonly metadata: DataMap;
  /** Only for `before_file_render`. */
  readonly file?: { readonly path: string; readonly source: string };
}

export interface HookRunOptions {
  /** Milliseconds a hook may run; default {@link HOOK_TIME_LIMIT_MS}. */
  readonly timeLimitMs?: number | undefined;
}

export interface HookOutcome {
  /** The new state; the input state when the hook failed. */
  readonly state: HookState;
  /** Errors; empty when the hook succeeded. */
  readonly problems: readonly Problem[];
}

/** Hooks after which what a template publishes is final. */
const PUBLICATION_FINAL: ReadonlySet<HookName> = new Set(['after_file_resolution', 'before_file_render']);

/** Runs one hook and checks what it returned. Never throws for the hook's own faults: they are problems. */
export async function runHook(
  name: HookName,
  hook: HookFile,
  state: HookState,
  options: HookRunOptions = {},
): Promise<HookOutcome> {
  const limit = options.timeLimitMs ?? HOOK_TIME_LIMIT_MS;
  // What a Puppet hook's notice() or warning() says: warnings at its line, whether the hook fails or not.
  const logs: Problem[] = [];
  const fail = (code: EngineErrorCode, message: string, position?: Position, hint?: string): HookOutcome => ({
    state,
    problems: [
      ...logs,
      problem(
        'error',
        code,
        `hook ${name}${state.file ? ` (rendering '${state.file.path}')` : ''}: ${message}`,
        position ?? { file: hook.path, line: 1, column: 1 },
        hint,
      ),
    ],
  });
  // process.hrtime, not performance.now(): the `performance` global loads node:perf_hooks (~2 ms a run).
  const started = process.hrtime.bigint();
  let result: Data;
  try {
    result =
      hook.kind === 'pp'
        ? await runPuppetHook(hook, state, limit, logs)
        : await runJsHook(hook, state, limit, logs);
  } catch (e) {
    if (e instanceof HookTimeout) {
      const last = e.lastPrinted !== undefined ? `; the last it printed: ${e.lastPrinted}` : '';
      return fail('HOOK_TIMEOUT', `ran longer than ${limit / 1000} s${last}`);
    }
    if (e instanceof EppError && e.code === 'EPP_TIME_LIMIT') {
      return fail(
        'HOOK_TIMEOUT',
        `ran longer than ${limit / 1000} s`,
        e.location ? { file: hook.path, line: e.line!, column: e.column! } : undefined,
      );
    }
    if (e instanceof EppError) {
      const position = e.location ? { file: hook.path, line: e.line!, column: e.column! } : undefined;
      return fail('HOOK_FAILED', e.message, position, e.hint);
    }
    if (e instanceof HookScriptError) return fail('HOOK_FAILED', e.message, e.position);
    if (e instanceof HookExited) {
      return fail(
        'HOOK_FAILED',
        e.message,
        sourcePosition(hook.path, /\bprocess\.exit\b/),
        'a hook returns the new state; to stop with an error, throw one',
      );
    }
    if (e instanceof NotDataError)
      return fail('HOOK_INVALID_STATE', `returned no data at ${e.pointer}: ${e.message}`);
    return fail('HOOK_FAILED', e instanceof Error ? e.message : String(e));
  }
  // JavaScript hooks have their own timer (time spent queued does not count); Puppet ones are measured.
  if (hook.kind === 'pp' && Number(process.hrtime.bigint() - started) / 1e6 > limit)
    return fail('HOOK_TIMEOUT', `ran longer than ${limit / 1000} s`);
  const checked = checkState(name, state, result);
  if ('code' in checked) {
    const at = checked.key !== undefined ? keyPosition(hook.path, checked.key) : undefined;
    return fail(checked.code, checked.message, at, checked.hint);
  }
  return { state: checked, problems: logs };
}

interface Refusal {
  readonly code: EngineErrorCode;
  readonly message: string;
  readonly hint?: string;
  /** The state key at fault, looked up in the hook's source for a position. */
  readonly key?: string;
}

/** The keys of a state; anything else a hook returns would be dropped silently (a typo loses a change). */
const STATE_KEYS = ['template', 'settings', 'published', 'files_to_render', 'project', 'metadata', 'file'];

/**
 * Where the hook's source writes `key` as a hash or object key (`'key' =>`, `key:`), else undefined: the
 * value a hook returns carries no positions, but a key it added is almost always written literally.
 */
function keyPosition(path: string, key: string): Position | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return sourcePosition(path, new RegExp(`(?<![\\w$])(['"]?)${escaped}\\1\\s*(=>|:)`));
}

/** The position of the first match of `pattern` in the hook's source, if it matches. */
function sourcePosition(path: string, pattern: RegExp): Position | undefined {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const match = pattern.exec(source);
  if (!match) return undefined;
  return { file: path, ...lineColumn(source, match.index) };
}

/** The state a hook returned, checked against the one it got. */
function checkState(name: HookName, before: HookState, after: Data): HookState | Refusal {
  const invalid = (message: string): Refusal => ({ code: 'HOOK_INVALID_STATE', message });
  if (!isDataMap(after)) return invalid('must return the state hash');
  for (const key of Object.keys(after)) {
    if (STATE_KEYS.includes(key)) continue;
    const guess = didYouMeanHint(key, STATE_KEYS);
    return {
      code: 'HOOK_INVALID_STATE',
      message: `unknown key '${key}' in the state the hook returned${guess ? `; ${guess}` : ''}`,
      hint: `a state has only the keys ${STATE_KEYS.map((k) => `'${k}'`).join(', ')}: make the change under one of them`,
      key,
    };
  }
  for (const key of ['template', 'project', 'metadata', 'file'] as const) {
    const old = before[key] as Data | undefined;
    if (!dataEquals(old ?? null, after[key] ?? null)) {
      return { code: 'HOOK_CHANGED_READONLY', message: `changed '${key}', which is read-only` };
    }
  }
  const { settings, published, files_to_render: files } = after;
  if (!isDataMap(settings)) return invalid("returned a state whose 'settings' is not a hash");
  if (!isDataMap(published)) return invalid("returned a state whose 'published' is not a hash");
  if (PUBLICATION_FINAL.has(name) && !dataEquals(before.published, published)) {
    return {
      code: 'HOOK_CHANGED_READONLY',
      message: "changed 'published', which is final after after_project_settings",
    };
  }
  if (!Array.isArray(files) || !files.every((f): f is string => typeof f === 'string')) {
    return invalid("returned a state whose 'files_to_render' is not an array of strings");
  }
  const added = files.filter((f) => !before.files_to_render.includes(f));
  if (added.length > 0) {
    const list = added.map((f) => `'${f}'`).join(', ');
    return {
      code: 'HOOK_ADDED_FILES',
      message: `added files to render (${list}); hooks may only remove files`,
    };
  }
  if (name === 'before_file_render' && files.length !== before.files_to_render.length) {
    return {
      code: 'HOOK_CHANGED_READONLY',
      message: "changed 'files_to_render' before a file's render; remove files in after_file_resolution",
    };
  }
  return { ...before, settings, published, files_to_render: [...new Set(files)] };
}

/** The state as settings data (what hooks see). */
export function stateToData(state: HookState): DataMap {
  const out: DataMap = {};
  for (const [k, v] of Object.entries(state)) if (v !== undefined) setOwn(out, k, cloneData(v as Data));
  return out;
}

async function runPuppetHook(
  hook: HookFile,
  state: HookState,
  limit: number,
  logs: Problem[],
): Promise<Data> {
  const source = readFileSync(hook.path, 'utf8');
  // A Puppet hash, not a plain object: plain objects would turn whole Floats into Integers.
  const variables = new Map([['state', dataToValue(stateToData(state))]]);
  const onLog = (level: string, message: string, where: LogSource) => {
    if (!logLabel(level)) return;
    logs.push(
      problem('warning', 'EPP_LOG', `${level}(): ${message}`, {
        file: hook.path,
        line: where.line,
        column: 1,
      }),
    );
  };
  // The limit stops a hook iterating a huge range (EPP_TIME_LIMIT), which no measurement afterwards could.
  const value = evaluatePuppet(source, { file: hook.path, variables, timeLimitMs: limit, onLog });
  // A state that shares arrays or hashes is copied path by path: bounded before it is.
  checkCopySize(value, "the hook's state");
  return valueToData(value);
}

/** A JavaScript hook stopped at its time limit, with what it had printed (the clue to where it hung). */
class HookTimeout extends Error {
  constructor(readonly lastPrinted?: string) {
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
// progress, when no one listens, and posted when the next one starts).
const runs = new AsyncLocalStorage();
let inProgress = 0;
let held = [];
function postLate(run, entry) {
  const message = { late: { url: run.url, ...entry } };
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
function reply(run, message) {
  // Once: a result that cannot be posted (a function) throws here, and the failure is the reply.
  if (!run.done) inProgress--;
  run.done = true;
  parentPort.postMessage({ ...message, dropped: run.dropped });
}
parentPort.on('message', ({ url, state }) => {
  inProgress++;
  for (const message of held) parentPort.postMessage(message);
  held = [];
  const run = { url, printed: 0, dropped: 0, done: false, lateCalls: 0 };
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
type LatePrint = { readonly url: string } & (HookPrinted['output'][number] | { readonly more: true });

type WorkerReply = { dropped: number } & (
  | { ok: true; result: unknown }
  | { ok: false; message: string; stack?: string; syntax: boolean }
);

/** What the worker posts while a hook runs: a print, the count of prints left out, or the reply. */
type WorkerMessage =
  | { print: HookPrinted['output'][number] }
  | { late: LatePrint }
  | { dropped: number; ok?: undefined }
  | WorkerReply;

/** A JavaScript hook's own error, with where in the hook's file it happened when that is known. */
class HookScriptError extends Error {
  constructor(
    message: string,
    readonly position: Position | undefined,
  ) {
    super(message);
  }
}

/** A JavaScript hook that ended its worker (`process.exit()`), instead of returning the state. */
class HookExited extends Error {}

let hookWorker: Worker | undefined;
/** One JavaScript hook at a time: the worker answers one message at a time (plans may run concurrently). */
let hookQueue: Promise<unknown> = Promise.resolve();

function runJsHook(hook: HookFile, state: HookState, limit: number, logs: Problem[]): Promise<Data> {
  const run = hookQueue.then(() => callHookWorker(hook, state, limit, logs));
  hookQueue = run.catch(() => undefined);
  return run;
}

async function callHookWorker(
  hook: HookFile,
  state: HookState,
  limit: number,
  logs: Problem[],
): Promise<Data> {
  const input = stateToData(state);
  const url = `${pathToFileURL(hook.path).href}?mtime=${statSync(hook.path).mtimeMs}`;
  hookWorker ??= startHookWorker();
  const worker = hookWorker;
  worker.ref();
  let timer: NodeJS.Timeout | undefined;
  let reply: WorkerReply;
  // Posted as the hook prints: kept when it is stopped at the time limit.
  const printed: HookPrinted = { output: [], dropped: 0 };
  try {
    reply = await new Promise<WorkerReply>((resolve, reject) => {
      timer = setTimeout(() => {
        const last = printed.output.at(-1);
        logs.push(...printedWarnings(hook.path, printed, 'stopped'));
        reject(new HookTimeout(last && printed.dropped === 0 ? `${last.via}(): ${last.text}` : undefined));
      }, limit);
      worker.on('message', (message: WorkerMessage) => {
        if ('print' in message) printed.output.push(message.print);
        // An earlier hook's: reported at its own lines, never this one's.
        else if ('late' in message) logs.push(latePrintWarning(message.late));
        else if (message.ok === undefined) printed.dropped = message.dropped;
        else resolve(message);
      });
      worker.once('error', reject);
      // Without this, a hook calling process.exit() would be reported only at the time limit.
      worker.once('exit', (code) =>
        reject(new HookExited(`ended the worker it runs in (exit code ${code}), as process.exit() does`)),
      );
      worker.postMessage({ url, state: dataToJs(input) });
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
        { file: hookPath, line: 1, column: 1 },
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
