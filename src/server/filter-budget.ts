import { CLIENT_MAX_PROGRAM_SIZE } from '../alerts/matchers/linear-regex.js';
import { parseMatcher, type Matcher } from '../alerts/matchers/matchers.js';

/**
 * What `filter=` may cost. Each new regex costs a compile and a first match (about 0.2 ms an RE2
 * instruction), so a client varying its patterns could hold the event loop: here each request is
 * capped, each client address and all clients together draw on budgets of CPU milliseconds a
 * second, and compiled patterns are shared by every request that sends them again. CPU time, not
 * wall time, and the event loop's own thread: on a loaded machine a request takes longer without
 * costing more, and an operator's `amtool silence query` must not be refused for what other
 * processes, or this one's GC and I/O threads, do meanwhile.
 */
export const FILTER_LIMITS = {
  /** Matchers in one request, as many as a silence has. */
  maxMatchers: 32,
  /** RE2 instructions compiled by one request (patterns found compiled cost nothing). */
  maxInstructionsPerRequest: 512,
  /** One request's filtering stops past this much CPU (429): no request holds the event loop longer. */
  maxRequestMs: 20,
  /** Each client address: this many milliseconds of filtering a second, up to `burstMs` saved. */
  client: { msPerSecond: 10, burstMs: 50 },
  /** All clients together, however many addresses they come from. */
  total: { msPerSecond: 50, burstMs: 100 },
  /**
   * A refusal is sent this late (or at the Retry-After, if sooner): a client that retries at once
   * makes a request a second, however fast it could send them, and waiting costs no CPU.
   */
  refusalDelayMs: 1_000,
  /** Compiled filter matchers kept, least recently used dropped first (at most about 128 × 128 instructions). */
  cachedMatchers: 128,
  /** Client addresses whose budget is remembered; one forgotten starts afresh, still within the total. */
  clients: 1_024,
} as const;

/** A matcher a request sent: a `filter=` value, or another query parameter's, named in its errors. */
export type FilterText = string | { readonly param: string; readonly text: string };

/** A filter the API refuses: 400. */
export class FilterError extends Error {}

/** A client (or all of them) past its budget: 429 with Retry-After. */
export class FilterBusyError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: { readonly msPerSecond: number; readonly burstMs: number },
    now: number,
  ) {
    this.tokens = rate.burstMs;
    this.at = now;
  }

  /** Seconds until the bucket is positive again; 0 when it is. */
  waitSeconds(now: number): number {
    this.tokens = Math.min(this.rate.burstMs, this.tokens + ((now - this.at) / 1000) * this.rate.msPerSecond);
    this.at = now;
    return this.tokens > 0 ? 0 : Math.max(1, Math.ceil(-this.tokens / this.rate.msPerSecond));
  }

  charge(ms: number): void {
    this.tokens -= ms;
  }
}

export class FilterBudget {
  private readonly compiled = new Map<string, Matcher>();
  private readonly clients = new Map<string, Bucket>();
  private readonly total: Bucket;

  /** `clock.wallMs` refills the budgets, `clock.cpuMs` measures what a request costs. */
  constructor(private readonly clock: { wallMs(): number; cpuMs(): number } = { wallMs: () => performance.now(), cpuMs: eventLoopCpuMs }) {
    this.total = new Bucket(FILTER_LIMITS.total, clock.wallMs());
  }

  /**
   * Runs `use` on the request's filter matchers, charging the CPU it takes (compiles included) to
   * `client` and to the total. Throws FilterBusyError before any work when either is spent. A new
   * pattern is compiled in its own turn of the event loop, so no request holds it for more than
   * one compile at a time; the request's most (maxRequestMs) is reserved meanwhile, so requests
   * sent at once on many connections cannot all start on one budget.
   */
  async run<T>(client: string, texts: readonly FilterText[], use: (filter: readonly Matcher[], deadline: Deadline) => T): Promise<T> {
    if (texts.length === 0) return use([], NO_DEADLINE);
    if (texts.length > FILTER_LIMITS.maxMatchers) throw new FilterError(`filter: at most ${FILTER_LIMITS.maxMatchers} matchers`);
    const now = this.clock.wallMs();
    const buckets = [this.bucketOf(client, now), this.total];
    const wait = Math.max(...buckets.map((bucket) => bucket.waitSeconds(now)));
    if (wait > 0)
      throw new FilterBusyError(`filter: this client (or all clients together) used its filtering budget; retry in ${wait}s`, wait);
    for (const bucket of buckets) bucket.charge(FILTER_LIMITS.maxRequestMs);
    let spent = 0;
    const measured = <R>(work: () => R): R => {
      const started = this.clock.cpuMs();
      try {
        return work();
      } finally {
        spent += this.clock.cpuMs() - started;
      }
    };
    try {
      const filter: Matcher[] = [];
      let instructions = 0;
      for (const sent of texts) {
        const { param, text } = typeof sent === 'string' ? { param: 'filter', text: sent } : sent;
        const cached = this.cached(text);
        if (cached) {
          filter.push(cached);
          continue;
        }
        const matcher = measured(() => compileFilter(param, text));
        if ('regex' in matcher) instructions += matcher.regex.instructions;
        if (instructions > FILTER_LIMITS.maxInstructionsPerRequest)
          throw new FilterError(
            `${param}: "${text.slice(0, 80)}" brings the request's new patterns past ${FILTER_LIMITS.maxInstructionsPerRequest} RE2 instructions; send fewer or simpler ones`,
          );
        this.remember(text, matcher);
        filter.push(matcher);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return measured(() => use(filter, new Deadline(this.clock.cpuMs, this.clock.cpuMs() - spent)));
    } finally {
      for (const bucket of buckets) bucket.charge(spent - FILTER_LIMITS.maxRequestMs);
    }
  }

  private cached(text: string): Matcher | undefined {
    const cached = this.compiled.get(text);
    if (cached) {
      this.compiled.delete(text);
      this.compiled.set(text, cached);
    }
    return cached;
  }

  private remember(text: string, matcher: Matcher): void {
    this.compiled.set(text, matcher);
    if (this.compiled.size > FILTER_LIMITS.cachedMatchers) this.compiled.delete(this.compiled.keys().next().value as string);
  }

  private bucketOf(client: string, now: number): Bucket {
    let bucket = this.clients.get(client);
    if (bucket) this.clients.delete(client);
    else bucket = new Bucket(FILTER_LIMITS.client, now);
    this.clients.set(client, bucket);
    if (this.clients.size > FILTER_LIMITS.clients) this.clients.delete(this.clients.keys().next().value as string);
    return bucket;
  }
}

/** Stops one request's filtering once the request has spent FILTER_LIMITS.maxRequestMs of CPU, its compiles included. */
export class Deadline {
  constructor(
    private readonly now: () => number,
    private readonly started: number,
  ) {}

  check(): void {
    if (this.now() - this.started > FILTER_LIMITS.maxRequestMs)
      throw new FilterBusyError(`filter: matching took more than ${FILTER_LIMITS.maxRequestMs} ms; narrow the filter`, 1);
  }
}

const NO_DEADLINE = new Deadline(() => 0, 0);

function compileFilter(param: string, text: string): Matcher {
  try {
    return parseMatcher(text, CLIENT_MAX_PROGRAM_SIZE);
  } catch (error) {
    throw new FilterError(`${param}: ${(error as Error).message}`);
  }
}

/** Node 22.19 and later read the event loop thread alone; before, the process (all its threads) is the nearest measure. */
function eventLoopCpuMs(): number {
  const { user, system } = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return (user + system) / 1000;
}
