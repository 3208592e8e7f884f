import { z } from 'zod';
import { httpConfigFields } from './http-config-schema.js';
import { BALANCE_CURRENCIES, DATA_API_NETWORKS, DELEGATION_STATUSES } from '../clients/data-api.js';
import {
  CHAIN_AGGREGATES,
  METRICS_API_METRICS,
  TIME_INTERVALS,
  supportedIntervals,
  type MetricsApiMetric,
  type TimeInterval,
} from '../clients/metrics-api.js';
import type { ConfigIssue } from '../errors.js';
import { registerSecret } from './redact.js';
import { durationMs, headerValue, httpUrl, labelName, nodeId } from './fields.js';
import { readSecretFile } from './secret-files.js';

/** EVM chain ids: YAML may give 43114 as a number or "43114" as a string; both become the string. */
const evmChainId = z
  .union([z.number(), z.string()])
  .transform((value) => String(value))
  .refine((text) => /^[1-9]\d{0,19}$/.test(text), 'must be a positive decimal EVM chain id such as 43114');

const metricsChain = z
  .union([z.number(), z.string()])
  .transform((value) => String(value))
  .refine(
    (text) => /^[1-9]\d{0,19}$/.test(text) || (CHAIN_AGGREGATES as readonly string[]).includes(text),
    `must be a positive decimal EVM chain id such as 43114, or one of ${CHAIN_AGGREGATES.join(', ')}`,
  );

const timeInterval = z.enum(TIME_INTERVALS, { error: () => `must be one of ${TIME_INTERVALS.join(', ')}` });

/**
 * A metric by name (using the section's time_interval), or `{ name, time_interval }` to override
 * it. Names are checked in checkMetrics, so an unknown name gets a message listing the known ones.
 */
const metricEntry = z.union([z.string(), z.object({ name: z.string(), time_interval: timeInterval }).strict()]);

const metricsApiSchema = z
  .object({
    url: httpUrl.default('https://metrics.avax.network'),
    interval: durationMs.default(3_600_000),
    timeout: durationMs.default(10_000),
    chains: z.array(metricsChain).min(1, 'list at least one chain'),
    metrics: z.array(metricEntry).min(1, 'list at least one metric'),
    time_interval: timeInterval.default('day'),
    page_size: z.number().int().min(1).max(2160).default(3),
    max_pages: z.number().int().min(1).max(100).default(3),
    max_requests_per_run: z.number().int().min(1).default(100),
    request_spacing: durationMs.default(250),
    max_retry_wait: durationMs.default(30_000),
    ...httpConfigFields,
  })
  .strict()
  // `when` runs the check even when other keys are bad, so check-config names every bad metric at once.
  .superRefine((section, ctx) => checkMetrics(section, ctx), { when: () => true })
  .superRefine((section, ctx) => checkInterval(section.interval, ctx))
  .superRefine((section, ctx) => checkRunFits(section, ctx))
  .transform((section) => ({
    ...section,
    metrics: section.metrics.map((entry) => resolveMetric(entry, section.time_interval)),
  }));

/** Known names, and the API's rule that some metrics exist only per day. Reads a possibly invalid section. */
function checkMetrics(section: { metrics?: unknown; time_interval?: unknown }, ctx: z.RefinementCtx): void {
  if (!Array.isArray(section.metrics)) return;
  const fallback = section.time_interval ?? 'day';
  section.metrics.forEach((entry: unknown, index) => {
    const { name, time_interval: interval } =
      typeof entry === 'string' ? { name: entry, time_interval: fallback } : ((entry ?? {}) as Record<string, unknown>);
    if (typeof name !== 'string') return;
    if (!(METRICS_API_METRICS as readonly string[]).includes(name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['metrics', index],
        message: `unknown metric "${name}" (known: ${METRICS_API_METRICS.join(', ')})`,
      });
      return;
    }
    const supported = supportedIntervals(name as MetricsApiMetric);
    if ((TIME_INTERVALS as readonly unknown[]).includes(interval) && !supported.includes(interval as TimeInterval)) {
      ctx.addIssue({
        code: 'custom',
        path: ['metrics', index],
        message: `${name} supports only time_interval ${supported.join(', ')} (got ${String(interval)})`,
      });
    }
  });
}

function resolveMetric(entry: z.infer<typeof metricEntry>, fallback: TimeInterval): { name: MetricsApiMetric; interval: TimeInterval } {
  return typeof entry === 'string'
    ? { name: entry as MetricsApiMetric, interval: fallback }
    : { name: entry.name as MetricsApiMetric, interval: entry.time_interval };
}

const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address: 0x followed by 40 hex digits');

const balanceSchema = z
  .object({
    chain_id: evmChainId,
    address: evmAddress,
    name: labelName,
  })
  .strict();

const delegatorsSchema = z
  .object({
    node_ids: z.array(nodeId).min(1, 'list at least one NodeID'),
    /** `completed` grows without end for an old validator; list it only when you want it. */
    statuses: z.array(z.enum(DELEGATION_STATUSES)).min(1).default(['active', 'pending']),
  })
  .strict();

const dataApiSchema = z
  .object({
    url: httpUrl.default('https://glacier-api.avax.network'),
    /** Sent as a header, so it must be a valid header value. */
    api_key: headerValue.min(1).optional(),
    api_key_file: z.string().min(1).optional(),
    network: z.enum(DATA_API_NETWORKS).default('mainnet'),
    interval: durationMs.default(600_000),
    timeout: durationMs.default(10_000),
    currency: z.enum(BALANCE_CURRENCIES).default('usd'),
    delegators: delegatorsSchema.optional(),
    balances: z.array(balanceSchema).default([]),
    page_size: z.number().int().min(1).max(100).default(100),
    max_pages: z.number().int().min(1).max(1000).default(20),
    /** Defaults depend on the key: a keyless client gets lower limits (see keyedDefaults). */
    max_requests_per_run: z.number().int().min(1).optional(),
    request_spacing: durationMs.optional(),
    max_retry_wait: durationMs.default(30_000),
    ...httpConfigFields,
  })
  .strict()
  .superRefine(
    (section, ctx) => {
      if (section.api_key !== undefined && section.api_key_file !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['api_key_file'], message: 'set api_key or api_key_file, not both' });
      }
    },
    { when: () => true },
  )
  .superRefine((section, ctx) => {
    const seen = new Set<string>();
    section.balances.forEach((balance, index) => {
      const key = `${balance.chain_id}/${balance.name}`;
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: ['balances', index, 'name'],
          message: `duplicate name "${balance.name}" on chain ${balance.chain_id}`,
        });
      seen.add(key);
    });
    checkInterval(section.interval, ctx);
  })
  .transform((section, ctx) => {
    const apiKey = section.api_key ?? readKeyFile(section.api_key_file, ctx);
    registerSecret(apiKey);
    const limits = keyedDefaults(apiKey !== undefined);
    return {
      ...section,
      api_key: apiKey,
      max_requests_per_run: section.max_requests_per_run ?? limits.maxRequestsPerRun,
      request_spacing: section.request_spacing ?? limits.requestSpacingMs,
    };
  });

/** A key raises the API's rate limit; without one avaxmon slows itself down to match. */
function keyedDefaults(hasKey: boolean): { maxRequestsPerRun: number; requestSpacingMs: number } {
  return hasKey ? { maxRequestsPerRun: 200, requestSpacingMs: 100 } : { maxRequestsPerRun: 50, requestSpacingMs: 1_000 };
}

function readKeyFile(file: string | undefined, ctx: z.RefinementCtx): string | undefined {
  if (file === undefined) return undefined;
  const issues: ConfigIssue[] = [];
  const key = readSecretFile(file, 'api_key_file', issues);
  for (const issue of issues) ctx.addIssue({ code: 'custom', path: ['api_key_file'], message: issue.message });
  return key;
}

/** Public APIs refresh hourly at best and rate-limit hard; polling faster than 1s is a mistake. */
function checkInterval(interval: number, ctx: z.RefinementCtx): void {
  if (interval < 1000) ctx.addIssue({ code: 'custom', path: ['interval'], message: 'must be at least 1s' });
}

/**
 * Every chain and metric takes at least one request, spaced request_spacing apart, and a run must end
 * within its interval: a section that cannot would fail every run with an abort, so it is refused here.
 */
function checkRunFits(
  section: { interval: number; request_spacing: number; chains: unknown[]; metrics: unknown[] },
  ctx: z.RefinementCtx,
): void {
  const requests = section.chains.length * section.metrics.length;
  const neededMs = (requests - 1) * section.request_spacing;
  if (neededMs < section.interval) return;
  ctx.addIssue({
    code: 'custom',
    path: ['interval'],
    message: `${section.chains.length} chains x ${section.metrics.length} metrics take at least ${requests} requests ${section.request_spacing} ms apart (${neededMs} ms), more than the interval of ${section.interval} ms: lengthen interval, shorten request_spacing or list fewer chains or metrics`,
  });
}

export const publicApiSchemas = {
  metrics_api: metricsApiSchema.optional(),
  data_api: dataApiSchema.optional(),
};

export type MetricsApiConfig = z.infer<typeof metricsApiSchema>;
export type DataApiConfig = z.infer<typeof dataApiSchema>;
