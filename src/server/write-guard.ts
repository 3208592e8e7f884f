import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { parseBasicAuth } from './basic-auth.js';
import { STATE_CHANGING_METHODS, authorityOf, requireRouteDeclarations, type WriteAuthority } from './route-authority.js';
import { isLoopbackClient } from './trusted-client.js';

/**
 * Who may change state (silences, reload), in the spirit of Prometheus' --web.enable-lifecycle:
 * reading stays open, as Prometheus expects of /metrics and Alertmanager of GET /api/v2/*.
 */
export interface ControlPlaneOptions {
  /** --web.enable-lifecycle: POST /-/reload from any client that passes authentication. */
  readonly enableLifecycle?: boolean;
  /** --web.enable-silences: create and expire silences from any client that passes authentication. */
  readonly enableSilences?: boolean;
  /** --web.write-users: the basic-auth users who may change state; unset, every authenticated user. */
  readonly writeUsers?: readonly string[];
  /** --web.allowed-hosts: Host names accepted on state-changing requests, besides IP literals and localhost. */
  readonly allowedHosts?: readonly string[];
}

/**
 * Registered after basic auth, so a request that reaches it with credentials has valid ones. It
 * reads what the matched route declared (route-authority.ts), never the raw URL. A write must come
 * from the daemon's own site (no cross-site form or fetch, no DNS-rebound Host), and from someone
 * with authority: a write user, a loopback client, or anyone once the route's flag opens it. Every
 * state-changing request leaves an audit line, also one that matched no route.
 */
export function registerWriteGuard(app: FastifyInstance, options: ControlPlaneOptions, basicAuth: boolean, log: Logger): void {
  requireRouteDeclarations(app);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const authority = authorityOf(request);
    if (authority === 'read') return;
    const user = basicAuth ? parseBasicAuth(request.headers.authorization)?.user : undefined;
    const who = {
      client: request.ip,
      user: user ?? null,
      method: request.method,
      path: pathOf(request),
      route: request.routeOptions.url ?? null,
    };
    if (authority === undefined || authority === 'refuse') {
      // fastify answers 404, or the route 405; the attempt is still worth a line, as a spelling probe is.
      if (STATE_CHANGING_METHODS.has(request.method))
        log.warn(
          { ...who, reason: authority ? 'the method is not allowed here' : 'no route changes state here' },
          'State-changing request refused',
        );
      return;
    }
    const refusal = crossSiteRefusal(request, options) ?? authorityRefusal(request, authority, user, options);
    if (refusal) {
      log.warn({ ...who, reason: refusal }, 'State-changing request refused');
      return reply.code(403).type('application/json').send(JSON.stringify(refusal));
    }
    log.info(who, 'State-changing request accepted');
  });
}

/** The path as the client spelled it, for the audit line: the matched route is logged beside it. */
function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0];
}

function crossSiteRefusal(request: FastifyRequest, options: ControlPlaneOptions): string | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return `cross-site requests cannot change state (Sec-Fetch-Site: ${site})`;
  const host = request.headers.host ?? '';
  const origin = request.headers.origin;
  // Browsers send Origin on every POST and DELETE; other clients (curl, amtool) send none.
  if (origin !== undefined) {
    if (hostOfOrigin(origin) !== host.toLowerCase()) return `cross-site requests cannot change state (Origin ${origin} is not ${host})`;
    // A DNS-rebound page is same-origin with the daemon, under the attacker's host name.
    if (!hostAllowed(host, options.allowedHosts ?? [])) {
      return `a browser on Host "${host}" cannot change state (DNS rebinding guard): use an IP address or localhost, or add the name with --web.allowed-hosts`;
    }
  }
  const type = request.headers['content-type'];
  // A browser sends text/plain or form bodies cross-site without asking first; JSON needs a preflight.
  if (type !== undefined && !/^application\/json\b/i.test(type)) return `Content-Type must be application/json, got ${type}`;
  return undefined;
}

function authorityRefusal(
  request: FastifyRequest,
  authority: WriteAuthority,
  user: string | undefined,
  options: ControlPlaneOptions,
): string | undefined {
  if (user !== undefined) {
    if (!options.writeUsers || options.writeUsers.includes(user)) return undefined;
    return `user "${user}" may read but not change state (--web.write-users)`;
  }
  if (isLoopbackClient(request)) return undefined;
  if (authority === 'lifecycle' && options.enableLifecycle) return undefined;
  if (authority === 'silences' && options.enableSilences) return undefined;
  const flag = authority === 'lifecycle' ? '--web.enable-lifecycle' : '--web.enable-silences';
  return `${request.method} ${pathOf(request)} from ${request.ip} needs authority: call it from loopback, authenticate (web config basic_auth_users), or start avaxmon with ${flag}`;
}

function hostOfOrigin(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The Host header's name: an IP literal or localhost cannot be rebound to another site's DNS name. */
function hostAllowed(hostHeader: string, allowed: readonly string[]): boolean {
  const name = hostHeader
    .replace(/:\d+$/, '')
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  if (name === '') return false;
  return isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || allowed.some((host) => host.toLowerCase() === name);
}
