// What V8's scavenges promoted into the old generation, read from a process's `--trace-gc-nvp`
// output: every full collection marks what was promoted since the last one, so the bytes promoted
// per upstream request steer the collector's CPU more than the bytes allocated. Steadier between
// runs than the CPU ratio on a noisy machine.
import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** The trace file's length now: where a measuring window starts or ends. */
export function traceOffset(file) {
  return statSync(file).size;
}

/** The bytes promoted and the scavenges counted in the trace between two offsets. */
export function promotedBetween(file, start, end) {
  const bytes = Buffer.alloc(end - start);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, bytes, 0, bytes.length, start);
  } finally {
    closeSync(fd);
  }
  let promoted = 0;
  let scavenges = 0;
  for (const line of bytes.toString('latin1').split('\n')) {
    if (!/\bgc=s\b/.test(line)) continue;
    scavenges += 1;
    promoted += Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0);
  }
  return { promoted, scavenges };
}
