import { serversOf } from './listen.js';
import { unwatchFile, watchFile, readFileSync } from 'node:fs';
import type { Server as HttpsServer } from 'node:https';
import { dirname, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { parse } from 'yaml';
import { ConfigError, formatConfigIssue } from '../errors.js';
import { loadWebConfig, type WebOptions } from './web-config.js';

const DEFAULT_POLL_MS = 5_000;

/**
 * Re-reads --web.config.file when it or a certificate, key or CA file it names changes, and puts
 * the new certificate in service for new connections (setSecureContext): cert-manager or certbot
 * rotate certificates without a restart, as with exporter-toolkit. Files are polled by stat, which
 * follows the symlink swap of a Kubernetes Secret volume. A bad file keeps the running certificate.
 * Returns the function that stops watching.
 */
export function watchWebConfig(file: string, app: FastifyInstance, log: Logger, pollMs = DEFAULT_POLL_MS): () => void {
  const watched = new Set<string>();
  const onChange = () => {
    reload(file, app, log);
    watchAll(); // the new file may name other certificate files
  };
  const watchAll = () => {
    for (const path of watchList(file)) {
      if (watched.has(path)) continue;
      watched.add(path);
      watchFile(path, { interval: pollMs, persistent: false }, (current, previous) => {
        if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino || current.size !== previous.size) onChange();
      });
    }
  };
  watchAll();
  return () => {
    for (const path of watched) unwatchFile(path);
  };
}

function reload(file: string, app: FastifyInstance, log: Logger): void {
  let web: WebOptions;
  try {
    web = loadWebConfig(file);
  } catch (error) {
    const issues = error instanceof ConfigError ? error.issues.map(formatConfigIssue) : [String(error)];
    log.error({ issues }, 'Web config reload failed; keeping the running certificate');
    return;
  }
  const servers = serversOf(app) as Partial<HttpsServer>[];
  if (!web.https || servers.some((server) => typeof server.setSecureContext !== 'function')) {
    log.warn({ file }, 'Web config changed; turning TLS on or off needs a restart');
    return;
  }
  const { cert, key, ca, minVersion, maxVersion } = web.https;
  for (const server of servers) server.setSecureContext!({ cert, key, ...(ca ? { ca } : {}), minVersion, maxVersion });
  // basic_auth_users and headers are wired into the routes at start-up.
  log.info(
    { file },
    'Web config reloaded: TLS certificate in service for new connections (basic_auth_users and headers changes apply at restart)',
  );
}

/** The web config file and the TLS files it names (relative to it, as in exporter-toolkit). */
function watchList(file: string): string[] {
  let tls: Record<string, unknown> | undefined;
  try {
    tls = (parse(readFileSync(file, 'utf8')) as { tls_server_config?: Record<string, unknown> } | null)?.tls_server_config;
  } catch {
    tls = undefined;
  }
  const paths = ['cert_file', 'key_file', 'client_ca_file']
    .map((field) => tls?.[field])
    .filter((path): path is string => typeof path === 'string');
  return [file, ...paths.map((path) => resolve(dirname(file), path))];
}
