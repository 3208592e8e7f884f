import { describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import { GROUP_ALONE_BYTES, GzipGroups, type GzipFamily } from '../../src/metrics/gzip-groups.js';
import { gzipMember } from '../../src/metrics/gzip-stream.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';
import { gzipMembers } from '../helpers/gzip-members.js';

describe('GzipGroups', () => {
  it('writes and compresses again only the groups holding a changed family, and the body stays whole', () => {
    const groups = new GzipGroups();
    const big = GROUP_ALONE_BYTES;
    const sizes: Record<string, number> = { a_big: big, b_small: 10, c_small: 10, d_big: big };
    const writes = new Map<string, number>();
    const asked: string[][] = [];
    const body = (changedAt: Record<string, number>, version: number) => {
      const families: GzipFamily[] = Object.entries(sizes).map(([name, bytes]) => ({ name, bytes, changedAt: changedAt[name] ?? 0 }));
      const deflated = groups.assemble(families, version, (stale) => {
        asked.push([...stale]);
        return (name, writer) => {
          writes.set(name, (writes.get(name) ?? 0) + 1);
          const text = Buffer.from(name[0].repeat(sizes[name]));
          writer.write(text, 0, text.length);
        };
      });
      const members = gzipMembers(gzipMember([deflated]));
      expect(members.length).toBe(1);
      return members[0].toString();
    };
    const expected = `${'a'.repeat(big)}${'b'.repeat(10)}${'c'.repeat(10)}${'d'.repeat(big)}`;
    expect(body({}, 1)).toBe(expected);
    expect(Object.fromEntries(writes)).toEqual({ a_big: 1, b_small: 1, c_small: 1, d_big: 1 });
    // c changed at version 2: its group (b and c, the small families between two big ones) only.
    expect(body({ c_small: 2 }, 2)).toBe(expected);
    expect(Object.fromEntries(writes)).toEqual({ a_big: 1, b_small: 2, c_small: 2, d_big: 1 });
    expect(asked.at(-1)).toEqual(['b_small', 'c_small']);
    // Nothing changed since version 2: nothing is written or compressed again, no lines are asked for.
    const askedBefore = asked.length;
    expect(body({ c_small: 2 }, 3)).toBe(expected);
    expect(Object.fromEntries(writes)).toEqual({ a_big: 1, b_small: 2, c_small: 2, d_big: 1 });
    expect(asked.length).toBe(askedBefore);
    expect(body({ c_small: 2, d_big: 4 }, 4)).toBe(expected);
    expect(Object.fromEntries(writes)).toEqual({ a_big: 1, b_small: 2, c_small: 2, d_big: 2 });
  });

  it('gzips no family as one valid empty member', () => {
    expect(gzipMembers(gzipMember([new GzipGroups().assemble([], 1, () => () => undefined)]))).toEqual([Buffer.alloc(0)]);
  });
});

describe('a gzip body of reused groups, assembly after assembly', () => {
  const requests = (target: string, value: number, methods = 400): Sample[] =>
    Array.from({ length: methods }, (_, index) => ({
      name: 'avaxmon_rpc_requests_total',
      labels: { target, method: `method-${index}`, outcome: 'success' },
      value,
    }));
  const peers = (target: string, value: number): Sample[] => [
    { name: 'avaxmon_node_peers', labels: { target }, value },
    { name: 'avaxmon_node_peers_by_version', labels: { target, version: 'avalanchego/1.15.0' }, value },
  ];

  it('decodes to the plain body whatever changes, vanishes, comes back, grows past a group of its own or shrinks', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    const gzipped = () => {
      const members = gzipMembers(snapshot.body('text', true));
      expect(members.length).toBe(1);
      return members[0].toString();
    };
    const plain = () => snapshot.body('text', false).toString();
    let seed = 11;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return Math.floor((seed / 2 ** 32) * n);
    };
    const changes: Array<(target: string) => void> = [
      (target) => snapshot.setSlice(`${target}/self`, requests(target, random(3), 1 + random(400))),
      (target) => snapshot.setSlice(`${target}/peers`, peers(target, random(3))),
      (target) => snapshot.setSlice(`${target}/self`, []),
      (target) => snapshot.setSlice(`${target}/peers`, []),
      (target) => snapshot.setSlice(`${target}/peers`, [...peers(target, random(3)), ...requests(`${target}-extra`, 1, random(50))]),
    ];
    const rpcBytes: number[] = [];
    for (let step = 0; step < 200; step++) {
      changes[random(changes.length)](`node-${random(8)}`);
      const expected = plain();
      rpcBytes.push(
        expected
          .split('\n')
          .filter((line) => line.startsWith('avaxmon_rpc_requests_total{'))
          .join('\n').length,
      );
      expect(gzipped(), `step ${step}`).toBe(expected);
    }
    // The rpc family was a group of its own and one of the small families: both groupings were exercised.
    expect(Math.max(...rpcBytes)).toBeGreaterThan(GROUP_ALONE_BYTES);
    expect(Math.min(...rpcBytes)).toBeLessThan(GROUP_ALONE_BYTES);
  });
});
