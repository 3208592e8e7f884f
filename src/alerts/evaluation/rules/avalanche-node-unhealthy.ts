import { FACTS_AGE } from '../../../collectors/last-good-facts.js';
import type { SampleIndex } from '../sample-index.js';
import { human } from '../prometheus-twin.js';
import type { AlertRule, Severity, TwinValues } from '../rule.js';
import { downtimeBudgetLeft, downtimeBudgetLeftExpr } from '../downtime-budget-left.js';
import { formatSeconds } from './series-rule.js';

/**
 * The failing checks of a node that is only bootstrapping, as AvalancheGo names them: the chain
 * manager's `bootstrapped` check (chains/manager.go, "subnets not bootstrapped"), and, while that
 * one fails, the chains' own checks. A chain's check lags its chain: the node runs its checks every
 * 30 s, so info.isBootstrapped says a chain is done before its check passes, and a bootstrap that
 * ends would page for that half minute if only the chains still bootstrapping counted. A chain's
 * check is registered under its primary alias (P, X, C), which for an L1's chain is its blockchain
 * id unless the node's --chain-aliases-file gives it one: avaxmon_chain_bootstrapped's `check`
 * label names it.
 * Anything else failing (network, diskspace, database, bls...) is an outage whatever the bootstrap.
 */
const BOOTSTRAPPED_CHECK = 'bootstrapped';
/**
 * Fails from 3 days before an upgrade the node's release does not know (node/node.go);
 * AvalancheUpgradeScheduled says how urgent that is (critical within a day), so alone it is a warning.
 */
const FUTURE_UPGRADE_CHECK = 'futureupgrade';

/** The twin's "only bootstrapping, for less than the grace, with budget to spare". */
function bootstrappingOnly({ sel, p }: TwinValues): string {
  const on = 'on (job, instance, target)';
  return `(
  avaxmon_node_healthy{${sel}} == 0
  and ${on} (time() - avaxmon_health_check_first_failure_timestamp_seconds{${sel}, check="${BOOTSTRAPPED_CHECK}"}) < ${p.bootstrap_grace}
)
unless ${on} (
  (avaxmon_health_check_passing{${sel}, check!="${BOOTSTRAPPED_CHECK}"} == 0)
  unless on (job, instance, target, check) avaxmon_chain_bootstrapped{${sel}}
)
unless ${on} (${downtimeBudgetLeftExpr(sel, ', view="network"')} < ${p.bootstrap_grace})
or (
  avaxmon_node_healthy{${sel}} == 0
  and ${on} (avaxmon_health_check_passing{${sel}, check="${FUTURE_UPGRADE_CHECK}"} == 0)
  unless ${on} (avaxmon_health_check_passing{${sel}, check!="${FUTURE_UPGRADE_CHECK}"} == 0)
)`;
}

const failingChecks = (samples: SampleIndex, target: string): string[] =>
  samples
    .where('avaxmon_health_check_passing', { target })
    .filter((check) => check.value === 0)
    .map((check) => check.labels.check)
    .sort();

/**
 * How long the node has been bootstrapping, if that is all it is doing: every failing check is a
 * bootstrap check, and the node says when its `bootstrapped` check began to fail (its own
 * timeOfFirstFailure, so a restart of avaxmon does not start the count again).
 */
function bootstrapSeconds(samples: SampleIndex, target: string, failing: readonly string[], nowSeconds: number): number | undefined {
  if (!failing.includes(BOOTSTRAPPED_CHECK)) return undefined;
  const chainChecks = new Set(
    samples.where('avaxmon_chain_bootstrapped', { target }).map((chain) => chain.labels.check ?? chain.labels.chain),
  );
  if (!failing.every((check) => check === BOOTSTRAPPED_CHECK || chainChecks.has(check))) return undefined;
  const since = samples.valueOf('avaxmon_health_check_first_failure_timestamp_seconds', { target, check: BOOTSTRAPPED_CHECK });
  return since === undefined ? undefined : Math.max(0, nowSeconds - since);
}

/** The node's own downtime budget, as the deciding stake sees it (less the age of stale facts), when it is shorter than `seconds`. */
function budgetBelow(samples: SampleIndex, target: string, seconds: number): number | undefined {
  const budgets = samples
    .where('avaxmon_validator_downtime_budget_seconds', { target, view: 'network' })
    .map((sample) => downtimeBudgetLeft(samples, sample.labels, sample.value))
    .filter((budget) => budget < seconds);
  return budgets.length > 0 ? Math.min(...budgets) : undefined;
}

export const avalancheNodeUnhealthy: AlertRule = {
  name: 'AvalancheNodeUnhealthy',
  defaultFor: '1m',
  severity: ['warning', 'critical'],
  params: {
    bootstrap_grace: {
      kind: 'duration',
      default: 30 * 60,
      help: "a node failing only its bootstrap checks is a warning until its bootstrap is this old (AvalancheNodeNotBootstrapped's `for`)",
    },
  },
  sources: [{ metric: 'avaxmon_node_healthy', labels: ['target'] }],
  alsoReads: [
    'avaxmon_health_check_passing',
    'avaxmon_health_check_first_failure_timestamp_seconds',
    'avaxmon_chain_bootstrapped',
    'avaxmon_validator_downtime_budget_seconds',
    FACTS_AGE,
  ],
  prometheus: {
    group: 'avaxmon-node',
    alerts: [
      {
        severity: 'warning',
        expr: bootstrappingOnly,
        summary: () => `Node {{ $labels.target }} is unhealthy, not yet an outage`,
        description: ({ p }) =>
          `GET /ext/health on {{ $labels.target }} reports unhealthy, failing only its bootstrap checks for less than ${human(p.bootstrap_grace)} (a restart; it pages if the bootstrap outlasts that), or only futureupgrade (AvalancheUpgradeScheduled pages a day before the upgrade).`,
      },
      {
        severity: 'critical',
        expr: (values) => `avaxmon_node_healthy{${values.sel}} == 0 unless on (job, instance, target) (${bootstrappingOnly(values)})`,
        summary: () => `Node {{ $labels.target }} is unhealthy`,
        description: ({ forSeconds }) =>
          `GET /ext/health on {{ $labels.target }} has reported unhealthy for more than ${human(forSeconds)}. Failing checks: {{ range printf "avaxmon_health_check_passing{job=%q,instance=%q,target=%q} == 0" $labels.job $labels.instance $labels.target | query | sortByLabel "check" }}{{ .Labels.check }} {{ end }}`,
      },
    ],
  },
  description:
    'GET /ext/health reports the node unhealthy (avaxmon_node_healthy == 0); the description names the failing checks. A node failing only its bootstrap checks (`bootstrapped`, and while it fails the checks of its chains: P, X, C, or for an L1 chain the check AvalancheGo names by its blockchain id), as after a restart, is a warning until its bootstrap is `bootstrap_grace` (30m) old, then critical; critical at once if its downtime budget (less the age of stale facts) is shorter than that. Failing only `futureupgrade` is a warning: AvalancheUpgradeScheduled pages a day before the upgrade.',
  evaluate(ctx) {
    const grace = ctx.params.bootstrap_grace;
    // The clock is read for an unhealthy node only: a healthy one's verdict is its samples' alone (see SettledRules).
    return ctx.samples
      .all('avaxmon_node_healthy')
      .filter((sample) => sample.value === 0)
      .map((sample) => {
        const target = sample.labels.target;
        const failing = failingChecks(ctx.samples, target);
        const bootstrapping = bootstrapSeconds(ctx.samples, target, failing, ctx.nowMs / 1000);
        const budget = bootstrapping === undefined ? undefined : budgetBelow(ctx.samples, target, grace);
        const upgradeOnly = failing.length > 0 && failing.every((check) => check === FUTURE_UPGRADE_CHECK);
        const restarting = bootstrapping !== undefined && bootstrapping < grace && budget === undefined;
        const severity: Severity = restarting || upgradeOnly ? 'warning' : 'critical';
        const checks = failing.length > 0 ? failing.join(', ') : 'none reported';
        return {
          labels: { target },
          severity,
          summary: restarting ? `Node ${target} is bootstrapping` : `Node ${target} is unhealthy`,
          description: `/ext/health on ${target} reports unhealthy; failing checks: ${checks}.${upgradeOnly ? UPGRADE_NOTE : bootstrapNote(bootstrapping, budget, grace)}`,
          annotations: { failing_checks: failing.join(',') },
        };
      });
  },
};

const UPGRADE_NOTE = ' Only the network upgrade the release does not know: AvalancheUpgradeScheduled pages when it is a day away.';

function bootstrapNote(bootstrapping: number | undefined, budget: number | undefined, grace: number): string {
  if (bootstrapping === undefined) return '';
  const since = ` Bootstrapping for ${formatSeconds(bootstrapping)}`;
  if (budget !== undefined) return `${since}, but only ${formatSeconds(Math.max(0, budget))} of downtime budget is left.`;
  if (bootstrapping < grace) return `${since} (a restart): it pages if the bootstrap outlasts ${human(grace)}.`;
  return `${since}: longer than ${human(grace)}.`;
}
