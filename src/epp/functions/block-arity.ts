/**
 * Which of its variants a lambda's parameter count picks, and Puppet's error when none does: for a
 * function with several dispatches (`step`, `reverse_each`, `index`, `max`, `tree_each`), every dispatch
 * with why it refused the block, or one merged message when the refusals are alike (`each`).
 */
import { acceptsArgs } from './arguments.js';
import { blockRefused } from './not-iterable.js';
import type { Lambda } from './registry.js';

/**
 * Picks the first of `counts` the lambda accepts (Puppet tries its 2-parameter variants first). When none
 * fits, an `EPP_ARGUMENTS` error worded as Puppet's: `'each' block expects between 1 and 2 arguments, got
 * 3`, or the listing of `step`'s two dispatches (one takes no block, one a block of 1).
 */
export function blockArity(name: string, block: Lambda, ...counts: number[]): number {
  for (const n of counts) if (acceptsArgs(block, n)) return n;
  throw blockRefused(name, block, { min: Math.min(...counts), max: Math.max(...counts) });
}
