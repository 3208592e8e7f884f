import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

export const PROMETHEUS = '/usr/bin/prometheus';
export const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';
export const CHROMIUM = '/usr/bin/chromium';

export { freePort };

export interface RealSystem {
  readonly url: string;
  readonly dir: string;
  readonly output: () => string;
  stop(): Promise<void>;
  /** kill -9: no shutdown, no last write. */
  kill(): Promise<void>;
}

/**
 * Starts a Prometheus-family binary on a fresh port with its own scratch directory, and resolves
 * when its /-/ready answers 200. `args` gets the directory and the listen address.
 */
export async function startRealSystem(
  binary: string,
  files: Record<string, string>,
  args: (dir: string, listen: string) => string[],
): Promise<RealSystem> {
  const dir = mkdtempSync(join(tmpdir(), 'avaxmon-e2e-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const listen = `127.0.0.1:${await freePort()}`;
    const child = spawn(binary, args(dir, listen), { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const url = `http://${listen}`;
    if (await becomesReady(url, child)) {
      return {
        url,
        dir,
        output: () => output,
        stop: () => stopChild(child).then(() => rmSync(dir, { recursive: true, force: true })),
        kill: () => killChild(child),
      };
    }
    await stopChild(child);
    // Its last lines (why it did not start) can arrive after its exit.
    await closed;
    lastError = output;
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`${binary} did not become ready:\n${lastError.slice(-3000)}`);
}

async function becomesReady(url: string, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}/-/ready`)).status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface WebhookReceiver {
  readonly url: string;
  readonly bodies: unknown[];
  close(): Promise<void>;
}

/** A loopback HTTP server that keeps every JSON body POSTed to it (Alertmanager's webhook). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const bodies: unknown[] = [];
  const server = createHttpServer((request, response) => {
    void readJson(request).then((body) => {
      bodies.push(body);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/alerts`,
    bodies,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export interface PromVectorSample {
  metric: Record<string, string>;
  value: [number, string];
}

/** An instant query against Prometheus' HTTP API; throws on a query error. */
export async function promQuery(prometheusUrl: string, query: string): Promise<{ resultType: string; result: unknown }> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?${new URLSearchParams({ query })}`);
  const body = (await response.json()) as { status: string; error?: string; data: { resultType: string; result: unknown } };
  if (body.status !== 'success') throw new Error(`query ${query} failed: ${body.error}`);
  return body.data;
}

/** Whether an instant query returned data: a non-empty vector or matrix, or any scalar or string. */
export function hasData(data: { resultType: string; result: unknown }): boolean {
  if (data.resultType === 'vector' || data.resultType === 'matrix') return (data.result as unknown[]).length > 0;
  return true;
}
