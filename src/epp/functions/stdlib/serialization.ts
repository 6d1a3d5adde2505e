/**
 * puppetlabs-stdlib's writers of other languages' literals, as stdlib 9.7.0 runs them on Puppet 7:
 * `stdlib::to_toml` (stdlib's vendored toml-rb dumper, lib/puppet_x/stdlib/toml_dumper.rb),
 * `stdlib::to_python` and `stdlib::to_ruby` (Puppet's rich-data conversion, then Ruby `inspect`-style
 * literals), and their deprecated plain names (`to_toml`, ...), which hand their arguments on unchanged.
 */
import { EppEvalError } from '../../errors.js';
import { compareValues } from '../../runtime/compare.js';
import { formatFloat, rubyInspectString, timeDataToString } from '../../runtime/format.js';
import { rubySort } from '../../runtime/ruby-sort.js';
import { checkTextLength } from '../../runtime/text-size.js';
import { isPuppetType } from '../../runtime/types.js';
import {
  isHash,
  PDefault,
  PFloat,
  type PHash,
  PRegexp,
  PSensitive,
  PTimeData,
  type Value,
} from '../../runtime/values.js';
import { argumentMismatch, puppetType } from '../arguments.js';
import { defineFunction, type FunctionDef } from '../registry.js';
import { rubyInspect, rubyToS } from '../ruby-text.js';
import { noMethod } from './ruby.js';
import { deprecatedAlias } from './support.js';

// ---------------------------------------------------------------------------------------------------------
// Shared

/** Values whose Ruby `inspect` shows an object address (types, timestamps): no stable text to copy. */
function unsupportedInspect(fn: string, v: Value): EppEvalError {
  const what = v instanceof PTimeData ? `a ${v.kind}` : `the type ${String(v)}`;
  return new EppEvalError(
    'EPP_UNSUPPORTED',
    `${fn}(): cannot write ${what}: Ruby prints it with an object address`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// to_toml

/**
 * stdlib's `rewrap_sensitive_data`: Sensitive values (and keys) unwrapped at any depth, and whether any
 * was. An array or hash met again (values share them) is copied once (`copies`): a copy path by path
 * would be many times the value's size.
 */
function unwrapSensitive(v: Value, found: { sensitive: boolean }, copies: Map<object, Value>): Value {
  if (v instanceof PSensitive) {
    found.sensitive = true;
    return unwrapSensitive(v.value, found, copies);
  }
  if (!Array.isArray(v) && !isHash(v)) return v;
  const done = copies.get(v);
  if (done !== undefined) return done;
  let copy: Value;
  if (Array.isArray(v)) {
    copy = v.map((e) => unwrapSensitive(e, found, copies));
  } else {
    const out: PHash = new Map();
    for (const [key, value] of v) {
      // A Sensitive key is unwrapped (one level, as stdlib does), but not walked into.
      let k = key;
      if (k instanceof PSensitive) {
        found.sensitive = true;
        k = k.value;
      }
      out.set(k, unwrapSensitive(value, found, copies));
    }
    copy = out;
  }
  copies.set(v, copy);
  return copy;
}

type Pair = [key: Value, value: Value];

/** The dumper's `sort_pairs`: keys sorted, then split into plain values, tables and arrays of tables. */
function sortPairs(hash: PHash): { simple: Pair[]; nested: Pair[]; tableArrays: Pair[] } {
  const simple: Pair[] = [];
  const nested: Pair[] = [];
  const tableArrays: Pair[] = [];
  for (const key of rubySort([...hash.keys()], compareValues)) {
    const value = hash.get(key);
    if (isHash(value)) nested.push([key, value]);
    else if (Array.isArray(value) && isHash(value[0])) tableArrays.push([key, value]);
    else simple.push([key, value]);
  }
  return { simple, nested, tableArrays };
}

/** A key as the dumper writes it: bare when its `to_s` is `[A-Za-z0-9_-]*` (even empty), else quoted. */
function tomlKey(key: Value): string {
  const text = rubyToS(key);
  if (/^[a-zA-Z0-9_-]*$/.test(text)) return text;
  if (typeof key !== 'string') throw noMethod('gsub', key);
  // Only `"` is escaped: a backslash or a newline in a key stays as it is, as in stdlib.
  return `"${key.replaceAll('"', '\\"')}"`;
}

/** The dumper's `to_toml(obj)`: a string inspected (without Ruby's `\#` before `{`, `$`, `@`), else inspect. */
function tomlValue(v: Value): string {
  if (typeof v === 'string') return rubyInspectString(v).replace(/\\(#[$@{])/g, '$1');
  if (v instanceof PRegexp) return rubyInspectString(rubyInspect(v));
  return rubyInspect(inspectable(v));
}

/** A value, refused where Ruby's inspect of it (or of something in it) would show an object address. */
function inspectable(v: Value): Value {
  if (v instanceof PTimeData || isPuppetType(v)) throw unsupportedInspect('stdlib::to_toml', v);
  if (Array.isArray(v)) v.forEach(inspectable);
  if (isHash(v)) {
    for (const [k, e] of v) {
      inspectable(k);
      inspectable(e);
    }
  }
  return v;
}

/** stdlib's TomlDumper, method for method. */
class TomlDumper {
  text = '';

  visit(hash: PHash, prefix: string[], extraBrackets = false): void {
    const { simple, nested, tableArrays } = sortPairs(hash);
    if (prefix.length > 0 && (simple.length > 0 || hash.size === 0)) this.printPrefix(prefix, extraBrackets);
    this.dumpPairs(simple, nested, tableArrays, prefix);
  }

  private dumpPairs(simple: Pair[], nested: Pair[], tableArrays: Pair[], prefix: string[]): void {
    for (const [key, value] of simple) this.text += `${tomlKey(key)} = ${tomlValue(value)}\n`;
    for (const [key, value] of nested) this.visit(value as PHash, [...prefix, tomlKey(key)]);
    for (const [key, value] of tableArrays) {
      const tablePrefix = [...prefix, tomlKey(key)];
      for (const child of value as Value[]) {
        this.printPrefix(tablePrefix, true);
        // Every element is taken for a hash: the dumper only looked at the first.
        if (!isHash(child)) throw noMethod('keys', child);
        const pairs = sortPairs(child);
        this.dumpPairs(pairs.simple, pairs.nested, pairs.tableArrays, tablePrefix);
      }
    }
  }

  private printPrefix(prefix: string[], extraBrackets: boolean): void {
    const joined = prefix.join('.');
    this.text += extraBrackets ? `[[${joined}]]\n` : `[${joined}]\n`;
  }
}

const toToml = defineFunction('stdlib::to_toml', 1, 1, (_ctx, [data]) => {
  if (!isHash(data)) throw argumentMismatch('stdlib::to_toml', 'data', puppetType('Hash'), data);
  const found = { sensitive: false };
  const dumper = new TomlDumper();
  const plain = unwrapSensitive(data, found, new Map()) as PHash;
  checkTextLength(plain, 'the TOML text of the value');
  dumper.visit(plain, []);
  return found.sensitive ? new PSensitive(dumper.text) : dumper.text;
});

// ---------------------------------------------------------------------------------------------------------
// to_python, to_ruby

/** One rich-data hash (`{'__ptype' => 'Regexp', '__pvalue' => 'a/b'}`). */
function pcore(type: string, value?: Value): PHash {
  const out: PHash = new Map([['__ptype', type]]);
  if (value !== undefined) out.set('__pvalue', value);
  return out;
}

/**
 * Puppet's `ToDataConverter.convert(value, rich_data: true)`, which both functions start with: a hash with
 * a key that is no string (or is `__ptype`) becomes a `Hash` of alternating keys and values, and what is
 * not data (default, regexps, Sensitive, timestamps) a hash naming its type.
 */
function toRichData(fn: string, v: Value, copies: Map<object, Value> = new Map()): Value {
  if (Array.isArray(v) || isHash(v)) {
    // Converted once however many times values share it (a copy path by path could be huge).
    const done = copies.get(v);
    if (done !== undefined) return done;
    const copy = richCollection(fn, v, copies);
    copies.set(v, copy);
    return copy;
  }
  if (v instanceof PDefault) return pcore('Default');
  if (v instanceof PSensitive) return pcore('Sensitive', toRichData(fn, v.value, copies));
  // The source, as Puppet keeps it (`/a\/b/` is `a/b`).
  if (v instanceof PRegexp) return pcore('Regexp', v.source);
  if (v instanceof PTimeData) return pcore(v.kind, timeDataToString(v));
  if (isPuppetType(v)) {
    throw new EppEvalError(
      'EPP_UNSUPPORTED',
      `${fn}(): cannot write the type ${String(v)} (Pcore type data)`,
    );
  }
  return v;
}

function richCollection(fn: string, v: Value[] | PHash, copies: Map<object, Value>): Value {
  if (Array.isArray(v)) return v.map((e) => toRichData(fn, e, copies));
  const plainKeys = [...v.keys()].every((k) => typeof k === 'string' && k !== '__ptype');
  if (plainKeys) {
    const out: PHash = new Map();
    for (const [k, e] of v) out.set(k, toRichData(fn, e, copies));
    return out;
  }
  const pairs: Value[] = [];
  for (const [k, e] of v) pairs.push(toRichData(fn, k, copies), toRichData(fn, e, copies));
  return pcore('Hash', pairs);
}

/** Ruby's `inspect` of a data scalar: a string with Ruby's escapes, numbers as Ruby prints them. */
function inspectScalar(v: Value): string {
  if (typeof v === 'string') return rubyInspectString(v);
  if (v instanceof PFloat) return formatFloat(v.value);
  return String(v);
}

/** stdlib's `serialized_to_python`: Python's constants, and Ruby's inspect for strings and numbers. */
function pythonLiteral(v: Value): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === undefined) return 'None';
  if (Array.isArray(v)) return `[${v.map(pythonLiteral).join(', ')}]`;
  if (isHash(v)) {
    const parts: string[] = [];
    for (const [k, e] of v) parts.push(`${pythonLiteral(k)}: ${pythonLiteral(e)}`);
    return `{${parts.join(', ')}}`;
  }
  return inspectScalar(v);
}

/** stdlib's `serialized_to_ruby`: Ruby's inspect, with ` => ` between a key and its value. */
function rubyLiteral(v: Value): string {
  if (v === undefined) return 'nil';
  if (Array.isArray(v)) return `[${v.map(rubyLiteral).join(', ')}]`;
  if (isHash(v)) {
    const parts: string[] = [];
    for (const [k, e] of v) parts.push(`${rubyLiteral(k)} => ${rubyLiteral(e)}`);
    return `{${parts.join(', ')}}`;
  }
  return inspectScalar(v);
}

const toPython = defineFunction('stdlib::to_python', 1, 1, (_ctx, [object]) => {
  const data = toRichData('stdlib::to_python', object);
  checkTextLength(data, 'the Python text of the value');
  return pythonLiteral(data);
});

const toRuby = defineFunction('stdlib::to_ruby', 1, 1, (_ctx, [object]) => {
  const data = toRichData('stdlib::to_ruby', object);
  checkTextLength(data, 'the Ruby text of the value');
  return rubyLiteral(data);
});

export const stdlibSerializationFunctions: FunctionDef[] = [
  toToml,
  toPython,
  toRuby,
  deprecatedAlias(toToml),
  deprecatedAlias(toPython),
  deprecatedAlias(toRuby),
];
