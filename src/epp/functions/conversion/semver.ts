/**
 * `SemVer.new` and `SemVerRange.new` (Puppet's `new_Version` and `new_VersionRange`): a version from its
 * text, its parts or a hash of them; a range from its text, two versions (`default` for no bound) or a hash
 * of them. Their errors are Puppet's: its dispatchers' "does not accept" lists, each signature with why it
 * refused the arguments, and the gem's own messages (`Unparsable version range: "foo"`).
 */
import { EppEvalError } from '../../errors.js';
import {
  MAX_VERSION,
  MIN_VERSION,
  PSemVer,
  PSemVerRange,
  VERSION_PATTERN,
  VersionSyntaxError,
} from '../../runtime/semver.js';
import { PatternType, typeFromText } from '../../runtime/types.js';
import { DEFAULT, type PInteger, PRegexp, type Value } from '../../runtime/values.js';
import { conversionError } from './arguments.js';
import { dispatch, localAlias, type Signature, struct } from './dispatch.js';

/**
 * Puppet's pattern of a prerelease or build argument, printed as Puppet writes it; its subexpression call
 * (`\g<part>`), which JavaScript lacks, runs as the repeated group it stands for.
 */
const QUALIFIER = new PRegexp(
  String.raw`\A(?<part>[0-9A-Za-z-]+)(?:\.\g<part>)*\Z`,
  '',
  String.raw`\A[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*\Z`,
);

/** Puppet's local type aliases of `new_Version`, printed with their definitions in its messages. */
const alias = (name: string, text: string) => localAlias(name, () => typeFromText(text));
const positive = () => alias('PositiveInteger', 'Integer[0, default]');
const qualifier = () => localAlias('SemVerQualifier', () => new PatternType([QUALIFIER]));
const versionPattern = () => alias('SemVerPattern', String.raw`Pattern[/\A${VERSION_PATTERN}\Z/]`);
const versionHash = () =>
  localAlias('SemVerHash', () =>
    struct([
      ['major', positive()],
      ['minor', positive()],
      ['patch', positive()],
      ['prerelease', qualifier(), true],
      ['build', qualifier(), true],
    ]),
  );
const rangeString = () => alias('SemVerRangeString', 'String[1]');
const rangeHash = () =>
  alias(
    'SemVerRangeHash',
    'Struct[{min => Variant[Default, SemVer], Optional[max] => Variant[Default, SemVer], Optional[exclude_max] => Boolean}]',
  );
const bound = () => typeFromText('Variant[Default, SemVer]');
const boolean = () => typeFromText('Boolean');

const VERSION_SIGNATURES: readonly Signature[] = [
  [{ name: 'str', type: versionPattern }],
  [
    { name: 'major', type: positive },
    { name: 'minor', type: positive },
    { name: 'patch', type: positive },
    { name: 'prerelease', type: qualifier, optional: true },
    { name: 'build', type: qualifier, optional: true },
  ],
  [{ name: 'hash_args', type: versionHash }],
];

/** The gem's own errors (a prerelease part with a leading zero) as conversion errors. */
function gem<T>(make: () => T): T {
  try {
    return make();
  } catch (e) {
    if (e instanceof VersionSyntaxError) throw conversionError(e.message);
    throw e;
  }
}

export function toSemVer(args: Value[]): PSemVer {
  let signature: number;
  try {
    signature = dispatch('new_Version', VERSION_SIGNATURES, args);
  } catch (e) {
    // Its `argument_mismatch` dispatcher words a lone text that is no version on its own.
    if (e instanceof EppEvalError && args.length === 1 && typeof args[0] === 'string') {
      throw conversionError(`'new_Version' The string '${args[0]}' cannot be converted to a SemVer`);
    }
    throw e;
  }
  if (signature === 0) return gem(() => PSemVer.parse(args[0] as string));
  const parts =
    signature === 1
      ? args
      : ['major', 'minor', 'patch', 'prerelease', 'build'].map((k) => (args[0] as Map<Value, Value>).get(k));
  const [major, minor, patch, prerelease, build] = parts as [PInteger, PInteger, PInteger, string?, string?];
  // A prerelease or build given as an argument is one identifier, dots and all (the gem's `to_array`).
  return PSemVer.of(major, minor, patch, prerelease ? [prerelease] : undefined, build ? [build] : undefined);
}

const RANGE_SIGNATURES: readonly Signature[] = [
  [{ name: 'str', type: rangeString }],
  [
    { name: 'min', type: bound },
    { name: 'max', type: bound },
    { name: 'exclude_max', type: boolean, optional: true },
  ],
  [{ name: 'hash_args', type: rangeHash }],
];

export function toSemVerRange(args: Value[]): PSemVerRange {
  const signature = dispatch('new_VersionRange', RANGE_SIGNATURES, args);
  if (signature === 0) return gem(() => PSemVerRange.parse(args[0] as string));
  let [min, max, excludeMax]: Value[] = args;
  if (signature === 2) {
    const h = args[0] as Map<Value, Value>;
    [min, max, excludeMax] = [h.get('min'), h.has('max') ? h.get('max') : DEFAULT, h.get('exclude_max')];
  }
  const low = min === DEFAULT ? MIN_VERSION : (min as PSemVer);
  const high = max === DEFAULT || max === undefined ? MAX_VERSION : (max as PSemVer);
  return PSemVerRange.between(low, high, excludeMax === true);
}
