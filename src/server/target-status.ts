import type { DaemonView } from './daemon-view.js';

// Every AvalancheGo node answers these two; collectors with nothing to do (no L1s, no EVM fee
// config) succeed against any web server, so they cannot vouch for the target.
const IDENTITY_COLLECTORS = new Set(['health', 'node_info']);

/**
 * The status page's word for a target. Reachability alone is not health: any web server answers
 * HTTP, so a target whose identity collectors (or, without them, all collectors) fail is "failing",
 * not "up"; other failing collectors make it "degraded".
 */
export function targetStatusBadge(daemon: DaemonView, target: string): string {
  const up = daemon.self.isTargetUp(target);
  if (up === undefined) return '<span class="badge unknown">unknown</span>';
  if (!up) return '<span class="badge bad">down</span>';
  const outcomes = [...daemon.collectorStates.values()]
    .filter((state) => state.target === target)
    .flatMap((state) => {
      const success = daemon.self.collectorStatus(target, state.collector)?.success;
      return success === undefined ? [] : [{ collector: state.collector, success }];
    });
  const identity = outcomes.filter((outcome) => IDENTITY_COLLECTORS.has(outcome.collector));
  const vouching = identity.length > 0 ? identity : outcomes;
  if (vouching.length > 0 && vouching.every((outcome) => !outcome.success)) return '<span class="badge bad">failing</span>';
  const failing = outcomes.filter((outcome) => !outcome.success).length;
  if (failing > 0) return `<span class="badge warning">degraded (${failing} of ${outcomes.length} collectors failing)</span>`;
  return '<span class="badge ok">up</span>';
}
