import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { joinPath } from '../config/expand-env.js';
import type { ControlPlaneOptions } from './write-guard.js';

/** Options of avaxmon's own HTTP endpoints; TLS and auth come from --web.config.file. */
export interface WebOptions {
  readonly https?: {
    key: Buffer;
    cert: Buffer;
    ca?: Buffer;
    requestCert?: boolean;
    rejectUnauthorized?: boolean;
    minVersion?: 'TLSv1.2' | 'TLSv1.3';
    maxVersion?: 'TLSv1.2' | 'TLSv1.3';
  };
  /** exporter-toolkit's client_auth_type; see client-cert-policy.ts. */
  readonly clientAuth?: ClientAuthType;
  /** user → bcrypt hash; when set, every endpoint requires basic auth. */
  readonly basicAuthUsers?: Readonly<Record<string, string>>;
  /** Security headers added to every response. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Who may change state: from flags, not the web config file (which stays exporter-toolkit's). */
  readonly control?: ControlPlaneOptions;
}

/**
 * --web.config.file in exporter-toolkit's format, so one file works for avaxmon and the Prometheus
 * exporters beside it. The file and its certificates are re-read when they change (web-config-watch.ts:
 * a rotated certificate needs no restart), and the options avaxmon
 * cannot honour (cipher_suites, curve_preferences, client_allowed_sans, http2) are refused rather than
 * ignored.
 */
export const CLIENT_AUTH_TYPES = [
  'NoClientCert',
  'RequestClientCert',
  'RequireAnyClientCert',
  'VerifyClientCertIfGiven',
  'RequireAndVerifyClientCert',
] as const;
export type ClientAuthType = (typeof CLIENT_AUTH_TYPES)[number];

const TLS_VERSIONS = { TLS12: 'TLSv1.2', TLS13: 'TLSv1.3' } as const;
const tlsVersion = z.enum(['TLS12', 'TLS13'], {
  message: 'must be TLS12 or TLS13 (TLS 1.0 and 1.1 are disabled in Node.js)',
});

/** exporter-toolkit accepts only these response headers, with these value checks. */
const ALLOWED_HEADERS: Readonly<Record<string, (value: string) => boolean>> = {
  'strict-transport-security': () => true,
  'x-content-type-options': (value) => value === 'nosniff',
  'x-frame-options': (value) => /^(deny|sameorigin)$/i.test(value),
  'x-xss-protection': () => true,
  'content-security-policy': () => true,
};

const BCRYPT_HASH = /^\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{53}$/;

const tlsServerConfigSchema = z
  .object({
    cert_file: z.string().min(1, 'is required'),
    key_file: z.string().min(1, 'is required'),
    client_auth_type: z.enum(CLIENT_AUTH_TYPES, { message: `must be one of ${CLIENT_AUTH_TYPES.join(', ')}` }).optional(),
    client_ca_file: z.string().min(1).optional(),
    min_version: tlsVersion.default('TLS12'),
    max_version: tlsVersion.default('TLS13'),
  })
  .strict();

type TlsServerConfig = z.infer<typeof tlsServerConfigSchema>;

const webConfigSchema = z
  .object({
    tls_server_config: tlsServerConfigSchema.superRefine(checkClientAuth).optional(),
    http_server_config: z
      .object({ headers: z.record(z.string(), z.string()).default({}).superRefine(checkHeaders) })
      .strict()
      .optional(),
    basic_auth_users: z.record(z.string().min(1), z.string().regex(BCRYPT_HASH, 'must be a bcrypt hash ($2y$10$...)')).optional(),
  })
  .strict();

function checkClientAuth(tls: TlsServerConfig, ctx: z.RefinementCtx): void {
  const auth = tls.client_auth_type ?? 'NoClientCert';
  if (tls.client_ca_file && auth === 'NoClientCert') {
    ctx.addIssue({
      code: 'custom',
      path: ['client_auth_type'],
      message: 'client_ca_file is set, so choose a client_auth_type other than NoClientCert',
    });
  }
  if (!tls.client_ca_file && (auth === 'VerifyClientCertIfGiven' || auth === 'RequireAndVerifyClientCert')) {
    ctx.addIssue({ code: 'custom', path: ['client_ca_file'], message: `is required with client_auth_type ${auth}` });
  }
  if (tls.min_version === 'TLS13' && tls.max_version === 'TLS12') {
    ctx.addIssue({ code: 'custom', path: ['max_version'], message: 'must not be below min_version' });
  }
}

function checkHeaders(headers: Record<string, string>, ctx: z.RefinementCtx): void {
  for (const [name, value] of Object.entries(headers)) {
    const check = ALLOWED_HEADERS[name.toLowerCase()];
    if (!check)
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `header cannot be configured (allowed: ${Object.keys(ALLOWED_HEADERS).join(', ')})`,
      });
    else if (!check(value)) ctx.addIssue({ code: 'custom', path: [name], message: `invalid value "${value}"` });
  }
}

/** Reads and validates the web config; throws ConfigError naming the file and every bad path. */
export function loadWebConfig(file: string): WebOptions {
  const issue = (path: string, message: string): ConfigIssue => ({ path: path ? `${file}: ${path}` : file, message });
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([issue('', `cannot read web config file: ${(error as Error).message}`)]);
  }
  const document = parseDocument(text);
  if (document.errors.length > 0) throw new ConfigError(document.errors.map((error) => issue('', `YAML: ${error.message}`)));
  const result = webConfigSchema.safeParse(document.toJS() ?? {});
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((zodIssue) =>
        issue(
          zodIssue.path.reduce<string>((path, key) => joinPath(path, key as string | number), ''),
          zodIssue.message,
        ),
      ),
    );
  }
  const config = result.data;
  const tls = config.tls_server_config;
  return {
    ...(tls ? { https: readTlsFiles(tls, dirname(file), issue), clientAuth: tls.client_auth_type ?? 'NoClientCert' } : {}),
    ...(config.basic_auth_users ? { basicAuthUsers: config.basic_auth_users } : {}),
    ...(config.http_server_config ? { headers: config.http_server_config.headers } : {}),
  };
}

/** File paths are relative to the web config file, as in exporter-toolkit. */
function readTlsFiles(
  tls: TlsServerConfig,
  baseDir: string,
  issue: (path: string, message: string) => ConfigIssue,
): NonNullable<WebOptions['https']> {
  const read = (field: 'cert_file' | 'key_file' | 'client_ca_file'): Buffer | undefined => {
    const path = tls[field];
    if (path === undefined) return undefined;
    try {
      return readFileSync(resolve(baseDir, path));
    } catch (error) {
      throw new ConfigError([issue(`tls_server_config.${field}`, `cannot read ${path}: ${(error as Error).message}`)]);
    }
  };
  const auth = tls.client_auth_type ?? 'NoClientCert';
  const cert = read('cert_file')!;
  const key = read('key_file')!;
  const ca = read('client_ca_file');
  try {
    createSecureContext({ cert, key, ca });
  } catch (error) {
    throw new ConfigError([issue('tls_server_config', `cannot use cert_file, key_file and client_ca_file: ${(error as Error).message}`)]);
  }
  return {
    cert,
    key,
    ...(ca ? { ca } : {}),
    requestCert: auth !== 'NoClientCert',
    // Only this mode can be enforced in the handshake; the others are checked once it completes.
    rejectUnauthorized: auth === 'RequireAndVerifyClientCert',
    minVersion: TLS_VERSIONS[tls.min_version],
    maxVersion: TLS_VERSIONS[tls.max_version],
  };
}
