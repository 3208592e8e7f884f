import { Client, Dispatcher, errors } from 'undici';

/** How many of an origin's clients keep the pool's keep-alive, and how long the others idle. */
export interface SpareClients {
  readonly kept: number;
  readonly idleMs: number;
}

/**
 * Up to `connections` undici Clients (one connection each) for one origin, opened as requests need
 * them; each request goes to an idle client, else a new one, else the least loaded. Past the first
 * `spare.kept`, a client closes after `spare.idleMs` idle, whatever the server's Keep-Alive hint:
 * a burst's extra connections would otherwise stay open as long as the node allows (120 s on
 * AvalancheGo), so every origin would keep the most it ever needed at once. Why not
 * undici's Pool: it allocates a 2,048-slot queue per origin up front and keeps every connection it
 * ever opened, memory per origin that a fleet multiplies, for a node that is mostly asked one thing
 * at a time (docs/decisions.md#originclients-not-undicis-pool).
 */
export class OriginClients extends Dispatcher {
  private readonly clients: Client[] = [];
  private closed = false;

  constructor(
    private readonly origin: string,
    private readonly options: Client.Options & { readonly connections: number; readonly spare?: SpareClients },
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (this.closed) throw new errors.ClientClosedError();
    return this.pick().dispatch(options, handler);
  }

  // The promise forms only: nothing here passes close or destroy a callback.
  override async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.clients.splice(0).map((client) => client.close()));
  }

  override async destroy(): Promise<void> {
    this.closed = true;
    await Promise.all(this.clients.splice(0).map((client) => client.destroy()));
  }

  private pick(): Client {
    const load = (client: Client) => client.stats.pending + client.stats.running;
    const idle = this.clients.find((client) => load(client) === 0);
    if (idle) return idle;
    if (this.clients.length < this.options.connections) return this.open();
    return this.clients.reduce((least, client) => (load(client) < load(least) ? client : least));
  }

  private open(): Client {
    const { connections: _, spare, ...clientOptions } = this.options;
    const brief = spare !== undefined && this.clients.length >= spare.kept;
    const client = new Client(
      this.origin,
      brief ? { ...clientOptions, keepAliveTimeout: spare.idleMs, keepAliveMaxTimeout: spare.idleMs } : clientOptions,
    );
    // A failed connect has already failed the requests waiting for it. The client is dropped, not
    // reused: after a certificate name mismatch (test/clients/transport.test.ts) undici 7 counts
    // the failed request as running for good, so that client would never idle nor finish closing.
    client.on('connectionError', () => this.drop(client, () => client.destroy()));
    // A connection that closed idle (keep-alive ran out) leaves a client nothing needs: a burst of
    // runs opened it, and the next burst opens another.
    client.on('disconnect', () => {
      if (client.stats.pending + client.stats.running === 0) this.drop(client, () => client.close());
    });
    this.clients.push(client);
    return client;
  }

  private drop(client: Client, end: () => Promise<void>): void {
    const index = this.clients.indexOf(client);
    if (index === -1) return;
    this.clients.splice(index, 1);
    void end();
  }
}
