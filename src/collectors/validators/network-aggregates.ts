import { percentile } from '../../stats.js';

export interface ValidatorFacts {
  /** Consensus weight in AVAX: own stake plus delegations. */
  readonly weightAvax: number;
  readonly connected: boolean;
  readonly uptimeRatio: number;
  readonly endSeconds: number;
}

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

/** What a central monitor exports about the whole set: counts, sums and percentiles, never per validator. */
export function networkAggregates(validators: readonly ValidatorFacts[], nowSeconds: number, requirement: number): NetworkAggregates {
  let weightAvax = 0;
  let connectedWeightAvax = 0;
  let belowRequirement = 0;
  let endingWithin24h = 0;
  const uptimes = new Float64Array(validators.length);
  validators.forEach((validator, index) => {
    weightAvax += validator.weightAvax;
    if (validator.connected) connectedWeightAvax += validator.weightAvax;
    if (validator.uptimeRatio < requirement) belowRequirement += 1;
    if (validator.endSeconds > nowSeconds && validator.endSeconds - nowSeconds <= DAY_SECONDS) endingWithin24h += 1;
    uptimes[index] = validator.uptimeRatio;
  });
  const sorted = Array.from(uptimes.sort());
  return {
    count: validators.length,
    weightAvax,
    connectedWeightAvax,
    connectedRatio: weightAvax > 0 ? connectedWeightAvax / weightAvax : 0,
    uptimeMin: percentile(sorted, 0),
    uptimeP10: percentile(sorted, 0.1),
    uptimeMedian: percentile(sorted, 0.5),
    uptimeP90: percentile(sorted, 0.9),
    belowRequirement,
    endingWithin24h,
  };
}
