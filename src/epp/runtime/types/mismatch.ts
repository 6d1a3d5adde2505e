/**
 * Mismatch descriptions (Puppet's TypeMismatchDescriber): `expects an Integer value, got String`.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import type { Value } from '../values.js';
import {
  AliasType,
  ANY,
  AnyType,
  ArrayType,
  aliasExpandedString,
  ContainerType,
  EnumType,
  exactSize,
  HashType,
  IntegerType,
  inferType,
  numMax,
  numMin,
  OptionalType,
  PatternType,
  type PType,
  StringType,
  StructType,
  TupleType,
  UNDEF,
  UndefType,
  VariantType,
  variantOf,
} from './internal.js';

type PathElement = { readonly kind: 'subject' | 'entry' | 'key' | 'index' | 'variant'; readonly key: string };

function pathText(e: PathElement): string {
  switch (e.kind) {
    case 'entry':
      return `entry '${e.key}'`;
    case 'key':
      return `key of entry '${e.key}'`;
    case 'index':
      return `index ${e.key}`;
    case 'variant':
      return `variant ${e.key}`;
    default:
      return e.key;
  }
}

abstract class Mismatch {
  constructor(readonly path: readonly PathElement[]) {}
  /** The path without the variant steps: mismatches from different variants at one place merge. */
  canonical(): string {
    return this.path
      .filter((e) => e.kind !== 'variant')
      .map(pathText)
      .join('\0');
  }
  abstract text(): string;
  format(): string {
    const position = this.path.length === 0 ? '' : ` ${this.path.map(pathText).join(' ')}`;
    return `${position} ${this.text()}`;
  }
  chop(index: number): this {
    if (index >= this.path.length) return this;
    const copy = Object.create(Object.getPrototypeOf(this)) as this;
    Object.assign(copy, this, { path: this.path.filter((_, i) => i !== index) });
    return copy;
  }
}

class MissingKey extends Mismatch {
  constructor(
    path: readonly PathElement[],
    readonly key: string,
  ) {
    super(path);
  }
  text(): string {
    return `expects a value for key '${this.key}'`;
  }
}

class ExtraneousKey extends MissingKey {
  override text(): string {
    return `unrecognized key '${this.key}'`;
  }
}

class TypeMismatch extends Mismatch {
  readonly expected: PType;
  readonly actual: PType;
  constructor(path: readonly PathElement[], expected: PType | PType[], actual: PType) {
    super(path);
    this.expected = (Array.isArray(expected) ? variantOf(expected) : expected).normalize();
    this.actual = actual.normalize();
  }
  /** The same mismatch expecting either type (mismatches of all variants at one place merge). */
  merge(o: TypeMismatch): TypeMismatch {
    const Self = this.constructor as typeof TypeMismatch;
    return new Self(this.path, [this.expected, o.expected], this.actual);
  }
  text(): string {
    let e: PType | readonly PType[] = this.expected;
    const a = this.actual;
    let optional = false;
    if (e instanceof OptionalType) {
      e = e.type ?? ANY;
      optional = true;
    }
    if (e instanceof VariantType) e = e.types;
    let eText: string;
    let aText: string;
    let multi = false;
    if (Array.isArray(e)) {
      const list = e as readonly PType[];
      let names: string[];
      if (reportDetailed(list, a)) {
        aText = detailedActual(list, a);
        names = list.map(aliasExpandedString);
      } else {
        names = [...new Set(list.map(shortName))];
        aText = shortName(a);
      }
      if (optional) names.unshift('Undef');
      if (names.length === 1) eText = names[0]!;
      else {
        multi = true;
        eText =
          names.length === 2
            ? `${names[0]} or ${names[1]}`
            : `${names.slice(0, -1).join(', ')}, or ${names.at(-1)}`;
      }
    } else {
      const single = e as PType;
      if (reportDetailed([single], a)) {
        aText = detailedActual([single], a);
        eText = aliasExpandedString(single);
      } else {
        eText = shortName(single);
        aText = shortName(a);
      }
      if (optional) {
        eText = `Undef or ${eText}`;
        multi = true;
      }
    }
    return multi
      ? `expects a value of type ${eText}, got ${aText}`
      : `expects ${aAn(eText)} value, got ${aText}`;
  }
}

class PatternMismatch extends TypeMismatch {
  override text(): string {
    let e = this.expected;
    let prefix = '';
    if (e instanceof OptionalType) {
      e = e.type ?? ANY;
      prefix = 'an undef value or ';
    }
    const a = this.actual;
    const actual = a instanceof StringType && a.value !== undefined ? `'${a.value}'` : shortName(a);
    return `expects ${prefix}a match for ${aliasExpandedString(e)}, got ${actual}`;
  }
}

class SizeMismatch extends Mismatch {
  constructor(
    path: readonly PathElement[],
    readonly expected: IntegerType,
    readonly actual: IntegerType,
  ) {
    super(path);
  }
  merge(o: SizeMismatch): SizeMismatch {
    const range = new IntegerType(
      numMin(this.expected.from, o.expected.from),
      numMax(this.expected.to, o.expected.to),
    );
    return new SizeMismatch(this.path, range, this.actual);
  }
  text(): string {
    return `expects size to be ${rangeText(this.expected)}, got ${rangeText(this.actual)}`;
  }
}

function rangeText(r: IntegerType): string {
  const min = r.min ?? 0;
  const max = r.max;
  if (max !== undefined && min === max) return String(min);
  if (min === 0) return max === undefined ? 'unlimited' : `at most ${max}`;
  return max === undefined ? `at least ${min}` : `between ${min} and ${max}`;
}

function aAn(text: string): string {
  return `${/^[AEIOUaeiou]/.test(text) ? 'an' : 'a'} ${text}`;
}

/** `Optional[String]` keeps its parameter's name in short messages; other types use their simple name. */
/**
 * A value's type as the describer names it against an expected type of another kind: `Tuple` for `[1]`,
 * `Struct` for `{a => 1}`, `Array` for `[]`, `Integer` for `1`.
 */
export function describedTypeName(value: Value): string {
  return shortName(inferType(value).normalize());
}

function shortName(t: PType): string {
  if (t instanceof ContainerType && t.type !== undefined && !(t.type instanceof AnyType)) {
    return `${t.name}[${t.type.name}]`;
  }
  return t.name;
}

function alwaysDetailed(e: readonly PType[], a: PType): boolean {
  return e.some(
    (t) =>
      t.constructor === a.constructor ||
      t instanceof AliasType ||
      a instanceof AliasType ||
      (t instanceof StructType && a instanceof HashType) ||
      (t instanceof TupleType && a instanceof ArrayType),
  );
}

function reportDetailed(e: readonly PType[], a: PType): boolean {
  return (
    alwaysDetailed(e, a) ||
    e.some((t) => (t instanceof AliasType ? t.resolved() : t).kindDefault().isAssignable(a))
  );
}

function detailedActual(e: readonly PType[], a: PType): string {
  const resolved = e.map((t) => (t instanceof AliasType ? t.resolved() : t));
  if (alwaysDetailed(resolved, a)) return a.toString();
  const general = a.generalize();
  return resolved.some((t) => t.isAssignable(general)) ? a.toString() : a.name;
}

function describe(expected: PType, actual: PType, path: PathElement[]): Mismatch[] {
  return describeNormalized(expected.normalize(), expected, actual, path);
}

function describeNormalized(
  expected: PType,
  original: PType,
  actual: PType,
  path: PathElement[],
): Mismatch[] {
  if (expected instanceof VariantType) return describeVariant(expected, original, actual, path);
  if (expected instanceof StructType) return describeStruct(expected, original, actual, path);
  if (expected instanceof HashType) return describeHash(expected, original, actual, path);
  if (expected instanceof TupleType) return describeTuple(expected, original, actual, path);
  if (expected instanceof ArrayType) return describeArray(expected, original, actual, path);
  if (expected instanceof OptionalType) {
    if (actual instanceof UndefType || expected.type === undefined) return [];
    return describeNormalized(
      expected.type,
      original instanceof AliasType ? original : expected,
      actual,
      path,
    );
  }
  if (expected instanceof PatternType || expected instanceof EnumType) {
    return [new PatternMismatch(path, original, actual)];
  }
  if (expected instanceof AliasType) return describeAlias(expected, actual, path);
  return expected.isAssignable(actual) ? [] : [new TypeMismatch(path, original, actual)];
}

/** The aliases being described, with the actual type: an alias that is its own variant ends there. */
const aliasesDescribed: [AliasType, PType][] = [];

/**
 * A mismatch with an alias, as Puppet describes it: through its definition (`entry 'x' expects ...`), the
 * alias named where the definition is not met as a whole. Puppet's own aliases (Data, RichData) are not
 * looked into.
 */
function describeAlias(expected: AliasType, actual: PType, path: PathElement[]): Mismatch[] {
  if (expected.isAssignable(actual)) return [];
  const seen = aliasesDescribed.some(([alias, a]) => alias === expected && a === actual);
  if (!expected.expands || seen) return [new TypeMismatch(path, expected, actual)];
  aliasesDescribed.push([expected, actual]);
  try {
    return describeNormalized(expected.resolved().normalize(), expected, actual, path);
  } finally {
    aliasesDescribed.pop();
  }
}

function describeVariant(
  expected: VariantType,
  original: PType,
  actual: PType,
  path: PathElement[],
): Mismatch[] {
  const all: Mismatch[][] = [];
  const types = original instanceof OptionalType ? [UNDEF, ...expected.types] : expected.types;
  for (const [i, t] of types.entries()) {
    const d = describe(t, actual, [...path, { kind: 'variant', key: String(i) }]);
    if (d.length === 0) return [];
    all.push(d);
  }
  const merged = mergeDescriptions(path.length, all);
  // Every variant of an alias failed alike: the alias is what was expected (Puppet's words).
  if (merged.length === 1 && original instanceof AliasType) return [new TypeMismatch(path, original, actual)];
  return merged;
}

function mergeDescriptions(position: number, variants: Mismatch[][]): Mismatch[] {
  let descriptions = variants.flat();
  for (const cls of [SizeMismatch, TypeMismatch] as const) {
    const same = descriptions.filter((d) => d instanceof cls);
    if (same.length !== variants.length || same.length === 0) continue;
    const canonical = same[0]!.canonical();
    if (!same.every((d) => d.canonical() === canonical)) continue;
    let merged = same[0]!;
    for (const d of same.slice(1)) {
      merged =
        merged instanceof SizeMismatch
          ? merged.merge(d as SizeMismatch)
          : (merged as TypeMismatch).merge(d as TypeMismatch);
    }
    descriptions = [merged];
    break;
  }
  const unique: Mismatch[] = [];
  for (const d of descriptions) if (!unique.some((u) => u.format() === d.format())) unique.push(d);
  return unique.length === 1 ? [unique[0]!.chop(position)] : unique;
}

function describeArray(expected: ArrayType, original: PType, actual: PType, path: PathElement[]): Mismatch[] {
  const element = expected.element;
  if (actual instanceof TupleType) {
    const eSize = expected.sizeRange();
    const aSize = actual.size ?? exactSize(actual.types.length);
    if (!eSize.isAssignable(aSize)) return [new SizeMismatch(path, eSize, aSize)];
    return actual.types.flatMap((t, i) =>
      element.isAssignable(t) ? [] : describe(element, t, [...path, { kind: 'index', key: String(i) }]),
    );
  }
  if (actual instanceof ArrayType) {
    const aSize = actual.sizeRange();
    if (expected.size === undefined || expected.size.isAssignable(aSize)) {
      return [new TypeMismatch(path, original, new ArrayType(actual.element))];
    }
    return [new SizeMismatch(path, expected.size, aSize)];
  }
  return [new TypeMismatch(path, original, actual)];
}

function describeHash(expected: HashType, original: PType, actual: PType, path: PathElement[]): Mismatch[] {
  if (actual instanceof StructType) {
    const eSize = expected.sizeRange();
    const required = actual.elements.filter((e) => !e.key.isAssignable(UNDEF)).length;
    const aSize = new IntegerType(required, actual.elements.length);
    if (!eSize.isAssignable(aSize)) return [new SizeMismatch(path, eSize, aSize)];
    return actual.elements.flatMap((a) => [
      ...(expected.key.isAssignable(a.key)
        ? []
        : describe(expected.key, a.key, [...path, { kind: 'key', key: a.name }])),
      ...(expected.value.isAssignable(a.value)
        ? []
        : describe(expected.value, a.value, [...path, { kind: 'entry', key: a.name }])),
    ]);
  }
  if (actual instanceof HashType) {
    const aSize = actual.sizeRange();
    if (expected.size === undefined || expected.size.isAssignable(aSize)) {
      return [new TypeMismatch(path, original, new HashType(actual.key, actual.value))];
    }
    return [new SizeMismatch(path, expected.size, aSize)];
  }
  return [new TypeMismatch(path, original, actual)];
}

function describeStruct(
  expected: StructType,
  original: PType,
  actual: PType,
  path: PathElement[],
): Mismatch[] {
  if (actual instanceof StructType) {
    const out: Mismatch[] = [];
    const rest = new Map(actual.elements.map((e) => [e.name, e]));
    for (const e1 of expected.elements) {
      const e2 = rest.get(e1.name);
      rest.delete(e1.name);
      if (e2 === undefined) {
        if (!e1.optional) out.push(new MissingKey(path, e1.name));
        continue;
      }
      if (!e1.key.isAssignable(e2.key))
        out.push(...describe(e1.key, e2.key, [...path, { kind: 'key', key: e1.name }]));
      if (!e1.value.isAssignable(e2.value)) {
        out.push(...describe(e1.value, e2.value, [...path, { kind: 'entry', key: e1.name }]));
      }
    }
    for (const key of rest.keys()) out.push(new ExtraneousKey(path, key));
    return out;
  }
  if (actual instanceof HashType) {
    const required = expected.elements.filter((e) => !e.optional).length;
    const eSize = new IntegerType(required, expected.elements.length);
    const aSize = actual.sizeRange();
    if (eSize.isAssignable(aSize))
      return [new TypeMismatch(path, original, new HashType(actual.key, actual.value))];
    return [new SizeMismatch(path, eSize, aSize)];
  }
  return [new TypeMismatch(path, original, actual)];
}

function describeTuple(expected: TupleType, original: PType, actual: PType, path: PathElement[]): Mismatch[] {
  if (expected.equals(actual) || (expected.types.length === 0 && actual instanceof ArrayType)) return [];
  const eSize = expected.sizeRange();
  if (actual instanceof TupleType) {
    const aSize = actual.sizeRange();
    if (!eSize.isAssignable(aSize)) return [new SizeMismatch(path, eSize, aSize)];
    if (expected.types.length === 0) return [];
    return actual.types.flatMap((t, i) => {
      const index = Math.min(i, expected.types.length - 1);
      return describe(expected.types[index]!, t, [...path, { kind: 'index', key: String(index) }]);
    });
  }
  if (actual instanceof ArrayType) {
    const aSize = actual.sizeRange();
    if (!eSize.isAssignable(aSize)) return [new SizeMismatch(path, eSize, aSize)];
    return expected.types.flatMap((t, i) =>
      describe(t, actual.element, [...path, { kind: 'index', key: String(i) }]),
    );
  }
  return [new TypeMismatch(path, original, actual)];
}

/**
 * The problems Puppet reports for an argument of a function with one signature, worded after `subject`:
 * those its describer finds, of which a lone type mismatch stands for all (Puppet's `merge_descriptions`
 * over the signatures: `[]` for `Variant[String[1], Array[String[1], 1]]` is a String mismatch, the size
 * left out), each once.
 */
export function describeArgumentMismatches(expected: PType, value: Value, subject: string): string[] {
  const path: PathElement[] = subject === '' ? [] : [{ kind: 'subject', key: subject }];
  const errors = describe(expected, inferType(value), path);
  const typeMismatches = errors.filter((e) => e instanceof TypeMismatch);
  const reported = typeMismatches.length === 1 ? typeMismatches : errors;
  return [...new Set(reported.map((e) => e.format().trim()))];
}

/** Whether Puppet's describer words a mismatch of `value` (a bare `Optional` given a value it cannot). */
export function describesMismatch(expected: PType, value: Value): boolean {
  return describe(expected, inferType(value), []).length > 0;
}

/**
 * Puppet's message for a value that is not an instance of `expected`, starting with `subject`:
 * `parameter 'x' expects an Integer value, got String`,
 * `parameter 's' entry 'port' expects an Integer value, got String`,
 * `parameter 'mode' expects a match for Enum['off', 'on'], got 'maybe'`.
 * With an empty subject the message starts with `expects`. Several problems go a line each.
 */
export function describeMismatch(expected: PType, value: Value, subject: string): string {
  const path: PathElement[] = subject === '' ? [] : [{ kind: 'subject', key: subject }];
  const errors = describe(expected, inferType(value), path);
  if (errors.length === 0) return `${subject} expects ${aAn(expected.toString())} value`.trim();
  if (errors.length === 1) return errors[0]!.format().trim();
  // Puppet indents each line after the first by two spaces (its lines start with one, joined by "\n ").
  return errors.map((e) => e.format().trim()).join('\n  ');
}

/**
 * The one type mismatch of an argument its describer finds, or undefined when it finds none or several,
 * or only other problems (a missing or unrecognized key). Puppet's `merge_descriptions` over several
 * signatures that refuse the argument alike keeps a lone type mismatch and reports it alone; any other
 * problem it lists under each signature.
 */
export function loneTypeMismatch(expected: PType, value: Value, subject: string): string | undefined {
  const errors = describe(expected, inferType(value), [{ kind: 'subject', key: subject }]);
  const typeMismatches = errors.filter((e) => e instanceof TypeMismatch);
  return typeMismatches.length === 1 ? typeMismatches[0]!.format().trim() : undefined;
}
