/**
 * The Puppet type system (placeholder contract; the full implementation replaces this file).
 */
import type { Value } from './values.js';

export abstract class PType {
  readonly isPuppetType = true;
  abstract readonly name: string;
  abstract isInstance(value: Value): boolean;
  abstract toString(): string;
}
