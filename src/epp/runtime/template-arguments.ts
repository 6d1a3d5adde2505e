/**
 * How a template's arguments are checked against its parameters' types: as Puppet checks them, which is
 * not quite `=~`.
 */
import { isInstanceMemo } from './instance-memo.js';
import { inferType, type PType } from './types.js';
import type { Value } from './values.js';

/**
 * Whether `value` is accepted for a template parameter of type `type`. Puppet checks a template's arguments
 * as a whole (`TypeMismatchDescriber.validate_parameters`: the parameters' Struct must be assignable from
 * the arguments' inferred type) where a lambda's arguments and `assert_type` ask whether a value is an
 * instance. The two answers differ for a bare `Optional`, which is assignable from every type (Puppet's
 * `POptionalType#_assignable?` is true when it has no type) but has only undef as instance: `Optional $x`
 * and `Array[Optional] $x` take any value in a template, while `'x' =~ Optional` is false and a lambda's
 * `|Optional $x|` refuses 'x'. Only types with a bare `Optional` ask assignability, so the usual check
 * stays the instance check (and its memo).
 */
export function acceptsTemplateArgument(type: PType, value: Value): boolean {
  return isInstanceMemo(type, value) || (hasBareOptional(type) && type.isAssignable(inferType(value)));
}

const bareOptional = new WeakMap<PType, boolean>();

/** Whether `Optional` without parameters appears in the type as Puppet prints it. */
function hasBareOptional(type: PType): boolean {
  let found = bareOptional.get(type);
  if (found === undefined) {
    found = /\bOptional(?!\[)/.test(type.toString());
    bareOptional.set(type, found);
  }
  return found;
}
