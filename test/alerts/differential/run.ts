import { expect } from 'vitest';
import { ALERTMANAGER } from '../../helpers/real-systems.js';
import { requireTool } from '../../helpers/tools.js';
import { startDifferential } from './driver.js';
import { DEFAULT_ALERTS, type Scenario } from './scenarios.js';

export const hasAlertmanager = requireTool(ALERTMANAGER, 'prometheus-alertmanager');

/**
 * Runs one scenario through both and requires the same notifications, field by field and in order;
 * the only fields left out are the times a notification was rendered at (docs/alerting.md).
 */
export async function runScenario(scenario: Scenario): Promise<void> {
  const differential = await startDifferential(scenario.routing, `${DEFAULT_ALERTS}\n${scenario.alerts ?? ''}`);
  try {
    await scenario.run(differential);
    const theirs = differential.theirs.notifications();
    if (process.env.DIFF_DEBUG)
      for (const [side, list] of [
        ['ours', differential.ours.notifications()],
        ['theirs', theirs],
      ] as const)
        console.log(side, JSON.stringify(list.map((b) => b.alerts.map((a) => `${a.status}:${a.labels.target}:${a.startsAt.slice(17)}`))));
    scenario.expectTheirs(theirs);
    expect(byGroup(differential.ours.notifications())).toEqual(byGroup(theirs));
  } finally {
    await differential.close();
  }
}

/** Groups are independent (Alertmanager flushes each on its own timer): compared group by group, each in order. */
export function byGroup<T extends { receiver: string; groupKey: string }>(notifications: readonly T[]): Record<string, T[]> {
  const groups: Record<string, T[]> = {};
  for (const body of notifications) (groups[`${body.receiver} ${body.groupKey}`] ??= []).push(body);
  return groups;
}
