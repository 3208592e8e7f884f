import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { ConfigError } from '../../src/errors.js';
import { createLogger } from '../../src/runtime/log.js';
import { ProbeRunner } from '../../src/probe/runner.js';
import { compileTargetPattern, normalizeProbeUrl } from '../../src/probe/target-pattern.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { captureStream, find, parseExposition, scrape, valueOf } from '../helpers/stack.js';

/** A TCP server that only counts connections: any outbound request of a refused probe shows up here. */
async function startConnectionCounter(): Promise<{ server: Server; port: number; count: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, count: () => connections };
}

describe('GET /probe', () => {
  let simA: Simulator;
  let simB: Simulator;
  let slowSim: Simulator;
  let counter: Awaited<ReturnType<typeof startConnectionCounter>>;
  let daemon: Daemon;
  let url: string;

  beforeAll(async () => {
    [simA, simB, slowSim, counter] = await Promise.all([startSimulator(), startSimulator(), startSimulator(), startConnectionCounter()]);
    slowSim.apply({ fault: { match: 'info.peers', kind: 'slow', delay: '4s' } });
    const config = parseConfig(`
global: { interval: 1s, timeout: 900ms }
targets:
  - { name: node-a, url: ${simA.url} }
  - { name: node-slow, url: ${slowSim.url}, collectors: { peers: { interval: 10s, timeout: 5s } } }
probe:
  allowed_targets:
    - http://127.0.0.*:${new URL(simB.url).port}
    - re:http://127\\.0\\.0\\.1:${counter.port}/allowed(/[a-z]+)*
`);
    daemon = new Daemon({ config, logger: createLogger('warn', 'json', captureStream([])) });
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(daemon.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await daemon.app.close();
    await daemon.stop();
    await Promise.all([simA.close(), simB.close(), slowSim.close()]);
    counter.server.close();
  });

  it('runs a configured target now and answers only its series, with probe success and duration', async () => {
    const response = await fetch(`${url}/probe?target=node-a`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseExposition(await response.text());
    expect(valueOf(samples, 'avaxmon_probe_success')).toBe(1);
    expect(valueOf(samples, 'avaxmon_probe_duration_seconds')).toBeGreaterThan(0);
    expect(valueOf(samples, 'avaxmon_node_peers', { target: 'node-a' })).toBe(simA.state.peers.length);
    expect(find(samples, 'avaxmon_collector_success').length).toBeGreaterThanOrEqual(5);
    expect(find(samples, 'avaxmon_rpc_requests_total', { method: 'info.peers', outcome: 'success' })).toHaveLength(1);
    expect(samples.every((sample) => sample.labels.target === 'node-a')).toBe(true);
  });

  it('probes an allowed URL without leaving anything in the scheduled /metrics', async () => {
    const target = `http://127.0.0.1:${new URL(simB.url).port}/`;
    const response = await fetch(`${url}/probe?target=${encodeURIComponent(target)}`);
    expect(response.status).toBe(200);
    const samples = parseExposition(await response.text());
    expect(valueOf(samples, 'avaxmon_probe_success')).toBe(1);
    // The URL, normalized, is the target label.
    expect(valueOf(samples, 'avaxmon_node_peers', { target: target.replace(/\/$/, '') })).toBe(simB.state.peers.length);
    const scheduled = await scrape(url);
    expect(scheduled.filter((sample) => sample.labels.target?.startsWith('http'))).toEqual([]);
    expect(find(scheduled, 'avaxmon_probe_success')).toEqual([]);
  });

  it('speaks OpenMetrics when asked, and gzip', async () => {
    const response = await fetch(`${url}/probe?target=node-a`, {
      headers: { accept: 'application/openmetrics-text; version=1.0.0', 'accept-encoding': 'gzip' },
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/openmetrics-text/);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const text = await response.text();
    expect(text.endsWith('# EOF\n')).toBe(true);
    expect(text).toContain('# TYPE avaxmon_rpc_requests counter');
  });

  it('takes its timeout from X-Prometheus-Scrape-Timeout-Seconds, minus the offset', async () => {
    const response = await fetch(`${url}/probe?target=node-slow`, { headers: { 'x-prometheus-scrape-timeout-seconds': '1.5' } });
    const samples = parseExposition(await response.text());
    // The configured 5s peers timeout would wait out the 4s delay and succeed; the header's 1.5s - 0.5s
    // cuts it at 1s, so peers times out.
    expect(valueOf(samples, 'avaxmon_probe_success')).toBe(0);
    expect(valueOf(samples, 'avaxmon_collector_success', { collector: 'peers' })).toBe(0);
    expect(valueOf(samples, 'avaxmon_collector_success', { collector: 'health' })).toBe(1);
    expect(find(samples, 'avaxmon_rpc_requests_total', { method: 'info.peers', outcome: 'timeout' })).toHaveLength(1);
  });

  it.each(['1.1', '2.3', '10'])('accepts a fractional scrape timeout header (%s s)', async (seconds) => {
    const response = await fetch(`${url}/probe?target=node-a`, { headers: { 'x-prometheus-scrape-timeout-seconds': seconds } });
    expect(response.status).toBe(200);
    expect(valueOf(parseExposition(await response.text()), 'avaxmon_probe_success')).toBe(1);
  });

  it('refuses a timeout header that is not a number of seconds', async () => {
    const response = await fetch(`${url}/probe?target=node-a`, { headers: { 'x-prometheus-scrape-timeout-seconds': 'soon' } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('X-Prometheus-Scrape-Timeout-Seconds');
  });

  it('refuses unknown names and URLs outside probe.allowed_targets without any outbound connection', async () => {
    const port = counter.port;
    const refused: Array<[string | undefined, number, RegExp]> = [
      [undefined, 400, /missing \?target=/],
      ['', 400, /missing/],
      ['node-z', 404, /unknown target "node-z"/],
      [`127.0.0.1:${port}`, 404, /unknown target/],
      [`http://127.0.0.1:${port}`, 403, /does not match probe.allowed_targets/],
      [`http://127.0.0.1:${port}/allowed/../other`, 403, /does not match/],
      [`http://127.0.0.1:${port}/allowed?x=1`, 400, /query or fragment/],
      [`http://127.0.0.1:${port}/allowed#x`, 400, /query or fragment/],
      [`http://user:pw@127.0.0.1:${port}/allowed`, 400, /user info/],
      [`http://127.0.0.1:${new URL(simB.url).port}@127.0.0.1:${port}`, 400, /user info/],
      [`http://127.0.0.1.nip.io:${new URL(simB.url).port}`, 403, /does not match/],
      [`ftp://127.0.0.1:${port}/allowed`, 400, /http or https/],
      [`http://[::1:${port}`, 400, /not a valid URL/],
    ];
    for (const [target, status, message] of refused) {
      const query = target === undefined ? '' : `?target=${encodeURIComponent(target)}`;
      const response = await fetch(`${url}/probe${query}`);
      expect({ target, status: response.status }).toEqual({ target, status });
      expect(await response.text()).toMatch(message);
    }
    expect(counter.count()).toBe(0);
    // The control: an allowed URL on the same port does connect, so the zero above means something.
    const allowed = await fetch(`${url}/probe?target=${encodeURIComponent(`http://127.0.0.1:${port}/allowed/node`)}`);
    expect(allowed.status).toBe(200);
    expect(valueOf(parseExposition(await allowed.text()), 'avaxmon_probe_success')).toBe(0);
    expect(counter.count()).toBeGreaterThan(0);
  });
});

/** An HTTP server that answers 404 and counts its open (kept-alive) connections. */
async function startSocketCounter(): Promise<{ url: string; open: () => number; close: () => Promise<void> }> {
  let open = 0;
  const server = createHttpServer((_, response) => void response.writeHead(404).end('404 page not found\n'));
  // Far beyond the test, so only the client closing a pool can close a connection.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    open++;
    socket.once('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, open: () => open, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition() && waited < 3000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('ProbeRunner pools', () => {
  it('closes its HTTP pools when it forgets its targets, and on close', async () => {
    const [first, second] = await Promise.all([startSocketCounter(), startSocketCounter()]);
    const config = parseConfig(`targets:
  - { name: first, url: ${first.url} }
  - { name: second, url: ${second.url} }
  - { name: again, url: ${second.url} }
`);
    const runner = new ProbeRunner(config, createLogger('error', 'json', captureStream([])), 2);
    try {
      const probe = (index: number) => runner.probe(config.targets[index], config, 1000, new AbortController().signal);
      await probe(0);
      expect(first.open()).toBeGreaterThan(0);
      await probe(1);
      expect(first.open()).toBeGreaterThan(0);
      // A third target passes the limit of two: memory and pools start over, so first's pool closes.
      await probe(2);
      await until(() => first.open() === 0);
      expect(first.open()).toBe(0);
      expect(second.open()).toBeGreaterThan(0);
      await runner.close();
      await until(() => second.open() === 0);
      expect(second.open()).toBe(0);
    } finally {
      await runner.close();
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('probe.allowed_targets patterns', () => {
  const matches = (pattern: string, target: string) => {
    const normalized = normalizeProbeUrl(target);
    return 'url' in normalized && compileTargetPattern(pattern).regex!.test(normalized.url);
  };

  it('globs match one host label, port or path segment per *', () => {
    expect(matches('http://10.0.0.*:9650', 'http://10.0.0.7:9650')).toBe(true);
    expect(matches('http://10.0.0.*:9650', 'http://10.0.0.7:9650/')).toBe(true);
    expect(matches('http://10.0.0.*:9650', 'http://10.0.0.1.evil.example:9650')).toBe(false);
    expect(matches('http://10.0.0.*:9650', 'http://10.0.0.7:9651')).toBe(false);
    expect(matches('https://*.nodes.example.com', 'https://a.nodes.example.com:443')).toBe(true);
    expect(matches('https://*.nodes.example.com', 'https://a.b.nodes.example.com')).toBe(false);
    expect(matches('https://*.nodes.example.com', 'https://A.NODES.example.com')).toBe(true);
    expect(matches('https://proxy.example.com/node/*', 'https://proxy.example.com/node/7')).toBe(true);
    expect(matches('https://proxy.example.com/node/*', 'https://proxy.example.com/node/7/x')).toBe(false);
  });

  it('re: patterns are anchored regular expressions', () => {
    expect(matches('re:https?://node-[0-9]+\\.example\\.com:9650', 'https://node-12.example.com:9650')).toBe(true);
    expect(matches('re:https?://node-[0-9]+\\.example\\.com:9650', 'https://node-12.example.com:9650.evil.com')).toBe(false);
    expect(matches('re:https?://node-[0-9]+\\.example\\.com:9650', 'xhttps://node-12.example.com:9650')).toBe(false);
  });

  it('matches on the linear engine: a pattern that backtracks for seconds in JavaScript refuses a long ?target= at once', () => {
    // A JavaScript RegExp takes about a second at 30 characters here, doubling with each one more.
    const backtracking = 're:https?://([a-z0-9-]+\\.?)+:9650';
    const hostile = `http://${'a'.repeat(5_000)}!:9650`;
    expect(matches(backtracking, 'http://node-1.example.com:9650')).toBe(true);
    expect(matches(backtracking, hostile)).toBe(false);
    // Stars of one glob: a backtracking engine tries every split of the host between them.
    expect(matches('http://*-*-*-*-*-*-*-*.example:9650', `http://${'a-'.repeat(2_000)}a.example:9651`)).toBe(false);
  });

  it('bad patterns fail config validation with their path', () => {
    const load = (pattern: string) => () => parseConfig(`probe: { allowed_targets: [${JSON.stringify(pattern)}] }`);
    for (const [pattern, message] of [
      ['re:(', /probe\.allowed_targets\[0\]: re:\( is not a valid RE2 regular expression/],
      ['re:(?=x)x', /probe\.allowed_targets\[0\]: re:\(\?=x\)x is not a valid RE2 regular expression/],
      ['re:((.*){30}){30}', /probe\.allowed_targets\[0\]: re:.* is too complex/],
      [`re:${'a'.repeat(2_000)}`, /probe\.allowed_targets\[0\]: re:a+ is 2000 characters long/],
      ['10.0.0.*:9650', /probe\.allowed_targets\[0\]: glob .* must start with http/],
      ['http://user@host', /must not contain \?, #, @/],
    ] as const) {
      expect(load(pattern)).toThrow(ConfigError);
      expect(load(pattern)).toThrow(message);
    }
  });
});
