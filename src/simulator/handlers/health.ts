import { checkMessage } from '../health-details.js';
import { futureUpgradeError } from '../peer-view.js';
import type { SimState } from '../state.js';
import type { MethodHandler } from './types.js';

/** The node's health report: chain checks carry their subnet id as tag, application checks always show. */
export function healthReport(
  state: SimState,
  nowMs: number,
  tags: readonly string[] = [],
): { checks: Record<string, unknown>; healthy: boolean } {
  const checks: Record<string, unknown> = {};
  let healthy = true;
  for (const [name, check] of state.checks) {
    const selected = tags.length === 0 || check.tags.includes('application') || check.tags.some((tag) => tags.includes(tag));
    if (!selected) continue;
    const result: Record<string, unknown> = {
      message: checkMessage(state, name, check.tags),
      timestamp: new Date(nowMs).toISOString(),
      duration: 20375,
    };
    // The futureupgrade check fails on its own as the upgrade nears, whatever a scenario set.
    const upgradeError = name === 'futureupgrade' && !check.failing ? futureUpgradeError(state, nowMs) : undefined;
    if (check.failing || upgradeError) {
      healthy = false;
      result.error = upgradeError ?? check.error ?? `${name} check failed`;
      result.contiguousFailures = Math.max(1, check.contiguousFailures);
      result.timeOfFirstFailure = new Date(check.firstFailureMs ?? nowMs).toISOString();
    }
    checks[name] = result;
  }
  return { checks, healthy };
}

export function readinessReport(state: SimState, nowMs: number): { checks: Record<string, unknown>; healthy: boolean } {
  const full = healthReport(state, nowMs);
  const bootstrapped = full.checks.bootstrapped as Record<string, unknown> | undefined;
  return { checks: bootstrapped ? { bootstrapped } : {}, healthy: !bootstrapped || !('error' in bootstrapped) };
}

const tagsOf = (params: Record<string, unknown>) => (Array.isArray(params.tags) ? params.tags.map(String) : []);

export const healthMethods: Record<string, MethodHandler> = {
  'health.health': (params, state, now) => healthReport(state, now, tagsOf(params)),
  'health.readiness': (_, state, now) => readinessReport(state, now),
  'health.liveness': () => ({ checks: {}, healthy: true }),
};
