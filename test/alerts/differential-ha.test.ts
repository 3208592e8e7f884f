import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../src/metrics/metric-desc.js';
import type { ClusterMember } from '../helpers/alertmanager-cluster.js';
import type { comparable } from './differential/driver.js';
import { startHaDifferential } from './differential/ha-driver.js';
import { byGroup, hasAlertmanager } from './differential/run.js';
import { DEFAULT_ALERTS, fleet, rootOnly } from './differential/scenarios.js';

/**
 * The differential suite, high availability: two avaxmon replicas behind a two-member Alertmanager
 * cluster (docs/scaling.md) beside one Alertmanager fed as Prometheus feeds it, from the same
 * alertmanager.yml text and alert stream. Mid-incident a replica and the notifying member are
 * killed with -9. What reaches the operator must be what the single Alertmanager sends, field by
 * field and in order per group, but for the cluster's own echoes (docs/alerting.md).
 */

type Notification = ReturnType<typeof comparable>;

/**
 * Longer than the waiting member's flush (group_interval 1s plus its peer timeout, 3s), with time to
 * spare: every step's state is flushed by each side before the next change.
 */
const HA_STEP_MS = 6_000;

/**
 * How much later than the single Alertmanager's a notification may reach the operator: until the
 * survivor sees its peer dead, it waits a peer timeout (3 s) in each flush, so a change that just
 * missed one flush goes out at the end of the next; plus group_interval and 2 s to spare.
 */
const MAX_LAG_MS = 2 * 3_000 + 1_000 + 2_000;

const groupOf = (body: Notification) => `${body.receiver} ${body.groupKey}`;
const show = (list: readonly Notification[]) =>
  list.map((body) => `${body.groupLabels.alertname}: ${body.alerts.map((alert) => `${alert.status}:${alert.labels.target}`).join(',')}`);

/**
 * What a notification of ours is. `operator`: compared with the single Alertmanager's. `repeat`: the
 * group's last compared notification once more, from either member: the other's notification had
 * not reached its log (gossip slower than the peer timeout, or a member killed before gossiping it).
 * `stale` (only with `staleAllowed`, and only while both members live): the waiting member's old
 * snapshot of the group, every alert of it already notified in that state. Alertmanager's cluster,
 * not avaxmon, sends these, and a single Alertmanager never does: the waiting member (position 1)
 * snapshots a group when its flush starts and asks the notification log a peer timeout later; when
 * the notifying member has meanwhile notified that an alert left the group (resolved, silenced), the
 * old snapshot is not covered by the log's entry and goes out, and the current state follows once
 * more (prometheus/alertmanager#2447, #3283).
 */
function classify(
  notifications: readonly Notification[],
  senders: readonly number[],
  atMs: readonly number[],
  { waiting, killedAtMs, staleAllowed }: { waiting: number; killedAtMs: number; staleAllowed: boolean },
) {
  const operator: Notification[] = [];
  const operatorAtMs: number[] = [];
  const counts = { repeat: 0, stale: 0 };
  notifications.forEach((body, index) => {
    const earlier = operator.filter((other) => groupOf(other) === groupOf(body));
    const notifiedBefore = (alert: Notification['alerts'][number]) =>
      notifications
        .slice(0, index)
        .some((other) => groupOf(other) === groupOf(body) && other.alerts.some((seen) => isDeepStrictEqual(seen, alert)));
    if (isDeepStrictEqual(earlier.at(-1), body)) counts.repeat++;
    else if (staleAllowed && senders[index] === waiting && atMs[index] < killedAtMs && body.alerts.every(notifiedBefore)) counts.stale++;
    else {
      operator.push(body);
      operatorAtMs.push(atMs[index]);
    }
  });
  return { operator, operatorAtMs, counts };
}

/** For each group's n-th notification on both sides, how much later ours reached the operator than theirs. */
function lagsMs(
  ours: readonly Notification[],
  oursAtMs: readonly number[],
  theirs: readonly Notification[],
  theirsAtMs: readonly number[],
) {
  const timesByGroup = (list: readonly Notification[], atMs: readonly number[]) => {
    const times = new Map<string, number[]>();
    for (const [index, body] of list.entries()) times.set(groupOf(body), [...(times.get(groupOf(body)) ?? []), atMs[index]]);
    return times;
  };
  const theirTimes = timesByGroup(theirs, theirsAtMs);
  return [...timesByGroup(ours, oursAtMs)].flatMap(([group, times]) => times.map((atMs, n) => atMs - (theirTimes.get(group)?.[n] ?? 0)));
}

interface Stream {
  /** Steps before the kill, each a fleet held HA_STEP_MS; `silence` is made before the step's fleet. */
  readonly beforeKill: ReadonlyArray<{ fleet: Sample[]; silence?: string }>;
  readonly afterKill: ReadonlyArray<{ fleet: Sample[]; silence?: string }>;
  /** The single Alertmanager's notifications per group, shown as `alertname: status:target,...`. */
  readonly theirs: string[][];
  readonly staleAllowed: boolean;
}

/**
 * Runs `stream` through both sides, kills replica 0 and the notifying member with -9 between
 * beforeKill and afterKill, and requires what reaches the operator to match; returns the counts.
 */
async function runHa(stream: Stream) {
  const d = await startHaDifferential(rootOnly('[alertname]'), DEFAULT_ALERTS);
  try {
    const [notifying, waiting] = d.ours.members;
    // The operator silences a node on one living member, as amtool would; the cluster gossips it.
    const run = async (steps: Stream['beforeKill'], living: ClusterMember) => {
      for (const step of steps) {
        if (step.silence) await d.silence({ target: step.silence }, 3_600_000, living);
        await d.hold(step.fleet, HA_STEP_MS);
      }
    };
    await run(stream.beforeKill, notifying);
    const killedAtMs = Date.now();
    await d.killReplica(0);
    await notifying.kill();
    await run(stream.afterKill, waiting);
    const ours = () =>
      classify(
        d.ours.notifications(),
        d.ours.senders(),
        d.ours.hook.requests.map((request) => request.atMs),
        { waiting: waiting.index, killedAtMs, staleAllowed: stream.staleAllowed },
      );
    // The last notifications may still be on their way: the survivor waits its peer timeout until it sees its peer dead.
    const expected = stream.theirs.flat().length;
    await d.holdUntil(
      stream.afterKill.at(-1)!.fleet,
      () => d.theirs.hook.requests.length >= expected && ours().operator.length >= expected,
    );

    const theirs = d.theirs.notifications();
    const { operator, operatorAtMs, counts } = ours();
    if (process.env.DIFF_DEBUG) {
      console.log('ours', d.ours.senders(), show(d.ours.notifications()));
      console.log('theirs', show(theirs));
      console.log(`HA echoes: ${JSON.stringify(counts)}`);
    }
    expect(Object.values(byGroup(theirs)).map(show)).toEqual(stream.theirs);
    expect(byGroup(operator)).toEqual(byGroup(theirs));
    // And in time: a resolve the cluster only let expire (endsAt, 40 s ahead) would come far later.
    const theirsAtMs = d.theirs.hook.requests.map((request) => request.atMs);
    const lags = lagsMs(operator, operatorAtMs, theirs, theirsAtMs);
    if (process.env.DIFF_DEBUG) console.log(`HA lags (ms): ${lags.join(' ')}`);
    expect(Math.max(...lags)).toBeLessThan(MAX_LAG_MS);
    return counts;
  } finally {
    await d.close();
  }
}

describe.skipIf(!hasAlertmanager)('HA: two replicas behind a two-member Alertmanager cluster notify as one Alertmanager does', () => {
  it('fire, a group change, a silence; kill -9 of a replica and of the notifying member; a silence on the survivor, resolves', async () => {
    const counts = await runHa({
      beforeKill: [
        { fleet: fleet([0, 1, 2]) },
        // Made on the member about to die, for a node that fails after the kill: the survivor must hold it.
        { fleet: fleet([0, 1, 2, 3], [4]), silence: 'validator-6' },
      ],
      afterKill: [
        { fleet: fleet([0, 1, 2, 3, 6], [4]) },
        { fleet: fleet([1, 2, 3, 6], [4]), silence: 'validator-1' },
        { fleet: fleet([1, 6]) },
        { fleet: fleet([]) },
      ],
      theirs: [
        [
          'AvalancheNodeUnhealthy: firing:validator-0,firing:validator-1,firing:validator-2',
          'AvalancheNodeUnhealthy: firing:validator-0,firing:validator-1,firing:validator-2,firing:validator-3',
          'AvalancheNodeUnhealthy: resolved:validator-0,firing:validator-2,firing:validator-3',
          'AvalancheNodeUnhealthy: resolved:validator-2,resolved:validator-3',
        ],
        ['AvalancheNodeNotReady: firing:validator-4', 'AvalancheNodeNotReady: resolved:validator-4'],
      ],
      staleAllowed: false,
    });
    // Nothing doubled: every notification the operator got is one the single Alertmanager sent.
    expect(counts).toEqual({ repeat: 0, stale: 0 });
  }, 180_000);

  it('resolves and a silence while both members live: the same notifications, but for the cluster’s stale echoes', async () => {
    await runHa({
      beforeKill: [
        { fleet: fleet([0, 1, 2]) },
        { fleet: fleet([0, 1, 2, 3], [4]) },
        { fleet: fleet([1, 2, 3], [4]) },
        { fleet: fleet([1, 2, 3, 5], [4]), silence: 'validator-1' },
      ],
      afterKill: [{ fleet: fleet([1, 3, 5], [4]) }, { fleet: fleet([1]) }, { fleet: fleet([]) }],
      theirs: [
        [
          'AvalancheNodeUnhealthy: firing:validator-0,firing:validator-1,firing:validator-2',
          'AvalancheNodeUnhealthy: firing:validator-0,firing:validator-1,firing:validator-2,firing:validator-3',
          'AvalancheNodeUnhealthy: resolved:validator-0,firing:validator-1,firing:validator-2,firing:validator-3',
          'AvalancheNodeUnhealthy: firing:validator-2,firing:validator-3,firing:validator-5',
          'AvalancheNodeUnhealthy: resolved:validator-2,firing:validator-3,firing:validator-5',
          'AvalancheNodeUnhealthy: resolved:validator-3,resolved:validator-5',
        ],
        ['AvalancheNodeNotReady: firing:validator-4', 'AvalancheNodeNotReady: resolved:validator-4'],
      ],
      staleAllowed: true,
    });
  }, 180_000);
});
