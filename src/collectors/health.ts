import { FieldReader, GO_ZERO_TIME_SECONDS } from '../clients/parse.js';
import { healthMetrics } from '../metrics/catalogue/node.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { exportCheckDetails } from './health-details.js';

interface HealthReport {
  healthy: boolean;
  checks: Map<string, CheckResult>;
}

interface CheckResult {
  passing: boolean;
  message: unknown;
  /** Reads the check's fields (its message too), naming `checks.<name>` in errors. */
  read: FieldReader;
  contiguousFailures: number;
  firstFailureSeconds?: number;
}

/**
 * GET /ext/health{,/readiness,/liveness} plus JSON-RPC health per configured tag, and the numbers in
 * the checks' messages (connected stake per chain, disk, send-fail rate, ...: see health-details.ts).
 */
export function createHealthCollector(): Collector {
  return {
    name: 'health',
    metrics: healthMetrics,
    async collect(ctx) {
      const out = new SampleSet({ target: ctx.target.name });
      const [health, readiness, liveness] = await Promise.all(
        ['/ext/health', '/ext/health/readiness', '/ext/health/liveness'].map((path) => getReport(ctx, path)),
      );
      out.add('avaxmon_node_healthy', {}, health.healthy);
      out.add('avaxmon_node_ready', {}, readiness.healthy);
      out.add('avaxmon_node_live', {}, liveness.healthy);
      const subnetNames = new Map(ctx.target.subnets.flatMap((subnet) => (subnet.blockchain_id ? [[subnet.blockchain_id, subnet.name] as const] : [])));
      for (const [check, result] of health.checks) {
        exportCheckDetails(out, result.read.within('message'), check, result.message, (id) => subnetNames.get(id) ?? id);
        out.add('avaxmon_health_check_passing', { check }, result.passing);
        out.add('avaxmon_health_check_contiguous_failures', { check }, result.contiguousFailures);
        if (result.firstFailureSeconds !== undefined) {
          out.add('avaxmon_health_check_first_failure_timestamp_seconds', { check }, result.firstFailureSeconds);
        }
      }
      for (const tag of ctx.target.health_tags) {
        const [tagHealth, tagReadiness] = await Promise.all([
          rpcReport(ctx, 'health.health', tag),
          rpcReport(ctx, 'health.readiness', tag),
        ]);
        out.add('avaxmon_health_tag_healthy', { tag }, tagHealth.healthy);
        out.add('avaxmon_health_tag_ready', { tag }, tagReadiness.healthy);
      }
      return out.observation();
    },
  };
}

async function getReport(ctx: CollectContext, path: string): Promise<HealthReport> {
  const { body } = await ctx.node.getHealth(path, ctx.signal);
  return parseHealthReport(body, new FieldReader(ctx.target.name, `GET ${path}`));
}

// JSON-RPC health answers HTTP 200 even when unhealthy; `healthy` inside the result is the truth.
async function rpcReport(ctx: CollectContext, method: string, tag: string): Promise<HealthReport> {
  const result = await ctx.node.call('/ext/health', method, { tags: [tag] }, ctx.signal);
  return parseHealthReport(result, new FieldReader(ctx.target.name, method));
}

function parseHealthReport(body: unknown, read: FieldReader): HealthReport {
  const report = read.object(body, 'body');
  const checks = new Map<string, CheckResult>();
  for (const [name, value] of Object.entries(read.object(report.checks ?? {}, 'checks'))) {
    checks.set(name, parseCheck(read.object(value, `checks.${name}`), read.within(`checks.${name}`)));
  }
  return { healthy: read.boolean(report.healthy, 'healthy'), checks };
}

function parseCheck(check: Record<string, unknown>, read: FieldReader): CheckResult {
  // `error`, `contiguousFailures` and `timeOfFirstFailure` appear only while a check fails.
  const passing = read.optional(check.error, 'error', read.string) === undefined;
  const contiguousFailures = read.optional(check.contiguousFailures, 'contiguousFailures', read.number) ?? 0;
  const firstFailure = read.optional(check.timeOfFirstFailure, 'timeOfFirstFailure', read.timestampSeconds);
  return {
    passing,
    message: check.message,
    read,
    contiguousFailures: passing ? 0 : contiguousFailures,
    firstFailureSeconds: passing || firstFailure === GO_ZERO_TIME_SECONDS ? undefined : firstFailure,
  };
}
