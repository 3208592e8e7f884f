import type { Server } from 'node:net';
import type { Logger } from 'pino';

/** At most one warning this often, however many connections a flood brings. */
const WARN_EVERY_MS = 60_000;

/**
 * Holds a listener to `max` open connections, as Prometheus' --web.max-connections does: past it a
 * new connection is closed at once, so idle or slow clients cost a bounded amount of memory
 * whatever their number. The operator hears of it once a minute at most, with the count dropped.
 */
export function limitConnections(server: Server, max: number, log: Logger): void {
  if (max === 0) return;
  server.maxConnections = max;
  let dropped = 0;
  let warnedAt = Number.NEGATIVE_INFINITY;
  server.on('drop', () => {
    dropped++;
    const now = Date.now();
    if (now - warnedAt < WARN_EVERY_MS) return;
    warnedAt = now;
    log.warn(
      { maxConnections: max, dropped },
      'Connection limit reached; closing new connections (raise --web.max-connections if the clients are legitimate)',
    );
  });
}
