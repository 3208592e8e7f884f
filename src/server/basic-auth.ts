import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** bcrypt is slow by design; a verified pair is trusted this long, as exporter-toolkit caches it. */
const CACHE_TTL_MS = 60_000;
const CACHE_MAX_ENTRIES = 256;
// Compared against when the user is unknown, so the answer takes as long as for a known user.
// Precomputed (bcrypt cost 10): hashing it at import cost ~80 ms of every start-up.
const UNKNOWN_USER_HASH = '$2b$10$zzldetS5YhBUQpVhu5lrZeW.ee3utMJeUEVixlpjErxvvyMSUl.22';

/**
 * HTTP basic auth over every endpoint, with bcrypt hashes from basic_auth_users. Like
 * exporter-toolkit it protects /-/healthy and /-/ready too: probes must send credentials.
 */
export function registerBasicAuth(app: FastifyInstance, users: Readonly<Record<string, string>>): void {
  const verified = new Map<string, number>();
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const credentials = parseBasicAuth(request.headers.authorization);
    if (credentials && (await isValid(credentials, users, verified))) return;
    return reply.code(401).header('www-authenticate', 'Basic realm="avaxmon"').type('text/plain').send('Unauthorized\n');
  });
}

async function isValid(credentials: { user: string; password: string }, users: Readonly<Record<string, string>>, verified: Map<string, number>): Promise<boolean> {
  const hash = Object.hasOwn(users, credentials.user) ? users[credentials.user] : undefined;
  const key = cacheKey(credentials.user, credentials.password, hash ?? '');
  const expiry = verified.get(key);
  if (hash !== undefined && expiry !== undefined && expiry > Date.now()) return true;
  const matches = await bcrypt.compare(credentials.password, hash ?? UNKNOWN_USER_HASH);
  if (!matches || hash === undefined) return false;
  if (verified.size >= CACHE_MAX_ENTRIES) verified.clear();
  verified.set(key, Date.now() + CACHE_TTL_MS);
  return true;
}

/** Keyed by a digest, so the cache holds no password; the hash is included so a changed hash misses. */
function cacheKey(user: string, password: string, hash: string): string {
  return createHash('sha256').update(JSON.stringify([user, password, hash])).digest('base64');
}

export function parseBasicAuth(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
