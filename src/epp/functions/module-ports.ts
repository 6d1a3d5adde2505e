/**
 * Functions that public modules write in Ruby (`lib/puppet/functions/<module>/<name>.rb`), ported, so that
 * their templates render: Pantograph runs no Ruby, and a module's Ruby function is otherwise an unknown
 * function. Each is available only when its module is on the module path, as in Puppet, and does what
 * the module's Ruby does (its source is named beside it).
 */
import { defineFunction, type FunctionDef } from './registry.js';
import { rubyToS } from './ruby-text.js';

/**
 * `apache::bool2httpd` (puppetlabs-apache, lib/puppet/functions/apache/bool2httpd.rb): `'Off'` for undef,
 * false or a String containing "false" in any case, `'On'` for true or one containing "true", any other
 * value as Ruby's `to_s` prints it. (Ruby's `=~` on a value that is no String is nil.)
 */
const bool2httpd = defineFunction('apache::bool2httpd', 1, 1, (_ctx, [arg]) => {
  if (arg === undefined || arg === false || (typeof arg === 'string' && /false/i.test(arg))) return 'Off';
  if (arg === true || (typeof arg === 'string' && /true/i.test(arg))) return 'On';
  return rubyToS(arg);
});

const PORTS: ReadonlyMap<string, FunctionDef> = new Map([[bool2httpd.name, bool2httpd]]);

/** The port of the Ruby function `name` (`module::name`), or undefined. */
export function rubyFunctionPort(name: string): FunctionDef | undefined {
  return PORTS.get(name);
}
