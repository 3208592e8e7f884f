import { Writable } from 'node:stream';
import { parseConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/runtime/log.js';
import type { WebOptions } from '../../src/server/web-config.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';
import { countingCollectors, type CountingCollectors } from './counting-collectors.js';
import { ManualClock } from './manual-clock.js';
import { until } from './until.js';

export interface Stack {
  readonly sim: Simulator;
  readonly daemon: Daemon;
  readonly url: string;
  readonly logs: string[];
  /** With `manualTime`: the daemon's schedule and alert evaluations move only when the test moves them. */
  readonly time?: ManualTime;
  close(): Promise<void>;
}

/** Moves a stack's manual clock in half-second steps, each followed by the real work it set off. */
export interface ManualTime {
  readonly clock: ManualClock;
  readonly runs: CountingCollectors;
  /** Moves `ms` on, letting after each step every run end and the alert outbox empty. */
  advance(ms: number): Promise<void>;
  /** Moves on step by step until `condition` holds; throws after `maxMs`. */
  advanceUntil(condition: () => boolean, maxMs?: number): Promise<void>;
  /** Like eventually(), for state that changes with collection runs: steps the clock between probes. */
  eventually<T>(probe: () => Promise<T>, check: (value: T) => boolean, maxMs?: number): Promise<T>;
}

const STEP_MS = 500;

function manualTime(): ManualTime & { attach(daemon: Daemon): void } {
  const clock = new ManualClock();
  const runs = countingCollectors();
  let daemon: Daemon | undefined;
  const step = async () => {
    await clock.advance(STEP_MS);
    await until(() => runs.running() === 0 && (daemon?.alerting?.outbox.depth ?? 0) === 0);
  };
  const eventually = async <T>(probe: () => Promise<T>, check: (value: T) => boolean, maxMs = 10_000): Promise<T> => {
    let last = await probe();
    for (let elapsedMs = 0; !check(last); elapsedMs += STEP_MS) {
      if (elapsedMs >= maxMs)
        throw new Error(`condition not met within ${maxMs} ms of manual time; last value: ${JSON.stringify(last)?.slice(0, 500)}`);
      await step();
      last = await probe();
    }
    return last;
  };
  return {
    clock,
    runs,
    attach: (attached) => void (daemon = attached),
    async advance(ms) {
      for (let elapsedMs = 0; elapsedMs < ms; elapsedMs += STEP_MS) await step();
    },
    async advanceUntil(condition, maxMs) {
      await eventually(
        async () => condition(),
        (holds) => holds,
        maxMs,
      );
    },
    eventually,
  };
}

/** A simulator plus a daemon scraping it, both on loopback ports chosen by the OS. */
export async function startStack(
  options: {
    sim?: SimulatorOptions;
    targetUrl?: string;
    targetYaml?: string;
    globalYaml?: string;
    extraYaml?: string;
    env?: NodeJS.ProcessEnv;
    manualTime?: boolean;
    web?: WebOptions;
  } = {},
): Promise<Stack> {
  const sim = await startSimulator(options.sim);
  const config = parseConfig(
    `
global: ${options.globalYaml ?? '{ interval: 1s, timeout: 800ms }'}
targets:
  - name: node-a
    url: ${options.targetUrl ?? sim.url}
${(options.targetYaml ?? '').replace(/^/gm, '    ')}
${options.extraYaml ?? ''}
`,
    { env: options.env ?? process.env },
  );
  const logs: string[] = [];
  const logger = createLogger('debug', 'json', captureStream(logs));
  const time = options.manualTime ? manualTime() : undefined;
  const daemon = new Daemon({
    config,
    logger,
    web: options.web,
    ...(time && { clock: time.clock, collectorRegistry: time.runs.registry }),
  });
  time?.attach(daemon);
  await daemon.app.listen({ host: '127.0.0.1', port: 0 });
  const address = daemon.app.server.address() as { port: number };
  const started = daemon.start();
  await time?.advance(STEP_MS); // the first round is spread over 40 ms per collector
  await started;
  return {
    sim,
    daemon,
    url: `http://127.0.0.1:${address.port}`,
    logs,
    time,
    async close() {
      await daemon.app.close();
      await (time ? time.clock.runUntil(daemon.stop()) : daemon.stop());
      await sim.close();
    },
  };
}

export function captureStream(lines: string[]): Writable & { write(line: string): boolean } {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
}

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format well enough for assertions. */
export function parseExposition(text: string): ParsedSample[] {
  const samples: ParsedSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`unparseable line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key] = value.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: match[1], labels, value: Number(match[3].replace('+Inf', 'Infinity')) });
  }
  return samples;
}

export async function scrape(url: string): Promise<ParsedSample[]> {
  const response = await fetch(`${url}/metrics`);
  return parseExposition(await response.text());
}

export function find(samples: ParsedSample[], name: string, labels: Record<string, string> = {}): ParsedSample[] {
  return samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}

export function valueOf(samples: ParsedSample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const matches = find(samples, name, labels);
  if (matches.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${matches.length} series`);
  return matches[0]?.value;
}

/** Polls until the predicate holds, for state that changes on the next collection run. */
export async function eventually<T>(probe: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await probe();
  while (!check(last)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs}ms; last value: ${JSON.stringify(last)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await probe();
  }
  return last;
}
