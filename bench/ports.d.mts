/** A loopback port that was free a moment ago, below Linux's ephemeral range (see ports.mjs). */
export function freePort(): Promise<number>;
