import { setFlagsFromString } from 'node:v8';

/**
 * The daemon's process settings, written once here and applied by the daemon itself, so `npm start`,
 * the `avaxmon` bin, `npm run dev`, the image and the systemd unit all run the same process
 * (docs/decisions.md, "process settings", has the measurements):
 * - glibc: two malloc arenas, blocks of 16 KiB and more in their own mappings and the heap trimmed
 *   past 64 KiB, so memory a burst of upstream bodies took goes back to the system;
 * - V8: a fixed 16 MiB young generation under the small old generation favoured below, and gc()
 *   exposed, so the memory of bodies refused as too large is handed back after an attack.
 * glibc reads its settings at start and V8 its young generation size when the heap is made, so the
 * daemon re-executes itself with them once (same process id: supervisors see nothing).
 */
export const PROCESS_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '16384',
  MALLOC_TRIM_THRESHOLD_: '65536',
};
export const NODE_FLAGS: readonly string[] = ['--min-semi-space-size=16', '--max-semi-space-size=16', '--expose-gc'];

/** Set on the re-executed process; `off` runs without the settings (for a comparison benchmark). */
const APPLIED = 'AVAXMON_PROCESS_SETTINGS';

/**
 * Applies the settings: re-executes this process with them unless they are applied already (or
 * turned off), then favours a small heap. Without execve (Node before 22.15) V8's defaults stay
 * whole: the small heap without its fixed young generation is the costliest combination measured.
 */
export function applyProcessSettings(): void {
  const state = process.env[APPLIED];
  if (state === undefined && typeof process.execve === 'function') {
    const args = [...NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)];
    process.execve(process.execPath, [process.execPath, ...args], { ...process.env, ...PROCESS_ENV, [APPLIED]: 'applied' });
  }
  if (state === 'applied') favourSmallHeap();
}

/**
 * V8 favours a small heap over speed: a fleet's live heap is mostly long-lived slices, so the speed
 * defaults double its pages. Set at run time because Node refuses the flag in NODE_OPTIONS.
 */
function favourSmallHeap(): void {
  setFlagsFromString('--optimize-for-size');
}
