import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their fork's module cache: importing the daemon's modules once per fork, not
    // once per file, is most of what a file cost. Tests hold no module-level state to leak.
    isolate: false,
    // Most files wait on sockets and child processes, not the CPU: two forks keep both cores busy
    // (vitest's default on 2 cores is one).
    maxWorkers: 2,
    reporters: ['default'],
  },
});
