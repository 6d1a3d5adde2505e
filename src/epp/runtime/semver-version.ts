/**
 * Puppet's SemVer values, `SemanticPuppet::Version` of the `semantic_puppet` gem (see semver.ts for the
 * ranges and why the gem, not npm's `semver`): parsing, the gem's prerelease ordering, one object per
 * version, and the lowest and highest versions (`0.0.0-`, `Infinity.0.0`).
 */
import { bigOf, integer, type PInteger } from './values.js';
import { WeakInterned } from './weak-interned.js';

/**
 * A version's number, exact at any size as Ruby's Integers are: a number while it is a safe integer, a
 * bigint beyond (the engine's Integer, values.ts), so common versions stay plain numbers.
 */
export type Part = PInteger;

/** A prerelease part: a number when it is all digits (it then orders before any text). */
type Identifier = string | Part;

export class VersionSyntaxError extends Error {}

const NUMERIC = String.raw`(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)`;
const PRE = String.raw`(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?`;
const BUILD = String.raw`(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?`;
/** The gem's `REGEX_FULL`, which `SemVer.new`'s string signature also matches. */
export const VERSION_PATTERN = NUMERIC + PRE + BUILD;
// Ruby's `\Z` also matches before a final line break.
const FULL = new RegExp(`^${VERSION_PATTERN}\\n?$`);

/** A `SemanticPuppet::Version`. One object per distinct version, so that Map keys find equal versions. */
export class PSemVer {
  /** @internal use {@link PSemVer.of}. */
  constructor(
    readonly major: Part,
    readonly minor: Part,
    readonly patch: Part,
    readonly prerelease: readonly Identifier[] | undefined,
    readonly build: readonly string[] | undefined,
  ) {}

  static of(
    major: Part,
    minor: Part,
    patch: Part,
    prerelease?: readonly Identifier[],
    build?: readonly string[],
  ): PSemVer {
    // Ruby's `eql?` tells the prerelease `1` from `'1'` (only `SemVer(1, 2, 3, '1')` makes the latter).
    const parts = [major, minor, patch, prerelease ?? null, build ?? null];
    const big =
      typeof major === 'bigint' ||
      typeof minor === 'bigint' ||
      typeof patch === 'bigint' ||
      prerelease?.some((x) => typeof x === 'bigint');
    // A bigint is written as an object, so that it is told from a text identifier of the same digits.
    const key = big
      ? JSON.stringify(parts, (_, v) => (typeof v === 'bigint' ? { n: `${v}` } : v))
      : JSON.stringify(parts);
    return versions.get(key) ?? versions.keep(key, new PSemVer(major, minor, patch, prerelease, build));
  }

  /** `Version.parse`: a full version text, or a {@link VersionSyntaxError}. */
  static parse(text: string): PSemVer {
    const m = FULL.exec(text);
    if (!m) throw new VersionSyntaxError(`Unable to parse '${text}' as a semantic version identifier`);
    return PSemVer.of(part(m[1]!), part(m[2]!), part(m[3]!), parsePrerelease(m[4]), parseBuild(m[5]));
  }

  get stable(): boolean {
    return this.prerelease === undefined || this.prerelease.length === 0;
  }

  /** The gem's `<=>`: the numbers, then the prerelease (none is higher than any); the build is ignored. */
  compare(o: PSemVer): number {
    return (
      cmp(this.major, o.major) ||
      cmp(this.minor, o.minor) ||
      cmp(this.patch, o.patch) ||
      comparePrerelease(this.prerelease, o.prerelease)
    );
  }

  nextPatch(): PSemVer {
    return PSemVer.of(this.major, this.minor, successor(this.patch));
  }

  /** The gem's `to_s` (also its `inspect`): an empty prerelease prints as a bare `-`. */
  toString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.prerelease !== undefined) s += `-${this.prerelease.join('.')}`;
    if (this.build !== undefined) s += `+${this.build.join('.')}`;
    return s;
  }

  display(): string {
    return this.toString();
  }
}

/** Live versions by their parts (one object per version, as Floats: `==` and Map keys find them). */
const versions = new WeakInterned<string, PSemVer>();

/** Compares two parts, number or bigint (JavaScript's `<` compares the two kinds exactly). */
function cmp(a: Part, b: Part): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A version's number from its digits: exact beyond 2^53. */
export function part(digits: string): Part {
  // 15 digits are always below 2^53: only longer texts need the exact (slower) way.
  return digits.length < 16 ? Number(digits) : integer(BigInt(digits));
}

/** The part after `p` (`Infinity`, `MAX_VERSION`'s major, stays itself). */
export function successor(p: Part): Part {
  if (typeof p === 'number' && (p < Number.MAX_SAFE_INTEGER || !Number.isFinite(p))) return p + 1;
  return integer(bigOf(p) + 1n);
}

export function parsePrerelease(text: string | undefined): Identifier[] | undefined {
  if (text === undefined) return undefined;
  return text.split('.').map((x) => {
    if (!/^\d+$/.test(x)) return x;
    if (x.length > 1 && x.startsWith('0')) {
      throw new VersionSyntaxError('Numeric pre-release identifiers MUST NOT contain leading zeroes');
    }
    return part(x);
  });
}

export function parseBuild(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split('.');
}

function comparePrerelease(
  mine: readonly Identifier[] | undefined,
  yours: readonly Identifier[] | undefined,
) {
  if (mine === undefined) return yours === undefined ? 0 : 1;
  if (yours === undefined) return -1;
  for (let i = 0; i < mine.length; i++) {
    if (i >= yours.length) return 1;
    const x = mine[i]!;
    const y = yours[i]!;
    let c: number;
    if (typeof x !== 'string') c = typeof y !== 'string' ? cmp(x, y) : -1;
    else if (typeof y !== 'string') c = 1;
    else c = x < y ? -1 : x > y ? 1 : 0; // Ruby's String#<=>: by bytes (the identifiers are ASCII)
    if (c !== 0) return c;
  }
  return cmp(mine.length, yours.length);
}

/** The lowest version there is (`Version::MIN`, an empty prerelease) and the highest (`Version::MAX`). */
export const MIN_VERSION = PSemVer.of(0, 0, 0, []);
export const MAX_VERSION = PSemVer.of(Number.POSITIVE_INFINITY, 0, 0);
