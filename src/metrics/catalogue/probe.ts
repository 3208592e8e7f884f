import { gauge } from '../metric-desc.js';

// Exported only by GET /probe, next to the probed target's own series, as blackbox_exporter's
// probe_success and probe_duration_seconds are.
export const probeMetrics = [
  gauge('avaxmon_probe_success', 'Whether every collector of this on-demand /probe run succeeded.', ['target']),
  gauge('avaxmon_probe_duration_seconds', 'Wall-clock duration of this on-demand /probe run.', ['target']),
] as const;
