/**
 * Weight summed per observed-uptime percent. Peers send whole percents, so those are summed in an
 * array by percent; anything else a peer sends goes to a map. A map alone boxed every sum it
 * stored: two per validator peer, 3,600 numbers a run of 1,800 peers, at every node of a fleet.
 */
export class PercentTally {
  private readonly whole = new Float64Array(101);
  private readonly present = new Uint8Array(101);
  private readonly other = new Map<number, number>();

  add(percent: number, weight: number): void {
    if (Number.isInteger(percent) && percent >= 0 && percent <= 100) {
      this.whole[percent] += weight;
      this.present[percent] = 1;
    } else this.other.set(percent, (this.other.get(percent) ?? 0) + weight);
  }

  /** The sums by percent: whole percents in ascending order, then the others as they came. */
  toMap(): Map<number, number> {
    const sums = new Map<number, number>();
    for (let percent = 0; percent <= 100; percent++) if (this.present[percent] === 1) sums.set(percent, this.whole[percent]);
    for (const [percent, weight] of this.other) sums.set(percent, weight);
    return sums;
  }
}
