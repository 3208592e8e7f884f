// CPU seconds and RSS of a process from /proc, for the benchmarks that watch the daemon from outside.
import { readFileSync } from 'node:fs';

const CLK_TCK = 100;

/** User plus system CPU seconds the process has used so far. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** Resident set size in MB. */
export function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

/** Average cores and peak RSS of `pid` over about `seconds`, sampled every second. */
export async function watch(pid, seconds, onSecond = async () => {}) {
  const before = cpuSeconds(pid);
  const startedMs = performance.now();
  let rssMax = 0;
  for (let second = 0; second < seconds; second++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rssMax = Math.max(rssMax, rssMb(pid));
    await onSecond(second);
  }
  // Over the time that really passed: a slow onSecond (a scrape) stretches the window.
  return { cores: (cpuSeconds(pid) - before) / ((performance.now() - startedMs) / 1000), rssMax };
}
