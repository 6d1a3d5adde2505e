/**
 * `new` of a named Object type: Puppet's generated `new_Point` function, with two signatures: one hash of
 * the attributes (`Struct[{'x' => Integer, Optional['y'] => Integer}] hash`), then the attributes in order,
 * the required ones first (`Integer x, Integer y?`). Its errors are Puppet's dispatcher's.
 */
import { EppEvalError } from '../../errors.js';
import { describeArgumentMismatches, describeMismatch, type NamedObjectType } from '../../runtime/types.js';
import { PObject, type Value } from '../../runtime/values.js';
import { noMatchingSignature } from '../arguments.js';

export function toObject(type: NamedObjectType, args: readonly Value[]): PObject {
  const fn = `new_${type.typeName}`;
  const positional = type.positional;
  const required = positional.filter((a) => !a.hasDefault).length;
  const min = Math.min(1, required);
  const max = Math.max(1, positional.length);
  if (args.length < min || args.length > max) {
    throw new EppEvalError('EPP_ARGUMENTS', `'${fn}' ${expects(min, max)}, got ${args.length || 'none'}`);
  }
  const hash = args[0];
  if (args.length === 1 && hash instanceof Map && type.initHashType.isInstance(hash)) {
    return new PObject(
      type,
      type.attributes.map((a) => (hash.has(a.name) ? hash.get(a.name) : a.value)),
    );
  }
  const positionalProblem = rejectedPositional(type, args, required);
  if (positionalProblem === undefined) {
    const given = new Map<string, Value>();
    positional.forEach((a, i) => {
      if (i < args.length) given.set(a.name, args[i]);
    });
    return new PObject(
      type,
      type.attributes.map((a) => (given.has(a.name) ? given.get(a.name) : a.value)),
    );
  }
  const hashProblem =
    args.length === 1
      ? (describeArgumentMismatches(type.initHashType, hash, "parameter 'hash'")[0] ?? '')
      : `expects 1 argument, got ${args.length}`;
  throw noMatchingSignature(fn, [
    [`(${type.initHashType} hash)`, hashProblem],
    [positionalSignature(type), positionalProblem],
  ]);
}

/** Why the positional signature refuses the arguments, or undefined when it takes them. */
function rejectedPositional(
  type: NamedObjectType,
  args: readonly Value[],
  required: number,
): string | undefined {
  const positional = type.positional;
  if (args.length < required || args.length > positional.length) {
    return `${expects(required, positional.length)}, got ${args.length || 'none'}`;
  }
  for (let i = 0; i < args.length; i++) {
    const a = positional[i]!;
    if (!a.type.isInstance(args[i])) return describeMismatch(a.type, args[i], `parameter '${a.name}'`);
  }
  return undefined;
}

/** `(Integer x, Integer y?)`: a parameter with a default is marked optional. */
function positionalSignature(type: NamedObjectType): string {
  return `(${type.positional.map((a) => `${a.type} ${a.name}${a.hasDefault ? '?' : ''}`).join(', ')})`;
}

function expects(min: number, max: number): string {
  if (min === max) return `expects ${min} argument${min === 1 ? '' : 's'}`;
  return `expects between ${min} and ${max} arguments`;
}
