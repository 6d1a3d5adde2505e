/**
 * Functions of puppetlabs-stdlib that real templates call (issue 12), with stdlib 9's behaviour, checked
 * against Puppet 7 with stdlib on the modulepath (test/conformance/stdlib-cases):
 * `pick`, `pick_default`, `delete_undef_values`, `join_keys_to_values`, `stdlib::ensure`;
 * serialisation and parsing: `to_toml`, `to_python`, `to_ruby` (and their `stdlib::` names), `parsejson`,
 * `parseyaml`, `parsepson`.
 */
import { EppEvalError } from '../errors.js';
import { interpolate } from '../runtime/format/render.js';
import { regexpWithDelimiters } from '../runtime/format.js';
import { isHash, type PHash, PRegexp, type Value } from '../runtime/values.js';
import { defineFunction, type FunctionDef } from './registry.js';
import { rubyToS } from './ruby-text.js';
import { stdlibParsingFunctions } from './stdlib-parsing.js';
import { stdlibSerializationFunctions } from './stdlib-serialization.js';

/** What `pick` skips: undef and the empty string. */
const blank = (v: Value): boolean => v === undefined || v === '';

const pick = defineFunction('pick', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  const found = args.find((v) => !blank(v));
  if (found === undefined) {
    throw new EppEvalError('EPP_ARGUMENTS', 'pick(): must receive at least one non empty value');
  }
  return found;
});

const pickDefault = defineFunction('pick_default', 1, Number.POSITIVE_INFINITY, (_ctx, args) => {
  const found = args.slice(0, -1).find((v) => !blank(v));
  return found === undefined ? args[args.length - 1] : found;
});

const deleteUndefValues = defineFunction('delete_undef_values', 1, 1, (_ctx, [collection]) => {
  if (Array.isArray(collection)) return collection.filter((v) => v !== undefined);
  if (isHash(collection)) {
    const out: PHash = new Map();
    for (const [k, v] of collection) if (v !== undefined) out.set(k, v);
    return out;
  }
  throw new EppEvalError(
    'EPP_ARGUMENTS',
    `delete_undef_values(): expected an array or hash, got ${collection === undefined ? '' : interpolate(collection)}`,
  );
});

const joinKeysToValues = defineFunction('join_keys_to_values', 2, 2, (_ctx, [hash, separator]) => {
  if (!isHash(hash)) {
    throw new EppEvalError('EPP_ARGUMENTS', 'join_keys_to_values(): The first argument must be a hash');
  }
  if (typeof separator !== 'string') {
    throw new EppEvalError('EPP_ARGUMENTS', 'join_keys_to_values(): The second argument must be a string');
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

const ENSURE_RESOURCES = ['directory', 'link', 'mounted', 'service', 'file', 'package'];

const ensure = defineFunction('stdlib::ensure', 1, 2, (_ctx, [value, resource]) => {
  const state = value === true ? 'present' : value === false ? 'absent' : value;
  if (state !== 'present' && state !== 'absent') {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      "'stdlib::ensure' parameter 'ensure' expects a value of type Boolean or Enum['absent', 'present']",
    );
  }
  if (resource !== undefined && (typeof resource !== 'string' || !ENSURE_RESOURCES.includes(resource))) {
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `'stdlib::ensure' parameter 'resource' expects an undef value or a value of type Enum['${ENSURE_RESOURCES.join("', '")}']`,
    );
  }
  if (resource === 'package') return state === 'present' ? 'installed' : 'absent';
  if (resource === 'service') return state === 'present' ? 'running' : 'stopped';
  if (resource === undefined) return state;
  return state === 'present' ? resource : state;
});

/**
 * A value as Puppet hands it to a function of the 3.x API: a regexp, at any depth, becomes the string of
 * its Puppet form (`/a\/b/`, so `type(pick(/a/))` is String); the rest is unchanged here.
 */
function asRuntime3(v: Value): Value {
  if (v instanceof PRegexp) return regexpWithDelimiters(v);
  if (Array.isArray(v)) return v.map(asRuntime3);
  if (isHash(v)) {
    const out: PHash = new Map();
    for (const [key, value] of v) out.set(asRuntime3(key), asRuntime3(value));
    return out;
  }
  return v;
}

/** A function of stdlib's 3.x API (lib/puppet/parser/functions): its arguments as Puppet converts them. */
function runtime3(def: FunctionDef): FunctionDef {
  return { ...def, call: (ctx, args, block) => def.call(ctx, args.map(asRuntime3), block) };
}

export const stdlibFunctions: FunctionDef[] = [
  runtime3(pick),
  runtime3(pickDefault),
  runtime3(deleteUndefValues),
  runtime3(joinKeysToValues),
  ensure,
  ...stdlibSerializationFunctions,
  ...stdlibParsingFunctions,
];
