/** `new` of Regexp (optionally escaped, as Ruby's `Regexp.escape`) and of Type (from a type's name). */
import { EppEvalError } from '../../errors.js';
import { inferGenericType, type PType, resolveTypeName } from '../../runtime/types.js';
import { PRegexp, type Value } from '../../runtime/values.js';
import { arity, cannotConvert } from './arguments.js';

export function toRegexp(args: Value[]): PRegexp {
  arity('Regexp', args, 1, 2);
  const [pattern, escaped = false] = args;
  if (pattern instanceof PRegexp) throw cannotConvert(pattern, 'Regexp');
  if (typeof pattern !== 'string') {
    // Puppet's words: its Regexp `new` is a function named `new_float` taking a String `pattern`.
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `'new_float' parameter 'pattern' expects a String value, got ${inferGenericType(pattern)}`,
    );
  }
  return new PRegexp(escaped === true ? rubyEscape(pattern) : pattern);
}

/** Ruby's `Regexp.escape`. */
function rubyEscape(s: string): string {
  return s
    .replace(/[.*+?^${}()|[\]-]/g, '\\$&')
    .replace(/ /g, '\\ ')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t');
}

export function toType(args: Value[]): PType {
  arity('Type', args, 1, 1);
  const text = args[0];
  const t = typeof text === 'string' ? resolveTypeName(text.trim()) : undefined;
  if (!t) throw cannotConvert(text, 'Type');
  return t;
}
