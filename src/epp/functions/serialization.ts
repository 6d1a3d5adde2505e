/**
 * puppetlabs-stdlib's `to_json`, `to_json_pretty` and `to_yaml`, byte for byte as Ruby 3.1 produces them:
 * `to_json` is Ruby's `JSON.generate`, `to_json_pretty` is `JSON.pretty_generate` plus a final newline
 * (including json 2.6's way of printing empty collections, `[\n\n]` and `{\n}`), and `to_yaml` is Psych's
 * `to_yaml` (options `indentation` and `line_width`): Psych picks a style for each string (plain, quoted,
 * literal or folded block), libyaml may override it, and long lines fold at 80 columns. Values that are not
 * data (regexps, types, Sensitive, timestamps) print as Ruby's `to_s` of them.
 */
import type { FunctionDef } from './registry.js';
import { toJsonFn, toJsonPrettyFn } from './serialization/json.js';
import { toYamlFn } from './serialization/yaml.js';
import { deprecatedAlias } from './stdlib/support.js';

/**
 * stdlib 9's functions are `stdlib::to_json` etc. (their messages name them so); the plain names are its
 * deprecated shims, which take any arguments and hand them on (so a block given to one is refused before
 * its arguments are looked at, and a wrong argument is reported by the `stdlib::` name, as in Puppet).
 */
export const serializationFunctions: FunctionDef[] = [
  toJsonFn,
  toJsonPrettyFn,
  toYamlFn,
  deprecatedAlias(toJsonFn),
  deprecatedAlias(toJsonPrettyFn),
  deprecatedAlias(toYamlFn),
];
