/**
 * A time limit for one evaluation. Puppet's only unbounded construct is iterating an Integer range
 * (`Integer[0, 9223372036854775806].each`); the range iterator checks the deadline now and then, so a
 * hook or template with a time limit stops with a typed error instead of running for ever. Rendering is
 * synchronous, so one module-level deadline (saved and restored around nested evaluations) suffices.
 */
import { EppEvalError } from '../errors.js';

let deadline = Number.POSITIVE_INFINITY;
let limitMs = 0;

/** Runs `fn` with a time limit (none when `ms` is undefined); an inner limit never extends an outer one. */
export function withTimeLimit<T>(ms: number | undefined, fn: () => T): T {
  if (ms === undefined) return fn();
  const previous = deadline;
  const previousMs = limitMs;
  const next = Date.now() + ms;
  if (next < deadline) {
    deadline = next;
    limitMs = ms;
  }
  try {
    return fn();
  } finally {
    deadline = previous;
    limitMs = previousMs;
  }
}

/** Throws `EPP_TIME_LIMIT` once the deadline has passed. Cheap when there is none. */
export function checkTimeLimit(): void {
  if (deadline !== Number.POSITIVE_INFINITY && Date.now() > deadline) {
    throw new EppEvalError('EPP_TIME_LIMIT', `evaluation took longer than its limit of ${limitMs} ms`);
  }
}
