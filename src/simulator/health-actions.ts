import type { Action } from './action.js';
import { healthDetails } from './health-details.js';

/** AvalancheGo's default --system-tracker-disk-warning-threshold-available-percentage. */
const DISK_WARNING_PERCENT = 10;

const record = (argument: unknown) => (typeof argument === 'object' && argument !== null ? (argument as Record<string, unknown>) : {});

/** Scenario actions on the numbers in the health checks' messages. */
export const healthActions: Record<string, Action> = {
  /** `set_disk: { percent: 8, bytes: 40000000000 }`: available disk; below 10% the diskspace check fails. */
  set_disk(state, argument, now) {
    const { percent, bytes } = record(argument);
    const details = healthDetails(state);
    details.diskAvailablePercent = Number(percent);
    if (bytes !== undefined) details.diskAvailableBytes = Number(bytes);
    const check = state.checks.get('diskspace')!;
    if (details.diskAvailablePercent >= DISK_WARNING_PERCENT) {
      Object.assign(check, { failing: false, contiguousFailures: 0, firstFailureMs: undefined, error: undefined });
      return;
    }
    const error = `remaining available disk space percentage (${details.diskAvailablePercent}%) is below warning threshold available space percentage (${DISK_WARNING_PERCENT}%)`;
    Object.assign(check, {
      failing: true,
      contiguousFailures: check.contiguousFailures + 1,
      firstFailureMs: check.firstFailureMs ?? now,
      error,
    });
  },
  /** `set_connected_stake: { chain: C, percent: 72.5 }`: the share of stake a chain check sees connected. */
  set_connected_stake(state, argument) {
    const { chain, percent } = record(argument);
    healthDetails(state).connectedStake.set(String(chain), Number(percent) / 100);
  },
  /** `{ check: C, message: { engine: sae } }`: a check's details in any shape, as a new VM or release may send them. */
  health_message(state, argument) {
    const { check, message } = record(argument);
    if (!state.checks.has(String(check))) throw new Error(`health_message: unknown check "${String(check)}"`);
    healthDetails(state).messages.set(String(check), message);
  },
  set_send_fail_rate(state, argument) {
    healthDetails(state).sendFailRate = Number(argument);
  },
};
