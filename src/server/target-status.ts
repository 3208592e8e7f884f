import { REDACTED, displayUrl, scrubSecrets } from '../config/redact.js';
import type { DaemonView, StatusView } from './daemon-view.js';

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

/** The families the Targets table reads, so the daemon keeps their samples beside the alert plane's. */
export const STATUS_PAGE_FAMILIES: ReadonlySet<string> = new Set(['avaxmon_node_healthy', 'avaxmon_node_role']);

/** The node's own word on its health (`avaxmon_node_healthy`), shown beside reachability: a reachable node can be unhealthy. */
export function targetHealthBadge(daemon: DaemonView, target: string): string {
  const healthy = latestValue(daemon, target, 'avaxmon_node_healthy');
  if (healthy === undefined) return '<span class="badge unknown">unknown</span>';
  return healthy === 1 ? '<span class="badge ok">healthy</span>' : '<span class="badge bad">unhealthy</span>';
}

const ROLE_WORDS: Readonly<Record<string, string>> = {
  primary_validator: 'Primary Network validator',
  l1_validator: 'L1 validator only',
  api: 'API node (validates nothing)',
};

/** What the node is (`avaxmon_node_role`), when it is watched as `self`. */
export function targetRole(daemon: DaemonView, target: string): string {
  const role = daemon.snapshot.samplesOf(target).find((sample) => sample.name === 'avaxmon_node_role' && sample.value === 1)?.labels.role;
  return role === undefined ? '-' : (ROLE_WORDS[role] ?? role);
}

function latestValue(daemon: DaemonView, target: string, name: string): number | undefined {
  return daemon.snapshot.samplesOf(target).find((sample) => sample.name === name)?.value;
}

/**
 * A target's URL as a reader may see it. Hosted RPC providers put the API key in the path
 * (`/ext/bc/C/rpc/<key>`, `/v3/<key>`) or the query, which the config cannot mark as secret, so
 * an anonymous remote reader gets the scheme, host and port only; a loopback or authenticated
 * reader (the operator) gets the URL without user info, configured secrets scrubbed.
 */
export function targetUrlForView(url: string, view: StatusView): string {
  if (view.detailed) return displayUrl(url);
  try {
    return scrubSecrets(new URL(url).origin);
  } catch {
    return REDACTED;
  }
}
