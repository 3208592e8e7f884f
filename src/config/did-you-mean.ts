/**
 * The candidate a mistyped word most likely meant ("did you mean"): the nearest by edit distance,
 * when it is near enough to be a typo (a third of the word's length, at least 2); else the one
 * candidate the word begins (`--config` for `--config.file`); else none.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const all = [...candidates];
  const extended = all.filter((candidate) => candidate.toLowerCase().startsWith(word.toLowerCase()));
  return nearest(word, all) ?? (extended.length === 1 ? extended[0] : undefined);
}

function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Levenshtein distance, counting a swap of two neighbouring letters as one edit ("ulr" for "url"). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const substitution = rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}
