/**
 * How Puppet hands arguments to a function written for the 3.x API (stdlib's lib/puppet/parser/functions):
 * Puppet's Runtime3FunctionArgumentConverter. An undef argument arrives as the empty string (undef nested
 * in an array or hash stays undef), and values the 3.x API does not know arrive as their string form: a
 * regexp as `/a\/b/` (at any depth, so `type(pick(/a/))` is String), a Timestamp as its text
 * (`toRubyArgs`, shared with the formats that hand values to Ruby).
 */
import { toRubyArgs } from '../runtime/format/ruby-args.js';
import type { Value } from '../runtime/values.js';
import type { FunctionDef } from './registry.js';

/**
 * A function of the 3.x API: its arguments as Puppet converts them, and no block (Puppet calls it without
 * the block a call gives); a wrong argument count is said in Ruby's words ({@link FunctionDef.legacy}).
 */
export function runtime3(def: FunctionDef): FunctionDef {
  return { ...def, legacy: true, call: (ctx, args) => def.call(ctx, toRubyArgs(args) as Value[], undefined) };
}
