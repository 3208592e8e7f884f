import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The framing headers and the body of one answer, as a client reads them off the wire. */
async function answer(path: string, method?: string): Promise<{ length?: string; encoding?: string; body: unknown }> {
  const rpc = method
    ? {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
      }
    : {};
  const response = await request(`${sim!.url}${path}`, rpc as Parameters<typeof request>[1]);
  const { 'content-length': length, 'transfer-encoding': encoding } = response.headers as Record<string, string | undefined>;
  return { length, encoding, body: await response.body.json() };
}

describe('answer framing, as Go net/http frames AvalancheGo answers', () => {
  for (const cacheAnswers of [true, false]) {
    it(`sends a large answer chunked and whole, a short one with its length (${cacheAnswers ? 'kept' : 'fresh'} answers)`, async () => {
      sim = await startSimulator({ peers: 200, cacheAnswers });
      const peers = await answer('/ext/info', 'info.peers');
      expect(peers.length).toBeUndefined();
      expect(peers.encoding).toBe('chunked');
      expect((peers.body as { result: { peers: unknown[] } }).result.peers).toHaveLength(200);
      const health = await answer('/ext/health');
      expect(health.encoding).toBe('chunked');
      expect(health.body).toHaveProperty('checks');
      const liveness = await answer('/ext/health/liveness');
      expect(liveness.encoding).toBeUndefined();
      expect(Number(liveness.length)).toBe(JSON.stringify(liveness.body).length);
    });
  }
});
