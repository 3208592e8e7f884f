/** Parses "avalanchego/1.14.2" or "v1.14.2" into [1, 14, 2]; undefined when it is no version. */
export function parseVersion(text: string): number[] | undefined {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? match.slice(1, 4).map(Number) : undefined;
}

export function isNewer(candidate: readonly number[], reference: readonly number[]): boolean {
  for (let index = 0; index < 3; index++) {
    if (candidate[index] !== reference[index]) return candidate[index] > reference[index];
  }
  return false;
}
