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
  describeMismatch,
  OptionalType,
  type PType,
  StringType,
  StructElement,
  StructType,
  VariantType,
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

/**
 * Why a signature refuses the arguments (Puppet's `rejected:` lines): its count, else its first refusing
 * parameter, whose index is `at` (-1 for a count).
 */
interface Refusal {
  readonly why: string[];
  readonly at: number;
}

function rejections(params: Signature, args: readonly Value[]): Refusal {
  const range = countRange(params);
  if (args.length < range.min || args.length > range.max) {
    return { why: [argumentCountText(range, args.length)], at: -1 };
  }
  for (let i = 0; i < args.length; i++) {
    const p = params[i]!;
    // A value of the type fits, even where the describer, which works on the value's inferred type,
    // would find fault (`{}` against a Struct of optional keys).
    if (p.type().isInstance(args[i])) continue;
    const why = describeArgumentMismatches(p.type(), args[i], `parameter '${p.name}'`);
    if (why.length > 0) return { why, at: i };
  }
  return { why: [], at: -1 };
}

/** A plain type mismatch of a parameter (not of a pattern, a size, or a key or element inside it). */
const PLAIN_MISMATCH = /^parameter '[^']+' expects (?:an? \S+ value|a value of type .+), got /;

/**
 * Puppet's merge_descriptions of a type mismatch every signature finds in the same parameter: one
 * mismatch against all their types (`compare(true, 1)`: `parameter 'a' expects a value of type Numeric,
 * String, SemVer, Timestamp, or Timespan, got Boolean`); undefined when they refuse otherwise.
 */
function mergedTypeMismatch(
  signatures: readonly Signature[],
  refusals: readonly Refusal[],
  args: readonly Value[],
): string | undefined {
  const at = refusals[0]!.at;
  if (at < 0) return undefined;
  const name = signatures[0]![at]!.name;
  const alike = refusals.every(
    (r, i) =>
      r.at === at &&
      signatures[i]![at]!.name === name &&
      r.why.length === 1 &&
      PLAIN_MISMATCH.test(r.why[0]!),
  );
  if (!alike) return undefined;
  const types = new Map(signatures.map((s) => [s[at]!.type().toString(), s[at]!.type()]));
  return describeMismatch(new VariantType([...types.values()]), args[at], `parameter '${name}'`);
}

/** Puppet's dispatch: the index of the first signature taking the arguments, or its error (see above). */
export function dispatch(fn: string, signatures: readonly Signature[], args: readonly Value[]): number {
  const outcome = judge(fn, signatures, args);
  if (outcome instanceof EppEvalError) throw outcome;
  return outcome;
}

/** The error of Puppet's dispatch for arguments the caller knows no signature takes. */
export function refusal(fn: string, signatures: readonly Signature[], args: readonly Value[]): EppEvalError {
  const outcome = judge(fn, signatures, args);
  if (outcome instanceof EppEvalError) return outcome;
  throw new Error(`'${fn}': its signature ${outcome} takes the arguments it was to refuse`);
}

function judge(fn: string, signatures: readonly Signature[], args: readonly Value[]): number | EppEvalError {
  const ranges = signatures.map(countRange);
  if (!ranges.some(({ min, max }) => args.length >= min && args.length <= max)) {
    const merged = { min: Math.min(...ranges.map((r) => r.min)), max: Math.max(...ranges.map((r) => r.max)) };
    return new EppEvalError('EPP_ARGUMENTS', `'${fn}' ${argumentCountText(merged, args.length)}`);
  }
  const refusals = signatures.map((s) => rejections(s, args));
  const why = refusals.map((r) => r.why);
  const index = why.findIndex((w) => w.length === 0);
  if (index >= 0) return index;
  // Puppet's merge_descriptions: the same refusal from every signature is said once.
  const texts = new Set(why.map((w) => w.join('\n')));
  if (texts.size === 1 && why[0]!.length === 1)
    return new EppEvalError('EPP_ARGUMENTS', `'${fn}' ${why[0]![0]}`);
  const merged = mergedTypeMismatch(signatures, refusals, args);
  if (merged !== undefined) return new EppEvalError('EPP_ARGUMENTS', `'${fn}' ${merged}`);
  return noMatchingSignature(
    fn,
    signatures.map((s, i) => [signatureText(s), why[i]!.join('\n    rejected: ')] as const),
  );
}
