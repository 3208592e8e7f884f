import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import { GROUP_ALONE_BYTES, GzipGroups, type GzipFamily } from '../../src/metrics/gzip-groups.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';

/** A family of `bytes` letters, counting how often it is written into a body. */
function family(name: string, bytes: number, changedAt: number, writes: Map<string, number>): GzipFamily {
  const text = Buffer.from(name[0].repeat(bytes));
  return {
    name,
    bytes,
    changedAt,
    write: (members) => {
      writes.set(name, (writes.get(name) ?? 0) + 1);
      members.write(text, 0, text.length);
    },
  };
}

describe('GzipGroups', () => {
  it('compresses again only the groups holding a changed family, and the body stays whole', () => {
    const groups = new GzipGroups();
    const writes = new Map<string, number>();
    const big = GROUP_ALONE_BYTES;
    const body = (changedAt: Record<string, number>, version: number) =>
      gunzipSync(
        groups.assemble(
          [
            family('a_big', big, changedAt.a_big ?? 0, writes),
            family('b_small', 10, changedAt.b_small ?? 0, writes),
            family('c_small', 10, changedAt.c_small ?? 0, writes),
            family('d_big', big, changedAt.d_big ?? 0, writes),
          ],
          version,
        ),
      ).toString();
    const expected = `${'a'.repeat(big)}${'b'.repeat(10)}${'c'.repeat(10)}${'d'.repeat(big)}`;
    expect(body({}, 1)).toBe(expected);
    expect(Object.fromEntries(writes)).toEqual({ a_big: 1, b_small: 1, c_small: 1, d_big: 1 });
    // c changed at version 2: its group (b and c, the small families between two big ones) only.
    expect(body({ c_small: 2 }, 2)).toBe(expected);
    expect(Object.fromEntries(writes)).toEqual({ a_big: 1, b_small: 2, c_small: 2, d_big: 1 });
    // Nothing changed since version 2: nothing is compressed again.
    expect(body({ c_small: 2 }, 3)).toBe(expected);
    expect(Object.fromEntries(writes)).toEqual({ a_big: 1, b_small: 2, c_small: 2, d_big: 1 });
    expect(body({ c_small: 2, d_big: 4 }, 4)).toBe(expected);
    expect(Object.fromEntries(writes)).toEqual({ a_big: 1, b_small: 2, c_small: 2, d_big: 2 });
  });

  it('gzips no family as one valid empty member', () => {
    expect(gunzipSync(new GzipGroups().assemble([], 1)).length).toBe(0);
  });
});

describe('a gzip body of reused groups, assembly after assembly', () => {
  const requests = (target: string, value: number): Sample[] =>
    Array.from({ length: 400 }, (_, index) => ({
      name: 'avaxmon_rpc_requests_total',
      labels: { target, method: `method-${index}`, outcome: 'success' },
      value,
    }));
  const peers = (target: string, value: number): Sample[] => [{ name: 'avaxmon_node_peers', labels: { target }, value }];

  it('decodes to the plain body as slices change, vanish, come back in another order and gain families', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    for (let index = 0; index < 20; index++) snapshot.setSlice(`node-${index}/self`, requests(`node-${index}`, 1));
    for (let index = 0; index < 20; index++) snapshot.setSlice(`node-${index}/peers`, peers(`node-${index}`, 1));
    const changes: Array<() => void> = [
      () => snapshot.setSlice('node-3/self', requests('node-3', 2)),
      () => snapshot.setSlice('node-5/peers', peers('node-5', 7)),
      () => snapshot.setSlice('node-0/self', []),
      () => snapshot.setSlice('node-0/self', requests('node-0', 1)),
      () => snapshot.setSlice('node-9/peers', [...peers('node-9', 1), ...requests('node-9-extra', 3)]),
      () => snapshot.setSlice('node-9/peers', peers('node-9', 1)),
    ];
    const gzipped = () => gunzipSync(snapshot.body('text', true)).toString();
    const plain = () => snapshot.body('text', false).toString();
    expect(plain().length).toBeGreaterThan(GROUP_ALONE_BYTES * 4);
    expect(gzipped()).toBe(plain());
    for (const change of changes) {
      const before = plain();
      change();
      expect(plain()).not.toBe(before);
      expect(gzipped()).toBe(plain());
    }
  });
});
