import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import {
  coalescingWindowMs,
  MAX_ASSEMBLY_INTERVAL_MS,
  MetricsSnapshot,
  MAX_PREPARED_AGE_MS,
  MIN_ASSEMBLY_INTERVAL_MS,
  PLAIN_BODY_IDLE_MS,
  prepareLeadMs,
} from '../../src/metrics/snapshot.js';
import { rangeOf, renderSamples } from '../../src/metrics/exposition.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import type { Clock } from '../../src/schedule/clock.js';
import { PART_INPUT_BYTES } from '../../src/metrics/deflate-writer.js';
import { gzipMembers } from '../helpers/gzip-members.js';
import { ManualClock } from '../helpers/manual-clock.js';

/** A clock that moves only when the test moves `time.nowMs`, and whose timers never fire. */
function clockAt(time: { nowMs: number }): Clock {
  return { now: () => time.nowMs, setTimeout: () => ({ unref: () => undefined }), clearTimeout: () => undefined };
}

const peers = (target: string, value: number) => [{ name: 'avaxmon_node_peers', labels: { target }, value }];

/**
 * A snapshot on a hand-moved clock (nothing but the assemblies runs between scrapes) and a text
 * scrape after target a's peers moved to `value` and `afterMs` passed.
 */
function scrapedByHand() {
  const time = { nowMs: 0 };
  const snapshot = new MetricsSnapshot(allMetrics, { clock: clockAt(time) });
  const scrape = (value: number, afterMs: number, gzip = false) => {
    snapshot.setSlice('a/peers', peers('a', value));
    time.nowMs += afterMs;
    return snapshot.serve('text', gzip);
  };
  return { time, snapshot, scrape };
}

describe('MetricsSnapshot', () => {
  it('serves the same pre-rendered buffer until a slice changes', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('a/peers', peers('a', 5));
    const first = snapshot.body('text', false);
    expect(snapshot.body('text', false)).toBe(first);
    expect(snapshot.body('text', true)).toBe(snapshot.body('text', true));
    snapshot.setSlice('a/peers', peers('a', 6));
    expect(snapshot.body('text', false)).not.toBe(first);
  });

  it('groups slices under one HELP/TYPE header per family and replaces slices whole', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('a/peers', peers('a', 5));
    snapshot.setSlice('b/peers', peers('b', 7));
    const text = snapshot.body('text', false).toString();
    expect(text.match(/# TYPE avaxmon_node_peers gauge/g)).toHaveLength(1);
    expect(text).toContain('avaxmon_node_peers{target="a"} 5\navaxmon_node_peers{target="b"} 7\n');
    snapshot.setSlice('a/peers', []);
    expect(snapshot.body('text', false).toString()).not.toContain('target="a"');
  });

  it('renders OpenMetrics counter families without _total and gzips on request', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('self', [
      { name: 'avaxmon_rpc_requests_total', labels: { target: 'a', method: 'info.peers', outcome: 'success' }, value: 3 },
    ]);
    const openmetrics = snapshot.body('openmetrics', false).toString();
    expect(openmetrics).toContain('# TYPE avaxmon_rpc_requests counter\n');
    expect(openmetrics).toContain('avaxmon_rpc_requests_total{target="a",method="info.peers",outcome="success"} 3\n');
    expect(gunzipSync(snapshot.body('openmetrics', true)).toString()).toBe(openmetrics);
  });

  it('escapes label values', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    snapshot.setSlice('x', [
      { name: 'avaxmon_health_check_passing', labels: { target: 'a', check: 'odd "name"\\ with\nnewline' }, value: 0 },
    ]);
    expect(snapshot.body('text', false).toString()).toContain('check="odd \\"name\\"\\\\ with\\nnewline"');
  });

  it('after changes, assembles the same bytes as a snapshot built at once, in both formats', () => {
    const incremental = new MetricsSnapshot(allMetrics);
    const slices = new Map<string, Sample[]>();
    const set = (key: string, samples: Sample[]) => {
      incremental.setSlice(key, samples);
      slices.set(key, samples);
      incremental.body('text', false);
      incremental.body('openmetrics', false);
    };
    set('a/peers', peers('a', 1));
    set('b/peers', peers('b', 2));
    set('self', [{ name: 'avaxmon_rpc_requests_total', labels: { target: 'é—ü', method: 'info.peers', outcome: 'success' }, value: 3 }]);
    set('a/peers', peers('a', 4));
    set('b/peers', []);
    set('c/peers', peers('c', 5));
    // The first family's lines are copied from the slice's previous rendering, whose memory is then handed back.
    for (const validating of [0, 1, 0])
      set('c/peers', [...peers('c', 5), { name: 'avaxmon_node_validating', labels: { target: 'c' }, value: validating }]);
    const atOnce = new MetricsSnapshot(allMetrics);
    for (const [key, samples] of slices) atOnce.setSlice(key, samples);
    for (const format of ['text', 'openmetrics'] as const) {
      expect(incremental.body(format, false).toString()).toBe(atOnce.body(format, false).toString());
    }
    expect(incremental.body('text', false).toString()).toContain('avaxmon_node_peers{target="a"} 4\navaxmon_node_peers{target="c"} 5\n');
    expect(gunzipSync(incremental.body('text', true)).toString()).toBe(atOnce.body('text', false).toString());
  });

  it("keeps a rendered slice in one buffer of its own, not in a slab of the shared pool, with each family's range", () => {
    const slice = renderSamples([...peers('é', 1), { name: 'avaxmon_node_validating', labels: { target: 'a' }, value: 1 }]);
    expect(slice.buffer.buffer.byteLength).toBe(slice.buffer.length);
    expect(slice.names).toEqual(['avaxmon_node_peers', 'avaxmon_node_validating']);
    const validating = rangeOf(slice, 'avaxmon_node_validating')!;
    expect(slice.buffer.subarray(validating.start, validating.end).toString()).toBe('avaxmon_node_validating{target="a"} 1\n');
    expect(validating.end).toBe(slice.buffer.length);
  });

  it('hands back the previous rendering when the lines are the same, and a new one when a value or a family moved', () => {
    const samples = [...peers('a', 1), { name: 'avaxmon_node_validating', labels: { target: 'a' }, value: 1 }];
    const first = renderSamples(samples);
    expect(renderSamples([...samples.map((sample) => ({ ...sample, labels: { ...sample.labels } }))], first)).toBe(first);
    const moved = renderSamples([...peers('a', 2), samples[1]], first);
    expect(moved).not.toBe(first);
    expect(moved.buffer.toString()).toBe('avaxmon_node_peers{target="a"} 2\navaxmon_node_validating{target="a"} 1\n');
    // The same lines in another order are another rendering.
    expect(renderSamples([samples[1], samples[0]], first)).not.toBe(first);
  });

  it('renders a slice larger than its scratch space whole, multi-byte label values included, and the next one after it', () => {
    const many = Array.from({ length: 40_000 }, (_, index) => ({
      name: 'avaxmon_node_peers',
      labels: { target: `é-${index}` },
      value: index,
    }));
    const large = renderSamples(many);
    const text = large.buffer.toString();
    expect(large.buffer.length).toBeGreaterThan(1024 * 1024);
    expect(text.split('\n')).toHaveLength(40_001);
    expect(text.endsWith('avaxmon_node_peers{target="é-39999"} 39999\n')).toBe(true);
    expect(large.ends).toEqual([large.buffer.length]);
    expect(renderSamples(peers('b', 3)).buffer.toString()).toBe('avaxmon_node_peers{target="b"} 3\n');
  });

  it('keeps only the samples of the families asked for, and still renders every family', () => {
    const snapshot = new MetricsSnapshot(allMetrics, { keepSamplesOf: new Set(['avaxmon_node_peers']) });
    const height = { name: 'avaxmon_chain_height', labels: { target: 'a', chain: 'P' }, value: 9 };
    snapshot.setSlice('a/mixed', [...peers('a', 5), height]);
    expect(snapshot.samples()).toEqual(peers('a', 5));
    expect(snapshot.samplesOf('a')).toEqual(peers('a', 5));
    expect(snapshot.samplesNamed(new Set(['avaxmon_chain_height']))).toEqual([]);
    expect(snapshot.body('text', false).toString()).toContain('avaxmon_chain_height{target="a",chain="P"} 9\n');
    snapshot.setSlice('b/height', [{ ...height, labels: { target: 'b', chain: 'P' } }]);
    expect(snapshot.samplesOf('b')).toEqual([]);
    expect(snapshot.body('text', false).toString()).toContain('avaxmon_chain_height{target="b",chain="P"} 9\n');
  });

  it("finds a family's samples alike whether its slices are indexed or scanned, as slices come, change and go", () => {
    const keep = new Set(['avaxmon_node_peers', 'avaxmon_chain_height']);
    const indexed = new MetricsSnapshot(allMetrics, { keepSamplesOf: keep, indexSlicesOf: new Set(['avaxmon_node_peers']) });
    const scanned = new MetricsSnapshot(allMetrics, { keepSamplesOf: keep });
    const height = (target: string, value: number) => ({ name: 'avaxmon_chain_height', labels: { target, chain: 'P' }, value });
    const sorted = (samples: Sample[]) => samples.map((sample) => JSON.stringify(sample)).sort();
    const steps: Array<[string, Sample[]]> = [
      ['a/node', [...peers('a', 5), height('a', 1)]],
      ['b/node', peers('b', 3)],
      ['a/node', [height('a', 2)]],
      ['b/node', []],
      ['c/node', peers('c', 7)],
    ];
    for (const [key, samples] of steps) {
      indexed.setSlice(key, samples);
      scanned.setSlice(key, samples);
      for (const names of [new Set(['avaxmon_node_peers']), new Set(['avaxmon_chain_height']), keep]) {
        expect(sorted(indexed.samplesNamed(names))).toEqual(sorted(scanned.samplesNamed(names)));
      }
    }
    expect(indexed.samplesNamed(new Set(['avaxmon_node_peers']))).toEqual(peers('c', 7));
    expect(indexed.samplesNamed(keep)).toEqual([...peers('c', 7), height('a', 2)]);
  });

  it('answers from the kept samples of the latest run, unchanged, changed or moved to another target', () => {
    const snapshot = new MetricsSnapshot(allMetrics, { keepSamplesOf: new Set(['avaxmon_node_peers']) });
    snapshot.setSlice('x/peers', peers('a', 5));
    snapshot.setSlice('x/peers', peers('a', 5));
    expect(snapshot.samplesOf('a')).toEqual(peers('a', 5));
    snapshot.setSlice('x/peers', peers('a', Number.NaN));
    expect(snapshot.samplesNamed(new Set(['avaxmon_node_peers']))).toEqual(peers('a', Number.NaN));
    snapshot.setSlice('x/peers', peers('b', -1.5e-9));
    expect(snapshot.samplesOf('a')).toEqual([]);
    expect(snapshot.targets()).toEqual(['b']);
    expect(snapshot.samplesOf('b')).toEqual(peers('b', -1.5e-9));
  });

  it('waits at most a second for the next assembly, however costly assembly seemed (event-loop delay included)', () => {
    expect(coalescingWindowMs(1)).toBe(MIN_ASSEMBLY_INTERVAL_MS);
    expect(coalescingWindowMs(50)).toBe(500);
    // A 1-core container measured 4 s for assembly plus gzip: the window once grew to 40 s.
    expect(coalescingWindowMs(4_000)).toBe(MAX_ASSEMBLY_INTERVAL_MS);
    expect(MAX_ASSEMBLY_INTERVAL_MS).toBe(1_000);
  });

  it('serves each format and encoding a body at most one window old, whichever was scraped last', () => {
    const time = { nowMs: 0 };
    const clock = clockAt(time);
    const snapshot = new MetricsSnapshot(allMetrics, { clock });
    const served = (format: 'text' | 'openmetrics', gzip: boolean) => {
      const body = snapshot.serve(format, gzip);
      return (gzip ? gunzipSync(body) : body).toString();
    };
    snapshot.setSlice('a/peers', peers('a', 1));
    for (const format of ['text', 'openmetrics'] as const) for (const gzip of [true, false]) served(format, gzip);
    // A Prometheus scraping gzip, a second one OpenMetrics, an operator's curl: 15 s apart, a moment apart from each other.
    time.nowMs += 15_000;
    snapshot.setSlice('a/peers', peers('a', 2));
    expect(served('text', true)).toContain('avaxmon_node_peers{target="a"} 2\n');
    time.nowMs += 1;
    expect(served('openmetrics', true)).toContain('avaxmon_node_peers{target="a"} 2\n');
    time.nowMs += 1;
    expect(served('text', false)).toContain('avaxmon_node_peers{target="a"} 2\n');
    // Within a body's own window a changed snapshot may wait for the trailing assembly.
    snapshot.setSlice('a/peers', peers('a', 3));
    time.nowMs += 1;
    expect(served('text', true)).toContain('avaxmon_node_peers{target="a"} 2\n');
  });

  it('gzips a fleet-sized body, compressed 1 MiB at a time, as one gzip member that decodes to the plain body', () => {
    const snapshot = new MetricsSnapshot(allMetrics);
    // Values that compress as badly as measurements do: a body of several MB, as 300 nodes give.
    for (let index = 0; index < 300; index++) {
      const target = `node-${index}`;
      const samples: Sample[] = [];
      for (let peer = 0; peer < 200; peer++)
        samples.push({
          name: 'avaxmon_rpc_requests_total',
          labels: { target, method: `m${peer}`, outcome: 'success' },
          value: Math.random() * 1e9,
        });
      snapshot.setSlice(`${target}/self`, samples);
    }
    const plain = snapshot.body('text', false);
    expect(plain.length).toBeGreaterThan(4 * PART_INPUT_BYTES);
    const members = gzipMembers(snapshot.serve('text', true));
    expect(members.length).toBe(1);
    expect(members[0].equals(plain)).toBe(true);
  });

  it('gzips an empty snapshot as one valid member', () => {
    const members = gzipMembers(new MetricsSnapshot(allMetrics).serve('text', true));
    expect(members.map((member) => member.length)).toEqual([0]);
  });

  it('assembles a plain body into the memory of the last one unless it was handed out, and every served body is right', () => {
    const { snapshot, scrape } = scrapedByHand();
    const serveWith = (value: number, gzip: boolean) => scrape(value, MAX_ASSEMBLY_INTERVAL_MS, gzip);
    const served: Buffer[] = [];
    for (let value = 1; value <= 3; value++) {
      const body = serveWith(value, false);
      expect(body.toString()).toContain(`avaxmon_node_peers{target="a"} ${value}\n`);
      served.push(body);
    }
    // One body's memory per format, written over by each assembly: no new memory after the first.
    expect(served[1].buffer).toBe(served[0].buffer);
    expect(served[2].buffer).toBe(served[0].buffer);
    // A gzip scrape compresses the slices themselves and leaves the plain body's memory alone.
    expect(gunzipSync(serveWith(4, true)).toString()).toContain('avaxmon_node_peers{target="a"} 4\n');
    expect(served[2].toString()).toContain('avaxmon_node_peers{target="a"} 3\n');
    // A body handed out by body() is never written over.
    const handedOut = snapshot.body('text', false);
    const next = serveWith(5, false);
    expect(next.buffer).not.toBe(handedOut.buffer);
    expect(handedOut.toString()).toContain('avaxmon_node_peers{target="a"} 4\n');
    expect(next.toString()).toContain('avaxmon_node_peers{target="a"} 5\n');
  });

  it('lets a plain body go once no scrape asked for it in PLAIN_BODY_IDLE_MS, and keeps it for a scraper that keeps asking', () => {
    const { time, snapshot, scrape } = scrapedByHand();
    const plainAfter = (ms: number, value: number) => scrape(value, ms);
    // A scraper without gzip every 15 s: each body is written into the last one's memory.
    const first = plainAfter(0, 1);
    const kept = plainAfter(15_000, 2);
    expect(kept.buffer).toBe(first.buffer);
    // An operator's curl, then only gzip scrapes: the first after the idle span lets the plain body go.
    time.nowMs += PLAIN_BODY_IDLE_MS - 1_000;
    snapshot.serve('text', true);
    expect(plainAfter(0, 3).buffer).toBe(first.buffer);
    time.nowMs += PLAIN_BODY_IDLE_MS;
    snapshot.serve('text', true);
    const renewed = plainAfter(0, 4);
    expect(renewed.buffer).not.toBe(first.buffer);
    expect(renewed.toString()).toContain('avaxmon_node_peers{target="a"} 4\n');
  });

  describe('a gzip scrape at a cadence', () => {
    /** A fleet of `targets` whose every peers slice moves at each step; gzip scrapes every `intervalMs` on a manual clock. */
    function fleetScrapedEvery(intervalMs: number, targets = 50) {
      const clock = new ManualClock();
      const snapshot = new MetricsSnapshot(allMetrics, { clock });
      let value = 0;
      const move = () => {
        value += 1;
        for (let index = 0; index < targets; index++) snapshot.setSlice(`t${index}/peers`, peers(`t${index}`, value));
        return value;
      };
      const scrape = () => {
        const members = gzipMembers(snapshot.serve('text', true));
        expect(members).toHaveLength(1);
        return members[0].toString();
      };
      let assemblies = 0;
      snapshot.beforeServe(() => (assemblies += 1));
      return { clock, snapshot, move, scrape, assemblies: () => assemblies, intervalMs };
    }

    it('finds its body assembled shortly before it, with every change up to then, once per scrape', async () => {
      for (const intervalMs of [2_000, 15_000]) {
        const { clock, move, scrape, assemblies } = fleetScrapedEvery(intervalMs);
        // The same interval twice is a cadence.
        for (let scrapes = 0; scrapes < 3; scrapes++) {
          if (scrapes > 0) await clock.advance(intervalMs);
          move();
          scrape();
        }
        const before = assemblies();
        // Changes all through the interval: every target, every 100 ms.
        let lastBeforePrepare = 0;
        for (let ms = 0; ms < intervalMs; ms += 100) {
          await clock.advance(100);
          const moved = move();
          // The prepare fires before the move made at its own moment.
          if (ms + 100 < intervalMs - prepareLeadMs(0)) lastBeforePrepare = moved;
        }
        // One assembly since the last scrape, ahead of this one: the scrape itself assembled nothing.
        expect(assemblies() - before).toBe(1);
        const body = scrape();
        expect(assemblies() - before).toBe(1);
        for (let index = 0; index < 50; index++) expect(body).toContain(`avaxmon_node_peers{target="t${index}"} ${lastBeforePrepare}\n`);
      }
    });

    it('sends a body found unchanged before it without looking again', async () => {
      const { clock, move, scrape, assemblies } = fleetScrapedEvery(15_000);
      move();
      for (let scrapes = 0; scrapes < 3; scrapes++) {
        scrape();
        await clock.advance(15_000);
      }
      const before = assemblies();
      scrape();
      expect(assemblies()).toBe(before);
    });

    it('gets a body assembled now when it comes later than a prepared body may be old', async () => {
      const { clock, move, scrape } = fleetScrapedEvery(15_000);
      for (let scrapes = 0; scrapes < 3; scrapes++) {
        move();
        scrape();
        await clock.advance(15_000);
      }
      // The body was prepared for 15 s after the last scrape; this one comes 3 s after that.
      await clock.advance(MAX_PREPARED_AGE_MS - prepareLeadMs(0) + 500);
      const newest = move();
      expect(scrape()).toContain(`avaxmon_node_peers{target="t0"} ${newest}\n`);
    });

    it('is served a prepared body at most MAX_PREPARED_AGE_MS old, whenever it comes', async () => {
      const { clock, move, scrape } = fleetScrapedEvery(15_000, 1);
      for (let scrapes = 0; scrapes < 3; scrapes++) {
        if (scrapes > 0) await clock.advance(15_000);
        move();
        scrape();
      }
      // Scrapes from 2 s early to 4 s late, each moving the slice just before: what the body holds is
      // never older than MAX_PREPARED_AGE_MS.
      const changedAt = new Map<number, number>();
      let nextScrapeMs = clock.now() + 15_000;
      for (const offsetMs of [-2_000, -600, 0, 700, 1_500, 2_400, 4_000]) {
        const scrapeAtMs = nextScrapeMs + offsetMs;
        while (clock.now() < scrapeAtMs) {
          await clock.advance(100);
          changedAt.set(move(), clock.now());
        }
        const value = Number(/avaxmon_node_peers\{target="t0"\} (\d+)/.exec(scrape())![1]);
        expect(clock.now() - changedAt.get(value)!).toBeLessThan(MAX_PREPARED_AGE_MS);
        nextScrapeMs = scrapeAtMs + 15_000;
      }
    });
  });
});
