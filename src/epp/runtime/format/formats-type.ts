/**
 * Puppet's `Formats` type, what `String(x, formats)` takes (its `new_string` dispatch), with the aliases
 * it is written with, so that a format hash it refuses gets Puppet's describer's words: `'new_string'
 * parameter 'string_formats' expects a Formats = Variant[...] value, got Hash`, or each problem under the
 * signature when there are several (a key that is no type).
 */
import { EppEvalError } from '../../errors.js';
import {
  AliasType,
  aliasExpandedString,
  describeArgumentMismatches,
  describeMismatch,
  type PType,
  parameterizeType,
  resolveTypeName,
} from '../types.js';
import { PRegexp, type Value } from '../values.js';

/** Puppet's `Format` pattern: one conversion, no delimiters closed (`'%(a)'` is no Format). */
const FORMAT_SOURCE = String.raw`^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$`;

function type(name: string, ...params: Value[]): PType {
  const t = resolveTypeName(name)!;
  return params.length > 0 ? parameterizeType(t, params) : t;
}

let formats: AliasType | undefined;

/** `Formats = Variant[Default, String[1], TypeMap = Hash[Type, Variant[Format, ContainerFormat]]]`. */
function formatsType(): AliasType {
  if (formats) return formats;
  const format = new AliasType('Format', () => type('Pattern', new PRegexp(FORMAT_SOURCE)));
  const container = new AliasType('ContainerFormat', () =>
    type(
      'Struct',
      new Map<Value, Value>([
        [type('Optional', 'format'), format],
        [type('Optional', 'separator'), type('String')],
        [type('Optional', 'separator2'), type('String')],
        [type('Optional', 'string_formats'), type('Hash', type('Type'), format)],
      ]),
    ),
  );
  const typeMap = new AliasType('TypeMap', () =>
    type('Hash', type('Type'), type('Variant', format, container)),
  );
  formats = new AliasType('Formats', () => type('Variant', type('Default'), type('String', 1), typeMap));
  return formats;
}

/**
 * Refuses a second argument of `String(x, formats)` that Puppet's `Formats` refuses (a number, an empty
 * text, undef, a hash of the wrong shape), in its dispatcher's words.
 */
export function checkStringFormats(format: Value): void {
  const expected = formatsType();
  if (expected.isInstance(format)) return;
  const subject = "parameter 'string_formats'";
  const problems = describeArgumentMismatches(expected, format, subject);
  const message =
    problems.length < 2
      ? `'new_string' ${describeMismatch(expected, format, subject)}`
      : `'new_string' expects (Convertible = Any from, ${aliasExpandedString(expected)} string_formats?)` +
        problems.map((why) => `\n  rejected: ${why}`).join('');
  throw new EppEvalError('EPP_ARGUMENTS', message);
}
