/**
 * The largest values a template may build, and the errors past them. V8 aborts the whole process (no
 * error to catch, in the main thread or in the sandbox's worker) when an array outgrows its limit
 * (~134 million elements) or when one allocation is much larger than the heap limit (a string of 150 MB
 * in a worker of 96 MB): a template that doubles a value in a loop, or flattens an array of arrays that
 * share elements, must end in an error at its position instead (issue 11, item 5; security review 20).
 * Both caps keep one value near 100 MB at most, a fifth of the heap of untrusted templates (512 MB). The
 * sandbox's worker, where untrusted templates render, lowers them to a fifth of its own heap when that is
 * smaller (`limitSizesToHeap`): with a limit of 96 MB, an array of 8 million elements, its copy and the
 * garbage before them filled the heap before the cap of 10 million was reached, and the worker died of
 * its memory limit instead of this module's clear error at the template's position.
 *
 * Operators check before they build (operators.ts); a function's result is checked where the runtime
 * gets it (`Runtime.call`); functions whose result can outgrow their arguments many times over (flatten,
 * concat, split, regsubst, the text of a value, ...) check as they build, before it is too late.
 */
import { EppEvalError } from '../errors.js';
import type { Value } from './values.js';

/** The caps of a render in the main thread (trusted templates, the library): see `limitSizesToHeap`. */
const DEFAULT_COLLECTION_SIZE = 10_000_000;
const DEFAULT_STRING_LENGTH = 50_000_000;

/**
 * The most elements an Array or a Hash may have: the figure of the iteration limit of Integer ranges, or
 * less in the sandbox's worker (`limitSizesToHeap`).
 */
export let MAX_COLLECTION_SIZE = DEFAULT_COLLECTION_SIZE;

/**
 * The most characters a String made by a function may have (50-100 MB: one or two bytes each), or less in
 * the sandbox's worker (`limitSizesToHeap`).
 */
export let MAX_STRING_LENGTH = DEFAULT_STRING_LENGTH;

/**
 * Lowers the caps so that one value takes at most a fifth of a heap of `heapMb` megabytes (an element is
 * a reference of 8 bytes, a character at most 2 bytes), where that is less than the defaults. Called once
 * by the worker untrusted templates render in (src/engine/sandbox-worker.ts), with its memory limit, before
 * anything renders: a template doubling a value then always meets the cap, with its message, while the
 * value, its copy and the garbage before them (about three fifths of the heap at the most) still fit. The
 * default limit, 512 MB, keeps the defaults (10,000,000 and 50,000,000); 96 MB gives 2,516,582 elements
 * and 10,066,329 characters. A Hash's entries take more than 8 bytes each: a hash that large is stopped
 * by the heap limit first, which the sandbox reports as clearly (`EPP_MEMORY_LIMIT`, naming the file).
 */
export function limitSizesToHeap(heapMb: number): void {
  const fifth = (heapMb * 1024 * 1024) / 5;
  MAX_COLLECTION_SIZE = Math.min(DEFAULT_COLLECTION_SIZE, Math.floor(fifth / 8));
  MAX_STRING_LENGTH = Math.min(DEFAULT_STRING_LENGTH, Math.floor(fifth / 2));
}

const HINT = 'a template that doubles a value in a loop, or repeats shared values, grows past any memory';

const count = (n: number) => n.toLocaleString('en-US');

/** `EPP_MEMORY_LIMIT` for an Array or Hash (`what`, with its article) of `size` elements. */
export function collectionTooLarge(size: number, what: string): EppEvalError {
  return new EppEvalError(
    'EPP_MEMORY_LIMIT',
    `${what} of ${count(size)} elements is larger than a template may build (${count(MAX_COLLECTION_SIZE)})`,
    undefined,
    HINT,
  );
}

/** `EPP_MEMORY_LIMIT` for a String (`what`, with its article) of `length` characters. */
export function stringTooLong(length: number, what = 'a String'): EppEvalError {
  return new EppEvalError(
    'EPP_MEMORY_LIMIT',
    `${what} of ${count(length)} characters is longer than a template may build (${count(MAX_STRING_LENGTH)})`,
    undefined,
    HINT,
  );
}

/** `EPP_MEMORY_LIMIT` for a collection (`what`) stopped as it grew past the cap. */
export function tooManyElements(what: string): EppEvalError {
  return new EppEvalError(
    'EPP_MEMORY_LIMIT',
    `${what} would have more than ${count(MAX_COLLECTION_SIZE)} elements, more than a template may build`,
    undefined,
    HINT,
  );
}

/** `EPP_MEMORY_LIMIT` for a text (`what`) stopped as it grew past the cap. */
export function textTooLong(what: string): EppEvalError {
  return new EppEvalError(
    'EPP_MEMORY_LIMIT',
    `${what} would be longer than ${count(MAX_STRING_LENGTH)} characters, more than a template may build`,
    undefined,
    HINT,
  );
}

/** Throws when an Array or Hash of `size` elements would be too large: call it before building one. */
export function checkCollectionSize(size: number, what: string): void {
  if (size > MAX_COLLECTION_SIZE) throw collectionTooLarge(size, what);
}

/** Throws when a String of `length` characters would be too long. */
export function checkStringLength(length: number, what?: string): void {
  if (length > MAX_STRING_LENGTH) throw stringTooLong(length, what);
}

/**
 * `v` when it is within the caps, else the error: what a function gave, checked where the runtime gets it
 * (a type test and a comparison: calls are on the render's hot path).
 */
export function checkProduced(v: Value): Value {
  if (typeof v === 'string') {
    if (v.length > MAX_STRING_LENGTH) throw stringTooLong(v.length);
  } else if (Array.isArray(v)) {
    if (v.length > MAX_COLLECTION_SIZE) throw collectionTooLarge(v.length, 'an Array');
  } else if (v instanceof Map && v.size > MAX_COLLECTION_SIZE) {
    throw collectionTooLarge(v.size, 'a Hash');
  }
  return v;
}

/**
 * V8's own errors past its limits (a string longer than it can hold, a Map of 2^24 entries), thrown
 * where they can still be caught, as `EPP_MEMORY_LIMIT`; any other error unchanged.
 */
export function asMemoryLimit(e: unknown): unknown {
  if (
    e instanceof RangeError &&
    /invalid (string|array) length|maximum size|allocation failed/i.test(e.message) &&
    !/call stack/i.test(e.message)
  ) {
    return new EppEvalError(
      'EPP_MEMORY_LIMIT',
      `the template built a value too large to hold (${e.message})`,
      undefined,
      HINT,
    );
  }
  return e;
}
