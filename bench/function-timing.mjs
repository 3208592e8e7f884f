// Preloaded into the daemon by bench/fleet-real.mjs with FUNCTION_TIMING=1 (NODE_OPTIONS="--import=<this
// file>", FUNCTION_TIMING_FILE set): wraps the synchronous functions where the daemon's own work
// happens (assembling a scrape's body, rendering a run's slices, evaluating rules, starting runs)
// and writes, every second, each one's calls and the milliseconds spent in them since start to
// that file, as JSON. The benchmark reads it at the start and the end of its window. A CPU profile
// samples a loaded core unevenly; these are the functions' own spans, exact to the call. They are
// wall time: on the daemon's one core, they include what V8's worker threads took from it meanwhile.
// A function renamed in the source fails the daemon's start here, loudly, rather than time nothing.
import { writeFileSync, renameSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const file = process.env.FUNCTION_TIMING_FILE;
// The daemon re-executes itself with its process settings: the process measured is the second.
if (file && process.env.AVAXMON_PROCESS_SETTINGS !== undefined) {
  const dist = new URL('../dist/', import.meta.url);
  const load = (path) => import(new URL(path, dist).href);
  const { MetricsSnapshot } = await load('metrics/snapshot.js');
  const { GzipGroups } = await load('metrics/gzip-groups.js');
  const { DeflateWriter } = await load('metrics/deflate-writer.js');
  const { Daemon } = await load('daemon/daemon.js');
  const { Scheduler } = await load('schedule/scheduler.js');
  const { HttpClient } = await load('clients/http.js');
  const { EvaluationSchedule } = await load('alerts/evaluation-schedule.js');
  /** What is timed, by the label the report shows, in the order it shows them. */
  const timed = [
    ['scrape: a body assembled', MetricsSnapshot, 'currentOrAssemble'],
    ['  of it: request counts rendered', Daemon, 'publishRequestCounts'],
    ['  of it: gzip groups written and compressed', GzipGroups, 'assemble'],
    ['    of it: deflate', DeflateWriter, 'closePart'],
    ['runs started (undici sends; some answers read)', Scheduler, 'fireDueTicks'],
    ['  of it: requests sent', HttpClient, 'send'],
    ["a run's samples rendered", MetricsSnapshot, 'setSlice'],
    ["a run's timings and status rendered", Daemon, 'publishSelfOf'],
    ['rules after a run', EvaluationSchedule, 'afterRun'],
    ['rules: the sweep', EvaluationSchedule, 'sweep'],
    ['rules: fleet-wide', EvaluationSchedule, 'evaluateFleet'],
  ];
  const totals = Object.fromEntries(timed.map(([label]) => [label, { calls: 0, ms: 0 }]));
  for (const [label, type, name] of timed) {
    const original = type.prototype[name];
    if (typeof original !== 'function') throw new Error(`function-timing: ${type.name}.${name} is not a function any more`);
    const total = totals[label];
    type.prototype[name] = function timedCall(...args) {
      const startedMs = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        total.ms += performance.now() - startedMs;
        total.calls += 1;
      }
    };
  }
  setInterval(() => {
    writeFileSync(`${file}.tmp`, JSON.stringify(totals));
    renameSync(`${file}.tmp`, file);
  }, 1000).unref();
}
