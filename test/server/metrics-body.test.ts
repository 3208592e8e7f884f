import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';
import { MetricsBody } from '../../src/server/metrics-body.js';
import { ManualClock } from '../helpers/manual-clock.js';

const peers = (value: number) => [{ name: 'avaxmon_node_peers', labels: { target: 'a' }, value }];

/** A /metrics body over a snapshot on a hand-moved clock, with target a at 1 peer. */
function onHandMovedClock() {
  const clock = new ManualClock();
  const snapshot = new MetricsSnapshot(allMetrics, { clock });
  snapshot.setSlice('a/peers', peers(1));
  return { clock, snapshot, body: new MetricsBody(snapshot) };
}

describe('the /metrics body', () => {
  it('hands plain scrapers that come at once the snapshot buffer itself, not a 21 MB copy each', async () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('a/peers', peers(5));
    const body = new MetricsBody(snapshot);
    const nowMs = Date.now();
    const [first, ...others] = await Promise.all(Array.from({ length: 20 }, () => body.get('text', false, nowMs)));
    for (const other of others) expect(other.chunks[0]).toBe(first.chunks[0]);
    const text = Buffer.concat(first.chunks).toString();
    expect(first.length).toBe(Buffer.byteLength(text));
    expect(text).toContain('avaxmon_node_peers{target="a"} 5\n');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('never writes a plain body over while a response sends it, and lets a one-off body go once sent', async () => {
    const { clock, snapshot, body } = onHandMovedClock();
    const sending = await body.get('text', false, clock.now());
    await clock.advance(60_000);
    snapshot.setSlice('a/peers', peers(2));
    const next = await body.get('text', false, clock.now());
    // The first response is still sending: the next body is in memory of its own.
    expect(next.chunks[0].buffer).not.toBe(sending.chunks[0].buffer);
    expect(sending.chunks[0].toString()).toContain('avaxmon_node_peers{target="a"} 1\n');
    sending.done(true);
    next.done(true);
    // Two plain scrapes a minute apart are a cadence: the body is kept, and the next written into its memory.
    await clock.advance(60_000);
    snapshot.setSlice('a/peers', peers(3));
    const third = await body.get('text', false, clock.now());
    expect(third.chunks[0].buffer).toBe(next.chunks[0].buffer);
    expect(third.chunks[0].toString()).toContain('avaxmon_node_peers{target="a"} 3\n');
  });

  it('lets the one plain body of an operator`s curl go once it was sent', async () => {
    const { clock, body } = onHandMovedClock();
    const sent = await body.get('text', false, clock.now());
    sent.done(true);
    // Its memory was handed back at once, not at V8's next full collection (21 MB at 1,000 nodes).
    expect(sent.chunks[0].buffer.byteLength).toBe(0);
    await clock.advance(1_000);
    // Nothing changed, yet the body is assembled again: the first was let go.
    const again = await body.get('text', false, clock.now());
    expect(again.chunks[0].buffer).not.toBe(sent.chunks[0].buffer);
    expect(again.chunks[0].toString()).toContain('avaxmon_node_peers{target="a"} 1\n');
  });

  it('leaves the memory of a body whose client went away mid-send to the garbage collector, and of one still sent to another client', async () => {
    const { clock, body } = onHandMovedClock();
    const [first, second] = await Promise.all([body.get('text', false, clock.now()), body.get('text', false, clock.now())]);
    expect(second.chunks[0]).toBe(first.chunks[0]);
    first.done(true);
    // The other response still sends it.
    expect(second.chunks[0].toString()).toContain('avaxmon_node_peers{target="a"} 1\n');
    const aborted = await body.get('text', false, clock.now());
    second.done(false);
    aborted.done(false);
    // A write the socket had not finished may still read it: it is not handed back.
    expect(aborted.chunks[0].toString()).toContain('avaxmon_node_peers{target="a"} 1\n');
  });

  it('sends gzip as one cached buffer, the collected series and the process metrics in one member', async () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('a/peers', peers(5));
    const body = new MetricsBody(snapshot);
    const nowMs = Date.now();
    const first = await body.get('text', true, nowMs);
    expect(first.chunks).toHaveLength(1);
    expect((await body.get('text', true, nowMs)).chunks[0]).toBe(first.chunks[0]);
    const text = gunzipSync(first.chunks[0]).toString();
    expect(text).toContain('avaxmon_node_peers{target="a"} 5\n');
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});
