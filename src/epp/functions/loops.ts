/**
 * The loops of each, map, filter and reduce over an Array or a Hash: one implementation for the core
 * functions (iteration.ts) and for the calls compiled templates make directly (the runtime's iteration
 * fast paths, which skip the argument array and the Lambda object but loop here all the same).
 *
 * A 2-parameter lambda gets (index, element) of an array and (key, value) of a hash; a 1-parameter lambda
 * gets the element, or the `[key, value]` pair. `break()` ends a loop: each, map, filter of an array and
 * reduce keep what they had so far, as Puppet does; filter of a hash lets the signal through (Ruby's
 * Hash#select does not stop on it: it reaches the enclosing iteration).
 */
import { MAX_STRING_LENGTH } from '../runtime/size-limits.js';
import type { PHash, Value } from '../runtime/values.js';
import { BreakSignal } from './registry.js';

/** A lambda as the loops call it: compiled code's plain function, or a core function's Lambda. */
export type LoopBody = (...args: Value[]) => Value;

/** The lambda's arity the loop passes arguments for: 1 or 2 (see the module comment). */
export type LoopArity = 1 | 2;

/**
 * What the loops go over: an Array, a Hash, or the elements of another Iterable (a string's characters,
 * an Integer range, see `sequenceOf`), which are indexed as an array's.
 */
export type Loopable = Value[] | PHash | Iterable<Value>;

function endsLoop(e: unknown): void {
  if (!(e instanceof BreakSignal)) throw e;
}

export function eachLoop(receiver: Loopable, fn: LoopBody, arity: LoopArity): void {
  try {
    if (Array.isArray(receiver)) {
      if (arity === 2) for (let i = 0; i < receiver.length; i++) fn(i, receiver[i]);
      else for (let i = 0; i < receiver.length; i++) fn(receiver[i]);
    } else if (receiver instanceof Map) {
      // forEach: no entry array per pair (break() still ends it: it throws).
      if (arity === 2)
        receiver.forEach((v, k) => {
          fn(k, v);
        });
      else for (const [k, v] of receiver) fn([k, v]);
    } else {
      let i = 0;
      for (const item of receiver) {
        if (arity === 2) fn(i++, item);
        else fn(item);
      }
    }
  } catch (e) {
    endsLoop(e);
  }
}

/**
 * `map`: over an Array the result is allocated at its final size (as Array.prototype.map does), where
 * `push` would give even a 1-element result room for 17 (garbage per call in a loop).
 */
export function mapLoop(receiver: Loopable, fn: LoopBody, arity: LoopArity): Value[] {
  if (!Array.isArray(receiver)) {
    const out: Value[] = [];
    try {
      if (receiver instanceof Map) {
        if (arity === 2) for (const [k, v] of receiver) out.push(fn(k, v));
        else for (const [k, v] of receiver) out.push(fn([k, v]));
      } else {
        let i = 0;
        for (const item of receiver) out.push(arity === 2 ? fn(i++, item) : fn(item));
      }
    } catch (e) {
      endsLoop(e);
    }
    return out;
  }
  const length = receiver.length;
  const out: Value[] = new Array(length);
  let i = 0;
  try {
    if (arity === 2) for (; i < length; i++) out[i] = fn(i, receiver[i]);
    else for (; i < length; i++) out[i] = fn(receiver[i]);
  } catch (e) {
    endsLoop(e);
    out.length = i; // break(): the results so far
  }
  return out;
}

/**
 * `$xs.map |$x| {...}.join(d)` in one loop (see `Runtime.mapJoin`): the text (a string), built as the
 * lambda returns strings, or the results (an array: all of them, or those before a `break()`) when one is
 * not a string.
 */
export function mapJoinLoop(
  receiver: Value[],
  fn: LoopBody,
  arity: LoopArity,
  delimiter: string,
): string | Value[] {
  const length = receiver.length;
  const results: Value[] = new Array(length);
  let text = '';
  let strings = true;
  let i = 0;
  try {
    for (; i < length; i++) {
      const v = arity === 2 ? fn(i, receiver[i]) : fn(receiver[i]);
      results[i] = v;
      if (!strings) continue;
      if (typeof v === 'string') {
        text = i === 0 ? v : text + delimiter + v;
        // Too long a text is left to the join of the results, which reports it at its own position.
        if (text.length > MAX_STRING_LENGTH) strings = false;
      } else strings = false;
    }
  } catch (e) {
    endsLoop(e);
    results.length = i;
  }
  return strings ? text : results;
}

/** `filter` of an array (or another Iterable but a hash): the elements kept. */
export function filterLoop(receiver: Value[] | Iterable<Value>, fn: LoopBody, arity: LoopArity): Value[] {
  const out: Value[] = [];
  try {
    if (Array.isArray(receiver)) {
      for (let i = 0; i < receiver.length; i++) {
        const item = receiver[i];
        const result = arity === 2 ? fn(i, item) : fn(item);
        if (result !== undefined && result !== false) out.push(item);
      }
    } else {
      let i = 0;
      for (const item of receiver) {
        const result = arity === 2 ? fn(i++, item) : fn(item);
        if (result !== undefined && result !== false) out.push(item);
      }
    }
  } catch (e) {
    endsLoop(e);
  }
  return out;
}

/** `filter` of a hash: a new hash of the entries kept; `break()` is not caught (see the module comment). */
export function filterHashLoop(receiver: PHash, fn: LoopBody, arity: LoopArity): PHash {
  const out: PHash = new Map();
  receiver.forEach((v, k) => {
    const result = arity === 2 ? fn(k, v) : fn([k, v]);
    if (result !== undefined && result !== false) out.set(k, v);
  });
  return out;
}

/**
 * `reduce` over an array (or another Iterable: a hash's pairs, a range): from `memo` when `hasStart`, else
 * from the first item.
 */
export function reduceLoop(
  items: readonly Value[] | Iterable<Value>,
  fn: LoopBody,
  hasStart: boolean,
  memo: Value,
): Value {
  let result = memo;
  try {
    if (Array.isArray(items)) {
      if (!hasStart) result = items[0];
      for (let i = hasStart ? 0 : 1; i < items.length; i++) result = fn(result, items[i]);
    } else {
      let started = hasStart;
      for (const item of items) {
        if (started) result = fn(result, item);
        else {
          result = item;
          started = true;
        }
      }
    }
  } catch (e) {
    endsLoop(e);
  }
  return result;
}
