import type { Severity } from '../../src/alerts/evaluation/rule.js';
import { SIM_L1, SIM_SUBNET } from '../../src/simulator/chain-world.js';

/** An alert a situation must raise: its name, severity and the labels that tell it apart. */
export interface ExpectedAlert {
  readonly alertname: string;
  readonly severity: Severity;
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * One everyday operator situation, built from real AvalancheGo v1.14/v1.15 answers (the simulator),
 * run as its own target of one daemon process. `fires` is the exact set of alerts that notify;
 * `muted` the exact set that fire but are inhibited by another one of the same target.
 */
export interface Situation {
  /** The target's name, so its alerts are told apart. */
  readonly id: string;
  /** As the docs' "what pages when" table says it. */
  readonly title: string;
  readonly node?: { readonly validator?: boolean };
  /** Simulator steps applied, in order, before the daemon starts. */
  readonly setup: ReadonlyArray<Readonly<Record<string, unknown>>>;
  /**
   * Steps applied after the daemon has seen the node whole, `afterMs` later in the node's (and the
   * daemon's) time: a transient the `for:` durations ride out, or a change the situation is about.
   * `clearOnceSeen: 'reset'` lifts the step's faults once the daemon has had a connection reset.
   */
  readonly later?: ReadonlyArray<{
    readonly afterMs: number;
    readonly apply: Readonly<Record<string, unknown>>;
    readonly clearOnceSeen?: 'reset';
  }>;
  /** How it ends, once the situation has been seen settled, `afterMs` later: a bootstrap that finishes within the grace. */
  readonly ending?: ReadonlyArray<{ readonly afterMs: number; readonly apply: Readonly<Record<string, unknown>> }>;
  /** More keys of the target's config. */
  readonly targetYaml?: string;
  /** The public Metrics API of the daemon is this situation's simulator. */
  readonly metricsApi?: boolean;
  readonly fires: readonly ExpectedAlert[];
  /** Notified on the way, before the situation settled into `fires` (an escalation, an ending). */
  readonly before?: readonly ExpectedAlert[];
  readonly muted?: readonly ExpectedAlert[];
  /** Alerts of another `target` label (metrics_api) that belong to this situation. */
  readonly otherTarget?: string;
}

const V115 = 'avalanchego/1.15.1';
/** A v1.15 validator connected to 97% of the stake, which sees it at 99.x%. */
const WELL_SEEN = { set_version: V115, network_view: { connected: [{ stake: 97, observed: 99 }] } };
const L1_YAML = `subnets: [{ name: ${SIM_L1.name}, subnet_id: ${SIM_L1.subnetId}, blockchain_id: ${SIM_L1.blockchainId} }]`;

const warning = (alertname: string, labels?: Record<string, string>): ExpectedAlert => ({ alertname, severity: 'warning', labels });
const critical = (alertname: string, labels?: Record<string, string>): ExpectedAlert => ({ alertname, severity: 'critical', labels });

/**
 * A bootstrap that finishes: its chains answer at once, and /ext/health says so a little later (the
 * node runs its checks every 30 s, and avaxmon reads them once a run), after the collectors the
 * chains' 503s failed have run again.
 */
const bootstrapDone = (...chains: string[]) => [
  ...chains.map((chain) => ({ afterMs: 0, apply: { chain_bootstrapped: chain } })),
  { afterMs: 3 * 60_000, apply: { recover_check: 'bootstrapped' } },
];

/**
 * The situations of issue 23: the seven of its "Why", then the everyday ones around them. The
 * simulated node's own validation is 90 days long and 30 days in unless a step says otherwise.
 * Times are the node's: the daemon runs every rule with its real `for`, its clock sped up.
 */
const EVERYDAY: readonly Situation[] = [
  {
    id: 'api-node',
    title: 'An API/RPC node that validates nothing, started from `config.minimal.yaml`',
    node: { validator: false },
    setup: [{ set_version: V115 }],
    fires: [],
  },
  {
    id: 'l1-only-validator',
    title: 'An L1-only validator (ACP-77): no Primary Network stake, watched on its L1',
    node: { validator: false },
    setup: [{ set_version: V115 }],
    targetYaml: L1_YAML,
    fires: [],
  },
  {
    id: 'unhealthy-odd-details',
    title: 'An unhealthy node (503, `healthy: false`) whose check details have shapes never seen before',
    setup: [
      {
        ...WELL_SEEN,
        fail_check: { check: 'network', error: 'not connected to a sufficient amount of stake' },
        // Details are interface{}: a new VM's engine name, a duration as a number, a size as text, a string for an object.
        health_message: { check: 'C', message: { engine: 'sae', networking: 'n/a', duration: 1500000000, diskSize: '1.1 TB' } },
      },
    ],
    fires: [critical('AvalancheNodeUnhealthy')],
    muted: [warning('AvalancheHealthCheckFailing', { check: 'network' })],
  },
  {
    id: 'uptime-call-fails',
    title: '`info.uptime` fails (-32000 "couldn\'t get node uptime") while the validation ends in 12 hours without renewal',
    setup: [
      {
        ...WELL_SEEN,
        validator_period: { ago_days: 13.5, days: 14 },
        fault: { match: 'info.uptime', kind: 'rpc_error', message: "couldn't get node uptime: validator set not ready" },
      },
    ],
    fires: [warning('AvalancheStakeExpiring'), warning('AvaxmonCollectorFailing', { collector: 'uptime' })],
  },
  {
    id: 'upgrades-call-fails',
    title: '`info.upgrades` fails while the validation ends in 12 hours without renewal',
    setup: [
      {
        ...WELL_SEEN,
        validator_period: { ago_days: 13.5, days: 14 },
        fault: { match: 'info.upgrades', kind: 'rpc_error', message: 'upgrade config not loaded' },
      },
    ],
    fires: [warning('AvalancheStakeExpiring'), warning('AvaxmonCollectorFailing', { collector: 'upgrades' })],
  },
  {
    id: 'partial-connectivity',
    title: 'Connected to 85% of the stake, every connected validator seeing 99.5%, 6.5 days into a 14-day cycle (budget about 33 h)',
    setup: [
      { set_version: V115, validator_period: { ago_days: 6.5, days: 14 }, network_view: { connected: [{ stake: 85, observed: 99 }] } },
    ],
    fires: [],
  },
  {
    id: 'majority-view',
    title: '60% of the stake sees the node at 80%, 40% at 100% (the average, 88%, would hide it)',
    setup: [
      {
        set_version: V115,
        network_view: {
          connected: [
            { stake: 60, observed: 80 },
            { stake: 40, observed: 100 },
          ],
        },
      },
    ],
    fires: [
      warning('AvalancheRewardAtRisk', { view: 'network' }),
      warning('AvalancheUptimeLow', { view: 'network' }),
      warning('AvalancheRewardingStakeLow'),
    ],
  },
  {
    id: 'running-ratio',
    title: 'Two days into a one-year validation after one 6-hour outage: 87.5% against 90%, 36 days of budget',
    setup: [
      { set_version: V115, validator_period: { ago_days: 2, days: 365 }, network_view: { connected: [{ stake: 97, observed: 87 }] } },
    ],
    fires: [warning('AvalancheUptimeLow', { view: 'network' }), warning('AvalancheRewardingStakeLow')],
  },
  {
    id: 'fresh-validator',
    title: 'A fresh validator in its first hour',
    setup: [
      { set_version: V115, validator_period: { ago_days: 0.02, days: 14 }, network_view: { connected: [{ stake: 97, observed: 100 }] } },
    ],
    fires: [],
  },
  {
    id: 'restarting',
    title: 'A node restarting: its API gone for a moment, then peers reconnecting (the newest still reporting 0%)',
    setup: [WELL_SEEN],
    later: [
      { afterMs: 15_000, apply: { fault: { match: '*', kind: 'reset' } }, clearOnceSeen: 'reset' },
      {
        afterMs: 60_000,
        apply: {
          network_view: {
            connected: [
              { stake: 25, observed: 0 },
              { stake: 15, observed: 99 },
            ],
          },
        },
      },
      { afterMs: 150_000, apply: { network_view: { connected: [{ stake: 97, observed: 99 }] } } },
    ],
    fires: [],
  },
  {
    id: 'bootstrapping',
    title: 'A node bootstrapping after a restart, done within 30 minutes: every chain answers 503, the `bootstrapped` check fails',
    setup: [
      { ...WELL_SEEN, fail_check: { check: 'bootstrapped', error: 'node is not done bootstrapping' } },
      { chain_bootstrapping: 'P' },
      { chain_bootstrapping: 'X' },
      { chain_bootstrapping: 'C' },
    ],
    ending: bootstrapDone('P', 'X', 'C'),
    // A restart's bootstrap, minutes old: a warning until it outlasts 30 minutes (AvalancheNodeNotBootstrapped's `for`).
    fires: [warning('AvalancheNodeUnhealthy')],
    // The unhealthy node explains its checks, its readiness and the collectors its chains' 503s fail.
    muted: [
      ...['bootstrapped', 'P', 'X', 'C'].map((check) => warning('AvalancheHealthCheckFailing', { check })),
      warning('AvalancheNodeNotReady'),
      ...['validators', 'chain_progress', 'fee_config'].map((collector) => warning('AvaxmonCollectorFailing', { collector })),
    ],
  },
  {
    id: 'bootstrap-outlasts-grace',
    title: 'A restart whose C-Chain is still bootstrapping 40 minutes later',
    setup: [
      { ...WELL_SEEN, fail_check: { check: 'bootstrapped', error: 'subnets not bootstrapped', failing_for: '40m' } },
      { chain_bootstrapping: 'C' },
    ],
    fires: [critical('AvalancheNodeUnhealthy'), warning('AvalancheNodeNotBootstrapped', { chain: 'C' })],
    muted: [
      ...['bootstrapped', 'C'].map((check) => warning('AvalancheHealthCheckFailing', { check })),
      warning('AvalancheNodeNotReady'),
      warning('AvaxmonCollectorFailing', { collector: 'fee_config' }),
    ],
  },
  {
    id: 'restart-budget-at-risk',
    title: 'A restart bootstrapping its C-Chain with about 6 minutes of downtime budget left',
    setup: [
      {
        set_version: V115,
        validator_period: { ago_days: 57.1, days: 60 },
        network_view: { connected: [{ stake: 97, observed: 89 }] },
        fail_check: { check: 'bootstrapped', error: 'subnets not bootstrapped' },
      },
      { chain_bootstrapping: 'C' },
    ],
    // Until avaxmon has the budget (its validators collector's first run), a restart is a warning.
    before: [warning('AvalancheNodeUnhealthy')],
    fires: [
      critical('AvalancheNodeUnhealthy'),
      critical('AvalancheRewardAtRisk', { view: 'network' }),
      warning('AvalancheUptimeLow', { view: 'network' }),
      warning('AvalancheRewardingStakeLow'),
      warning('AvalancheNodeNotBootstrapped', { chain: 'C' }),
      { alertname: 'AvalancheStakeExpiring', severity: 'info' },
    ],
    muted: [
      ...['bootstrapped', 'C'].map((check) => warning('AvalancheHealthCheckFailing', { check })),
      warning('AvalancheNodeNotReady'),
      warning('AvaxmonCollectorFailing', { collector: 'fee_config' }),
    ],
  },
  {
    id: 'version-behind',
    title: 'A node on v1.15 while the stake runs v1.16, which schedules an upgrade in 5 days',
    setup: [
      {
        set_version: V115,
        upgrade_ahead: { from_version: 'avalanchego/1.16.0', days: 5 },
        network_view: { connected: [{ stake: 97, observed: 99, version: 'avalanchego/1.16.0' }] },
      },
    ],
    // The unknown upgrade is why the node is behind: one notification.
    fires: [warning('AvalancheUpgradeScheduled')],
    muted: [warning('AvalancheNodeVersionBehind')],
  },
  {
    id: 'upgrade-unknown-12h',
    title: "An upgrade the node's release does not know activates in 12 hours; 90% of the stake runs the release that knows it",
    setup: [
      {
        set_version: V115,
        upgrade_ahead: { from_version: 'avalanchego/1.16.0', days: 0.5 },
        network_view: { connected: [{ stake: 90, observed: 99, version: 'avalanchego/1.16.0' }] },
      },
    ],
    // The node's futureupgrade check fails from 3 days before (node/node.go): the upgrade alert pages.
    fires: [critical('AvalancheUpgradeScheduled'), warning('AvalancheNodeUnhealthy')],
    muted: [warning('AvalancheNodeVersionBehind'), warning('AvalancheHealthCheckFailing', { check: 'futureupgrade' })],
  },
  {
    id: 'partition',
    title: 'A network partition: 5 peers, 4% of the stake connected, every chain check failing for want of stake',
    setup: [
      {
        set_version: V115,
        network_view: { connected: [{ stake: 4, observed: 99 }] },
      },
      ...['P', 'X', 'C'].map((chain) => ({
        set_connected_stake: { chain, percent: 4 },
        fail_check: {
          check: chain,
          error: 'networking: not connected to enough stake: connected to 4.000000%; required at least 80.000000%',
        },
      })),
    ],
    // The whole set watched, so the connected share of the stake is exported and alerted on.
    targetYaml: 'validators: { node_ids: [self], network_wide: true }',
    fires: [critical('AvalancheNodeUnhealthy'), warning('AvalancheRewardingStakeLow')],
    muted: [
      critical('AvalancheStakeConnectedLow'),
      warning('AvalanchePeersLow'),
      ...['P', 'X', 'C'].map((check) => warning('AvalancheHealthCheckFailing', { check })),
    ],
  },
  {
    id: 'low-disk',
    title: 'Low disk: 8% left, the `diskspace` check fails',
    setup: [{ ...WELL_SEEN, set_disk: { percent: 8, bytes: 40_000_000_000 } }],
    fires: [critical('AvalancheNodeUnhealthy')],
    muted: [warning('AvalancheHealthCheckFailing', { check: 'diskspace' })],
  },
  {
    id: 'cycle-boundary',
    title: 'An auto-renewed validator minutes into its next cycle',
    setup: [
      { ...WELL_SEEN, validator_auto_renew: { node_id: 'self', next_period_days: 14 }, validator_period: { ago_days: 0.01, days: 14 } },
    ],
    fires: [],
  },
  {
    id: 'graceful-exit',
    title: 'A graceful exit: auto-renew stopped (`nextPeriod "0"`), the cycle ends in 12 hours',
    setup: [
      { ...WELL_SEEN, validator_auto_renew: { node_id: 'self', next_period_days: 0 }, validator_period: { ago_days: 13.5, days: 14 } },
    ],
    fires: [warning('AvalancheStakeExpiring')],
  },
  {
    id: 'l1-balance-low',
    title: "An L1 validator's balance runs out in about 2 days",
    setup: [{ ...WELL_SEEN, l1_balance: { subnet: SIM_L1.name, avax: 0.1 } }],
    targetYaml: L1_YAML,
    fires: [critical('AvalancheL1ValidatorBalanceLow', { subnet: SIM_L1.name })],
  },
  {
    id: 'stalled-next-to-idle',
    title: 'The C-Chain stalled next to an idle subnet chain that makes blocks only with transactions',
    setup: [WELL_SEEN, { chain_stall: 'C' }, { chain_stall: SIM_SUBNET.name }],
    targetYaml: `subnets: [{ name: ${SIM_SUBNET.name}, subnet_id: ${SIM_SUBNET.subnetId}, blockchain_id: ${SIM_SUBNET.blockchainId} }]`,
    fires: [critical('AvalancheChainStalled', { chain: 'C' })],
  },
  {
    id: 'metrics-api-down',
    title: 'The public Metrics API down (503) next to a healthy node',
    setup: [{ ...WELL_SEEN, public_api_unavailable: { api: 'metrics', for: '3h' } }],
    metricsApi: true,
    otherTarget: 'metrics_api',
    fires: [warning('AvaxmonCollectorFailing', { target: 'metrics_api', collector: 'metrics_api' })],
  },
  {
    id: 'healthy-validator',
    title: 'A healthy validator, well connected and well seen',
    setup: [WELL_SEEN],
    fires: [],
  },
  {
    id: 'node-down',
    title: 'The node down: its API refuses every connection',
    setup: [{ ...WELL_SEEN, fault: { match: '*', kind: 'reset' } }],
    fires: [critical('AvaxmonTargetDown')],
  },
  {
    id: 'budget-nearly-spent',
    title: '55 days into 60 at 89.5%: about 5 hours of downtime budget left',
    setup: [
      { set_version: V115, validator_period: { ago_days: 55, days: 60 }, network_view: { connected: [{ stake: 97, observed: 89 }] } },
    ],
    // The validation also ends in 5 days without renewal.
    fires: [
      critical('AvalancheRewardAtRisk', { view: 'network' }),
      warning('AvalancheUptimeLow', { view: 'network' }),
      warning('AvalancheRewardingStakeLow'),
      { alertname: 'AvalancheStakeExpiring', severity: 'info' },
    ],
  },
];

/**
 * The situations of issue 43 that are not in the list above: a slow or intermittent node whose
 * validators call fails after one good run still pages the budget from that run's facts.
 */
const EDGES: readonly Situation[] = [
  {
    id: 'budget-spent-validators-failing',
    title: '55 days into 60 at 89.5% (about 5 hours of budget), the validators call failing from the second run on',
    setup: [
      { set_version: V115, validator_period: { ago_days: 55, days: 60 }, network_view: { connected: [{ stake: 97, observed: 89 }] } },
    ],
    later: [{ afterMs: 0, apply: { fault: { match: 'platform.getCurrentValidators', kind: 'rpc_error', message: 'timed out' } } }],
    // From the last good run's facts, which the page says are stale.
    fires: [
      critical('AvalancheRewardAtRisk', { view: 'network' }),
      warning('AvalancheUptimeLow', { view: 'network' }),
      warning('AvalancheRewardingStakeLow'),
      { alertname: 'AvalancheStakeExpiring', severity: 'info' },
      warning('AvaxmonCollectorFailing', { collector: 'validators' }),
    ],
  },
  {
    id: 'validation-ended',
    title: 'A validation ends without renewal and the node leaves the validator set',
    // Once the daemon has seen it running, it is 10 minutes from its end; the P-Chain removes it a few minutes after.
    setup: [WELL_SEEN],
    later: [
      { afterMs: 0, apply: { validator_period: { ago_days: 14 - 600 / 86_400, days: 14 } } },
      { afterMs: 15 * 60_000, apply: { validator_leave: 'self' } },
    ],
    before: [warning('AvalancheStakeExpiring')],
    // Said as ended, with its end time and the reward earned, not resolved.
    fires: [{ alertname: 'AvalancheStakeExpiring', severity: 'info' }],
  },
];

/**
 * The cases issue 43 left open: a budget judged from stale facts, and an L1's chain bootstrapping
 * after a restart, whose health check AvalancheGo names by its blockchain id.
 */
const MORE_EDGES: readonly Situation[] = [
  {
    id: 'budget-day-validators-failing',
    title:
      '47.5 days into 60 at 89.5% (a day and 10 minutes of budget), the validators call failing from the second run on: the node may be down since',
    setup: [
      { set_version: V115, validator_period: { ago_days: 47.553, days: 60 }, network_view: { connected: [{ stake: 97, observed: 89 }] } },
    ],
    later: [{ afterMs: 0, apply: { fault: { match: 'platform.getCurrentValidators', kind: 'rpc_error', message: 'timed out' } } }],
    // A warning on the last good run's budget; critical once the time since, counted as downtime, leaves less than a day.
    before: [warning('AvalancheRewardAtRisk', { view: 'network' })],
    fires: [
      critical('AvalancheRewardAtRisk', { view: 'network' }),
      warning('AvalancheUptimeLow', { view: 'network' }),
      warning('AvalancheRewardingStakeLow'),
      warning('AvaxmonCollectorFailing', { collector: 'validators' }),
    ],
  },
  {
    id: 'l1-chain-bootstrapping',
    title: "A restart bootstrapping only its L1's chain (its health check named by its blockchain id), done within 30 minutes",
    setup: [
      { ...WELL_SEEN, fail_check: { check: 'bootstrapped', error: 'subnets not bootstrapped' } },
      { chain_bootstrapping: SIM_L1.name },
    ],
    targetYaml: L1_YAML,
    ending: bootstrapDone(SIM_L1.name),
    fires: [warning('AvalancheNodeUnhealthy')],
    muted: [
      ...['bootstrapped', SIM_L1.blockchainId].map((check) => warning('AvalancheHealthCheckFailing', { check })),
      warning('AvalancheNodeNotReady'),
      // The L1 chain's validators API answers 503 while it bootstraps.
      warning('AvaxmonCollectorFailing', { collector: 'l1_validators' }),
    ],
  },
  {
    id: 'l1-chain-bootstrap-outlasts-grace',
    title: "A restart whose L1's chain is still bootstrapping 40 minutes later",
    setup: [
      { ...WELL_SEEN, fail_check: { check: 'bootstrapped', error: 'subnets not bootstrapped', failing_for: '40m' } },
      { chain_bootstrapping: SIM_L1.name },
    ],
    targetYaml: L1_YAML,
    fires: [critical('AvalancheNodeUnhealthy'), warning('AvalancheNodeNotBootstrapped', { chain: SIM_L1.name })],
    muted: [
      ...['bootstrapped', SIM_L1.blockchainId].map((check) => warning('AvalancheHealthCheckFailing', { check })),
      warning('AvalancheNodeNotReady'),
      // The L1 chain's validators API answers 503 while it bootstraps.
      warning('AvaxmonCollectorFailing', { collector: 'l1_validators' }),
    ],
  },
];

export const situations: readonly Situation[] = [...EVERYDAY, ...EDGES, ...MORE_EDGES];

const describeAlert = (alert: ExpectedAlert) => {
  const labels = Object.entries(alert.labels ?? {}).map(([name, value]) => `${name}=${value}`);
  return `\`${alert.alertname}\` ${alert.severity}${labels.length > 0 ? ` (${labels.join(', ')})` : ''}`;
};
const describeAlerts = (alerts: readonly ExpectedAlert[]) => (alerts.length === 0 ? 'nothing' : alerts.map(describeAlert).join(', '));

/** The "what pages when" table of docs/alerting.md, rendered from the situations it is tested with. */
export function situationsTable(): string {
  const rows = situations.map((situation) => {
    const pages = situation.fires.some((alert) => alert.severity === 'critical') ? '**yes**' : 'no';
    const notifies = situation.before
      ? `${describeAlerts(situation.before)}, then ${describeAlerts(situation.fires)}`
      : describeAlerts(situation.fires);
    return `| ${situation.title} | ${pages} | ${notifies} | ${situation.muted ? describeAlerts(situation.muted) : ''} |`;
  });
  return ['| situation | pages | what notifies | also firing, inhibited |', '|---|---|---|---|', ...rows].join('\n');
}
