import { HttpClient } from '../../src/clients/http.js';
import { PublicApiJobs } from '../../src/collectors/public/index.js';
import { runSlice, type RunResult } from '../../src/collectors/run-collector.js';
import { parseConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/runtime/log.js';
import { allMetrics } from '../../src/metrics/catalogue/index.js';
import type { Sample } from '../../src/metrics/metric-desc.js';
import { SelfMetrics } from '../../src/metrics/self-metrics.js';
import { MetricsSnapshot } from '../../src/metrics/snapshot.js';
import { publicApiWorld, type SimApiRequest } from '../../src/simulator/rest/public-api-world.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { captureStream } from '../helpers/stack.js';

/**
 * A simulator plus the public-API jobs as the daemon builds them, run one at a time with the
 * daemon's runner, so a test controls exactly when each run happens.
 */
export interface PublicApiHarness {
  readonly sim: Simulator;
  readonly self: SelfMetrics;
  readonly logs: string[];
  run(job: 'metrics_api' | 'data_api'): Promise<RunResult>;
  samples(job: 'metrics_api' | 'data_api'): Sample[];
  value(name: string, labels?: Record<string, string>): number | undefined;
  requests(api: 'metrics' | 'data'): SimApiRequest[];
  selfValue(name: string, labels: Record<string, string>): number | undefined;
  close(): Promise<void>;
}

export async function startPublicApiHarness(yaml: (simUrl: string) => string, env: NodeJS.ProcessEnv = {}): Promise<PublicApiHarness> {
  const sim = await startSimulator();
  const config = parseConfig(yaml(sim.url), { env });
  const http = new HttpClient({ maxResponseBytes: 4 * 1024 * 1024 });
  const self = new SelfMetrics({ version: 'test', revision: 'test' });
  // One snapshot per job, so each job's series can be read on their own.
  const snapshots = { metrics_api: new MetricsSnapshot(allMetrics), data_api: new MetricsSnapshot(allMetrics) };
  const all = () => [...snapshots.metrics_api.samples(), ...snapshots.data_api.samples()];
  const logs: string[] = [];
  const log = createLogger('debug', 'json', captureStream(logs));
  const runs = new PublicApiJobs(http, self).build(config);
  const stop = new AbortController();
  const matches = (sample: Sample, labels: Record<string, string>) =>
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value);
  return {
    sim,
    self,
    logs,
    run: (job) => runSlice(runs.find((run) => run.target === job)!, { snapshot: snapshots[job], self, log }, stop.signal),
    samples: (job) => snapshots[job].samples(),
    value: (name, labels = {}) => all().find((sample) => sample.name === name && matches(sample, labels))?.value,
    requests: (api) => publicApiWorld(sim.state).requests.filter((request) => request.api === api),
    selfValue: (name, labels) => self.samples().find((sample) => sample.name === name && matches(sample, labels))?.value,
    async close() {
      stop.abort();
      await http.close();
      await sim.close();
    },
  };
}
