import { FACTS_AGE } from '../../collectors/last-good-facts.js';
import type { Labels } from '../../metrics/metric-desc.js';
import type { SampleIndex } from './sample-index.js';

/** The collector whose runs compute the downtime budget (collectors/validators.ts). */
const BUDGET_COLLECTOR = 'validators';

/**
 * How old the budget of this target is: 0 when its validators collector's last run succeeded, the
 * age of its last good run while the budget is served from that run's stale facts.
 */
export function budgetAgeSeconds(samples: SampleIndex, target: string): number {
  return samples.valueOf(FACTS_AGE, { target, collector: BUDGET_COLLECTOR }) ?? 0;
}

/**
 * The downtime budget the rules reason with. From stale facts the node may have been down for the
 * whole time since the last good run, and each second down spends a second of budget, so the
 * budget left is the last good run's less its age: the worst case, which is the one to page on.
 */
export function downtimeBudgetLeft(samples: SampleIndex, labels: Labels, budget: number): number {
  return labels.target === undefined ? budget : budget - budgetAgeSeconds(samples, labels.target);
}

/** The same in PromQL, for the twins: the exported budget less the age of stale facts where there are any. */
export function downtimeBudgetLeftExpr(selector: string, filter = ''): string {
  const budget = `avaxmon_validator_downtime_budget_seconds{${selector}${filter}}`;
  return `(
  (${budget} - on (job, instance, target) group_left ${FACTS_AGE}{${selector}, collector="${BUDGET_COLLECTOR}"})
    or
  ${budget}
)`;
}
