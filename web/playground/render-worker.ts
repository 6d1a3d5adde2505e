/**
 * The playground's renders, off the page's main thread (QA qa21, M1): a template that does not end (nested
 * ranges, a regular expression that backtracks) must not freeze the tab. Renders here run with the
 * engine's time limit (`EPP_TIME_LIMIT`); what the limit cannot stop (a regular expression runs in one
 * call) the page stops by terminating this worker. Bundled by scripts/build-playground.mjs into the
 * page's script as text, started from a Blob (a worker file would not load from file://).
 */
import { EppError, EppSyntaxError, type EppWarning, renderEpp } from '../../src/epp/index.js';
import type { PHash } from '../../src/epp/runtime/values.js';
import { readValues } from './values.js';

export const MAIN = 'main.epp';

export type WorkerRequest =
  | { id: number; kind: 'render'; texts: Record<string, string>; valuesText: string; strict: boolean; timeLimitMs: number }
  | { id: number; kind: 'time'; texts: Record<string, string>; valuesText: string; strict: boolean; times: number };

/** An error as `epp render` prints it (`file:line:col: message [CODE]`), with what the page needs to word its hint. */
export interface Problem {
  text: string;
  code: string;
  message: string;
  /** The engine's hint, in the command line's words (the page words it for itself). */
  hint?: string;
}

export interface Mark {
  file: string;
  from: number;
  to: number;
  message: string;
}

export interface WorkerAnswer {
  id: number;
  output: string;
  errors: Problem[];
  warnings: string[];
  renderMs: number;
  marks: Mark[];
  valueMark?: { offset: number; message: string };
  /** For `time`: the mean milliseconds per render. */
  meanMs?: number;
}

function render(request: Extract<WorkerRequest, { kind: 'render' }>): WorkerAnswer {
  const answer: WorkerAnswer = { id: request.id, output: '', errors: [], warnings: [], renderMs: 0, marks: [] };
  const read = readValues(request.valuesText);
  if ('problem' in read) {
    const { message, code, hint } = read.problem;
    answer.errors.push({ text: message, code, message, ...(hint === undefined ? {} : { hint }) });
    answer.valueMark = { offset: read.problem.offset, message: read.problem.message };
    return answer;
  }
  const onWarning = (w: EppWarning) => answer.warnings.push(`${w.where}: ${w.message} [${w.code}]`);
  const started = performance.now();
  try {
    answer.output = renderEpp(request.texts[MAIN] ?? '', read.values, {
      file: MAIN,
      files: request.texts,
      onWarning,
      // As `epp render --no-strict` when the page's Strict variables is unticked.
      strict: request.strict,
      timeLimitMs: request.timeLimitMs,
    });
  } catch (e) {
    if (!(e instanceof EppError)) throw e;
    // Several errors of a template's validation: each shown and marked, as `epp render` prints each.
    const all = e instanceof EppSyntaxError && e.errors ? e.errors : [e];
    for (const each of all) reportError(answer, each);
  }
  answer.renderMs = performance.now() - started;
  return answer;
}

function reportError(answer: WorkerAnswer, e: EppError): void {
  // As `epp render` says it: an error in a partial names the calls that led there (QA qa21, L2).
  const where = e.location ? `${e.where}: ` : '';
  const text = `${where}${e.messageWithCallers} [${e.code}]`;
  answer.errors.push({ text, code: e.code, message: e.message, ...(e.hint === undefined ? {} : { hint: e.hint }) });
  if (e.location) {
    const { start, end } = e.location.span;
    answer.marks.push({ file: e.location.file, from: start, to: Math.max(end, start + 1), message: `${e.messageWithCallers} [${e.code}]` });
  }
  // Each call on the way is underlined too, in its own file: with main.epp open, the error shows there.
  for (const call of e.callers ?? []) {
    const { start, end } = call.span;
    answer.marks.push({ file: call.file, from: start, to: Math.max(end, start + 1), message: `this call leads to an error: ${text}` });
  }
}

function time(request: Extract<WorkerRequest, { kind: 'time' }>): WorkerAnswer {
  const read = readValues(request.valuesText);
  const values: PHash = 'values' in read ? read.values : new Map();
  const started = performance.now();
  for (let i = 0; i < request.times; i++) renderEpp(request.texts[MAIN] ?? '', values, { file: MAIN, files: request.texts, strict: request.strict });
  const meanMs = (performance.now() - started) / request.times;
  return { id: request.id, output: '', errors: [], warnings: [], renderMs: 0, marks: [], meanMs };
}

const scope = globalThis as unknown as {
  onmessage: ((event: { data: WorkerRequest }) => void) | null;
  postMessage(message: WorkerAnswer): void;
};
scope.onmessage = (event) => {
  const request = event.data;
  scope.postMessage(request.kind === 'render' ? render(request) : time(request));
};
