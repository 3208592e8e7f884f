import type { Sample } from '../metrics/metric-desc.js';

/**
 * The families that decide pages about a validation and that a failed run must not blind: when it
 * ends and whether it renews, the uptime the deciding stake sees and the budget it leaves, the
 * reward at stake, and an L1 validator's balance. They change over hours, so the last good run's
 * values stay true enough for a while; the rest of a failed run's series are removed as before.
 */
export const PAGE_FACTS: ReadonlySet<string> = new Set([
  'avaxmon_validator_start_timestamp_seconds',
  'avaxmon_validator_end_timestamp_seconds',
  'avaxmon_validator_auto_renew',
  'avaxmon_validator_next_period_seconds',
  'avaxmon_validator_uptime_ratio',
  'avaxmon_validator_uptime_requirement_ratio',
  'avaxmon_validator_downtime_budget_seconds',
  'avaxmon_validator_downtime_allowance_seconds',
  'avaxmon_validator_potential_reward_avax',
  'avaxmon_l1_validator_balance_avax',
  'avaxmon_l1_validator_balance_runway_seconds',
]);

/** Exported beside stale facts: how old the run they come from is. */
export const FACTS_AGE = 'avaxmon_collector_facts_age_seconds';

interface Kept {
  readonly samples: readonly Sample[];
  /** Steady time (SteadyClock) of the run they come from. */
  readonly atMs: number;
}

/**
 * Each slice's page-deciding facts from its last successful run, served in place of its series while
 * it fails, for at most `maxAgeMs` (global.stale_facts_max_age), with their age beside them.
 */
export class LastGoodFacts {
  private readonly bySlice = new Map<string, Kept>();

  constructor(private maxAgeMs: number) {}

  setMaxAge(ms: number): void {
    this.maxAgeMs = ms;
  }

  /** A run succeeded: its facts are the ones to fall back on. */
  remember(key: string, samples: readonly Sample[], atMs: number): void {
    const facts = samples.filter((sample) => PAGE_FACTS.has(sample.name));
    if (facts.length === 0) this.bySlice.delete(key);
    else this.bySlice.set(key, { samples: facts, atMs });
  }

  /** A run failed: the last good facts and their age, or nothing once they are older than the bound. */
  stale(key: string, labels: { target: string; collector: string }, nowMs: number): Sample[] {
    const kept = this.bySlice.get(key);
    if (!kept) return [];
    const ageMs = nowMs - kept.atMs;
    if (ageMs > this.maxAgeMs) {
      this.bySlice.delete(key);
      return [];
    }
    return [...kept.samples, { name: FACTS_AGE, labels, value: Math.max(0, ageMs) / 1000 }];
  }

  /** Forgets slices no longer configured. */
  retain(keys: ReadonlySet<string>): void {
    for (const key of this.bySlice.keys()) if (!keys.has(key)) this.bySlice.delete(key);
  }
}
