import { EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from 'undici';
import type { HttpTransport } from '../config/http-config-schema.js';
import { OriginClients, type SpareClients } from './origin-clients.js';

export interface DispatcherOptions {
  readonly connectTimeoutMs: number;
  readonly connections: number;
  readonly keepAliveTimeoutMs: number;
  /** Direct connections only: a proxy's pool keeps its own. */
  readonly spare?: SpareClients;
  readonly env?: NodeJS.ProcessEnv;
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];

/**
 * The undici dispatcher for one upstream origin: OriginClients (the common case: no proxy), a ProxyAgent for the origin's `proxy_url`, or an EnvHttpProxyAgent when the
 * environment names a proxy (HTTP_PROXY, HTTPS_PROXY, honouring NO_PROXY). The origin's
 * tls_config applies to the upstream connection, through a proxy's tunnel too.
 */
export function createDispatcher(origin: string, transport: HttpTransport | undefined, options: DispatcherOptions): Dispatcher {
  const tls = { ...transport?.tls, timeout: options.connectTimeoutMs };
  const pooling = { connections: options.connections, keepAliveTimeout: options.keepAliveTimeoutMs };
  if (transport?.proxyUrl)
    return new ProxyAgent({ uri: transport.proxyUrl, requestTls: tls, proxyTls: { timeout: options.connectTimeoutMs }, ...pooling });
  const env = options.env ?? process.env;
  if (PROXY_VARIABLES.some((name) => env[name]))
    return new EnvHttpProxyAgent({ connect: tls, requestTls: tls, ...pooling, ...envProxies(env) });
  return new OriginClients(origin, { connect: tls, ...pooling, spare: options.spare });
}

/** Passed explicitly, so a test or a reload sees the environment it was given. */
function envProxies(env: NodeJS.ProcessEnv): { httpProxy?: string; httpsProxy?: string; noProxy?: string } {
  return {
    httpProxy: env.HTTP_PROXY ?? env.http_proxy,
    httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
    noProxy: env.NO_PROXY ?? env.no_proxy,
  };
}
