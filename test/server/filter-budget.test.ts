import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledPrograms } from '../../src/alerts/matchers/linear-regex.js';
import { FilterBudget } from '../../src/server/filter-budget.js';
import { startStack, type Stack } from '../helpers/stack.js';

/** `filter=` as an anonymous client sends it: each fresh regex costs a compile, so each client pays for its own. */

const stacks: Stack[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
});

async function alertingStack(): Promise<Stack> {
  const stack = await startStack({ extraYaml: `alerts:\n  state_dir: ${mkdtempSync(join(tmpdir(), 'avaxmon-filter-'))}\n` });
  stacks.push(stack);
  return stack;
}

const get = (stack: Stack, url: string, remoteAddress = '127.0.0.1') =>
  stack.daemon.app.inject({ method: 'GET', url, remoteAddress, headers: { host: '127.0.0.1:9683' } });

const query = (patterns: string[]) => patterns.map((pattern) => `filter=${encodeURIComponent(`alertname=~"${pattern}"`)}`).join('&');

describe('filter= is paid for', () => {
  it('compiles a filter pattern once for every request that sends it again', async () => {
    const stack = await alertingStack();
    const url = `/api/v2/alerts?${query(['(Avalanche|Avaxmon)Node[A-Z].*', 'x(a|b)+'])}`;
    expect((await get(stack, url)).statusCode).toBe(200);
    const compiled = compiledPrograms();
    for (let round = 0; round < 10; round++) expect((await get(stack, url)).statusCode).toBe(200);
    expect((await get(stack, `/api/v2/silences?${query(['(Avalanche|Avaxmon)Node[A-Z].*'])}`)).statusCode).toBe(200);
    expect(compiledPrograms()).toBe(compiled);
  });

  it('answers 400 naming the pattern past 128 instructions a pattern or 512 a request', async () => {
    const stack = await alertingStack();
    const tooComplex = await get(stack, `/api/v2/alerts?${query(['(.*x){30}'])}`);
    expect(tooComplex.statusCode).toBe(400);
    expect(tooComplex.json()).toMatch(/filter: "\(\.\*x\)\{30\}" is too complex .* at most 128/);
    const tooMany = await get(stack, `/api/v2/silences?${query([0, 1, 2, 3, 4].map((index) => `(.*x){23}${index}`))}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatch(/brings the request's new patterns past 512 RE2 instructions/);
  });

  it('answers 429 with Retry-After (a second late) to a client flooding fresh patterns, and keeps serving other clients and /-/healthy', async () => {
    const stack = await alertingStack();
    let flooded: Awaited<ReturnType<typeof get>> | undefined;
    for (let request = 0; request < 3_000 && !flooded; request++) {
      const patterns = Array.from({ length: 32 }, (_, index) => `f${request}x${index}(a|b)[0-9]+`);
      const answer = await get(stack, `/api/v2/alerts?${query(patterns)}`);
      if (answer.statusCode === 429) flooded = answer;
      else expect(answer.statusCode).toBe(200);
    }
    expect(flooded?.statusCode).toBe(429);
    expect(Number(flooded?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(flooded?.json()).toContain('filtering budget');
    expect((await get(stack, `/api/v2/alerts?${query(['other(a|b)[0-9]+'])}`, '10.1.2.3')).statusCode).toBe(200);
    expect((await get(stack, '/api/v2/alerts')).statusCode).toBe(200);
    expect((await get(stack, '/-/healthy')).statusCode).toBe(200);
  });

  // Node before 22.19 has no per-thread CPU time: the budget falls back on the process's there.
  it.skipIf(typeof process.threadCpuUsage !== 'function')(
    "charges a request the event loop's CPU, not what the process's other threads spend meanwhile",
    async () => {
      // Two threads burning beside the request stand in for the GC and I/O threads of a daemon on a busy machine.
      const burners = await Promise.all([0, 1].map(() => startBurner()));
      try {
        const budget = new FilterBudget();
        const outcome = await budget.run('127.0.0.1', ['alertname="x"'], (_filter, deadline) => {
          const started = threadCpuMs();
          while (threadCpuMs() - started < 12) {}
          deadline.check();
          return 'matched';
        });
        expect(outcome).toBe('matched');
      } finally {
        await Promise.all(burners.map((burner) => burner.terminate()));
      }
    },
  );
});

async function startBurner(): Promise<Worker> {
  const burner = new Worker('for (;;) {}', { eval: true });
  await once(burner, 'online');
  return burner;
}

function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

describe('the silence listing', () => {
  it('is rendered once per change and follows every change: a new silence, an expiry', async () => {
    const stack = await alertingStack();
    const list = async () => (await get(stack, '/api/v2/silences')).json() as Promise<Array<{ id: string; status: { state: string } }>>;
    expect(await list()).toEqual([]);
    const posted = await stack.daemon.app.inject({
      method: 'POST',
      url: '/api/v2/silences',
      remoteAddress: '127.0.0.1',
      headers: { host: '127.0.0.1:9683', 'content-type': 'application/json' },
      payload: JSON.stringify({
        matchers: [{ name: 'target', value: 'node-a', isRegex: false }],
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        createdBy: 'ops',
        comment: 'listing',
      }),
    });
    const id = posted.json().silenceID as string;
    expect((await list()).map((silence) => [silence.id, silence.status.state])).toEqual([[id, 'active']]);
    expect((await get(stack, '/api/v2/silences')).body).toBe((await get(stack, '/api/v2/silences')).body);
    stack.daemon.alerting!.silences.expire(id);
    expect((await list()).map((silence) => [silence.id, silence.status.state])).toEqual([[id, 'expired']]);
  });
});
