import { setFlagsFromString } from 'node:v8';

/**
 * Asks V8 to favour a small heap over speed (smaller young generation, lower growth before a full
 * collection), for the daemon only. A fleet's live heap is mostly long-lived slices, so V8's speed
 * defaults double its pages: at 1,000 nodes this takes peak RSS from ~570 MB to ~290 MB for about
 * more CPU, which the launchers' fixed 16 MiB young generation (deploy/memory.env's
 * AVAXMON_NODE_FLAGS) keeps within the one-core budget (docs/performance.md, docs/decisions.md).
 * Set at run time because Node refuses the flag in NODE_OPTIONS; V8 reads it at each heap sizing
 * decision.
 */
export function favourSmallHeap(): void {
  setFlagsFromString('--optimize-for-size');
}
