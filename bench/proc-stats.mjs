// CPU seconds and RSS of a process from /proc, for the benchmarks that watch the daemon from outside.
import { readdirSync, readFileSync } from 'node:fs';

const CLK_TCK = 100;

/** The fields of /proc/PID/stat after the command's name. */
function statFields(pid) {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
}

/** User plus system CPU seconds the process has used so far. */
export function cpuSeconds(pid) {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** The main thread's user and system CPU seconds so far: its JavaScript, and the system calls it makes (sockets). */
function mainThreadSeconds(pid) {
  const fields = statFields(`${pid}/task/${pid}`);
  return { user: Number(fields[11]) / CLK_TCK, system: Number(fields[12]) / CLK_TCK };
}

/** Minor page faults so far: memory the process touched for the first time since the system mapped it. */
function minorFaults(pid) {
  return Number(statFields(pid)[7]);
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

/**
 * Average cores, the main thread's user and system cores, the share of them V8's worker threads took, minor page faults a second and peak RSS of `pid` over `seconds` of
 * real time, its RSS sampled every second (a watcher busy with other work samples less often, but
 * the window stays as long).
 */
export async function watch(pid, seconds) {
  const before = cpuSeconds(pid);
  const workersBefore = v8WorkerCpuSeconds(pid);
  const faultsBefore = minorFaults(pid);
  const mainBefore = mainThreadSeconds(pid);
  const startedMs = performance.now();
  let rssMax = 0;
  for (let elapsedMs = 0; elapsedMs < seconds * 1000; elapsedMs = performance.now() - startedMs) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, seconds * 1000 - elapsedMs)));
    rssMax = Math.max(rssMax, rssMb(pid));
  }
  const used = cpuSeconds(pid) - before;
  const v8WorkerShare = used > 0 ? (v8WorkerCpuSeconds(pid) - workersBefore) / used : 0;
  const elapsedS = (performance.now() - startedMs) / 1000;
  const mainAfter = mainThreadSeconds(pid);
  const mainThread = { user: (mainAfter.user - mainBefore.user) / elapsedS, system: (mainAfter.system - mainBefore.system) / elapsedS };
  return { cores: used / elapsedS, mainThread, v8WorkerShare, rssMax, faultsPerS: (minorFaults(pid) - faultsBefore) / elapsedS };
}
