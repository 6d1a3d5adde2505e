/**
 * `Object[{...}]`'s initializer hash made a {@link NamedObjectType}, with Puppet's errors for what its
 * validation refuses and EPP_UNSUPPORTED for what a template could only use with Ruby code behind it.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { EppEvalError } from '../../errors.js';
import type { Value } from '../values.js';
import {
  describeMismatch,
  inferGenericType,
  isPuppetType,
  literal,
  NamedObjectType,
  type ObjectAttribute,
  type PType,
  UNDEF,
} from './internal.js';

/** Puppet's `TYPE_NAME` rule for an Object type's name. */
const TYPE_NAME = /^[A-Z]\w*(?:::[A-Z]\w*)*$/;
/** Puppet's attribute (member) name rule. */
const MEMBER_NAME = /^[a-z_]\w*$/;

/** The initializer keys Puppet knows and Pantograph has no use of without Ruby behind the type. */
const UNSUPPORTED_KEYS = new Set([
  'type_parameters',
  'functions',
  'equality',
  'equality_include_type',
  'checks',
  'serialization',
  'annotations',
]);
const ATTRIBUTE_KEYS = new Set(['type', 'value', 'kind']);
const UNSUPPORTED_ATTRIBUTE_KEYS = new Set(['annotations', 'final', 'override']);

/** What to do instead, for the parts of an Object type Pantograph leaves out. */
const HINT =
  'Pantograph supports Object types with a name, a parent and attributes (a type, or {type => T, value => default}, kind => constant); give the template other data as a Hash checked by a Struct type';

function unsupported(what: string): EppEvalError {
  return new EppEvalError(
    'EPP_UNSUPPORTED',
    `Object types with ${what} are not supported in templates`,
    undefined,
    HINT,
  );
}

/** An error Puppet raises while it makes the type, worded as the access expression's. */
function accessError(message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', `Error while evaluating a '[]' expression, ${message}`);
}

/** Puppet's message for an initializer its `TYPE_OBJECT_I12N` refuses. */
function wrongInitializer(problem: string): EppEvalError {
  return accessError(`object initializer has wrong type, ${problem}`);
}

/** `Object[{name => 'Point', parent => $base, attributes => {...}}]`. */
export function objectTypeOf(init: Map<Value, Value>): NamedObjectType {
  for (const key of init.keys()) {
    if (typeof key !== 'string') throw unsupported('a key that is no string');
    if (UNSUPPORTED_KEYS.has(key)) throw unsupported(`'${key}'`);
    if (!['name', 'parent', 'attributes', 'constants'].includes(key)) {
      throw wrongInitializer(`unrecognized key '${key}'`);
    }
  }
  const name = init.get('name');
  // Puppet itself fails on an Object type with no name once a value is made (`undefined method 'sub'`).
  if (name === undefined) throw unsupported('no name');
  if (typeof name !== 'string' || !TYPE_NAME.test(name)) {
    const shown = typeof name === 'string' ? `'${name}'` : String(name);
    throw wrongInitializer(
      `entry 'name' expects a match for Pattern[/\\A[A-Z][\\w]*(?:::[A-Z][\\w]*)*\\z/], got ${shown}`,
    );
  }
  const parent = init.get('parent');
  if (parent !== undefined && !(parent instanceof NamedObjectType)) {
    throw unsupported('a parent that is not a named Object type value');
  }
  const constants = new Map<string, Value>();
  const written = init.get('constants');
  if (written !== undefined) {
    if (!(written instanceof Map)) throw unsupported("'constants' that are not a hash");
    for (const [k, v] of written) constants.set(memberName(k), v);
  }
  const own: ObjectAttribute[] = [];
  const attributes = init.get('attributes');
  if (attributes !== undefined) {
    if (!(attributes instanceof Map)) throw unsupported("'attributes' that are not a hash");
    for (const [k, spec] of attributes) {
      const label = `${name}[${memberName(k)}]`;
      const attribute = attributeOf(k as string, label, spec);
      const inherited = parent?.member(attribute.name);
      if (inherited?.found) {
        throw accessError(
          `attribute ${label} attempts to override attribute ${ownerOf(parent!, attribute.name)}[${attribute.name}] without having override => true`,
        );
      }
      if (attribute.kind === 'constant') constants.set(attribute.name, attribute.value);
      else own.push(attribute);
    }
  }
  return new NamedObjectType(name, parent, own, constants);
}

function memberName(k: Value): string {
  if (typeof k !== 'string') throw unsupported(`the member name ${String(k)}`);
  if (!MEMBER_NAME.test(k)) {
    throw wrongInitializer(
      `entry 'attributes' key of entry '${k}' expects a match for Pattern[/\\A[a-z_]\\w*\\z/], got '${k}'`,
    );
  }
  return k;
}

/** The name of the type that declares an inherited member. */
function ownerOf(type: NamedObjectType, member: string): string {
  for (let t: NamedObjectType | undefined = type; t; t = t.parent) {
    if (t.own.some((a) => a.name === member) || t.constants.has(member)) return t.typeName;
  }
  return type.typeName;
}

/** An attribute from its type, or from `{type => T, value => v, kind => constant}`. */
function attributeOf(
  name: string,
  label: string,
  spec: Value,
): ObjectAttribute & { readonly kind?: 'constant' } {
  if (isPuppetType(spec)) return plainAttribute(name, spec);
  if (!(spec instanceof Map)) {
    throw accessError(
      `attribute ${label} has wrong type, expects a Type value, got ${inferGenericType(spec)}`,
    );
  }
  for (const key of spec.keys()) {
    if (typeof key === 'string' && UNSUPPORTED_ATTRIBUTE_KEYS.has(key)) {
      throw unsupported(`'${key}' on an attribute`);
    }
    if (typeof key !== 'string' || !ATTRIBUTE_KEYS.has(key)) {
      throw accessError(
        `initializer for attribute ${label} has wrong type, unrecognized key ${literal(key)}`,
      );
    }
  }
  const type = spec.get('type');
  if (!isPuppetType(type)) throw unsupported(`the attribute ${label} without a type`);
  const kind = spec.get('kind');
  const value = spec.get('value');
  if (spec.has('value') && !type.isInstance(value)) {
    throw accessError(`attribute ${label} value has wrong type, ${describeMismatch(type, value, '')}`);
  }
  if (kind === 'constant') {
    if (!spec.has('value')) throw accessError(`attribute ${label} of kind 'constant' requires a value`);
    return { name, type, hasDefault: true, value, kind: 'constant' };
  }
  // `derived` and `given_or_derived` attributes are computed by Ruby code a template cannot have.
  if (kind !== undefined) throw unsupported(`attributes of kind ${literal(kind)}`);
  if (!spec.has('value')) return plainAttribute(name, type);
  return { name, type, hasDefault: true, value };
}

/** An attribute with a type alone: an Optional one (a type undef is an instance of) defaults to undef. */
function plainAttribute(name: string, type: PType): ObjectAttribute {
  return { name, type, hasDefault: type.isAssignable(UNDEF), value: undefined };
}
