// Preloaded into a benchmarked process (NODE_OPTIONS="--import=<this file>") when GC_PROBE_FILE is
// set: every second it writes to that file, as JSON, the garbage collections since start (count, of
// them full ones, milliseconds in pauses) and the bytes allocated on V8's heap (growth of the used
// heap plus what every collection freed), from v8.GCProfiler, and the event loop's busy and idle
// milliseconds (performance.eventLoopUtilization) with the seconds it was at least 90 % busy, and the
// connections undici opened (its diagnostics channel). The benchmark reads it at the start
// and the end of its window. It runs in the process it measures: what it costs is counted too
// (one profiler restart and a small file write a second).
import { subscribe } from 'node:diagnostics_channel';
import { renameSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, GCProfiler } from 'node:v8';

const file = process.env.GC_PROBE_FILE;
if (file) {
  const totals = {
    gcs: 0,
    fullGcs: 0,
    gcMs: 0,
    allocatedBytes: 0,
    loopActiveMs: 0,
    loopIdleMs: 0,
    loopSaturatedSeconds: 0,
    connections: 0,
  };
  subscribe('undici:client:connected', () => totals.connections++);
  let loopBefore = performance.eventLoopUtilization();
  let usedBefore = getHeapStatistics().used_heap_size;
  let profiler = new GCProfiler();
  profiler.start();
  const sample = () => {
    const { statistics } = profiler.stop();
    profiler = new GCProfiler();
    profiler.start();
    for (const gc of statistics) {
      totals.gcs++;
      if (gc.gcType === 'MarkSweepCompact') totals.fullGcs++;
      totals.gcMs += gc.cost / 1000;
      totals.allocatedBytes += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    }
    const usedNow = getHeapStatistics().used_heap_size;
    totals.allocatedBytes += usedNow - usedBefore;
    usedBefore = usedNow;
    const loop = performance.eventLoopUtilization(loopBefore);
    loopBefore = performance.eventLoopUtilization();
    totals.loopActiveMs += loop.active;
    totals.loopIdleMs += loop.idle;
    if (loop.utilization >= 0.9) totals.loopSaturatedSeconds++;
    // Written aside and renamed over: the benchmark reads it at any moment, never half written.
    writeFileSync(`${file}.next`, JSON.stringify({ pid: process.pid, ...totals }));
    renameSync(`${file}.next`, file);
  };
  setInterval(sample, 1000).unref();
}
