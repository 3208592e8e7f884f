import { configSchema, type Config, type TargetConfig } from '../config/schema.js';
import { normalizeProbeUrl, targetMatcher } from './target-pattern.js';

export type ProbeTargetResolution = { readonly target: TargetConfig } | { readonly status: 400 | 403 | 404; readonly message: string };

/**
 * Turns `?target=` into a target without touching the network. A name picks a configured target; a
 * URL is accepted only when it matches `probe.allowed_targets` (the SSRF guard), and then uses the
 * settings of the configured target with the same URL, if any, or the defaults.
 */
export function resolveProbeTarget(raw: unknown, config: Config): ProbeTargetResolution {
  if (typeof raw !== 'string' || raw.trim() === '')
    return { status: 400, message: 'missing ?target= (a configured target name or an allowed URL)' };
  if (!raw.includes('://')) return byName(raw, config);
  const normalized = normalizeProbeUrl(raw);
  if ('error' in normalized) return { status: 400, message: normalized.error };
  if (!targetMatcher(config.probe?.allowed_targets ?? [])(normalized.url)) {
    return { status: 403, message: `target URL ${normalized.url} does not match probe.allowed_targets` };
  }
  const configured = config.targets.find((target) => sameUrl(target.url, normalized.url));
  return { target: configured ?? adHocTarget(normalized.url) };
}

function byName(name: string, config: Config): ProbeTargetResolution {
  const target = config.targets.find((candidate) => candidate.name === name);
  if (target) return { target };
  return { status: 404, message: `unknown target "${name}": not a configured target name (URLs need a scheme, e.g. http://host:9650)` };
}

function sameUrl(configuredUrl: string, normalizedUrl: string): boolean {
  const normalized = normalizeProbeUrl(configuredUrl);
  return 'url' in normalized && normalized.url === normalizedUrl;
}

/** A target with every default, labelled by its URL, which the allow-list already bounds. */
function adHocTarget(url: string): TargetConfig {
  const [defaults] = configSchema.parse({ targets: [{ name: 'probe', url }] }).targets;
  return { ...defaults, name: url };
}
