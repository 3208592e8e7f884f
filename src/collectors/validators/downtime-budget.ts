/**
 * Seconds of further downtime a primary network validator can take before its uptime over the
 * whole staking period falls below the reward requirement:
 *
 *   budget = (1 − req)·(end − start) − (1 − uptime)·(now − start)
 *
 * The first term is all the downtime the period allows; the second is the downtime already spent,
 * taking the node's uptime ratio since `start` at face value. Negative: this period's reward is lost.
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
  return (1 - requirement) * (endSeconds - startSeconds) - (1 - uptimeRatio) * (now - startSeconds);
}
