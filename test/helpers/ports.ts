// One way to pick a port for benchmarks and tests alike: bench/ports.mjs says why it is below the ephemeral range.
export { freePort } from '../../bench/ports.mjs';
