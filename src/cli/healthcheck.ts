import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { loadWebConfig } from '../server/web-config.js';
import type { WebOptions } from '../server/app.js';
import { parseCli, parseListenAddress, type CliOptions } from './args.js';

const TIMEOUT_MS = 4_000;

/**
 * `avaxmon healthcheck`: GET /-/healthy of the local daemon, for the image's HEALTHCHECK. It follows
 * the daemon's own --web.listen-address and --web.config.file: those of PID 1 when PID 1 is the
 * avaxmon daemon (a container), else its own flags. Over TLS it trusts the daemon's certificate
 * (it is talking to itself on loopback) and presents that certificate when client certificates are
 * required. Basic auth hashes cannot be reversed, so with basic auth on, the 401 of the auth layer
 * in front of every route proves the daemon serves. Exit 0 healthy, 1 not.
 */
export async function runHealthcheck(options: CliOptions): Promise<number> {
  const daemon = daemonOptions() ?? options;
  const web = daemon.webConfigFile ? loadWebConfig(daemon.webConfigFile) : {};
  const url = healthUrl(daemon.listenAddress, Boolean(web.https));
  try {
    const status = await get(url, web);
    const healthy = status === 200 || (status === 401 && web.basicAuthUsers !== undefined);
    (healthy ? process.stdout : process.stderr).write(
      `${url}: HTTP ${status}${status === 401 && healthy ? ' (basic auth on: the daemon answers)' : ''}\n`,
    );
    return healthy ? 0 : 1;
  } catch (error) {
    process.stderr.write(`${url}: ${(error as Error).message}\n`);
    return 1;
  }
}

/** The flags of PID 1 when it is the avaxmon daemon (no subcommand), as in the container image. */
function daemonOptions(): CliOptions | undefined {
  let argv: string[];
  try {
    argv = readFileSync('/proc/1/cmdline', 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
  const main = argv.findIndex((arg) => /(?:^|\/)(?:dist\/main\.js|avaxmon)$/.test(arg));
  if (main < 0) return undefined;
  try {
    const options = parseCli(argv.slice(main + 1));
    return options.command === 'run' ? options : undefined;
  } catch {
    return undefined;
  }
}

/** Where the daemon listens, seen from the same host: a wildcard address is reached on loopback. */
export function healthUrl(listenAddress: string, tls: boolean): string {
  const { host, port } = parseListenAddress(listenAddress);
  const wildcard = host === '' || host === '0.0.0.0' || host === '::';
  const target = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `${tls ? 'https' : 'http'}://${target}:${port}/-/healthy`;
}

function get(url: string, web: WebOptions): Promise<number> {
  const tls = web.https ? { rejectUnauthorized: false, cert: web.https.cert, key: web.https.key } : {};
  const request = web.https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'GET', timeout: TIMEOUT_MS, ...tls }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}
