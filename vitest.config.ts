import { defineConfig } from 'vitest/config';
import { LongFirstSequencer } from './test/long-first-sequencer.js';
import { PROCESS_TESTS } from './test/parts.js';

const ALL = 'test/**/*.test.ts';
const processTests = PROCESS_TESTS.map((file) => `test/${file}`);

export default defineConfig({
  test: {
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
    sequence: { sequencer: LongFirstSequencer },
    // The two parts of test/parts.ts: `vitest run --project unit` or `--project process`.
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: [ALL], exclude: processTests, setupFiles: ['test/helpers/no-child-process.ts'] },
      },
      // A process test waits on processes that a busy machine slows down: on conditions with generous
      // caps, inside a test timeout that holds them (docs/extending.md, "Waiting in a test").
      {
        extends: true,
        test: {
          name: 'process',
          include: processTests,
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Three forks: the long files wait minutes of real time (test/parts.ts's LONG_PROCESS_TESTS)
          // with a core mostly idle, and the short ones run beside them. A maxWorkers of its own
          // needs a groupOrder of its own, for a run that takes files of both parts.
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
