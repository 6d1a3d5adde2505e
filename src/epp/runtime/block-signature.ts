/**
 * A lambda's parameters as Puppet prints them when a value fits none of its parameter types in a way the
 * mismatch describer can word (a bare `Optional` given a value): `block expects (Any i, Optional x)`.
 * Puppet's `signature_string`: each parameter's type and name, `?` after one with a default (its type's
 * `Optional[...]` unwrapped, a bare `Optional` then printing as nothing), `*` after a `*$rest`.
 */
import type { ConstantSlot } from './contracts.js';
import { OptionalType, type PType } from './types.js';
import type { Value } from './values.js';

/** One parameter: its type (undefined: untyped, `Any`), its name, and `''`, `'?'` or `'*'`. */
export interface BlockParameter {
  readonly type: Value;
  readonly name: string;
  readonly indicator: string;
}

/** Where a lambda's parameter types come from when its signature must be printed. */
export interface LambdaSignature {
  parameters(constant: (slot: ConstantSlot) => Value): readonly BlockParameter[];
}

/** A compiled lambda's signature: its types are constants of the compiled code (see `Runtime.constant`). */
export class ConstantLambdaSignature implements LambdaSignature {
  constructor(private readonly entries: readonly (readonly [ConstantSlot | undefined, string, string])[]) {}

  parameters(constant: (slot: ConstantSlot) => Value): readonly BlockParameter[] {
    return this.entries.map(([slot, name, indicator]) => ({
      type: slot ? constant(slot) : undefined,
      name,
      indicator,
    }));
  }
}

/** `(Any i, Optional x)`: the parameters as Puppet's `signature_string` lists them, in parentheses. */
export function blockSignatureText(parameters: readonly BlockParameter[]): string {
  const listed = parameters.map(({ type, name, indicator }) => {
    let text = type === undefined ? 'Any' : String(type);
    if (indicator === '?' && type instanceof OptionalType) text = printed(type.type);
    return `${text} ${name}${indicator}`;
  });
  return `(${listed.join(', ')})`;
}

function printed(type: PType | undefined): string {
  return type === undefined ? '' : type.toString();
}
