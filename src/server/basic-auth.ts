import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../schedule/clock.js';
import { AuthFailures } from './auth-failures.js';
import { BcryptBusyError, BcryptWorker } from './bcrypt-worker.js';

/** bcrypt is slow by design; a verified pair is trusted this long, as exporter-toolkit caches it. */
const CACHE_TTL_MS = 60_000;
const CACHE_MAX_ENTRIES = 256;

/**
 * HTTP basic auth over every endpoint, with bcrypt hashes from basic_auth_users. Like
 * exporter-toolkit it protects /-/healthy and /-/ready too: probes must send credentials.
 *
 * bcrypt is a CPU amplifier for whoever can reach the port: every check runs on a worker thread
 * with a bounded queue, a client address that keeps failing gets 429 without a check, and a cached
 * valid credential is answered without bcrypt, so Prometheus keeps scraping during a flood.
 */
export function registerBasicAuth(app: FastifyInstance, users: Readonly<Record<string, string>>, clock: Clock): void {
  const verified = new Map<string, number>();
  const bcrypt = new BcryptWorker(Object.values(users));
  const failures = new AuthFailures();
  app.addHook('onClose', async () => bcrypt.close());
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const credentials = parseBasicAuth(request.headers.authorization);
    if (credentials && isCached(credentials, users, verified, clock.now())) return;
    const address = request.ip;
    const waitSeconds = credentials ? failures.retryAfterSeconds(address, clock.now()) : 0;
    if (waitSeconds > 0) return tooMany(reply, waitSeconds);
    if (credentials) {
      failures.started(address, clock.now());
      let ok = false;
      try {
        ok = await check(credentials, users, verified, bcrypt, clock);
      } catch (error) {
        if (error instanceof BcryptBusyError) return tooMany(reply, 1);
        throw error;
      } finally {
        failures.finished(address, ok, clock.now());
      }
      if (ok) return;
    }
    return reply.code(401).header('www-authenticate', 'Basic realm="avaxmon"').type('text/plain').send('Unauthorized\n');
  });
}

function tooMany(reply: FastifyReply, seconds: number): FastifyReply {
  return reply.code(429).header('retry-after', String(seconds)).type('text/plain').send('Too many failed login attempts\n');
}

type Credentials = { user: string; password: string };

function hashOf(credentials: Credentials, users: Readonly<Record<string, string>>): string | undefined {
  return Object.hasOwn(users, credentials.user) ? users[credentials.user] : undefined;
}

function isCached(
  credentials: Credentials,
  users: Readonly<Record<string, string>>,
  verified: Map<string, number>,
  nowMs: number,
): boolean {
  const hash = hashOf(credentials, users);
  const expiry = hash === undefined ? undefined : verified.get(cacheKey(credentials.user, credentials.password, hash));
  return expiry !== undefined && expiry > nowMs;
}

/** Unknown users are checked against a hash of the same cost, so timing does not tell which users exist. */
async function check(
  credentials: Credentials,
  users: Readonly<Record<string, string>>,
  verified: Map<string, number>,
  bcrypt: BcryptWorker,
  clock: Clock,
): Promise<boolean> {
  const hash = hashOf(credentials, users);
  const matches = await bcrypt.compare(credentials.password, hash);
  if (!matches || hash === undefined) return false;
  if (verified.size >= CACHE_MAX_ENTRIES) verified.clear();
  verified.set(cacheKey(credentials.user, credentials.password, hash), clock.now() + CACHE_TTL_MS);
  return true;
}

/** Keyed by a digest, so the cache holds no password; the hash is included so a changed hash misses. */
function cacheKey(user: string, password: string, hash: string): string {
  return createHash('sha256')
    .update(JSON.stringify([user, password, hash]))
    .digest('base64');
}

export function parseBasicAuth(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
