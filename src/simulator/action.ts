import type { SimState } from './state.js';

/** A scenario step's effect on the simulated node (see actions.ts). */
export type Action = (state: SimState, argument: unknown, nowMs: number) => void;
