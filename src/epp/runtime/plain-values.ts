/**
 * A render's values as the caller gave them, a plain JavaScript object, converted only where they are read.
 *
 * A template with declared parameters reads its values once, to bind them: `bindPlainValues` reads each
 * parameter's value straight from the object, converted as its type expects and checked in the same walk
 * (see typed-conversion.ts), where converting every value and then checking it walked the data twice. Any
 * other reader (a template whose parameters bind one by one, a parameter's default that reads a later one,
 * the report of a problem) sees a Puppet hash: the values converted as `valuesFromJs` converts them, once.
 * (A template without declared parameters is given that hash from the start: it reads every value.)
 */
import { type ConstantSlot, type ParameterSet, type ParameterSpec, UNSET } from './contracts.js';
import { valuesFromJs } from './convert.js';
import { convertAs, NO_FIT } from './typed-conversion.js';
import { PType } from './types.js';
import type { PHash, Value } from './values.js';

type Iter<T> = MapIterator<T>;

export class PlainValues extends Map<Value, Value> {
  /** The caller's object, as given. */
  declare readonly given: Readonly<Record<string, unknown>>;
  private declare hash: PHash | undefined;

  /** @internal made by {@link plainValues}, never with `new`. */
  private constructor() {
    super();
  }

  /** The values as a Puppet hash, converted on first need. */
  private converted(): PHash {
    this.hash ??= valuesFromJs(this.given) as PHash;
    return this.hash;
  }

  override get size(): number {
    return this.converted().size;
  }

  override get(key: Value): Value {
    return this.converted().get(key);
  }

  override has(key: Value): boolean {
    return this.converted().has(key);
  }

  override forEach(
    visit: (value: Value, key: Value, map: Map<Value, Value>) => void,
    thisArg?: unknown,
  ): void {
    this.converted().forEach((value, key) => {
      visit.call(thisArg, value, key, this);
    });
  }

  override keys(): Iter<Value> {
    return this.converted().keys();
  }

  override values(): Iter<Value> {
    return this.converted().values();
  }

  override entries(): Iter<[Value, Value]> {
    return this.converted().entries();
  }

  override [Symbol.iterator](): Iter<[Value, Value]> {
    return this.entries();
  }

  override set(): this {
    throw new TypeError('a Puppet hash cannot be changed');
  }

  override delete(): boolean {
    throw new TypeError('a Puppet hash cannot be changed');
  }

  override clear(): void {
    throw new TypeError('a Puppet hash cannot be changed');
  }
}

/** Made without Map's constructor (its table would never be used), as RecordHashes are. */
const PlainValuesInstance = function (this: PlainValues, given: Record<string, unknown>) {
  const fields = this as unknown as { given: Record<string, unknown>; hash: undefined };
  fields.given = given;
  fields.hash = undefined;
} as unknown as new (
  given: Record<string, unknown>,
) => PlainValues;
PlainValuesInstance.prototype = PlainValues.prototype;

/** The values of a render given as a plain object (its prototype Object.prototype): see {@link PlainValues}. */
export function plainValues(given: Record<string, unknown>): PlainValues {
  return new PlainValuesInstance(given);
}

/** What binding asks of the runtime: the template's constants and `Runtime.checked`. */
export interface ParameterBinder {
  constant(slot: ConstantSlot): Value;
  checked(spec: ParameterSpec, value: Value): Value;
}

/**
 * The parameters bound from the caller's object, as `Runtime.params` binds them, when every value fits:
 * no key that is not a parameter, each given value (not undef) an instance of its parameter's type, each
 * absent or undef one with a default. Undefined otherwise, and then the caller binds as it always did
 * (from the converted hash), which reports each problem in Puppet's words and order.
 */
export function bindPlainValues(
  binder: ParameterBinder,
  set: ParameterSet,
  given: Readonly<Record<string, unknown>>,
): (Value | typeof UNSET)[] | undefined {
  if (!onlyDeclaredKeys(set.names, given)) return undefined;
  const bound: (Value | typeof UNSET)[] = [];
  for (const spec of set.specs) {
    const parameter = bindPlainParameter(binder, spec, given);
    if (parameter === NO_FIT) return undefined;
    bound.push(parameter);
  }
  return bound;
}

/** Whether every key of the caller's object names a parameter (`for in`: no key list to make). */
export function onlyDeclaredKeys(
  names: readonly string[],
  given: Readonly<Record<string, unknown>>,
): boolean {
  for (const key in given) if (!names.includes(key)) return false;
  return true;
}

/**
 * One parameter bound from the caller's object as `Runtime.param` binds it, NO_FIT where that would be a
 * problem (then `param` binds it from the converted hash and reports it).
 */
export function bindPlainParameter(
  binder: ParameterBinder,
  spec: ParameterSpec,
  given: Readonly<Record<string, unknown>>,
): Value | typeof UNSET | typeof NO_FIT {
  const value = Object.hasOwn(given, spec.name) ? given[spec.name] : undefined;
  try {
    return value === undefined || value === null ? byDefault(binder, spec) : fitting(binder, spec, value);
  } catch {
    // A default of the wrong type, a type that is no type: binding from the hash reports it.
    return NO_FIT;
  }
}

/**
 * An absent or undef value's parameter: its default (checked), UNSET for a default that is code; NO_FIT
 * without a default (missing, or undef for the type to judge: binding from the hash does both).
 */
function byDefault(binder: ParameterBinder, spec: ParameterSpec): Value | typeof UNSET | typeof NO_FIT {
  if (spec.defaultCode) return UNSET;
  if (!spec.defaultValue) return NO_FIT;
  return binder.checked(spec, binder.constant(spec.defaultValue));
}

/** A given value converted as its parameter's type expects, NO_FIT where it is no instance of it. */
function fitting(binder: ParameterBinder, spec: ParameterSpec, given: unknown): Value | typeof NO_FIT {
  if (!spec.type) return valuesFromJs(given);
  const type = binder.constant(spec.type);
  return type instanceof PType ? convertAs(type, given) : NO_FIT;
}
