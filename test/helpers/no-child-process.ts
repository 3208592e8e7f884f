// Setup file of the unit part (vitest.config.ts): a unit test starts no process. Every child process
// a test file starts, through any child_process function, fails the test that was running with the
// way out: list the file among PROCESS_TESTS in test/parts.ts, or start no process.
import childProcess from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach } from 'vitest';

const STARTED = Symbol.for('avaxmon.unit.startedProcesses');
const SYNC_STARTERS = ['spawnSync', 'execSync', 'execFileSync'] as const;

type Global = typeof globalThis & { [STARTED]?: Array<childProcess.ChildProcess | string> };
const global = globalThis as Global;

// Test files share a fork (isolate: false), so the watch is set once per fork and emptied per file.
if (!global[STARTED]) {
  const started: Array<childProcess.ChildProcess | string> = [];
  global[STARTED] = started;
  // Every asynchronous start (spawn, exec, execFile, fork) makes a ChildProcess, announced here.
  subscribe('child_process', (message) => {
    started.push((message as { process: childProcess.ChildProcess }).process);
  });
  // The synchronous ones make none, so they are wrapped; the named ESM imports follow the module's object.
  const starters = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of SYNC_STARTERS) {
    const original = starters[name]!;
    starters[name] = (...args: unknown[]) => {
      started.push(`${name} ${String(args[0])}`);
      return original(...args);
    };
  }
  syncBuiltinESMExports();
}

// This file runs again before each test file: what an earlier file started is not this one's.
const started = global[STARTED];
started.length = 0;

afterEach(() => {
  if (started.length === 0) return;
  const what = started
    .splice(0)
    .map((entry) => (typeof entry === 'string' ? entry : entry.spawnargs.join(' ')))
    .join('; ');
  throw new Error(`a unit test started a child process (${what}): list this file among PROCESS_TESTS in test/parts.ts`);
});
