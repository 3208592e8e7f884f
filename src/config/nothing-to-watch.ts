import type { ConfigIssue } from '../errors.js';
import type { Config } from './schema.js';

/**
 * A daemon with nothing to collect serves an empty /metrics that looks healthy; a config like that
 * is almost always a mistake (a wrong file, an empty ConfigMap, a variable that expanded to nothing).
 */
export function nothingToWatch(config: Config, empty: boolean): ConfigIssue | undefined {
  const watches = config.targets.length > 0 || config.metrics_api || config.data_api || (config.probe?.allowed_targets.length ?? 0) > 0;
  if (watches) return undefined;
  const what = 'at least one of targets, metrics_api, data_api or probe.allowed_targets';
  if (empty) return { path: '(root)', message: `the config file is empty; it needs ${what}` };
  return { path: 'targets', message: `nothing to watch: configure ${what}` };
}
