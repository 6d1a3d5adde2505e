/**
 * Puppet's evaluator string(): what `<%= %>` and interpolation print.
 */
import { checkTextLength } from '../text-size.js';
import { PSensitive, type Value } from '../values.js';
import { REDACTED, rubyScalarText } from './inspect.js';

function evalString(v: Value, redactTop: boolean): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i > 0 ? ', ' : '') + evalString(v[i], true);
    return `${s}]`;
  }
  if (v instanceof Map) {
    const parts: string[] = [];
    for (const [k, val] of v) parts.push(`${evalString(k, true)} => ${evalString(val, true)}`);
    return `{${parts.join(', ')}}`;
  }
  if (v instanceof PSensitive) return redactTop ? REDACTED : evalString(v.value, true);
  return rubyScalarText(v);
}

/** What `<%= expr %>` prints. A Sensitive value given directly prints its secret (Puppet 7 does). */
export function renderValue(value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value); // an Integer: the common case, no detour
  checkTextLength(value, 'the text of the value');
  return evalString(value, false);
}

/** What `"${expr}"` gives: as {@link renderValue}, but a Sensitive value is always redacted. */
export function interpolate(value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  checkTextLength(value, 'the text of the value');
  return evalString(value, true);
}
