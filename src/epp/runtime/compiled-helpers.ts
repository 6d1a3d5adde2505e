/**
 * The helpers of the generated code: what `<%= %>` appends, what `"${}"` gives, truthiness and the hash
 * index. Module functions, passed to the code's factory (see {@link compiledHelpers}), not Runtime methods.
 */
import { interpolate, renderValue } from './format.js';
import { hashIndex } from './hash-index.js';
import { PFloat, type Value } from './values.js';

/** What `<%= v %>` appends: strings and Integers inline (the common cases), the rest as Puppet prints it. */
export function renderText(v: Value): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? `${v}` : renderOther(v);
}

function renderOther(v: Value): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  // Floats are interned and immutable: format each once (Ruby's float text is costly to compute).
  if (v instanceof PFloat) {
    v.rendered ??= renderValue(v);
    return v.rendered;
  }
  return renderValue(v);
}

/** What `"${v}"` gives. */
export function interpolateText(v: Value): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? `${v}` : interpolateOther(v);
}

function interpolateOther(v: Value): string {
  return typeof v === 'bigint' ? v.toString() : interpolate(v);
}

/** Only `undef` and `false` are falsy. */
export function truthy(v: Value): boolean {
  return v !== undefined && v !== false;
}

/**
 * Module-level helpers the generated code receives as parameters of its factory, by these names: shorter
 * code than `rt.method(...)` (cheaper to compile), and small enough for V8 to inline.
 */
export const compiledHelpers = {
  S: renderText,
  I: interpolateText,
  T: truthy,
  H: hashIndex,
} as const;
