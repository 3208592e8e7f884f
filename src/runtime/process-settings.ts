/**
 * The daemon's process settings, written once here and applied by the daemon itself, so `npm start`,
 * the `avaxmon` bin, `npm run dev`, the image and the systemd unit all run the same process
 * (docs/decisions.md#process-settings has what each one was measured to save):
 * - glibc: two malloc arenas and the heap trimmed past 64 KiB, so memory a burst of upstream bodies
 *   took goes back to the system. Socket buffers stay in glibc's heap: in mappings of their own
 *   (a mmap threshold) each read cost its page faults
 *   (docs/decisions.md#glibc-arenas-and-trim-threshold-and---expose-gc);
 * - V8: gc() exposed, so the memory of bodies refused as too large is handed back after an attack;
 *   the old generation may grow to 1.25 times what the last full collection left, not V8's up to 4
 *   times (docs/decisions.md#v8s-old-generation-grown-by-25-); the young generation is pinned at
 *   8 MiB semi-spaces (Node 22's default is 16, Node 24's more): less memory for about the same CPU,
 *   now that the collection cap narrows on a saturated core
 *   (docs/decisions.md#v8s-young-generation-pinned-at-8-mib-semi-spaces).
 *   No allocation-site pretenuring: V8 took the code that builds the samples of an evaluation and
 *   parses bodies for long-lived and allocated them straight into the old generation, whose full
 *   collections then took much of a large daemon's CPU (docs/decisions.md#no-allocation-site-pretenuring).
 * glibc reads its settings when the process starts, so the daemon re-executes itself with them once
 * (same process id: supervisors, PID 1 in the image and signals see nothing).
 */
export const PROCESS_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '65536',
};
export const NODE_FLAGS: readonly string[] = [
  '--expose-gc',
  '--heap-growing-percent=25',
  '--max-semi-space-size=8',
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
