/**
 * `template.json`'s `requires` (the Pantograph versions a template works with) is a semver range, read by
 * the `semver` package: comparators, caret, tilde, x-ranges and `||` alternatives, pre-releases as semver
 * orders them.
 */
import { Range, SemVer } from 'semver';

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
