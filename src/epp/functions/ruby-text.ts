/**
 * Ruby's `to_s` and `inspect` of Puppet values, which `join`, `fail`, the min/max string fallback and the
 * serializers (a `to_json` hash key, a regexp in `to_yaml`) print with: where Puppet calls a Ruby method
 * on the value rather than printing it the way `<%= %>` does.
 */
import {
  formatFloat,
  regexpWithDelimiters,
  rubyInspectString,
  rubyRegexpToS,
  timeDataToString,
} from '../runtime/format.js';
import { checkTextLength } from '../runtime/text-size.js';
import { objectText } from '../runtime/types.js';
import { PDefault, PFloat, PObject, PRegexp, PSensitive, PTimeData, type Value } from '../runtime/values.js';

/** Ruby's `inspect` of a Puppet value (how Ruby prints values nested in an Array or Hash). */
export function rubyInspect(v: Value): string {
  checkTextLength(v, 'the inspected text of the value');
  return inspect(v);
}

function inspect(v: Value): string {
  if (v === undefined) return 'nil';
  if (typeof v === 'string') return rubyInspectString(v);
  if (Array.isArray(v)) return `[${v.map(inspect).join(', ')}]`;
  if (v instanceof Map) {
    const parts: string[] = [];
    for (const [k, val] of v) parts.push(`${inspect(k)}=>${inspect(val)}`);
    return `{${parts.join(', ')}}`;
  }
  if (v instanceof PRegexp) return regexpWithDelimiters(v);
  if (v instanceof PDefault) return ':default';
  if (v instanceof PSensitive) return '#<Sensitive [value redacted]>';
  return rubyToS(v);
}

/** Ruby's `to_s` of a Puppet value: what `join` and `fail` print. Arrays and hashes print inspected. */
export function rubyToS(v: Value): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof PFloat) return formatFloat(v.value);
  if (Array.isArray(v) || v instanceof Map) return rubyInspect(v);
  if (v instanceof PRegexp) return rubyRegexpToS(v);
  if (v instanceof PSensitive) return 'Sensitive [value redacted]';
  if (v instanceof PTimeData) return timeDataToString(v);
  if (v instanceof PObject) return objectText(v);
  return v.toString();
}
