/**
 * Plain YAML scalars as Psych reads them (Ruby's psych/scalar_scanner.rb), which is how Puppet reads a
 * values file and PDK a `.sync.yml`: the tests, in Psych's order, and the values they give. Used by the
 * YAML 1.1 reading (engine/yaml-data.ts, as the yaml package's tags) and by the simple reader
 * (shared/simple-yaml.ts, to know what it may read itself).
 *
 * Where Psych differs from the YAML 1.1 schema of the yaml package: `yes`/`on`/`no`/`off` and `null` in any
 * case; Integers with `,` or `_` between digits (`1,000`); octal only for a leading 0 followed by octal
 * digits (`09` is a string); base 60 with Psych's powers (part e of n weighs 60^|e-2|: `1:30` is 5400);
 * Floats only with a point, and an exponent only with a sign (`1e3` is a string). Timestamps and dates stay
 * strings in `.sync.yml`; a values file refuses them, as Puppet's safe_load refuses the Time and Date
 * objects Psych makes (see PSYCH_DATE). `:symbols` stay strings.
 * test/engine/yaml-data.test.ts checks the reading against the system's Ruby.
 */

export const PSYCH_TRUE = /^(?:yes|true|on)$/i;
export const PSYCH_FALSE = /^(?:no|false|off)$/i;
export const PSYCH_NULL = /^(?:~|null)$/i;
export const PSYCH_INFINITY = /^\+?\.inf$/i;
export const PSYCH_MINUS_INFINITY = /^-\.inf$/i;
export const PSYCH_NAN = /^\.nan$/i;
export const PSYCH_BASE60_INT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}$/;
export const PSYCH_BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}\.[0-9_]*$/;
export const PSYCH_FLOAT = /^[-+]?(?:[0-9][0-9_,]*)?\.[0-9]*(?:[eE][-+][0-9]+)?$/;
export const PSYCH_INTEGER =
  /^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$/;

/**
 * Psych's Date (`2024-01-02`, `2024-1-2`) and Time (`2024-01-02T10:00:00Z`, `2024-01-02 10:00:00 +01:00`):
 * Ruby objects, which Puppet's safe_load refuses in a values file ("Tried to load unspecified class").
 */
export const PSYCH_DATE = /^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$/;
export const PSYCH_TIME =
  /^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$/;

/** Ruby's `Integer(s)` of a Psych integer (`,` and `_` removed): a sign, then 0b, 0x or 0 (octal). */
export function psychInteger(text: string): bigint {
  const digits = text.replace(/[,_]/g, '');
  const negative = digits.startsWith('-');
  const unsigned = digits.replace(/^[-+]/, '');
  const value =
    unsigned.length > 1 && unsigned[0] === '0'
      ? BigInt(/^0[bx]/i.test(unsigned) ? unsigned : `0o${unsigned.slice(1)}`)
      : BigInt(unsigned);
  return negative ? -value : value;
}

/**
 * Ruby's `Float` of a Psych float: `,` and `_` dropped, and a point before an exponent or at the end;
 * undefined for `.` and `+.` alone, which Psych keeps as strings.
 */
export function psychFloat(text: string): number | undefined {
  if (/^[-+]?\.$/.test(text)) return undefined;
  return Number(text.replace(/[,_]|\.(?=[Ee]|$)/g, ''));
}

/** Psych's base 60: part e of n weighs 60^|e-2|, so `1:30` is 5400 and `1:30:00` too. */
export function psychBase60(text: string): number {
  return text
    .split(':')
    .reduce((sum, part, e) => sum + Number(part.replace(/_/g, '')) * 60 ** Math.abs(e - 2), 0);
}
