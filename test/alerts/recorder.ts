import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: unknown;
  readonly atMs: number;
}

export interface Recorder {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Decides the answer per request; default 200. */
  respond: (request: RecordedRequest) => { status: number; headers?: Record<string, string>; body?: string };
  waitFor(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback that records every request. */
export async function startRecorder(): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const recorder: Recorder = {
    url: '',
    requests,
    respond: () => ({ status: 200, body: '{}' }),
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} requests, got ${requests.length}: ${requests.map((r) => r.body).join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const recorded = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body, json, atMs: Date.now() };
      const answer = recorder.respond(recorded);
      if (answer.status >= 200 && answer.status < 300) requests.push(recorded);
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (recorder as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return recorder;
}

/**
 * A kill -9 between a delivery and its record may send it again with the same idempotency key, which
 * receivers treat as one notification: the first request of each key, in order.
 */
export function onePerIdempotencyKey(requests: readonly RecordedRequest[]): RecordedRequest[] {
  const seen = new Set<unknown>();
  return requests.filter((request) => {
    const key = request.headers['idempotency-key'];
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every alert of the webhook payloads, in order, as "status:alertname" for compact assertions. */
export function statuses(requests: readonly RecordedRequest[]): string[] {
  return requests.flatMap((request) => {
    const body = request.json as { alerts: Array<{ status: string; labels: Record<string, string> }> };
    return body.alerts.map((alert) => `${alert.status}:${alert.labels.alertname}`);
  });
}
