import { ruleRegistry } from './rules/index.js';

/**
 * The families the engine itself reads for any alert: a target down freezes its alerts; a failing
 * collector keeps them stale; facts kept from a failed collector's last good run mark its alerts.
 */
const ENGINE_READS = ['avaxmon_target_up', 'avaxmon_collector_success', 'avaxmon_collector_facts_age_seconds'];

/** Rule names by the metric families they read (sources and alsoReads), so a run re-evaluates only the rules reading what it changed. */
export const rulesByFamily: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const byFamily = new Map<string, Set<string>>();
  for (const [name, rule] of ruleRegistry) {
    for (const family of [...rule.sources.map((source) => source.metric), ...(rule.alsoReads ?? [])]) {
      let rules = byFamily.get(family);
      if (!rules) byFamily.set(family, (rules = new Set()));
      rules.add(name);
    }
  }
  return byFamily;
})();

/** What the fleet tick evaluates: the families the fleet-wide rules read, and the engine's own. */
export const FLEET_FAMILIES: ReadonlySet<string> = new Set([
  ...[...ruleRegistry.values()].flatMap((rule) => rule.fleetReads ?? []),
  ...ENGINE_READS,
]);

/**
 * Every family the alert plane reads. The daemon keeps the samples of these only: the rest of a
 * run's samples are rendered into /metrics and dropped young, instead of being held for a sweep
 * that never looks at them (three quarters of a fleet's samples).
 */
export const ALERT_READ_FAMILIES: ReadonlySet<string> = new Set([...rulesByFamily.keys(), ...FLEET_FAMILIES]);

/** Rule sets seen by familiesReadBy, by their names joined: few sets recur (a run's families, a sweep's unsettled rules). */
const readsOfRuleSet = new Map<string, ReadonlySet<string>>();
const MAX_REMEMBERED_RULE_SETS = 256;

/**
 * The families `rules` read, and the engine's own: all an evaluation of those rules looks at, so it
 * is given those samples of its target only, not the target's every kept sample.
 */
export function familiesReadBy(rules: ReadonlySet<string>): ReadonlySet<string> {
  const key = [...rules].join(' ');
  let families = readsOfRuleSet.get(key);
  if (families) return families;
  families = new Set([
    ...ENGINE_READS,
    ...[...rules].flatMap((name) => {
      const rule = ruleRegistry.get(name);
      return rule ? [...rule.sources.map((source) => source.metric), ...(rule.alsoReads ?? [])] : [];
    }),
  ]);
  if (readsOfRuleSet.size >= MAX_REMEMBERED_RULE_SETS) readsOfRuleSet.clear();
  readsOfRuleSet.set(key, families);
  return families;
}
