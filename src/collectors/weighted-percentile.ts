export interface Weighted {
  readonly value: number;
  readonly weight: number;
}

/**
 * The smallest value below or at which at least `q` of the total weight lies, over entries sorted
 * ascending by value: the stake-weighted counterpart of the nearest-rank percentile.
 */
export function weightedPercentile(sorted: readonly Weighted[], q: number): number {
  const total = sorted.reduce((sum, entry) => sum + entry.weight, 0);
  let cumulative = 0;
  for (const entry of sorted) {
    cumulative += entry.weight;
    if (cumulative >= q * total) return entry.value;
  }
  return sorted.length === 0 ? NaN : sorted[sorted.length - 1].value;
}
