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
import { readFileSync } from 'node:fs';
import { EppError } from '../epp/errors.js';
import { evaluatePuppet, type LogSource, logLabel } from '../epp/index.js';
import { checkCopySize } from '../epp/runtime/text-size.js';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { type EngineErrorCode, problem } from './errors.js';
import { hookKeyPosition, hookSourcePosition } from './hook-source.js';
import { HookExited, HookScriptError, HookTimeout, runJsHook } from './js-hooks.js';
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
  /** The plan a JavaScript hook runs for (`newHookOwner()`): what it prints late is that plan's. */
  readonly owner?: number | undefined;
}

export interface HookOutcome {
  /** The new state; the input state when the hook failed. */
  readonly state: HookState;
  /** Errors; empty when the hook succeeded. */
  readonly problems: readonly Problem[];
}

/** A problem's place when no line of the file is at fault. */
interface FileOnly {
  readonly file: string;
  readonly line?: undefined;
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
  // A position with no line (`{ file }`): the hook as a whole, said plainly rather than at a made-up line 1.
  const fail = (
    code: EngineErrorCode,
    message: string,
    position?: Position | FileOnly,
    hint?: string,
  ): HookOutcome => {
    const at = position ?? { file: hook.path, line: 1, column: 1 };
    const text = `hook ${name}${state.file ? ` (rendering '${state.file.path}')` : ''}: ${message}`;
    const error =
      at.line === undefined
        ? { ...problem('error', code, text, undefined, hint), file: at.file }
        : problem('error', code, text, at, hint);
    return { state, problems: [...logs, error] };
  };
  const timedOut = (e: HookTimeout): HookOutcome => {
    const last = e.lastPrinted !== undefined ? `; the last it printed: ${e.lastPrinted}` : '';
    const ran = `ran longer than ${limit / 1000} s`;
    const where = e.stoppedAt;
    if (where?.kind === 'running') {
      const fn = where.functionName && where.functionName !== 'default' ? ` in ${where.functionName}()` : '';
      return fail(
        'HOOK_TIMEOUT',
        `${ran}, stopped here${fn}${last}`,
        where.position,
        'a loop that never ends is the usual cause: check its exit condition',
      );
    }
    if (where?.kind === 'waiting') {
      return fail(
        'HOOK_TIMEOUT',
        `${ran}, waiting for a promise that never settled${last}`,
        hookSourcePosition(hook.path, /\bexport\s+default\b/) ?? { file: hook.path },
        'everything the hook awaits must settle: a Promise whose resolve is never called, a request or a child process that never ends',
      );
    }
    return fail('HOOK_TIMEOUT', `${ran} (where it was is not known)${last}`, { file: hook.path });
  };
  // process.hrtime, not performance.now(): the `performance` global loads node:perf_hooks (~2 ms a run).
  const started = process.hrtime.bigint();
  let result: Data;
  try {
    result =
      hook.kind === 'pp'
        ? await runPuppetHook(hook, state, limit, logs)
        : await runJsHook(hook, stateToData(state), limit, logs, options.owner);
  } catch (e) {
    if (e instanceof HookTimeout) return timedOut(e);
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
        hookSourcePosition(hook.path, /\bprocess\.exit\b/),
        'a hook returns the new state; to stop with an error, throw one',
      );
    }
    if (e instanceof NotDataError)
      return fail('HOOK_INVALID_STATE', `returned no data at ${e.pointer}: ${e.message}`);
    return fail('HOOK_FAILED', e instanceof Error ? e.message : String(e));
  }
  // JavaScript hooks have their own timer (time spent queued does not count); Puppet ones are measured.
  // Measured once it returned: no one line is at fault, so the error is at the file.
  if (hook.kind === 'pp' && Number(process.hrtime.bigint() - started) / 1e6 > limit)
    return fail('HOOK_TIMEOUT', `ran longer than ${limit / 1000} s (measured when it returned)`, {
      file: hook.path,
    });
  const checked = checkState(name, state, result);
  if ('code' in checked) {
    const at =
      checked.key !== undefined
        ? hookKeyPosition(hook.path, checked.key)
        : checked.export && hook.kind === 'mjs'
          ? hookSourcePosition(hook.path, /\bexport\s+default\b/)
          : undefined;
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
  /** The fault is the hook's whole value: placed at a JavaScript hook's `export default`. */
  readonly export?: boolean;
}

/** A value in words, for a message: `nothing`, `a string`, `an array`. */
function describeData(value: Data): string {
  if (value === null) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value === 'bigint' ? 'integer' : typeof value;
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** The keys of a state; anything else a hook returns would be dropped silently (a typo loses a change). */
const STATE_KEYS = ['template', 'settings', 'published', 'files_to_render', 'project', 'metadata', 'file'];

/** The state a hook returned, checked against the one it got. */
function checkState(name: HookName, before: HookState, after: Data): HookState | Refusal {
  const invalid = (message: string): Refusal => ({ code: 'HOOK_INVALID_STATE', message });
  if (!isDataMap(after)) {
    // Forgetting to return it (changing the state in place) is the usual way: say what came back.
    return {
      code: 'HOOK_INVALID_STATE',
      message: `must return the state hash, returned ${describeData(after)}`,
      hint: 'return the state, changed: `return { ...state, settings: { ...state.settings, x: 1 } }` (a .pp hook: its last expression, `$state + {...}`)',
      export: true,
    };
  }
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
