/**
 * What Ruby prints for a value that is not a collection (`to_s`), as the serializers write it: JSON strings
 * and hash keys, YAML scalars; and the type name the serializers' errors give.
 */
import { formatFloat, timestampToString } from '../../runtime/format.js';
import { inferGenericType } from '../../runtime/types.js';
import { PDefault, PFloat, PRegexp, PSensitive, PTimestamp, type Value } from '../../runtime/values.js';

/** What Ruby's `to_s` gives for a non-collection value (JSON strings and hash keys use it). */
export function rubyText(v: Value): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  // Integers print exactly (bigint beyond 2^53), Floats as Ruby does (`1.0`).
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof PFloat) return formatFloat(v.value);
  if (v instanceof PRegexp) return `(?-mix:${v.source})`;
  if (v instanceof PSensitive) return 'Sensitive [value redacted]';
  if (v instanceof PTimestamp) return timestampToString(v);
  if (v instanceof PDefault) return 'default';
  return String(v);
}

export function typeName(v: Value): string {
  return inferGenericType(v).toString();
}
