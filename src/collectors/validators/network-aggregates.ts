import { percentile } from '../../metrics/percentile.js';

export interface NetworkAggregates {
  readonly count: number;
  readonly weightAvax: number;
  readonly connectedWeightAvax: number;
  readonly connectedRatio: number;
  readonly uptimeMin: number;
  readonly uptimeP10: number;
  readonly uptimeMedian: number;
  readonly uptimeP90: number;
  readonly belowRequirement: number;
  readonly endingWithin24h: number;
}

const DAY_SECONDS = 86_400;

export interface ValidatorFacts {
  /** The consensus weight: own stake plus delegations. */
  readonly weightAvax: number;
  readonly connected: boolean;
  readonly uptimeRatio: number;
  /** The requirement of this validation (ACP-267); unknown while info.upgrades fails. */
  readonly requirement: number | undefined;
  readonly endSeconds: number;
  /** Auto-renewed with a next cycle: its period ends, its validation does not. */
  readonly renews: boolean;
}

/**
 * What a central monitor exports about the whole set: counts, sums and percentiles, never one
 * series per validator. Fed one validator at a time, so 2,000 validators cost no per-validator
 * objects beyond the parsed response.
 */
export class NetworkAggregator {
  private count = 0;
  private weightAvax = 0;
  private connectedWeightAvax = 0;
  private belowRequirement = 0;
  private endingWithin24h = 0;
  private uptimes: number[] = [];

  constructor(private readonly nowSeconds: number) {}

  add(validator: ValidatorFacts): void {
    const { weightAvax, uptimeRatio, endSeconds } = validator;
    this.count += 1;
    this.weightAvax += weightAvax;
    if (validator.connected) this.connectedWeightAvax += weightAvax;
    if (validator.requirement !== undefined && uptimeRatio < validator.requirement) this.belowRequirement += 1;
    if (!validator.renews && endSeconds > this.nowSeconds && endSeconds - this.nowSeconds <= DAY_SECONDS) this.endingWithin24h += 1;
    this.uptimes.push(uptimeRatio);
  }

  result(): NetworkAggregates {
    const sorted = Float64Array.from(this.uptimes).sort();
    const at = (q: number) => percentile(sorted as unknown as number[], q);
    return {
      count: this.count,
      weightAvax: this.weightAvax,
      connectedWeightAvax: this.connectedWeightAvax,
      connectedRatio: this.weightAvax > 0 ? this.connectedWeightAvax / this.weightAvax : 0,
      uptimeMin: at(0),
      uptimeP10: at(0.1),
      uptimeMedian: at(0.5),
      uptimeP90: at(0.9),
      belowRequirement: this.belowRequirement,
      endingWithin24h: this.endingWithin24h,
    };
  }
}
