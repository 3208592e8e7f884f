import type { FastifyInstance } from 'fastify';
import { needs } from '../route-authority.js';
import { stringify } from 'yaml';
import type { Matcher } from '../../alerts/matchers/matchers.js';
import type { Config } from '../../config/schema.js';
import { REVISION, VERSION } from '../../runtime/version.js';
import type { DaemonView } from '../daemon-view.js';

/**
 * `GET /api/v2/status` in Alertmanager's shape (its OpenAPI `alertmanagerStatus`: cluster,
 * versionInfo, config.original, uptime), so `amtool config show` and `amtool cluster show` work
 * against avaxmon as they do for the silences. avaxmon has no gossip cluster: replicas are
 * deduplicated by the Alertmanager they send to, so the cluster is "disabled", as Alertmanager
 * reports itself without --cluster.listen-address.
 */
export function registerAlertmanagerStatus(app: FastifyInstance, daemon: DaemonView): void {
  const uptime = new Date(daemon.clock.now()).toISOString();
  app.get('/api/v2/status', needs('read'), async (_, reply) =>
    reply.type('application/json').send({
      cluster: { status: 'disabled', peers: [] },
      versionInfo: { version: VERSION, revision: REVISION, branch: '', buildUser: '', buildDate: '', goVersion: process.version },
      config: { original: routingConfig(daemon.config) },
      uptime,
    }),
  );
}

/**
 * The routing part of the running config as YAML: receivers by name and type, what each takes and
 * the grouping. Their URLs, keys and tokens stay out: this endpoint is readable by anyone who may
 * read /metrics.
 */
function routingConfig(config: Config): string {
  const alerts = config.alerts;
  if (!alerts) return '# avaxmon: the alert engine is off (the config has no alerts: section)\n';
  const receivers = alerts.receivers.map((receiver) => ({
    name: receiver.name,
    type: receiver.type,
    ...(receiver.severities.length > 0 ? { severities: receiver.severities } : {}),
    ...(Object.keys(receiver.match).length > 0 ? { match: receiver.match } : {}),
  }));
  const header = '# avaxmon: the routing of its alerts: section; receiver URLs and secrets are left out\n';
  const inhibitRules = alerts.inhibitRules.map((rule) => ({
    source_matchers: rule.sourceMatchers.map(matcherText),
    target_matchers: rule.targetMatchers.map(matcherText),
    equal: rule.equal,
  }));
  return header + stringify({ repeat_interval: `${alerts.repeatIntervalMs / 1000}s`, receivers, inhibit_rules: inhibitRules });
}

/** Alertmanager's matcher syntax, as its own config show prints it. */
function matcherText(matcher: Matcher): string {
  return `${matcher.name}${matcher.op}${JSON.stringify(matcher.value)}`;
}
