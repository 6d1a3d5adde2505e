/**
 * Functions of puppetlabs-stdlib that real templates call (issue 12), with stdlib 9's behaviour, checked
 * against Puppet 7 with stdlib on the modulepath (test/conformance/stdlib-cases):
 * `pick`, `pick_default`, `delete_undef_values`, `join_keys_to_values`, `stdlib::ensure`; strings and
 * conversions (strings.ts): `bool2str`, `str2bool`, `bool2num`, `num2bool`, `any2bool`, `basename`,
 * `dirname`, `stdlib::extname`, `base64`, `squeeze`, `swapcase`, `regexpescape`, `shell_escape`, `shell_join`,
 * `shell_split`, `batch_escape`, `powershell_escape`, `uriescape`, `enclose_ipv6`, `dos2unix`, `unix2dos`,
 * `to_bytes`, `convert_base`, `stdlib::start_with`, `stdlib::end_with`, `stdlib::crc32`, `stdlib::sha256`,
 * `stdlib::xml_encode`, `stdlib::ip_in_range`, `type_of` (`shell_escape`, `batch_escape`, `powershell_escape`
 * and `type_of` also as `stdlib::...`); collections (collections.ts): `merge`, `stdlib::merge`,
 * `deep_merge`, `concat`, `delete`, `delete_at`, `delete_regex`, `delete_values`, `prefix`, `suffix`,
 * `member`, `union`, `difference`, `intersection`, `zip`, `values_at`, `reject`, `count`, `any2array`,
 * `range`, `clamp`, `stdlib::nested_values`, `stdlib::sort_by`, `is_a`; serialisation and parsing
 * (serialization.ts, parsing.ts): `to_toml`, `to_python`, `to_ruby` (and their `stdlib::`
 * names), `parsejson`, `parsepson`.
 */
import { EppEvalError } from '../../errors.js';
import { rubyClassName } from '../../runtime/compare.js';
import { interpolate } from '../../runtime/format/render.js';
import type { PType } from '../../runtime/types.js';
import { isHash, type PHash, type Value } from '../../runtime/values.js';
import { argumentMismatch, puppetType } from '../arguments.js';
import { defineFunction, type FunctionDef } from '../registry.js';
import { rubyToS } from '../ruby-text.js';
import { runtime3 } from '../runtime3.js';
import { stdlibCollections3, stdlibCollections4 } from './collections.js';
import { stdlibParsingFunctions } from './parsing.js';
import { stdlibSerializationFunctions } from './serialization.js';
import { stdlibStringFunctions } from './strings.js';

/** What `pick` skips: undef and the empty string. */
const blank = (v: Value): boolean => v === undefined || v === '';

const pick = defineFunction('pick', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  const found = args.find((v) => !blank(v));
  if (found === undefined) {
    throw new EppEvalError('EPP_ARGUMENTS', 'pick(): must receive at least one non empty value');
  }
  return found;
});

// stdlib's 3.x functions without a declared arity count their arguments themselves, in their own words.
const pickDefault = defineFunction('pick_default', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length === 0) throw new EppEvalError('EPP_ARGUMENTS', 'Must receive at least one argument.');
  const found = args.slice(0, -1).find((v) => !blank(v));
  return found === undefined ? args[args.length - 1] : found;
});

const deleteUndefValues = defineFunction('delete_undef_values', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length === 0) {
    throw new EppEvalError('EPP_ARGUMENTS', 'delete_undef_values(): Wrong number of arguments given (0)');
  }
  const collection = args[0];
  if (Array.isArray(collection)) return collection.filter((v) => v !== undefined);
  if (isHash(collection)) {
    const out: PHash = new Map();
    for (const [k, v] of collection) if (v !== undefined) out.set(k, v);
    return out;
  }
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    // stdlib's words, its two spaces and trailing one included.
    `delete_undef_values(): expected an array or hash, got ${collection === undefined ? '' : interpolate(collection)} type  ${rubyClassName(collection)} `,
  );
});

const joinKeysToValues = defineFunction('join_keys_to_values', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 2) {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `join_keys_to_values(): Takes exactly two arguments, but ${args.length} given.`,
    );
  }
  const [hash, separator] = args;
  if (!isHash(hash)) {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `join_keys_to_values(): The first argument must be a hash, but a ${rubyClassName(hash)} was given.`,
    );
  }
  if (typeof separator !== 'string') {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `join_keys_to_values(): The second argument must be a string, but a ${rubyClassName(separator)} was given.`,
    );
  }
  const out: Value[] = [];
  for (const [k, v] of hash) {
    // Ruby's String() of keys and values (a hash value prints `{"d"=>1}`). An undef value gives
    // `key<separator>`: Ruby's String(nil) is empty (stdlib's `'undef'` test never holds).
    const key = rubyToS(k);
    if (Array.isArray(v)) for (const item of v) out.push(key + separator + rubyToS(item));
    else out.push(key + separator + rubyToS(v));
  }
  return out;
});

/** stdlib::ensure's parameter types (functions/ensure.pp), made on first use. */
let ensureTypes: { readonly ensure: PType; readonly resource: PType } | undefined;

const ensure = defineFunction('stdlib::ensure', 1, 2, (_ctx, [value, resource]) => {
  ensureTypes ??= {
    ensure: puppetType('Variant', puppetType('Boolean'), puppetType('Enum', 'present', 'absent')),
    resource: puppetType(
      'Optional',
      puppetType('Enum', 'directory', 'link', 'mounted', 'service', 'file', 'package'),
    ),
  };
  if (!ensureTypes.ensure.isInstance(value)) {
    throw argumentMismatch('stdlib::ensure', 'ensure', ensureTypes.ensure, value);
  }
  if (!ensureTypes.resource.isInstance(resource)) {
    throw argumentMismatch('stdlib::ensure', 'resource', ensureTypes.resource, resource);
  }
  const state = value === true ? 'present' : value === false ? 'absent' : value;
  if (resource === 'package') return state === 'present' ? 'installed' : 'absent';
  if (resource === 'service') return state === 'present' ? 'running' : 'stopped';
  if (resource === undefined) return state;
  return state === 'present' ? resource : state;
});

export const stdlibFunctions: FunctionDef[] = [
  runtime3(pick),
  runtime3(pickDefault),
  runtime3(deleteUndefValues),
  runtime3(joinKeysToValues),
  ensure,
  ...stdlibStringFunctions,
  ...stdlibCollections3.map(runtime3),
  ...stdlibCollections4,
  ...stdlibSerializationFunctions,
  ...stdlibParsingFunctions,
];
