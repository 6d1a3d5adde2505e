/**
 * Puppet's dispatcher for the `new` of a type with several signatures (Timestamp, Timespan, Hash, SemVer,
 * SemVerRange): the first signature whose parameters take the arguments, or the TypeMismatchDescriber's
 * error: a count no signature takes as one merged message (`'new_timestamp' expects at most 3 arguments,
 * got 4`), one message when every signature refuses alike, else every signature listed with why it
 * refused (`The function 'new_hash' was called with arguments it does not accept. It expects one of:`).
 */
import { EppEvalError } from '../../errors.js';
import {
  AliasType,
  describeArgumentMismatches,
  OptionalType,
  type PType,
  StringType,
  StructElement,
  StructType,
} from '../../runtime/types.js';
import type { Value } from '../../runtime/values.js';
import { noMatchingSignature, puppetType } from '../arguments.js';
import { argumentCountText } from '../not-iterable.js';

/** One parameter of a dispatcher's signature (its type made on first use). */
export interface Param {
  readonly name: string;
  readonly type: () => PType;
  readonly optional?: boolean;
}

export type Signature = readonly Param[];

const aliases = new Map<string, AliasType>();

/**
 * A dispatcher's local type alias (`Formats = Variant[String[2], Array[String[2], 1]]`), one object per
 * name: a signature prints it with its definition, a Struct naming it prints its name alone, as Puppet does.
 * The first definition given a name is kept: two dispatchers' aliases of one name must mean the same type
 * (Timestamp's and Timespan's `Formats` do).
 */
export function localAlias(name: string, make: () => PType): AliasType {
  let a = aliases.get(name);
  if (a === undefined) {
    a = new AliasType(name, make);
    aliases.set(name, a);
  }
  return a;
}

/** What `make` makes, made on first use (a dispatcher's types are made when first needed, then kept). */
export function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/**
 * A built-in type, optionally parameterized, made once: `typeOf('String', 1)` is `String[1]` (made from
 * objects, not Puppet source, so that the conversions work without the evaluator loaded).
 */
export function typeOf(name: string, ...params: readonly (Value | (() => PType))[]): () => PType {
  return once(() => puppetType(name, ...params.map((p) => (typeof p === 'function' ? p() : p))));
}

/** `Struct[{...}]` of fields that may name local aliases (which a type's source cannot). */
export function struct(
  fields: readonly (readonly [name: string, type: PType, optional?: boolean])[],
): StructType {
  return new StructType(
    fields.map(([name, type, optional]) => {
      const key = new StringType(undefined, name);
      return new StructElement(optional ? new OptionalType(key) : key, type);
    }),
  );
}

function signatureText(params: Signature): string {
  const one = (p: Param) => `${p.type().display()} ${p.name}${p.optional ? '?' : ''}`;
  return `(${params.map(one).join(', ')})`;
}

function countRange(params: Signature): { min: number; max: number } {
  return { min: params.filter((p) => !p.optional).length, max: params.length };
}

/** Why a signature refuses the arguments (Puppet's `rejected:` lines): its count, else its first refusing parameter. */
function rejections(params: Signature, args: readonly Value[]): string[] {
  const range = countRange(params);
  if (args.length < range.min || args.length > range.max) return [argumentCountText(range, args.length)];
  for (let i = 0; i < args.length; i++) {
    const p = params[i]!;
    // A value of the type fits, even where the describer, which works on the value's inferred type,
    // would find fault (`{}` against a Struct of optional keys).
    if (p.type().isInstance(args[i])) continue;
    const why = describeArgumentMismatches(p.type(), args[i], `parameter '${p.name}'`);
    if (why.length > 0) return why;
  }
  return [];
}

/** Puppet's dispatch: the index of the first signature taking the arguments, or its error (see above). */
export function dispatch(fn: string, signatures: readonly Signature[], args: readonly Value[]): number {
  const ranges = signatures.map(countRange);
  if (!ranges.some(({ min, max }) => args.length >= min && args.length <= max)) {
    const merged = { min: Math.min(...ranges.map((r) => r.min)), max: Math.max(...ranges.map((r) => r.max)) };
    throw new EppEvalError('EPP_ARGUMENTS', `'${fn}' ${argumentCountText(merged, args.length)}`);
  }
  const why = signatures.map((s) => rejections(s, args));
  const index = why.findIndex((w) => w.length === 0);
  if (index >= 0) return index;
  // Puppet's merge_descriptions: the same refusal from every signature is said once.
  const texts = new Set(why.map((w) => w.join('\n')));
  if (texts.size === 1 && why[0]!.length === 1)
    throw new EppEvalError('EPP_ARGUMENTS', `'${fn}' ${why[0]![0]}`);
  throw noMatchingSignature(
    fn,
    signatures.map((s, i) => [signatureText(s), why[i]!.join('\n    rejected: ')] as const),
  );
}
