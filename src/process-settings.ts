/**
 * The daemon's process settings, written once here and applied by the daemon itself, so `npm start`,
 * the `avaxmon` bin, `npm run dev`, the image and the systemd unit all run the same process
 * (docs/decisions.md, "process settings", has the measurements):
 * - glibc: two malloc arenas and the heap trimmed past 64 KiB, so memory a burst of upstream bodies
 *   took goes back to the system. Socket buffers stay in glibc's heap: in mappings of their own
 *   (a 16 KiB mmap threshold) each 64 KiB read cost its page faults, which doubled the CPU of a
 *   600 KB peers answer on a VM;
 * - V8: gc() exposed, so the memory of bodies refused as too large is handed back after an attack;
 *   the old generation may grow to 1.4 times what the last full collection left, not V8's up to 4
 *   times: at 100 real-shaped nodes 200 MB instead of 280 for no more CPU, at 1,000 nodes 20 MB
 *   less than 1.5 times for about 5% more CPU. The young generation is Node 22's default, 16 MiB
 *   semi-spaces, pinned: Node 24 (the image's) defaults to 64 MiB, about 100 MB more at 1,000
 *   nodes, and on real-shaped fleets a smaller one cost CPU. No allocation-site
 *   pretenuring: V8 took the code that builds the samples of an evaluation and parses bodies for
 *   long-lived and allocated them straight into the old generation, whose full collections then
 *   took a third of a 1,000-node daemon's CPU.
 * glibc reads its settings when the process starts, so the daemon re-executes itself with them once
 * (same process id: supervisors, PID 1 in the image and signals see nothing).
 */
export const PROCESS_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '65536',
};
export const NODE_FLAGS: readonly string[] = [
  '--expose-gc',
  '--heap-growing-percent=40',
  '--max-semi-space-size=16',
  '--no-allocation-site-pretenuring',
];

/** Set on the re-executed process; `off` runs without the settings (for a comparison benchmark). */
const APPLIED = 'AVAXMON_PROCESS_SETTINGS';

/** Re-executes this process with the settings unless they are applied already, turned off, or execve is missing (Node before 22.15). */
export function applyProcessSettings(): void {
  if (process.env[APPLIED] !== undefined || typeof process.execve !== 'function') return;
  const args = [...NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, [process.execPath, ...args], { ...process.env, ...PROCESS_ENV, [APPLIED]: 'applied' });
}
