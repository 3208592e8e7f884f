import type { AlertRule, Candidate, RuleContext } from '../rule.js';
import { formatSeconds } from './series-rule.js';

/** When the chain_progress collector last read the target's heights: what a stall is measured up to. */
const OBSERVED_AT = 'avaxmon_collector_last_success_timestamp_seconds';

const PRIMARY_CHAIN_PARAM: Readonly<Record<string, string>> = { C: 'threshold', P: 'p_chain_threshold', X: 'x_chain_threshold' };

/**
 * A chain that only makes blocks when there are transactions (P, X, quiet Subnet-EVM L1s) is idle,
 * not stalled, when its height stops. So a chain is stalled when its height stops while the same
 * chain moves on another target of the same network (the reference), past its height; alone, only
 * after its own per-chain threshold, which is off by default except for the busy C-Chain.
 */
export const avalancheChainStalled: AlertRule = {
  name: 'AvalancheChainStalled',
  defaultFor: '1m',
  severity: 'critical',
  params: {
    threshold: {
      kind: 'duration',
      default: 300,
      help: 'C-Chain: fires when its height has not moved for this long, with or without a reference',
    },
    p_chain_threshold: {
      kind: 'duration',
      default: 0,
      help: 'P-Chain without a reference (0: never; it only makes blocks with transactions)',
    },
    x_chain_threshold: { kind: 'duration', default: 0, help: 'X-Chain without a reference (0: never)' },
    l1_threshold: {
      kind: 'duration',
      default: 0,
      help: 'other chains (L1s) without a reference (0: never; quiet Subnet-EVM chains only make blocks with transactions)',
    },
    behind_threshold: {
      kind: 'duration',
      default: 120,
      help: 'fires when the height has not moved for this long while a reference target moved past it',
    },
  },
  sources: [{ metric: 'avaxmon_chain_last_progress_timestamp_seconds', labels: ['target', 'chain'] }],
  // Compares a chain with the same chain on the network's other targets.
  fleetReads: ['avaxmon_chain_last_progress_timestamp_seconds', 'avaxmon_chain_height', 'avaxmon_node_network_id', OBSERVED_AT],
  prometheus: {
    group: 'avaxmon-chain',
    alerts: [
      {
        severity: 'critical',
        expr: ({ sel, p }) => `
          (${stalledForExpr(sel, 'chain="C"')} > ${p.threshold})
          or
          (
            (${stalledForExpr(sel)} > ${p.behind_threshold})
            and on (job, instance, target, chain)
            (
              (avaxmon_chain_height{${sel}} * on (job, instance, target) group_left (network) avaxmon_node_info{${sel}})
              < on (job, instance, chain, network) group_left ()
              max by (job, instance, chain, network) (avaxmon_chain_height{${sel}} * on (job, instance, target) group_left (network) avaxmon_node_info{${sel}})
            )
          )
        `,
        summary: () => `Chain {{ $labels.chain }} is stalled on {{ $labels.target }}`,
        description: () =>
          `The height of chain {{ $labels.chain }} on {{ $labels.target }} had not moved for {{ $value | humanizeDuration }} when last read, while the chain moved on another target of its network or, for the C-Chain, for more than 5m.`,
      },
    ],
  },
  description:
    'The height has not moved for `behind_threshold` (2m) while the same chain moved past it on another target of the same network, or, with no such reference, for the chain’s own threshold (C: 5m; P, X and L1s: off). The time is measured up to the chain_progress collector’s last successful read (avaxmon_collector_last_success_timestamp_seconds), so a late run never looks like a stall.',
  // The collector's last-progress time restarts at "now" with the daemon, so a stalled chain looks fresh for a while.
  historyMs: (params) =>
    Math.max(params.threshold, params.behind_threshold, params.p_chain_threshold, params.x_chain_threshold, params.l1_threshold) * 1000,
  evaluate(ctx) {
    const candidates: Candidate[] = [];
    const chains = chainSamples(ctx);
    const views = chainViews(chains);
    for (const point of chains) {
      const { target, chain, height } = point;
      const stalledFor = point.observedAt - point.lastProgress;
      const reference = referenceOf(views, point);
      const alone = ctx.params[PRIMARY_CHAIN_PARAM[chain] ?? 'l1_threshold'];
      const behind = reference !== undefined && stalledFor > ctx.params.behind_threshold;
      const idleTooLong = alone > 0 && stalledFor > alone;
      if (!behind && !idleTooLong) continue;
      candidates.push({
        labels: { target, chain },
        severity: 'critical',
        summary: `Chain ${chain} is stalled on ${target}`,
        description: behind
          ? `The height of chain ${chain} on ${target} had not moved for ${formatSeconds(stalledFor)} when last read (at ${height ?? 'unknown'}) while ${reference!.target} moved on to ${reference!.height}.`
          : `The height of chain ${chain} on ${target} had not moved for ${formatSeconds(stalledFor)} when last read (threshold ${formatSeconds(alone)}), and no other target of its network watches the chain.`,
      });
    }
    return candidates;
  },
};

interface ChainPoint {
  readonly target: string;
  readonly height: number;
  readonly lastProgress: number;
}

/** A chain on a target, read once per evaluation: its network and height are undefined when not collected. */
interface ChainSample {
  readonly target: string;
  readonly chain: string;
  readonly lastProgress: number;
  /** Seconds: when its height was last read (its last progress is only known up to then). */
  readonly observedAt: number;
  readonly network?: number;
  readonly height?: number;
}

function chainSamples(ctx: RuleContext): ChainSample[] {
  const nowSeconds = ctx.nowMs / 1000;
  return ctx.samples.all('avaxmon_chain_last_progress_timestamp_seconds').map((sample) => {
    const { target, chain } = sample.labels;
    const observedAt = ctx.samples.valueOf(OBSERVED_AT, { target, collector: 'chain_progress' });
    return {
      target,
      chain,
      lastProgress: sample.value,
      observedAt: Math.min(observedAt ?? nowSeconds, nowSeconds),
      network: ctx.samples.valueOf('avaxmon_node_network_id', { target }),
      height: ctx.samples.valueOf('avaxmon_chain_height', { target, chain }),
    };
  });
}

/**
 * One chain of one network across the fleet: its points by last progress, newest first, each with
 * the highest point among it and those newer. "Which target moved after t and is highest?" is then
 * one binary search, however many targets there are.
 */
type ChainView = ReadonlyArray<{ readonly lastProgress: number; readonly highest: ChainPoint }>;

function chainViews(chains: readonly ChainSample[]): Map<string, ChainView> {
  const points = new Map<string, ChainPoint[]>();
  for (const { target, chain, network, height, lastProgress } of chains) {
    if (network === undefined || height === undefined) continue;
    const key = `${network}/${chain}`;
    let list = points.get(key);
    if (!list) points.set(key, (list = []));
    list.push({ target, height, lastProgress });
  }
  const views = new Map<string, ChainView>();
  for (const [key, list] of points) {
    let highest: ChainPoint | undefined;
    const view = list
      .sort((a, b) => b.lastProgress - a.lastProgress)
      .map((point) => {
        if (!highest || point.height > highest.height) highest = point;
        return { lastProgress: point.lastProgress, highest };
      });
    views.set(key, view);
  }
  return views;
}

/** Another target of the same network whose same chain progressed after this one stopped, and is higher. */
function referenceOf(views: ReadonlyMap<string, ChainView>, { chain, network, height, lastProgress }: ChainSample): ChainPoint | undefined {
  if (network === undefined || height === undefined) return undefined;
  const view = views.get(`${network}/${chain}`);
  if (!view) return undefined;
  // This target itself has not moved after lastProgress, so it is never among the newer points.
  const newer = countNewer(view, lastProgress);
  const highest = newer > 0 ? view[newer - 1].highest : undefined;
  return highest && highest.height > height ? highest : undefined;
}

/** How many points lead the view (newest first) with progress after `seconds`: a binary search. */
function countNewer(view: ChainView, seconds: number): number {
  let low = 0;
  let high = view.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (view[middle].lastProgress > seconds) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Seconds the chain had not moved when it was last read. Measured up to that reading, not to now:
 * a late collector run (a starved daemon) must not look like a stalled chain behind targets read
 * since. A chain that is not read at all loses its series and its own alerts say why.
 */
function stalledForExpr(sel: string, chainMatcher?: string): string {
  const chain = chainMatcher ? `, ${chainMatcher}` : '';
  return `(${OBSERVED_AT}{${sel}, collector="chain_progress"} - on (job, instance, target) group_right () avaxmon_chain_last_progress_timestamp_seconds{${sel}${chain}})`;
}
