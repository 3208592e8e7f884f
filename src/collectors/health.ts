import { FieldReader, GO_ZERO_TIME_SECONDS } from '../clients/parse.js';
import { callUpMetrics } from '../metrics/catalogue/call-up.js';
import { healthMetrics } from '../metrics/catalogue/node.js';
import { SampleSet, type CollectContext, type Collector } from './collector.js';
import { BestEffortReader } from './best-effort-reader.js';
import { exportCheckDetails } from './health-details.js';
import { sideCall, UNANSWERED } from './side-call.js';

interface HealthReport {
  healthy: boolean;
  checks: Map<string, CheckResult>;
}

interface CheckResult {
  passing: boolean;
  message: unknown;
  contiguousFailures: number;
  firstFailureSeconds?: number;
}

/** Details skipped so far per `check\0field`, kept across runs in the collector's memory. */
type SkipCounts = Map<string, number>;
const SKIPS_KEY = 'health-detail-skips';

const METRICS = [...healthMetrics, ...callUpMetrics];

/**
 * GET /ext/health{,/readiness,/liveness} plus JSON-RPC health per configured tag, and the numbers in
 * the checks' messages (connected stake per chain, disk, send-fail rate, ...: see health-details.ts).
 */
export function createHealthCollector(): Collector {
  return {
    name: 'health',
    metrics: METRICS,
    async collect(ctx) {
      const out = new SampleSet({ target: ctx.target.name });
      const skips = skipCounter(ctx);
      // /ext/health decides; readiness and liveness are parts of their own. Readiness repeats checks
      // of /ext/health: their skips are counted once, there.
      // Only their verdicts are read: their checks are /ext/health's, which are read there.
      const side = (path: string) => sideCall(ctx, out, { collector: 'health', method: `GET ${path}` }, () => getVerdict(ctx, path));
      const [health, readiness, liveness] = await Promise.all([
        getReport(ctx, '/ext/health', skips.note),
        side('/ext/health/readiness'),
        side('/ext/health/liveness'),
      ]);
      out.add('avaxmon_node_healthy', {}, health.healthy);
      if (readiness !== UNANSWERED) out.add('avaxmon_node_ready', {}, readiness);
      if (liveness !== UNANSWERED) out.add('avaxmon_node_live', {}, liveness);
      const subnetNames = new Map(
        ctx.target.subnets.flatMap((subnet) => (subnet.blockchain_id ? [[subnet.blockchain_id, subnet.name] as const] : [])),
      );
      for (const [check, result] of health.checks) {
        exportCheckDetails(out, skips.reader(check, `checks.${check}.message.`), check, result.message, (id) => subnetNames.get(id) ?? id);
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
      for (const [key, count] of skips.counts) {
        const [check, field] = key.split('\0');
        out.add('avaxmon_health_details_skipped_total', { check, field }, count);
      }
      return out.observation();
    },
  };
}

/**
 * Health details are any JSON by contract (`Details interface{}`): a detail of an unexpected type is
 * skipped, counted per check and field, and logged the first time only, so a new VM's shapes never
 * cost the node's health series.
 */
function skipCounter(ctx: CollectContext) {
  const counts = (ctx.memory.get(SKIPS_KEY) as SkipCounts | undefined) ?? new Map<string, number>();
  ctx.memory.set(SKIPS_KEY, counts);
  const note = (check: string, field: string, problem: string) => {
    const key = `${check}\0${field}`;
    const seen = counts.get(key);
    if (seen === undefined)
      ctx.log.info({ check, field, problem }, 'Health detail of an unexpected shape skipped; health itself is unaffected');
    counts.set(key, (seen ?? 0) + 1);
  };
  return {
    counts,
    note,
    reader: (check: string, prefix: string) =>
      new BestEffortReader(ctx.target.name, 'GET /ext/health', prefix, (field, problem) => note(check, field, problem)),
  };
}

type NoteSkip = (check: string, field: string, problem: string) => void;

async function getReport(ctx: CollectContext, path: string, noteSkip: NoteSkip): Promise<HealthReport> {
  const { body } = await ctx.node.getHealth(path, ctx.signal);
  return parseHealthReport(body, new FieldReader(ctx.target.name, `GET ${path}`), noteSkip);
}

/** A report's `healthy` alone, its checks an object as in any report, but not read one by one. */
async function getVerdict(ctx: CollectContext, path: string): Promise<boolean> {
  const { body } = await ctx.node.getHealth(path, ctx.signal);
  const read = new FieldReader(ctx.target.name, `GET ${path}`);
  const report = read.object(body, 'body');
  read.object(report.checks ?? {}, 'checks');
  return read.boolean(report.healthy, 'healthy');
}

// JSON-RPC health answers HTTP 200 even when unhealthy; `healthy` inside the result is the truth.
async function rpcReport(ctx: CollectContext, method: string, tag: string): Promise<HealthReport> {
  const result = await ctx.node.call('/ext/health', method, { tags: [tag] }, ctx.signal);
  return parseHealthReport(result, new FieldReader(ctx.target.name, method), () => {});
}

/**
 * `healthy` decides, and is read strictly; a check passes unless it carries an `error`. The rest of a
 * check (its failure count and time) is read best-effort: a check of another shape still counts.
 */
function parseHealthReport(body: unknown, read: FieldReader, noteSkip: NoteSkip): HealthReport {
  const report = read.object(body, 'body');
  const checks = new Map<string, CheckResult>();
  for (const [name, value] of Object.entries(read.object(report.checks ?? {}, 'checks'))) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      noteSkip(name, '(check)', `checks.${name}: expected an object`);
      continue;
    }
    const check = value as Record<string, unknown>;
    const lenient = new BestEffortReader('', '', `checks.${name}.`, (field, problem) => noteSkip(name, field, problem));
    checks.set(name, parseCheck(check, lenient));
  }
  return { healthy: read.boolean(report.healthy, 'healthy'), checks };
}

function parseCheck(check: Record<string, unknown>, read: FieldReader): CheckResult {
  // `error`, `contiguousFailures` and `timeOfFirstFailure` appear only while a check fails.
  const passing = check.error === undefined || check.error === null;
  const contiguousFailures = read.optional(check.contiguousFailures, 'contiguousFailures', read.number) ?? 0;
  const firstFailure = read.optional(check.timeOfFirstFailure, 'timeOfFirstFailure', read.timestampSeconds);
  return {
    passing,
    message: check.message,
    contiguousFailures: passing ? 0 : contiguousFailures,
    firstFailureSeconds: passing || firstFailure === GO_ZERO_TIME_SECONDS ? undefined : firstFailure,
  };
}
