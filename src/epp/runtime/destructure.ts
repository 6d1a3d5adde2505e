/**
 * Assignment to an array of variables (`[$a, [$b, $c]] = value`), as Puppet's evaluator assigns it.
 * Throws `EppEvalError` without a location; the runtime adds the assignment's.
 */
import type { DestructurePattern } from '../ast-walk.js';
import { EppEvalError } from '../errors.js';
import { isHash, type Value } from './values.js';

/**
 * The values for the pattern's variables, flat, in their order. An array pairs its elements with the
 * pattern's entries (as many of each), a hash gives each variable its key's value, any other value is an
 * array of itself (`[$a] = 5`).
 */
export function destructure(pattern: DestructurePattern, value: Value): Value[] {
  const out: Value[] = [];
  destructureInto(pattern, value, out);
  return out;
}

function destructureInto(pattern: DestructurePattern, value: Value, out: Value[]): void {
  if (isHash(value)) {
    for (const entry of pattern) {
      if (typeof entry !== 'string' || !value.has(entry)) {
        const key = typeof entry === 'string' ? entry : rubyInspectNames(entry);
        throw new EppEvalError(
          'EPP_EVAL',
          `No value for required key '${key}' in assignment to variables from hash`,
        );
      }
      out.push(value.get(entry));
    }
    return;
  }
  const values = Array.isArray(value) ? value : [value];
  if (values.length !== pattern.length) {
    throw new EppEvalError(
      'EPP_EVAL',
      `Mismatched number of assignable entries and values, expected ${pattern.length}, got ${values.length}`,
    );
  }
  for (let i = 0; i < pattern.length; i++) {
    const entry = pattern[i]!;
    if (typeof entry === 'string') out.push(values[i]);
    else destructureInto(entry, values[i], out);
  }
}

/** Ruby's inspect of a nested array's names (`["b"]`), as Puppet names the key it misses in a hash. */
function rubyInspectNames(pattern: DestructurePattern): string {
  return `[${pattern.map((e) => (typeof e === 'string' ? `"${e}"` : rubyInspectNames(e))).join(', ')}]`;
}
