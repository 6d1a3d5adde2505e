/**
 * `Init[T]` (runtime/types/init-type.ts): the values T.new accepts, by the signatures of Puppet 7's `new`
 * dispatchers. Every expectation here was checked against `puppet epp render` (the conformance cases
 * `init_type_*` and `error_init_type_*` hold Puppet's own output).
 */
import { describe, expect, it } from 'vitest';
import { EppEvalError } from '../../src/epp/errors.js';
import { evaluatePuppet } from '../../src/epp/index.js';
import { type InitType, InitTypeError, type PType } from '../../src/epp/runtime/types.js';
import type { Value } from '../../src/epp/runtime/values.js';

const type = (text: string): InitType => evaluatePuppet(text) as InitType;
const value = (text: string): Value => evaluatePuppet(text);
const matches = (v: string, t: string): boolean => type(t).isInstance(value(v));

describe('Init[T] instances', () => {
  it('takes what T.new takes as one value, and arrays of its other signatures', () => {
    expect(matches("'1'", 'Init[Integer]')).toBe(true);
    expect(matches("'0x1f'", 'Init[Integer]')).toBe(true);
    expect(matches('1.5', 'Init[Integer]')).toBe(true);
    expect(matches("{from => '1'}", 'Init[Integer]')).toBe(true);
    expect(matches("['12', 16]", 'Init[Integer]')).toBe(true);
    expect(matches("['12', 3]", 'Init[Integer]')).toBe(false);
    expect(matches("'x'", 'Init[Integer]')).toBe(false);
    expect(matches('undef', 'Init[Integer]')).toBe(false);
    expect(matches('[]', 'Init[Integer]')).toBe(false);
  });

  it('wraps a value in an array for a signature whose other parameters are optional', () => {
    // String.new(from, formats = default) takes Any: every value, undef too.
    expect(matches('undef', 'Init[String]')).toBe(true);
    expect(matches('{a => 1}', 'Init[String]')).toBe(true);
    expect(matches("'3'", 'Init[Integer[5]]')).toBe(true);
  });

  it('keeps Boolean.new case-insensitive words and refuses the rest', () => {
    expect(matches("'YES'", 'Init[Boolean]')).toBe(true);
    expect(matches("''", 'Init[Boolean]')).toBe(false);
    expect(matches("'foo'", 'Init[Boolean]')).toBe(false);
  });

  it('with init arguments, takes only what the signatures taking them take first', () => {
    expect(matches("'12'", 'Init[Integer, 16]')).toBe(true);
    expect(matches("'ff'", 'Init[Integer, 16]')).toBe(false);
    expect(matches("['12']", 'Init[Integer, 16]')).toBe(false);
  });

  it('is RichData when bare', () => {
    expect(matches('/x/', 'Init')).toBe(true);
  });
});

describe('Init[T] assignability', () => {
  const assignable = (a: string, b: string) => type(a).isAssignable(evaluatePuppet(b) as PType);
  it('compares two Init types by their contained types only', () => {
    expect(assignable('Init[Integer, 16]', 'Init[Integer]')).toBe(true);
    expect(assignable('Init[Integer]', 'Init[String]')).toBe(false);
    expect(assignable('Init', 'Init[Integer]')).toBe(true);
  });
  it('takes the one-value parameter types, not every type whose values it takes', () => {
    expect(assignable('Init[Integer]', 'Integer[1, 2]')).toBe(true);
    expect(assignable('Init[Integer]', 'String')).toBe(false);
    expect(assignable('Init[String]', 'String')).toBe(true);
  });
});

describe('Init[T] new arguments', () => {
  it('spreads an array unless T or a one-value signature takes it whole', () => {
    expect(type('Init[Integer]').newArguments(value("['12', 16]"))).toEqual(['12', 16]);
    expect(type('Init[Array]').newArguments(value('[1, 2]'))).toEqual([[1, 2]]);
    // Puppet's new_Init never reads the other signatures here (it spreads [1, 2] for String).
    expect(type('Init[String]').newArguments(value('[1, 2]'))).toEqual([1, 2]);
    expect(type('Init[Integer, 2]').newArguments('101')).toEqual(['101', 2]);
  });
});

describe('Init[T] refusals', () => {
  it('refuses a type without new when first used, not when written', () => {
    const t = type('Init[Optional[Integer]]');
    expect(t.toString()).toBe('Init[Optional[Integer]]');
    expect(() => t.isInstance(1)).toThrow(InitTypeError);
    expect(() => t.isInstance(1)).toThrow(
      "Creation of new instance of type 'Optional[Integer]' is not supported",
    );
  });
  it('refuses init arguments no signature takes', () => {
    expect(() => type("Init[Integer, 'x']").isInstance(1)).toThrow(
      "The type 'Init[Integer, 'x']' does not represent a valid set of parameters for Integer.new()",
    );
  });
  it('makes `=~` word the refusal as its own, at the operator', () => {
    let caught: unknown;
    try {
      evaluatePuppet('1 =~ Init[Undef]');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EppEvalError);
    expect((caught as EppEvalError).message).toContain(
      "Error while evaluating a '=~' expression, Creation of new instance of type 'Undef' is not supported",
    );
  });
});
