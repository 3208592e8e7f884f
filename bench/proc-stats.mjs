// CPU seconds and RSS of a process from /proc, for the benchmarks that watch the daemon from outside.
import { readdirSync, readFileSync } from 'node:fs';

const CLK_TCK = 100;

/** User plus system CPU seconds the process has used so far. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/**
 * CPU seconds of V8's worker threads so far: the process's threads but the main one and libuv's
 * pool. They do the garbage collector's concurrent marking and sweeping (and compiling), which
 * the main thread's GC pauses leave out.
 */
export function v8WorkerCpuSeconds(pid) {
  let seconds = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (tid === String(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').startsWith('libuv')) continue;
      seconds += cpuSeconds(`${pid}/task/${tid}`);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return seconds;
}

/** Resident set size in MB. */
export function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

/** Average cores, the share of them V8's worker threads took, and peak RSS of `pid` over about `seconds`, sampled every second. */
export async function watch(pid, seconds, onSecond = async () => {}) {
  const before = cpuSeconds(pid);
  const workersBefore = v8WorkerCpuSeconds(pid);
  const startedMs = performance.now();
  let rssMax = 0;
  for (let second = 0; second < seconds; second++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rssMax = Math.max(rssMax, rssMb(pid));
    await onSecond(second);
  }
  const used = cpuSeconds(pid) - before;
  const v8WorkerShare = used > 0 ? (v8WorkerCpuSeconds(pid) - workersBefore) / used : 0;
  // Over the time that really passed: a slow onSecond (a scrape) stretches the window.
  return { cores: used / ((performance.now() - startedMs) / 1000), v8WorkerShare, rssMax };
}
