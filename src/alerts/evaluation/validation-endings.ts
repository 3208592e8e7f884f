import type { Candidate, RuleContext } from './rule.js';
import { formatPercent } from './rules/series-rule.js';

/**
 * What is remembered of a validation that will not renew, to say how it ended once its series are
 * gone. Written over at each evaluation, not replaced: a new record kept until the next would be promoted.
 */
interface Watched {
  readonly labels: { readonly target: string; readonly subnet: string; readonly node_id: string };
  endSeconds: number;
  uptime?: number;
  requirement?: number;
  rewardAvax?: number;
  /** Seen while it still ran: an end already past when first seen (a restart, an old record) is not news. */
  seenRunning: boolean;
}

const keyOf = (labels: Watched['labels']) => `${labels.target}\u0000${labels.subnet}\u0000${labels.node_id}`;

/**
 * The validations that ended within `noticeSeconds`, said as such: when it ended and whether its
 * reward was earned (the uptime the deciding stake saw last against the requirement, as the
 * validators voting on the reward judge it). A validation that leaves the set takes its series with
 * it; without this, its AvalancheStakeExpiring would only resolve, which reads as "fixed".
 */
export function validationEndings(ctx: RuleContext, noticeSeconds: number): Candidate[] {
  remember(ctx);
  const endings: Candidate[] = [];
  for (const [key, watched] of ctx.memory as Map<string, Watched>) {
    const since = ctx.nowMs / 1000 - watched.endSeconds;
    if (since < 0 || !watched.seenRunning) continue;
    if (since >= noticeSeconds) {
      ctx.memory.delete(key);
      continue;
    }
    endings.push(ending(watched));
  }
  return endings;
}

/** Notes every watched validation that will not renew, with what decides its reward. */
function remember(ctx: RuleContext): void {
  for (const sample of ctx.samples.all('avaxmon_validator_end_timestamp_seconds')) {
    const { target, subnet, node_id } = sample.labels;
    const labels = { target, subnet, node_id };
    const key = keyOf(labels);
    if (ctx.samples.valueOf('avaxmon_validator_auto_renew', labels) === 1) {
      ctx.memory.delete(key);
      continue;
    }
    let watched = ctx.memory.get(key) as Watched | undefined;
    if (!watched)
      ctx.memory.set(
        key,
        (watched = { labels, endSeconds: 0, uptime: undefined, requirement: undefined, rewardAvax: undefined, seenRunning: false }),
      );
    watched.endSeconds = sample.value;
    watched.uptime = ctx.samples.valueOf('avaxmon_validator_uptime_ratio', { ...labels, view: 'network' });
    watched.requirement = ctx.samples.valueOf('avaxmon_validator_uptime_requirement_ratio', labels);
    watched.rewardAvax = ctx.samples.valueOf('avaxmon_validator_potential_reward_avax', labels);
    watched.seenRunning ||= ctx.nowMs / 1000 < sample.value;
  }
}

function ending(watched: Watched): Candidate {
  const { labels, endSeconds, uptime, requirement, rewardAvax } = watched;
  const at = new Date(endSeconds * 1000).toISOString();
  const reward = rewardAvax === undefined ? 'the reward' : `the reward of ${rewardAvax} AVAX`;
  let verdict: string;
  let earned: string;
  if (uptime === undefined || requirement === undefined) {
    verdict = `whether ${reward} was earned is unknown (no uptime was seen)`;
    earned = 'unknown';
  } else if (uptime >= requirement) {
    verdict = `${reward} was earned: the deciding stake saw ${formatPercent(uptime)} against the ${formatPercent(requirement)} required`;
    earned = 'yes';
  } else {
    verdict = `${reward} was lost: the deciding stake saw ${formatPercent(uptime)} against the ${formatPercent(requirement)} required`;
    earned = 'no';
  }
  return {
    labels,
    // A notice: the ending is news, not a task; a change of severity is what notifies it at once.
    severity: 'info',
    summary: `Validation of ${labels.node_id} ended at ${at}`,
    description: `The validation of ${labels.node_id} on subnet ${labels.subnet} (target ${labels.target}) ended at ${at} without renewal; ${verdict}. The node no longer validates it; stake again to validate.`,
    annotations: { ended_at: at, reward_earned: earned },
  };
}
