import { HttpClient } from '../clients/http.js';
import { PublicApiJobs } from '../collectors/public/index.js';
import { nodeSliceRun, runSlice, type SliceRun } from '../collectors/run-collector.js';
import type { Config } from '../config/schema.js';
import { transportsOf } from '../config/transports.js';
import { createLogger, fdDestination } from '../runtime/log.js';
import { allMetrics } from '../metrics/catalogue/index.js';
import { assemble, renderSamples } from '../metrics/exposition.js';
import { SelfMetrics } from '../metrics/self-metrics.js';
import { MetricsSnapshot } from '../metrics/snapshot.js';
import { TargetRuntimes } from '../daemon/target-runtimes.js';
import { logReachability } from '../daemon/target-reachability-log.js';
import { REVISION, VERSION } from '../runtime/version.js';
import type { CliOptions } from './args.js';
import { UsageError } from './args.js';

/**
 * `avaxmon collect --config.file=F [--target NAME]`: every collector of the config (or of one
 * target) once, like one scrape of node_exporter. The exposition goes to stdout, the log to stderr:
 * one line per failed collector, or one per target that cannot be reached at all. The exit code is
 * 1 when any collector failed.
 */
export async function runCollectCommand(config: Config, options: CliOptions): Promise<number> {
  const runs = selectRuns(config, options.values.target as string | undefined);
  const logger = createLogger(options.logLevel, 'json', fdDestination(2));
  const http = new HttpClient({ maxResponseBytes: config.global.max_response_bytes, transports: transportsOf(config) });
  const self = new SelfMetrics({ version: VERSION, revision: REVISION, onReachabilityChange: logReachability(logger) });
  const snapshot = new MetricsSnapshot(allMetrics);
  try {
    const built = runs(http, self);
    const results = await Promise.all(built.map((run) => runSlice(run, { snapshot, self, log: logger }, new AbortController().signal)));
    process.stdout.write(assemble(allMetrics, [renderSamples([...snapshot.samples(), ...self.samples()])], 'text'));
    // Each failure has been logged once: by its collector, or by its target when it could not be reached.
    return results.every((result) => result.success) ? 0 : 1;
  } finally {
    await http.close();
  }
}

type RunBuilder = (http: HttpClient, self: SelfMetrics) => SliceRun[];

/** Every target's collectors and the public-API jobs; with --target, only that target's collectors. */
function selectRuns(config: Config, targetName: string | undefined): RunBuilder {
  if (targetName === undefined) {
    return (http, self) => [
      ...new TargetRuntimes(http, self).build(config).map(nodeSliceRun),
      ...new PublicApiJobs(http, self).build(config),
    ];
  }
  const target = config.targets.find((candidate) => candidate.name === targetName);
  if (!target) {
    const known = config.targets.map((candidate) => candidate.name).join(', ') || 'none configured';
    throw new UsageError(`--target: no target named "${targetName}" in the config (known: ${known})`);
  }
  return (http, self) => new TargetRuntimes(http, self).forTarget(target, config).map(nodeSliceRun);
}
