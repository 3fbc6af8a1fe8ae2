/**
 * "Did you mean" for misspelled names: the closest candidate by
 * Damerau–Levenshtein distance (optimal string alignment: insertions,
 * deletions, substitutions and swaps of neighbours each cost 1).
 */

/** The edit distance between `a` and `b`, or `limit + 1` as soon as it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const width = b.length + 1;
  // Three rolling rows: two back for transpositions, one back, and the current one.
  let prev2 = new Array<number>(width).fill(0);
  let prev = Array.from({ length: width }, (_, j) => j);
  let cur = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length];
}

/** How many edits still read as a typo of a name this long. */
function tolerance(name: string): number {
  return name.length <= 3 ? 1 : name.length <= 8 ? 2 : 3;
}

/**
 * The candidate `name` most likely misspells: an exact match ignoring case
 * first, then the smallest edit distance within a tolerance that grows with
 * the name's length; ties go to the earlier candidate. Undefined when none is
 * close.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = tolerance(name);
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    if (c.toLowerCase() === lower) return c;
    const d = editDistance(lower, c.toLowerCase(), Math.min(limit, bestDistance - 1));
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
