import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/runtime/log.js';
import { catalogue } from '../../src/metrics/catalogue/index.js';
import { MIN_GOVERNED_CAP } from '../../src/schedule/concurrency-governor.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { fullConfig } from '../helpers/full-config.js';
import { captureStream, parseExposition } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';

/** Everything switched on: every collector's real samples must match the catalogue they claim. */
describe('every exported sample, with every collector on', () => {
  let sim: Simulator;
  let daemon: Daemon;
  beforeAll(async () => {
    sim = await startSimulator();
    daemon = new Daemon({ config: fullConfig(sim.url), logger: createLogger('error', 'json', captureStream([])) });
    await daemon.start();
  });
  afterAll(async () => {
    await daemon.stop();
    await sim.close();
  });

  // From the exposition: the snapshot keeps only the samples its alert rules read.
  const exported = () => parseExposition(daemon.snapshot.body('text', false).toString());

  it('has a catalogue name and exactly the catalogue labels', () => {
    const samples = exported();
    expect(new Set(samples.map((sample) => sample.name)).size).toBeGreaterThan(80);
    const mismatches = samples
      .filter((sample) => {
        const desc = catalogue.get(sample.name);
        return !desc || [...desc.labels].sort().join(',') !== Object.keys(sample.labels).sort().join(',');
      })
      .map((sample) => `${sample.name}{${Object.keys(sample.labels).join(',')}}`);
    expect([...new Set(mismatches)]).toEqual([]);
  });

  it('exports the collection cap in force, between the governor floor and the configured cap', () => {
    const cap = exported().find((sample) => sample.name === 'avaxmon_collection_concurrency_limit');
    // From the floor it starts at to the configured cap, as busy as this test's own process was.
    expect(cap?.value).toBeLessThanOrEqual(daemon.config.global.max_concurrent_collections);
    expect(cap?.value).toBeGreaterThanOrEqual(MIN_GOVERNED_CAP);
  });

  it('has no duplicate series', () => {
    const keys = exported().map((sample) => `${sample.name}${JSON.stringify(sample.labels)}`);
    expect(keys.length - new Set(keys).size).toBe(0);
  });

  it.skipIf(!requireTool('/usr/bin/promtool', 'prometheus'))('passes promtool check metrics', () => {
    const result = spawnSync('/usr/bin/promtool', ['check', 'metrics'], { input: daemon.snapshot.body('text', false), encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
