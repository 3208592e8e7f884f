// What V8's scavenges promoted into the old generation, read from a process's `--trace-gc-nvp`
// output: every full collection marks what was promoted since the last one, so the bytes promoted
// per upstream request steer the collector's CPU more than the bytes allocated. Steadier between
// runs than the CPU ratio on a noisy machine.
import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** The trace file's length now: where a measuring window starts or ends. */
export function traceOffset(file) {
  return statSync(file).size;
}

/**
 * The bytes promoted and the scavenges counted in the trace between two offsets, and the bytes
 * promoted in each 10 s of it (by the trace's own times): the median 10 s is the steady state,
 * apart from the bursts of tens of MB in 10 s that a window catches or not.
 */
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
  const tens = new Map();
  for (const line of bytes.toString('latin1').split('\n')) {
    if (!/\bgc=s\b/.test(line)) continue;
    const bytesPromoted = Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0);
    const ten = Math.floor(Number(/\s(\d+) ms:/.exec(line)?.[1] ?? 0) / 10_000);
    scavenges += 1;
    promoted += bytesPromoted;
    tens.set(ten, (tens.get(ten) ?? 0) + bytesPromoted);
  }
  // The median is of the whole 10 s: the first and last are cut by the window. The most is of
  // all, for a cut one may hold a burst.
  const all = [...tens.keys()].sort((a, b) => a - b).map((ten) => tens.get(ten));
  const whole = all.slice(1, -1).sort((a, b) => a - b);
  return { promoted, scavenges, medianPer10s: whole[Math.floor((whole.length - 1) / 2)] ?? 0, mostPer10s: Math.max(0, ...all) };
}
