import { afterEach, describe, expect, it } from 'vitest';
import { createPeersCollector } from '../../src/collectors/peers.js';
import { series, startHarness, value, type Harness } from './chain-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('peers collector', () => {
  it('normalises peer versions and puts an unparseable one in "other", so peers cannot mint label values', async () => {
    harness = await startHarness('', { peers: 5 });
    harness.sim.apply({ set_peer_version: { peer: 0, version: '<script>alert(1)</script>' } });
    harness.sim.apply({ set_peer_version: { peer: 1, version: 'avalanchego/1.13.5-rc.2 patched by me' } });
    const samples = await harness.run(createPeersCollector());
    const versions = series(samples, 'avaxmon_node_peers_by_version').map((sample) => sample.labels.version);
    expect(versions.every((version) => version === 'other' || /^avalanchego\/\d+\.\d+\.\d+$/.test(version))).toBe(true);
    expect(value(samples, 'avaxmon_node_peers_by_version', { version: 'other' })).toBe(1);
    expect(series(samples, 'avaxmon_node_peers_by_version').reduce((sum, sample) => sum + sample.value, 0)).toBe(5);
    expect(value(samples, 'avaxmon_node_peers_by_version', { version: 'avalanchego/1.13.5' })).toBe(2);
  });
});
