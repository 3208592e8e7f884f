import { performance } from 'node:perf_hooks';

/** The event loop's utilization (0 to 1) between two calls of the returned function, from Node's own accounting. */
export function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const since = performance.eventLoopUtilization(last);
    last = performance.eventLoopUtilization();
    return since.utilization;
  };
}
