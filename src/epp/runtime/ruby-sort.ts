/**
 * Ruby's `Array#sort` as Puppet 7's Ruby runs it on this platform: `ruby_qsort` is glibc's `qsort_r`, a
 * stable top-down merge sort (the first half is `n / 2` elements). Its order of comparisons is
 * observable: it decides which pair of unorderable values Ruby's error names (`[3, 'a', 1].sort` compares
 * `'a'` with `1` first: "comparison of String with 1 failed") and in what order a lambda is called.
 */
export function rubySort<T>(items: readonly T[], compare: (a: T, b: T) => number): T[] {
  if (items.length <= 1) return [...items];
  const half = items.length >> 1;
  const left = rubySort(items.slice(0, half), compare);
  const right = rubySort(items.slice(half), compare);
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    if (compare(left[i] as T, right[j] as T) <= 0) out.push(left[i++] as T);
    else out.push(right[j++] as T);
  }
  return out.concat(left.slice(i), right.slice(j));
}
