/**
 * Ruby's Kernel#format: a parsed `%...` directive, its limits and padding, shared by the `sprintf` modules
 * (and `MAX_WIDTH` by strftime).
 */
import { EppEvalError } from '../../errors.js';
import { characterCount } from '../characters.js';
import type { Value } from '../values.js';

/** Limits on width and precision: Ruby accepts any int, but a template has no use for gigabytes of padding. */
export const MAX_WIDTH = 1_000_000;
export const MAX_PRECISION = 10_000;

/** One parsed `%...` directive. */
export interface Spec {
  minus: boolean;
  plus: boolean;
  space: boolean;
  zero: boolean;
  alt: boolean;
  width: number | undefined;
  prec: number | undefined;
  conv: string;
}

/** A value as a Ruby format argument sees it: Puppet values after Puppet's 3.x function conversion. */
export type RubyArg = Value;

export function formatError(message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', message);
}

/** Pads `body` (whose sign/prefix is `head`) to the spec's width, counted in characters as Ruby counts. */
export function pad(spec: Spec, head: string, body: string, zeroAllowed: boolean): string {
  const width = spec.width ?? 0;
  const len = charCount(head) + charCount(body);
  if (len >= width) return head + body;
  if (spec.minus) return head + body + ' '.repeat(width - len);
  if (spec.zero && zeroAllowed) return head + '0'.repeat(width - len) + body;
  return ' '.repeat(width - len) + head + body;
}

export function signOf(negative: boolean, spec: Spec): string {
  if (negative) return '-';
  if (spec.plus) return '+';
  return spec.space ? ' ' : '';
}

/** Characters (code points), not UTF-16 units: an emoji is one, as in Ruby. */
const charCount = characterCount;
