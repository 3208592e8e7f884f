import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LONG_PROCESS_TESTS } from './parts.js';

const TEST_DIR = new URL('.', import.meta.url).pathname;

/**
 * Starts the process part's long files first (test/parts.ts), in their listed order, then the rest
 * as vitest orders them. A fresh checkout has no recorded durations, and vitest then starts the
 * largest files first: a file that waits minutes of real time but is short to read would start
 * last and end the part alone.
 */
export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = LONG_PROCESS_TESTS.indexOf(relative(TEST_DIR, spec.moduleId));
      return index === -1 ? LONG_PROCESS_TESTS.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
