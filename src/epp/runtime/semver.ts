/**
 * Puppet's SemVerRange values (its SemVer values are in semver-version.ts, exported here too): a port of
 * the `semantic_puppet` gem Puppet 7 uses (`SemanticPuppet::Version` and `SemanticPuppet::VersionRange`),
 * not of npm's `semver`, whose prerelease rules and range syntax differ. Kept as the gem has them, its quirks included: a range made of two
 * versions prints them swapped (`SemVerRange(SemVer('1.0.0'), SemVer('2.0.0'))` is `2.0.0 - 1.0.0`), the
 * lowest version prints as `0.0.0-` and the highest as `Infinity.0.0`.
 */

import {
  MAX_VERSION,
  MIN_VERSION,
  type Part,
  PSemVer,
  parseBuild,
  parsePrerelease,
  part,
  successor,
  VersionSyntaxError,
} from './semver-version.js';

export { MAX_VERSION, MIN_VERSION, PSemVer, VERSION_PATTERN, VersionSyntaxError } from './semver-version.js';

// ---------------------------------------------------------------- the ranges a VersionRange is made of

type RangeKind = 'all' | 'gt' | 'gteq' | 'lt' | 'lteq' | 'eq' | 'minmax';

/** One of the gem's AbstractRange subclasses: a comparator on a version, a min-max pair, or everything. */
export class SimpleRange {
  private constructor(
    readonly kind: RangeKind,
    readonly version: PSemVer | undefined,
    readonly min?: SimpleRange,
    readonly max?: SimpleRange,
  ) {}

  static readonly ALL = new SimpleRange('all', undefined);
  static comparator(kind: 'gt' | 'gteq' | 'lt' | 'lteq' | 'eq', version: PSemVer): SimpleRange {
    return new SimpleRange(kind, version);
  }
  static minMax(min: SimpleRange, max: SimpleRange): SimpleRange {
    return new SimpleRange(
      'minmax',
      undefined,
      min.kind === 'minmax' ? min.min : min,
      max.kind === 'minmax' ? max.max : max,
    );
  }
  /** `MinMaxRange.create`: the intersection of the ranges. */
  static create(...ranges: (SimpleRange | undefined)[]): SimpleRange | undefined {
    return ranges.reduce((memo, r) =>
      memo === undefined || r === undefined ? undefined : memo.intersection(r),
    );
  }

  get begin(): PSemVer {
    if (this.kind === 'minmax') return this.min!.begin;
    return this.kind === 'gt' || this.kind === 'gteq' || this.kind === 'eq' ? this.version! : MIN_VERSION;
  }
  get end(): PSemVer {
    if (this.kind === 'minmax') return this.max!.end;
    return this.kind === 'lt' || this.kind === 'lteq' || this.kind === 'eq' ? this.version! : MAX_VERSION;
  }
  get excludeBegin(): boolean {
    return this.kind === 'minmax' ? this.min!.excludeBegin : this.kind === 'gt';
  }
  get excludeEnd(): boolean {
    return this.kind === 'minmax' ? this.max!.excludeEnd : this.kind === 'lt';
  }
  get lowerBound(): boolean {
    if (this.kind === 'minmax') return this.min!.lowerBound;
    if (this.kind === 'gt') return true;
    return (this.kind === 'gteq' || this.kind === 'eq') && this.version !== MIN_VERSION;
  }
  get upperBound(): boolean {
    if (this.kind === 'minmax') return this.max!.upperBound;
    if (this.kind === 'lt') return true;
    return (this.kind === 'lteq' || this.kind === 'eq') && this.version !== MAX_VERSION;
  }

  includes(v: PSemVer): boolean {
    const v0 = this.version!;
    switch (this.kind) {
      case 'all':
        return true;
      case 'gt':
        return v.compare(v0) > 0;
      case 'gteq':
        return v.compare(v0) >= 0;
      case 'lt':
        return v.compare(v0) < 0;
      case 'lteq':
        return v.compare(v0) <= 0;
      case 'eq':
        return v === v0; // the gem's `==` is `eql?`: the build counts
      default:
        return this.min!.includes(v) && this.max!.includes(v);
    }
  }

  /** Whether a prerelease version may match: only one of the same numbers as a bound's prerelease. */
  testPrerelease(v: PSemVer): boolean {
    if (this.kind === 'all') return true;
    if (this.kind === 'minmax') return this.min!.testPrerelease(v) || this.max!.testPrerelease(v);
    const b = this.version!;
    return !b.stable && b.major === v.major && b.minor === v.minor && b.patch === v.patch;
  }

  equals(o: SimpleRange): boolean {
    if (this.kind !== o.kind) return false;
    if (this.kind === 'all') return true;
    if (this.kind === 'minmax') return this.min!.equals(o.min!) && this.max!.equals(o.max!);
    return this.version === o.version;
  }

  intersection(range: SimpleRange): SimpleRange | undefined {
    if (this.kind === 'all') return range;
    let c = this.begin.compare(range.end);
    if (c > 0) return undefined;
    if (c === 0)
      return this.excludeBegin || range.excludeEnd ? undefined : SimpleRange.comparator('eq', this.begin);
    c = range.begin.compare(this.end);
    if (c > 0) return undefined;
    if (c === 0)
      return range.excludeBegin || this.excludeEnd ? undefined : SimpleRange.comparator('eq', range.begin);
    c = this.begin.compare(range.begin);
    const min = c < 0 ? range : c > 0 ? this : this.excludeBegin ? this : range;
    c = this.end.compare(range.end);
    const max = c > 0 ? range : c < 0 ? this : this.excludeEnd ? this : range;
    if (!max.upperBound) return min;
    if (!min.lowerBound) return max;
    return SimpleRange.minMax(min, max);
  }

  merge(other: SimpleRange): SimpleRange | undefined {
    if (this.kind === 'all') return this;
    if (this.includes(other.begin) || other.includes(this.begin)) {
      let c = this.begin.compare(other.begin);
      const min = c <= 0 ? this.begin : other.begin;
      const exclBegin =
        c < 0 ? this.excludeBegin : c > 0 ? other.excludeBegin : this.excludeBegin && other.excludeBegin;
      c = this.end.compare(other.end);
      const max = c >= 0 ? this.end : other.end;
      // The gem reads `exclude_end` (a method it lacks) when the ends are equal: that raises, unless
      // this end is kept; taken here as its evident intent.
      const exclEnd =
        c > 0 ? this.excludeEnd : c < 0 ? other.excludeEnd : this.excludeEnd && other.excludeEnd;
      return SimpleRange.create(
        SimpleRange.comparator(exclBegin ? 'gt' : 'gteq', min),
        SimpleRange.comparator(exclEnd ? 'lt' : 'lteq', max),
      );
    }
    if (this.excludeEnd && !other.excludeBegin && this.end === other.begin) return fromTo(this, other);
    if (other.excludeEnd && !this.excludeBegin && other.end === this.begin) return fromTo(other, this);
    if (!this.excludeEnd && !other.excludeBegin && this.end.nextPatch() === other.begin)
      return fromTo(this, other);
    if (!other.excludeEnd && !this.excludeBegin && other.end.nextPatch() === this.begin)
      return fromTo(other, this);
    return undefined;
  }

  toString(): string {
    switch (this.kind) {
      case 'all':
        return '*';
      case 'gt':
        return `>${this.version}`;
      case 'gteq':
        return `>=${this.version}`;
      case 'lt':
        return this === MATCH_NOTHING ? '<0.0.0' : `<${this.version}`;
      case 'lteq':
        return `<=${this.version}`;
      case 'eq':
        return String(this.version);
      default:
        return `${this.min} ${this.max}`;
    }
  }
}

function fromTo(a: SimpleRange, b: SimpleRange): SimpleRange | undefined {
  return SimpleRange.create(
    SimpleRange.comparator(a.excludeBegin ? 'gt' : 'gteq', a.begin),
    SimpleRange.comparator(b.excludeEnd ? 'lt' : 'lteq', b.end),
  );
}

const MATCH_NOTHING = SimpleRange.comparator('lt', MIN_VERSION);

// ---------------------------------------------------------------- VersionRange

/** A `SemanticPuppet::VersionRange`: its simple ranges, merged, and the text it prints as. */
export class PSemVerRange {
  readonly ranges: readonly SimpleRange[];
  readonly text: string;

  constructor(ranges: readonly (SimpleRange | undefined)[], text: string | undefined) {
    this.ranges = mergeAll(ranges.filter((r): r is SimpleRange => r !== undefined));
    this.text = text ?? this.ranges.join(' || ');
  }

  /**
   * `VersionRange.new(min, max, exclude_end)`, which names its parameters the other way round: the text
   * has the versions swapped, the range does not.
   */
  static between(min: PSemVer, max: PSemVer, excludeEnd: boolean): PSemVerRange {
    const upper = SimpleRange.comparator(excludeEnd ? 'lt' : 'lteq', max);
    const text = excludeEnd ? `>=${max} <${min}` : `${max} - ${min}`;
    return new PSemVerRange([SimpleRange.create(SimpleRange.comparator('gteq', min), upper)], text);
  }

  /** `VersionRange.parse`: npm-like range text, or a {@link VersionSyntaxError}. */
  static parse(text: string): PSemVerRange {
    return parseRange(text);
  }

  get begin(): PSemVer | undefined {
    return this.ranges.length === 1 ? this.ranges[0]!.begin : undefined;
  }
  get end(): PSemVer | undefined {
    return this.ranges.length === 1 ? this.ranges[0]!.end : undefined;
  }
  get excludeEnd(): boolean | undefined {
    return this.ranges.length === 1 ? this.ranges[0]!.excludeEnd : undefined;
  }

  includes(v: PSemVer): boolean {
    return this.ranges.some((r) => r.includes(v) && (v.stable || r.testPrerelease(v)));
  }

  /** The gem's `eql?`: the same simple ranges, whatever the texts. */
  equals(o: PSemVerRange): boolean {
    return this.ranges.length === o.ranges.length && this.ranges.every((r, i) => r.equals(o.ranges[i]!));
  }

  toString(): string {
    return this.text;
  }
  display(): string {
    return this.text;
  }
  /** The gem's `inspect` (what `%p` prints): the simple ranges. */
  inspect(): string {
    return this.ranges.join(' || ');
  }
}

/** The merging loop of `VersionRange#initialize`. */
function mergeAll(input: SimpleRange[]): SimpleRange[] {
  let ranges = input;
  let merged = true;
  while (ranges.length > 1 && merged) {
    merged = false;
    const result: SimpleRange[] = [];
    while (ranges.length > 0) {
      const unmerged: SimpleRange[] = [];
      const x = ranges.pop()!;
      let memo = x;
      for (const y of ranges) {
        const m = memo.merge(y);
        if (m === undefined) unmerged.push(y);
        else {
          merged = true;
          memo = m;
        }
      }
      result.push(memo);
      ranges = unmerged;
    }
    ranges = result.reverse();
  }
  return ranges.length === 0 ? [MATCH_NOTHING] : ranges;
}

const NR = '0|[1-9][0-9]*';
const XR = `(x|X|\\*|${NR})`;
const XR_NC = `(?:x|X|\\*|${NR})`;
const PART = '(?:[0-9A-Za-z-]+)';
const PARTS = `${PART}(?:\\.${PART})*`;
const QUALIFIER = `(?:-(${PARTS}))?(?:\\+(${PARTS}))?`;
const QUALIFIER_NC = `(?:-${PARTS})?(?:\\+${PARTS})?`;
const PARTIAL = `${XR_NC}(?:\\.${XR_NC}(?:\\.${XR_NC}${QUALIFIER_NC})?)?`;
const SIMPLE_EXPR = new RegExp(`^([<>=~^]|<=|>=|~>|~=)?(${PARTIAL})$`);
const HYPHEN_EXPR = new RegExp(`^(${PARTIAL})\\s+-\\s+(${PARTIAL})$`);
const PARTIAL_EXPR = new RegExp(`^${XR}(?:\\.${XR}(?:\\.${XR}${QUALIFIER})?)?$`);

function parseRange(text: string): PSemVerRange {
  const unparsable = (t: string) => new VersionSyntaxError(`Unparsable version range: "${t}"`);
  const rangeSet = text.replace(/([><=~^])(?:\s+|\s*v)/g, '$1');
  const ranges = rubySplit(rangeSet, /\s*\|\|\s*/);
  if (ranges.length === 0) return new PSemVerRange([SimpleRange.ALL], '*');
  const parsed = ranges.map((range) => {
    const hyphen = HYPHEN_EXPR.exec(range);
    if (hyphen) {
      return SimpleRange.create(
        SimpleRange.comparator('gteq', parseVersion(hyphen[1]!)),
        SimpleRange.comparator('lteq', parseVersion(hyphen[2]!)),
      );
    }
    const simples = rubySplit(range, /\s+/).map((simple) => {
      const m = SIMPLE_EXPR.exec(simple);
      if (!m) throw unparsable(text);
      const operand = m[2]!;
      switch (m[1]) {
        case '~':
        case '~>':
        case '~=':
          return allowPatchUpdates(partial(operand), true);
        case '^':
          return parseCaret(partial(operand));
        case '>':
          return parseGt(partial(operand));
        case '>=':
          return SimpleRange.comparator('gteq', parseVersion(operand));
        case '<':
          return SimpleRange.comparator('lt', parseVersion(operand));
        case '<=':
          return parseLtEq(partial(operand));
        default:
          return allowPatchUpdates(partial(operand), false);
      }
    });
    return simples.length === 1 ? simples[0] : SimpleRange.create(...simples);
  });
  return new PSemVerRange(uniqueRanges(parsed), text);
}

/** Ruby's `String#split` by a regexp: trailing empty fields dropped (a leading one kept). */
function rubySplit(text: string, separator: RegExp): string[] {
  const fields = text.split(separator);
  while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  return fields;
}

function uniqueRanges(ranges: (SimpleRange | undefined)[]): (SimpleRange | undefined)[] {
  const out: (SimpleRange | undefined)[] = [];
  for (const r of ranges) {
    if (!out.some((o) => (o === undefined ? r === undefined : r !== undefined && o.equals(r)))) out.push(r);
  }
  return out;
}

function partial(expr: string): RegExpExecArray {
  const m = PARTIAL_EXPR.exec(expr);
  if (!m) throw new VersionSyntaxError(`Unparsable version range: "${expr}"`);
  return m;
}

function digit(s: string | undefined): Part | undefined {
  return s === undefined || s === 'x' || s === 'X' || s === '*' ? undefined : part(s);
}

function qualified(major: Part, minor: Part, patch: Part, m: RegExpExecArray): PSemVer {
  return PSemVer.of(major, minor, patch, parsePrerelease(m[4]), parseBuild(m[5]));
}

function between(from: PSemVer, below: PSemVer): SimpleRange {
  return SimpleRange.minMax(SimpleRange.comparator('gteq', from), SimpleRange.comparator('lt', below));
}

function allowPatchUpdates(m: RegExpExecArray, tildeOrCaret: boolean): SimpleRange {
  const major = digit(m[1]);
  if (major === undefined) return SimpleRange.ALL;
  const minor = digit(m[2]);
  if (minor === undefined) return between(PSemVer.of(major, 0, 0), PSemVer.of(successor(major), 0, 0));
  const patch = digit(m[3]);
  if (patch === undefined)
    return between(PSemVer.of(major, minor, 0), PSemVer.of(major, successor(minor), 0));
  const version = qualified(major, minor, patch, m);
  if (!tildeOrCaret) return SimpleRange.comparator('eq', version);
  return between(version, PSemVer.of(major, successor(minor), 0));
}

function parseCaret(m: RegExpExecArray): SimpleRange {
  const major = digit(m[1]);
  if (major === 0) return allowPatchUpdates(m, true);
  if (major === undefined) return SimpleRange.ALL;
  const minor = digit(m[2]);
  const next = PSemVer.of(successor(major), 0, 0);
  if (minor === undefined) return between(PSemVer.of(major, 0, 0), next);
  const patch = digit(m[3]);
  if (patch === undefined) return between(PSemVer.of(major, minor, 0), next);
  return between(qualified(major, minor, patch, m), next);
}

function parseVersion(expr: string): PSemVer {
  const m = partial(expr);
  return qualified(digit(m[1]) ?? 0, digit(m[2]) ?? 0, digit(m[3]) ?? 0, m);
}

function parseGt(m: RegExpExecArray): SimpleRange {
  const major = digit(m[1]);
  if (major === undefined) return MATCH_NOTHING;
  const minor = digit(m[2]);
  if (minor === undefined) return SimpleRange.comparator('gteq', PSemVer.of(successor(major), 0, 0));
  const patch = digit(m[3]);
  if (patch === undefined) return SimpleRange.comparator('gteq', PSemVer.of(major, successor(minor), 0));
  return SimpleRange.comparator('gt', qualified(major, minor, patch, m));
}

function parseLtEq(m: RegExpExecArray): SimpleRange {
  const major = digit(m[1]);
  if (major === undefined) return SimpleRange.ALL;
  const minor = digit(m[2]);
  if (minor === undefined) return SimpleRange.comparator('lt', PSemVer.of(successor(major), 0, 0));
  const patch = digit(m[3]);
  if (patch === undefined) return SimpleRange.comparator('lt', PSemVer.of(major, successor(minor), 0));
  return SimpleRange.comparator('lteq', qualified(major, minor, patch, m));
}

/** `PSemVerRangeType.covered_by?`: whether range `a` lies within range `b`. */
export function coveredBy(a: PSemVerRange, b: PSemVerRange): boolean {
  const [ab, ae, bb, be] = [a.begin, a.end, b.begin, b.end];
  if (ab === undefined || ae === undefined || bb === undefined || be === undefined) return false;
  const c = be.compare(ae);
  return bb.compare(ab) <= 0 && (c > 0 || (be === ae && (!b.excludeEnd || a.excludeEnd === true)));
}

/** `PSemVerRangeType.merge`: the range covering both when they touch, as Puppet merges a SemVer's ranges. */
export function mergeRanges(a: PSemVerRange, b: PSemVerRange): PSemVerRange | undefined {
  const [ab, ae, bb, be] = [a.begin, a.end, b.begin, b.end];
  if (ab === undefined || ae === undefined || bb === undefined || be === undefined) return undefined;
  if (a.includes(bb) || b.includes(ab)) {
    const max = ae.compare(be) >= 0 ? ae : be;
    let excludeEnd = false;
    if (a.excludeEnd) excludeEnd = max === ae && (max.compare(be) > 0 || b.excludeEnd === true);
    else if (b.excludeEnd) excludeEnd = max === be && max.compare(ae) > 0;
    return PSemVerRange.between(ab.compare(bb) <= 0 ? ab : bb, max, excludeEnd);
  }
  if (a.excludeEnd && ae === bb) return PSemVerRange.between(ab, be, b.excludeEnd === true);
  if (b.excludeEnd && be === ab) return PSemVerRange.between(bb, ae, a.excludeEnd === true);
  return undefined;
}
