import { z } from 'zod';
import { collectorNames } from '../collectors/names.js';
import { DEFAULT_RESPONSE_MEMORY_BYTES } from '../clients/response-memory.js';
import { cb58Id, durationMs, headerName, headerValue, httpUrl, labelName, nodeBaseUrl, nodeId } from './fields.js';
import { alertsSchema } from './alerts-schema.js';
import { publicApiSchemas } from './public-api-schema.js';
import { probeSchema } from './probe-schema.js';
import { httpConfigFields } from './http-config-schema.js';

/** Checked in the schema, so an unknown name is reported with every other bad path at once. */
const collectorName = z
  .string()
  .refine((name) => (collectorNames as readonly string[]).includes(name), `unknown collector (known: ${collectorNames.join(', ')})`);

const collectorOverride = z
  .object({
    enabled: z.boolean().optional(),
    interval: durationMs.optional(),
    timeout: durationMs.optional(),
  })
  .strict();

const subnetSchema = z
  .object({
    name: labelName,
    subnet_id: cb58Id,
    blockchain_id: cb58Id.optional(),
    rpc_url: httpUrl.optional(),
    /** Node ids watched on this subnet; default: the target's validators.node_ids. */
    node_ids: z.array(z.union([z.literal('self'), nodeId])).optional(),
  })
  .strict();

const validatorsSchema = z
  .object({
    node_ids: z.array(z.union([z.literal('self'), nodeId])).default(['self']),
    network_wide: z.boolean().default(false),
    /**
     * Replaces the per-validation requirement (ACP-267: 0.9 from the network's Helicon time, else
     * 0.8) for every validation; for custom networks with other staking rules.
     */
    reward_uptime_requirement: z.number().gt(0).lte(1).optional(),
  })
  .strict();

const targetSchema = z
  .object({
    name: labelName,
    url: nodeBaseUrl,
    health_tags: z.array(z.string().min(1)).default([]),
    headers: z.record(headerName, headerValue).default({}),
    /** Header values read from files, e.g. a bearer token mounted as a secret. */
    header_files: z.record(headerName, z.string().min(1)).default({}),
    chains: z.array(z.string().min(1)).default([]),
    collectors: z.record(collectorName, collectorOverride).default({}),
    validators: validatorsSchema.default({ node_ids: ['self'], network_wide: false }),
    subnets: z.array(subnetSchema).default([]),
    /**
     * avaxmon_evm_rule_active, about 21 series a node that no dashboard or rule reads (the upgrade
     * schedules tell the same forks): off unless asked for.
     */
    evm_rule_series: z.boolean().default(false),
    ...httpConfigFields,
  })
  .strict();

const globalSchema = z
  .object({
    /** Every collector's interval when set; unset, each collector runs at its own default (collectors/index.ts). */
    interval: durationMs.optional(),
    timeout: durationMs.default(5_000),
    /** Spreads each job's phase (stable per job) over this fraction of its interval. */
    jitter_ratio: z.number().min(0).max(1).default(1),
    max_response_bytes: z
      .number()
      .int()
      .positive()
      .default(32 * 1024 * 1024),
    /** All upstream bodies being read at once; a request that would exceed it fails at once. */
    max_response_memory_bytes: z.number().int().positive().default(DEFAULT_RESPONSE_MEMORY_BYTES),
    /** Collector runs in flight at once, overall (narrowed while the event loop is saturated) and per upstream origin; runs beyond wait their turn. */
    max_concurrent_collections: z.number().int().positive().default(256),
    max_concurrent_collections_per_origin: z.number().int().positive().default(4),
    /**
     * While a collector fails, the page-deciding facts of its last good run (validation end,
     * renewal, the deciding view, L1 balances) stay evaluable this long; 0s turns it off.
     */
    stale_facts_max_age: durationMs.default(3_600_000),
  })
  .strict();

export const configSchema = z
  .object({
    global: globalSchema.default({
      timeout: 5_000,
      jitter_ratio: 1,
      max_response_bytes: 32 * 1024 * 1024,
      max_response_memory_bytes: DEFAULT_RESPONSE_MEMORY_BYTES,
      max_concurrent_collections: 256,
      max_concurrent_collections_per_origin: 4,
      stale_facts_max_age: 3_600_000,
    }),
    targets: z.array(targetSchema).default([]),
    alerts: alertsSchema,
    probe: probeSchema,
    ...publicApiSchemas,
  })
  .strict()
  .superRefine((config, ctx) => {
    checkGlobal(config.global, ctx);
    const seen = new Set<string>();
    config.targets.forEach((target, index) => {
      if (seen.has(target.name)) {
        ctx.addIssue({ code: 'custom', path: ['targets', index, 'name'], message: `duplicate target name "${target.name}"` });
      }
      seen.add(target.name);
      if (target.collectors) checkIntervals(target, index, config.global.timeout, ctx);
    });
  });

function checkGlobal(
  global: { interval?: number; timeout: number; max_response_bytes: number; max_response_memory_bytes: number },
  ctx: z.RefinementCtx,
): void {
  if (global.max_response_memory_bytes < global.max_response_bytes) {
    ctx.addIssue({ code: 'custom', path: ['global', 'max_response_memory_bytes'], message: 'must be at least global.max_response_bytes' });
  }
  if (global.interval === undefined) return;
  if (global.interval < 1000) ctx.addIssue({ code: 'custom', path: ['global', 'interval'], message: 'must be at least 1s' });
  if (global.timeout > global.interval) {
    ctx.addIssue({ code: 'custom', path: ['global', 'timeout'], message: 'must not exceed global.interval' });
  }
}

function checkIntervals(target: z.infer<typeof targetSchema>, index: number, timeout: number, ctx: z.RefinementCtx) {
  for (const [name, override] of Object.entries(target.collectors)) {
    if (override.interval !== undefined && override.interval < 1000) {
      ctx.addIssue({
        code: 'custom',
        path: ['targets', index, 'collectors', name, 'interval'],
        message: 'must be at least 1s',
      });
    }
    if (override.interval !== undefined && (override.timeout ?? timeout) > override.interval) {
      ctx.addIssue({
        code: 'custom',
        path: ['targets', index, 'collectors', name, 'timeout'],
        message: 'must not exceed the collector interval',
      });
    }
  }
}

export type Config = z.infer<typeof configSchema>;
export type TargetConfig = Config['targets'][number];
export type SubnetConfig = TargetConfig['subnets'][number];
