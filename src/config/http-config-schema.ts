import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { registerSecret } from './redact.js';
import { httpUrl } from './fields.js';

/**
 * Prometheus' http_config, the part that reaches an upstream through a private network: per
 * target, receiver and public API, a `tls_config` (ca_file, cert_file, key_file, server_name,
 * insecure_skip_verify) and a `proxy_url`. Without `proxy_url`, the standard HTTP_PROXY,
 * HTTPS_PROXY and NO_PROXY environment variables apply.
 */
const tlsConfigSchema = z
  .object({
    /** PEM CA bundle that verifies the upstream's certificate, instead of the system's. */
    ca_file: z.string().min(1).optional(),
    /** Client certificate and key (PEM) for upstreams that require one. */
    cert_file: z.string().min(1).optional(),
    key_file: z.string().min(1).optional(),
    /** The name the certificate must carry (SNI), when the URL's host is an IP or another name. */
    server_name: z.string().min(1).optional(),
    /** Accept any certificate. For tests only: it gives up what TLS is for. */
    insecure_skip_verify: z.boolean().default(false),
  })
  .strict()
  .transform((tls, ctx): TlsOptions => {
    if ((tls.cert_file === undefined) !== (tls.key_file === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [tls.cert_file === undefined ? 'cert_file' : 'key_file'],
        message: 'cert_file and key_file go together',
      });
    }
    const read = (field: 'ca_file' | 'cert_file' | 'key_file'): string | undefined => {
      const file = tls[field];
      if (file === undefined) return undefined;
      try {
        return readFileSync(file, 'utf8');
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: [field], message: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}` });
        return undefined;
      }
    };
    return {
      ca: read('ca_file'),
      cert: read('cert_file'),
      key: read('key_file'),
      servername: tls.server_name,
      rejectUnauthorized: !tls.insecure_skip_verify,
    };
  });

/** The TLS options of undici's `connect` / `requestTls`, as read from a tls_config. */
export interface TlsOptions {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly servername?: string;
  readonly rejectUnauthorized: boolean;
}

/** How requests to one upstream travel: its TLS settings and its proxy. */
export interface HttpTransport {
  readonly tls?: TlsOptions;
  readonly proxyUrl?: string;
}

/** Spread into a section's z.object: the keys every upstream may set. */
export const httpConfigFields = {
  tls_config: tlsConfigSchema.optional(),
  // http://user:password@proxy:3128: the password is a secret like any other.
  proxy_url: httpUrl
    .transform((url) => {
      const { password } = new URL(url);
      if (password) registerSecret(decodeURIComponent(password));
      return url;
    })
    .optional(),
};

export function transportOf(section: { tls_config?: TlsOptions; proxy_url?: string }): HttpTransport | undefined {
  if (section.tls_config === undefined && section.proxy_url === undefined) return undefined;
  return { tls: section.tls_config, proxyUrl: section.proxy_url };
}
