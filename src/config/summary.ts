import type { Config } from './schema.js';
import { enabledCollectors } from '../daemon/target-runtimes.js';

/**
 * What a config turns on, for the start-up log line: enough to see at a glance that the file
 * loaded is the one meant (counts, receiver names), bounded for a 1,000-target fleet, and never a
 * URL or a secret.
 */
export function configSummary(config: Config) {
  const rules = config.alerts
    ? Object.entries(config.alerts.rules)
        .filter(([, rule]) => rule.enabled)
        .map(([name]) => name)
    : [];
  return {
    targets: config.targets.length,
    collectors: config.targets.reduce((count, target) => count + enabledCollectors(target).length, 0),
    publicApis: [config.metrics_api && 'metrics_api', config.data_api && 'data_api'].filter(Boolean),
    alerting: Boolean(config.alerts),
    rules: rules.length,
    receivers: config.alerts?.receivers.map((receiver) => `${receiver.name} (${receiver.type})`) ?? [],
  };
}
