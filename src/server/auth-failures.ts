/** Failed attempts a client address may make per window before it gets 429 without a check. */
const MAX_FAILURES = 10;
const WINDOW_MS = 60_000;
/** Checks one address may have running at once: the rest of a burst is refused, not queued. */
const MAX_CONCURRENT_PER_CLIENT = 4;
/** Addresses remembered; beyond that the oldest are forgotten (a spoofed-source flood cannot grow this). */
const MAX_CLIENTS = 10_000;

interface ClientRecord {
  failures: number;
  windowStartMs: number;
  inFlight: number;
}

/** Per client address: recent failed logins and checks in progress, for a 429 before any bcrypt. */
export class AuthFailures {
  private readonly clients = new Map<string, ClientRecord>();

  /** Seconds the client must wait, or 0 when it may try now. */
  retryAfterSeconds(address: string, nowMs: number): number {
    const record = this.clients.get(address);
    if (!record) return 0;
    if (nowMs - record.windowStartMs >= WINDOW_MS) record.failures = 0;
    if (record.failures >= MAX_FAILURES) return Math.max(1, Math.ceil((record.windowStartMs + WINDOW_MS - nowMs) / 1000));
    return record.inFlight >= MAX_CONCURRENT_PER_CLIENT ? 1 : 0;
  }

  started(address: string, nowMs: number): void {
    this.record(address, nowMs).inFlight += 1;
  }

  finished(address: string, ok: boolean, nowMs: number): void {
    const record = this.record(address, nowMs);
    record.inFlight = Math.max(0, record.inFlight - 1);
    if (ok) return;
    if (nowMs - record.windowStartMs >= WINDOW_MS) {
      record.windowStartMs = nowMs;
      record.failures = 0;
    }
    record.failures += 1;
  }

  private record(address: string, nowMs: number): ClientRecord {
    let record = this.clients.get(address);
    if (!record) {
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      record = { failures: 0, windowStartMs: nowMs, inFlight: 0 };
      this.clients.set(address, record);
    }
    return record;
  }
}
