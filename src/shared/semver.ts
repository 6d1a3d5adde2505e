/**
 * `template.json`'s `requires` (the Pantograph versions a template works with) is a semver range, read by
 * the `semver` package: comparators, caret, tilde, x-ranges and `||` alternatives, pre-releases as semver
 * orders them.
 */
// The two classes alone: the package's index loads all its modules, and one of them (`subset`) builds
// comparators when loaded, ~3 ms of every command's start-up.
import Range from 'semver/classes/range.js';
import SemVer from 'semver/classes/semver.js';

/** Whether `version` satisfies `range`; undefined when the version or the range cannot be read. */
export function satisfies(version: string, range: string): boolean | undefined {
  let parsedRange: Range;
  let parsedVersion: SemVer;
  try {
    parsedRange = new Range(range);
    parsedVersion = new SemVer(version);
  } catch {
    return undefined;
  }
  return parsedRange.test(parsedVersion);
}
