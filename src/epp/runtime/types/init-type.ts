/**
 * `Init[T]` and `Init[T, args...]`: the values `T.new` accepts (`'1' =~ Init[Integer]`). As Puppet 7's
 * PInitType, a value belongs when it is an instance of T, of the first parameter of a one-parameter
 * signature of T's `new`, or matches one of its other signatures as an array of arguments (or as the only
 * element of one, when such a signature takes one argument). With init arguments, only the signatures that
 * take one value followed by those arguments count. The signatures are Puppet's (`init-signatures.ts`).
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { EppEvalError } from '../../errors.js';
import type { Value } from '../values.js';
import { newSignatures } from './init-signatures.js';
import { literal, PType, RICH_DATA, TupleType } from './internal.js';

/**
 * Puppet's refusal of an Init type it cannot make values of ("Creation of new instance of type
 * 'Optional[Integer]' is not supported"), raised where the type is first used, not where it is written.
 * `=~` words it as its own (`Error while evaluating a '=~' expression, `).
 */
export class InitTypeError extends EppEvalError {
  constructor(message: string) {
    super('EPP_CONVERSION', message);
  }
}

/** What an initialized Init type matches besides T itself. */
interface InitMatch {
  /** T and the first parameter types of the one-value signatures. */
  readonly single: readonly PType[];
  /** The other signatures, matched by an array of arguments. */
  readonly other: readonly TupleType[];
  /** Whether one of `other` takes a single argument: then `[v]` is tried for `v`. */
  readonly optionalSingle: boolean;
}

export class InitType extends PType {
  readonly name = 'Init';
  private match: InitMatch | undefined;

  constructor(
    readonly type?: PType,
    readonly initArgs: readonly Value[] = [],
  ) {
    super();
  }

  isInstance(v: Value): boolean {
    if (this.type === undefined) return RICH_DATA.isInstance(v);
    const m = this.initialized();
    if (m.single.some((t) => t.isInstance(v))) return true;
    if (m.other.some((t) => t.isInstance(v))) return true;
    return m.optionalSingle && m.other.some((t) => t.isInstance([v]));
  }

  protected override assignableFrom(o: PType): boolean {
    const m = this.type === undefined ? undefined : this.initialized();
    if (o instanceof InitType) {
      return this.type === undefined || (o.type !== undefined && this.type.isAssignable(o.type));
    }
    if (m === undefined) return RICH_DATA.isAssignable(o);
    if (m.single.some((t) => t.isAssignable(o))) return true;
    if (m.other.some((t) => t.isAssignable(o))) return true;
    const wrapped = new TupleType([o]);
    return m.optionalSingle && m.other.some((t) => t.isAssignable(wrapped));
  }

  /**
   * `Init[T](value)`: T.new of the value and the init arguments; without any, an array is spread into
   * T.new's arguments unless it is itself one value T.new takes (as Puppet's `new_Init`).
   */
  newArguments(value: Value): Value[] {
    const m = this.initialized();
    if (this.initArgs.length > 0) return [value, ...this.initArgs];
    if (!Array.isArray(value)) return [value];
    // Puppet's `new_Init` means to also keep an array one of the other signatures takes as a single
    // argument, but reads variables its function class never sets: only the one-value types keep it.
    return m.single.some((t) => t.isInstance(value)) ? [value] : [...value];
  }

  override generalize(): PType {
    return this.type === undefined ? this : new InitType(this.type.generalize(), this.initArgs);
  }

  override kindDefault(): PType {
    return INIT;
  }

  toString(): string {
    if (this.type === undefined) return 'Init';
    return `Init[${[this.type.toString(), ...this.initArgs.map(literal)].join(', ')}]`;
  }

  /** Puppet's `assert_initialized`: the signatures of T's `new`, checked once. */
  private initialized(): InitMatch {
    if (this.match !== undefined) return this.match;
    const target = this.type as PType;
    // Puppet refuses Init of an Init, Optional, NotUndef or Variant: none has signatures here.
    const signatures = newSignatures(target);
    if (signatures === undefined) {
      throw new InitTypeError(`Creation of new instance of type '${target}' is not supported`);
    }
    if (this.initArgs.length === 0) {
      const one = signatures.filter((s) => isExactlyOne(s));
      const other = signatures.filter((s) => !isExactlyOne(s));
      this.match = {
        single: [target, ...one.map((s) => s.types[0] as PType)],
        other,
        optionalSingle: other.some((s) => s.sizeRange().from === 1),
      };
    } else {
      const args = this.initArgs;
      const fitting = signatures.filter((s) => {
        const { from, to } = s.sizeRange();
        const count = 1 + args.length;
        return count >= from && count <= to && args.every((a, i) => s.typeAt(i + 1)?.isInstance(a));
      });
      if (fitting.length === 0) {
        throw new InitTypeError(
          `The type '${this}' does not represent a valid set of parameters for ${target.generalize().name}.new()`,
        );
      }
      const single = [target, ...fitting.map((s) => s.types[0] as PType)];
      this.match = { single, other: [], optionalSingle: false };
    }
    return this.match;
  }
}

export const INIT = new InitType();

function isExactlyOne(s: TupleType): boolean {
  const { from, to } = s.sizeRange();
  return from === 1 && to === 1;
}
