import { z } from 'zod';
import { httpConfigFields } from './http-config-schema.js';

/**
 * Alertmanager's email_configs. As for Opsgenie, avaxmon evaluates no Go templates: `to` and `from`
 * must be plain addresses; `headers`, `html` and `text` written as plain text are sent as written,
 * and templated ones give way to avaxmon's text (the Subject to Alertmanager's default subject).
 */

const templated = (text: string | undefined) => text?.includes('{{') ?? false;
const NO_TEMPLATE = 'avaxmon evaluates no templates here: write the address itself';

/** Alertmanager's `host:port`; an IPv6 host in brackets. */
const smarthost = z.string().regex(/^(\[[0-9A-Fa-f:.]+\]|[^\s:[\]]+):\d{1,5}$/, 'must be host:port, like smtp.example.com:587');

export const emailConfigSchema = z
  .object({
    to: z
      .string()
      .min(1)
      .refine((to) => !templated(to), NO_TEMPLATE),
    from: z
      .string()
      .min(1)
      .refine((from) => !templated(from), NO_TEMPLATE)
      .optional(),
    smarthost: smarthost.optional(),
    hello: z.string().min(1).optional(),
    auth_username: z.string().min(1).optional(),
    auth_password: z.string().min(1).optional(),
    auth_password_file: z.string().min(1).optional(),
    auth_secret: z.string().min(1).optional(),
    auth_identity: z.string().optional(),
    require_tls: z.boolean().default(true),
    tls_config: httpConfigFields.tls_config,
    headers: z.record(z.string(), z.string()).optional(),
    html: z.string().optional(),
    text: z.string().optional(),
    send_resolved: z.boolean().default(false),
  })
  .strict()
  .superRefine((config, ctx) => {
    // avaxmon reads no `global` section: what Alertmanager would take from it goes here.
    for (const [key, global] of [
      ['smarthost', 'smtp_smarthost'],
      ['from', 'smtp_from'],
    ] as const)
      if (config[key] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `needs ${key} (avaxmon reads no alertmanager.yml global section: move global.${global} here)`,
        });
    const names = Object.keys(config.headers ?? {}).map(canonicalHeader);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate) ctx.addIssue({ code: 'custom', path: ['headers'], message: `duplicate header "${duplicate}"` });
  });

type EmailInput = z.infer<typeof emailConfigSchema>;

/** Go's textproto.CanonicalMIMEHeaderKey: `message-id` is `Message-Id`. */
function canonicalHeader(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** An email_configs entry as sent; the password is read and registered by the receiver resolution. */
export interface EmailFields {
  readonly to: string;
  readonly from: string;
  readonly host: string;
  readonly port: number;
  readonly hello: string;
  readonly username?: string;
  readonly identity?: string;
  readonly requireTls: boolean;
  /** Headers written as plain text, canonical names; a templated one is left out. */
  readonly headers: Readonly<Record<string, string>>;
  readonly html?: string;
  readonly text?: string;
}

export function emailFields(config: EmailInput): EmailFields {
  const [, host, port] = /^\[?(.*?)\]?:(\d+)$/.exec(config.smarthost ?? ':0') ?? [];
  return {
    to: config.to,
    from: config.from ?? '',
    host,
    port: Number(port),
    // Alertmanager's global smtp_hello default.
    hello: config.hello ?? 'localhost',
    username: config.auth_username,
    identity: config.auth_identity,
    requireTls: config.require_tls,
    headers: Object.fromEntries(
      Object.entries(config.headers ?? {})
        .filter(([, value]) => !templated(value))
        .map(([name, value]) => [canonicalHeader(name), value]),
    ),
    html: templated(config.html) ? undefined : config.html,
    text: templated(config.text) ? undefined : config.text,
  };
}
