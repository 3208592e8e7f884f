/**
 * Seconds of further downtime a primary network validator can take before its uptime over the
 * whole staking period falls below the reward requirement:
 *
 *   budget = (1 − req)·(end − start) − (1 − uptime)·(now − start)
 *
 * The first term is all the downtime the period allows; the second is the downtime already spent,
 * taking the uptime ratio since `start` from the view that decides the reward (for this node, what
 * the deciding share of stake sees: deciding-view.ts). AvalancheGo's rule (options.go prefersCommit)
 * is uptime since start ≥ req at the end, i.e. total downtime ≤ the allowance: a budget of exactly 0
 * still earns the reward. Negative: this period's reward is lost.
 * `now` is clamped to the period, so a finished period reports what was left at its end.
 */
export function downtimeBudgetSeconds(input: {
  readonly requirement: number;
  readonly uptimeRatio: number;
  readonly startSeconds: number;
  readonly endSeconds: number;
  readonly nowSeconds: number;
}): number {
  const { requirement, uptimeRatio, startSeconds, endSeconds } = input;
  const now = Math.min(Math.max(input.nowSeconds, startSeconds), endSeconds);
  return downtimeAllowanceSeconds(requirement, startSeconds, endSeconds) - (1 - uptimeRatio) * (now - startSeconds);
}

/** All the downtime a period allows: (1 − req)·(end − start). At the end AvalancheGo rewards uptime ≥ req. */
export function downtimeAllowanceSeconds(requirement: number, startSeconds: number, endSeconds: number): number {
  return (1 - requirement) * (endSeconds - startSeconds);
}
