/**
 * "Did you mean" suggestions: the closest candidate by edit distance (Levenshtein with transpositions),
 * when it is close enough (at most a third of the word's length, at least one edit) to be a likely typo.
 */

/**
 * Edit distance (insertions, deletions, substitutions, and transpositions of neighbours, the commonest
 * typo: `mian` -> `main` is one edit).
 */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** The candidate closest to `word` (case-insensitive), or undefined when none is close enough. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(1, Math.floor(w.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = levenshtein(w, c.toLowerCase());
    if (d < bestDistance && d <= limit) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** `did you mean 'x'?` or undefined: for a Problem's hint. */
export function didYouMeanHint(word: string, candidates: Iterable<string>): string | undefined {
  const s = didYouMean(word, candidates);
  return s === undefined ? undefined : `did you mean '${s}'?`;
}
