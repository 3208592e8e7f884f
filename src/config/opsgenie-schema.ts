import { z } from 'zod';

/**
 * Alertmanager's opsgenie_configs. avaxmon evaluates no Go templates: a field written as plain text
 * renders as itself in Alertmanager too, so it is sent as written; a field holding `{{ ... }}` is
 * left to avaxmon's rendering of Alertmanager's default (message, description, source) or left out
 * (the others), as docs/alerting.md lists.
 */

export const OPSGENIE_API_URL = 'https://api.opsgenie.com/';

const RESPONDER_TYPES = /^(team|teams|user|escalation|schedule)$/;

const responderSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    username: z.string().optional(),
    type: z.string().min(1),
  })
  .strict()
  .superRefine((responder, ctx) => {
    if (!responder.id && !responder.name && !responder.username)
      ctx.addIssue({ code: 'custom', message: 'a responder needs at least one of id, username or name' });
    if (!templated(responder.type) && !RESPONDER_TYPES.test(responder.type.toLowerCase()))
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'must be one of team, teams, user, escalation, schedule' });
  });

export function opsgenieConfigSchema<H extends z.ZodType>(httpConfig: H) {
  return z
    .object({
      api_key: z.string().min(1).optional(),
      api_key_file: z.string().min(1).optional(),
      api_url: z.string().min(1).optional(),
      send_resolved: z.boolean().default(true),
      update_alerts: z.boolean().default(false),
      http_config: httpConfig.optional(),
      message: z.string().optional(),
      description: z.string().optional(),
      source: z.string().optional(),
      details: z.record(z.string(), z.string()).optional(),
      responders: z.array(responderSchema).optional(),
      tags: z.string().optional(),
      note: z.string().optional(),
      priority: z.string().optional(),
      entity: z.string().optional(),
      actions: z.string().optional(),
    })
    .strict()
    .superRefine((config, ctx) => {
      if (config.api_key === undefined && config.api_key_file === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['api_key'],
          message: 'needs api_key or api_key_file (avaxmon reads no alertmanager.yml global section: move global.opsgenie_api_key here)',
        });
    });
}

export interface OpsgenieResponder {
  readonly id?: string;
  readonly name?: string;
  readonly username?: string;
  readonly type: string;
}

/** What avaxmon sends of an opsgenie_configs entry besides its key and URL: the fields written as plain text. */
export interface OpsgenieFields {
  readonly message?: string;
  readonly description?: string;
  readonly source?: string;
  readonly details: Readonly<Record<string, string>>;
  readonly responders: readonly OpsgenieResponder[];
  readonly tags?: string;
  readonly note?: string;
  readonly priority?: string;
  readonly entity?: string;
  readonly actions?: string;
  readonly updateAlerts: boolean;
}

type OpsgenieInput = z.infer<ReturnType<typeof opsgenieConfigSchema>>;

export function opsgenieFields(config: OpsgenieInput): OpsgenieFields {
  return {
    message: literal(config.message),
    description: literal(config.description),
    source: literal(config.source),
    details: Object.fromEntries(Object.entries(config.details ?? {}).filter(([, value]) => !templated(value))),
    responders: (config.responders ?? [])
      .filter((responder) => ![responder.id, responder.name, responder.username, responder.type].some(templated))
      .map((responder) => ({ ...responder, type: responder.type.toLowerCase() })),
    tags: literal(config.tags),
    note: literal(config.note),
    priority: literal(config.priority),
    entity: literal(config.entity),
    actions: literal(config.actions),
    updateAlerts: config.update_alerts,
  };
}

function templated(text: string | undefined): boolean {
  return text?.includes('{{') ?? false;
}

function literal(text: string | undefined): string | undefined {
  return templated(text) ? undefined : text;
}
