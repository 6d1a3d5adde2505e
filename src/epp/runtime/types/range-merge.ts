/**
 * Puppet's `merge_ranges` loop, shared by the Variant merges (Integer, Float, Timespan, Timestamp) and the
 * SemVer type's own ranges. It imports nothing, so both may load it directly, outside the types hub.
 */

/**
 * Take the last range, merge into it each other one it can take (in order, the grown range checked against
 * the next), keep it; repeat with those it could not take. One pass, no fixpoint: `[1, 2, 3]`'s Integer
 * ranges give `Integer[2, 3]` and `Integer[1, 1]`, as Puppet's do. The result is in the order the ranges
 * were kept (the last input's first); `merge` answers `undefined` for two that do not merge.
 */
export function mergeRangesOnePass<T>(input: readonly T[], merge: (a: T, b: T) => T | undefined): T[] {
  let ranges = [...input];
  const result: T[] = [];
  while (ranges.length > 0) {
    const unmerged: T[] = [];
    let memo = ranges.pop() as T;
    for (const y of ranges) {
      const merged = merge(memo, y);
      if (merged === undefined) unmerged.push(y);
      else memo = merged;
    }
    result.push(memo);
    ranges = unmerged;
  }
  return result;
}
