import type { Sample } from '../../../src/metrics/metric-desc.js';
import { targetUp } from '../harness.js';
import { HOOK, type Differential } from './driver.js';

/**
 * The scenarios of the differential suite: one routing config (alertmanager.yml's route, receivers,
 * inhibit_rules, time_intervals) and one alert stream, run through avaxmon and the real Alertmanager.
 */
export interface Scenario {
  readonly name: string;
  /** The alertmanager.yml sections, HOOK_URL for the webhook. */
  readonly routing: string;
  /** avaxmon's other settings under `alerts:` besides DEFAULT_ALERTS. */
  readonly alerts?: string;
  readonly run: (differential: Differential) => Promise<void>;
  /** What the scenario is about, checked on Alertmanager's side, so a scenario that tests nothing fails. */
  readonly expectTheirs: (notifications: ReturnType<Differential['theirs']['notifications']>) => void;
}

/** Rules fire at once; flap damping, avaxmon's own, is off so both sides see every change. */
export const DEFAULT_ALERTS = `rules:
  AvalancheNodeUnhealthy: { for: 0s }
  AvalancheNodeNotReady: { for: 0s }
  AvalancheL1ValidatorBalanceLow: { for: 0s }
  AvalancheHealthCheckFailing: { enabled: false }
flap_max_transitions: 1000`;

/** Each change holds this long: flushed within one group_interval (1s) by both, with time to spare. */
export const STEP_MS = 2_500;

/** The root route's timers: group_wait 500ms, then a flush every `groupInterval`. */
const timing = (groupInterval = '1s') => `  group_wait: 500ms
  group_interval: ${groupInterval}
  repeat_interval: 1h`;

/** One webhook receiver `hook` at the root, grouped by `groupBy` (omitted when undefined). */
export function rootOnly(groupBy: string | undefined, extra = '', groupInterval?: string): string {
  return `route:
  receiver: hook
${groupBy === undefined ? '' : `  group_by: ${groupBy}\n`}${timing(groupInterval)}
${extra}receivers:
  - name: hook
    webhook_configs:
      - url: ${HOOK}
inhibit_rules: []
`;
}

export const node = (index: number) => `validator-${index}`;

/** Ten nodes; the listed ones unhealthy, the `notReady` ones not ready. */
export function fleet(unhealthy: Iterable<number>, notReady: Iterable<number> = []): Sample[] {
  const [sick, slow] = [new Set(unhealthy), new Set(notReady)];
  return Array.from({ length: 10 }, (_, index) => [
    targetUp(node(index)),
    { name: 'avaxmon_node_healthy', labels: { target: node(index) }, value: sick.has(index) ? 0 : 1 },
    { name: 'avaxmon_node_ready', labels: { target: node(index) }, value: slow.has(index) ? 0 : 1 },
  ]).flat();
}

/** An L1 validator whose balance lasts `days`: 20 warns, 5 is critical. */
export function runway(days: number): Sample[] {
  return [
    targetUp('l1-node'),
    {
      name: 'avaxmon_l1_validator_balance_runway_seconds',
      labels: { target: 'l1-node', subnet: 'l1', node_id: 'NodeID-x' },
      value: days * 86_400,
    },
  ];
}

export async function steps(differential: Differential, ...fleets: Sample[][]): Promise<void> {
  for (const samples of fleets) await differential.hold(samples, STEP_MS);
}
