import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { freePort } from '../helpers/ports.js';
import { until } from './daemon-processes.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;

/** Each receiver type's credential, placed where that service puts it. */
const TOKENS = {
  webhook: 'wh-secret-token-0a1b2c3d',
  slackTeam: 'T0SECRET1',
  slackToken: 'slackSecretToken0e1f2a3b',
  discordId: '123456789012345678',
  discordToken: 'discordSecretToken4c5d6e7f',
  pagerduty: 'pdRoutingKey0123456789abcdef',
  telegram: '123456:telegramSecret8a9b0c1d',
  alertmanager: 'am-prefix-secret-2e3f4a5b',
  hmac: 'hmac-secret-6c7d8e9f',
};

let echo: Server;
let echoUrl: string;
const echoed: string[] = [];
let sim: Simulator;
let daemon: ChildProcess;
let daemonUrl: string;
let log = '';
const dir = mkdtempSync(join(tmpdir(), 'avaxmon-secret-echo-'));
const stateDir = join(dir, 'state');

/** A hostile receiver: answers 400 with the whole request (path, credentials, body) in its body. */
function startEcho(): Promise<void> {
  echo = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const text = `${request.method} ${request.url} auth=${request.headers.authorization ?? ''} body=${body}`;
      echoed.push(text);
      response.writeHead(400, { 'content-type': 'text/plain' }).end(text);
    });
  });
  return new Promise((resolve) => echo.listen(0, '127.0.0.1', () => {
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    resolve();
  }));
}

function config(): string {
  const match = 'match: { alertname: AvalancheNodeUnhealthy }';
  return `global: { interval: 1s, timeout: 500ms }
targets: [{ name: node-a, url: "${sim.url}" }]
alerts:
  state_dir: ${stateDir}
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }
    AvalancheSubnetUnhealthy: { enabled: false }
    AvalancheChainStalled: { enabled: false }
  receivers:
    - { name: hook, type: webhook, url: "${echoUrl}/hook/${TOKENS.webhook}", hmac_secret: "${TOKENS.hmac}", ${match} }
    - { name: slack, type: slack, url: "${echoUrl}/services/${TOKENS.slackTeam}/B0SECRET2/${TOKENS.slackToken}", ${match} }
    - { name: discord, type: discord, url: "${echoUrl}/api/webhooks/${TOKENS.discordId}/${TOKENS.discordToken}", ${match} }
    - { name: pager, type: pagerduty, url: "${echoUrl}/v2/enqueue", routing_key: "${TOKENS.pagerduty}", ${match} }
    - { name: telegram, type: telegram, api_url: "${echoUrl}", bot_token: "${TOKENS.telegram}", chat_id: 42, ${match} }
    - { name: am, type: alertmanager, url: "${echoUrl}/${TOKENS.alertmanager}", ${match} }
`;
}

function stateFiles(directory: string): string {
  return readdirSync(directory)
    .map((name) => join(directory, name))
    .map((path) => (statSync(path).isDirectory() ? stateFiles(path) : readFileSync(path, 'utf8')))
    .join('\n');
}

beforeAll(async () => {
  await startEcho();
  sim = await startSimulator();
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, config());
  const port = await freePort();
  daemonUrl = `http://127.0.0.1:${port}`;
  daemon = spawn('node', [MAIN, `--config.file=${configFile}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=info'], { stdio: ['ignore', 'pipe', 'pipe'] });
  daemon.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  daemon.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await until(() => log.includes('avaxmon listening'), 20_000);
}, 30_000);

afterAll(async () => {
  daemon?.kill('SIGKILL');
  await sim?.close();
  echo?.closeAllConnections();
  await new Promise((resolve) => echo?.close(resolve));
});

describe('a receiver that echoes the whole request in its error', () => {
  it('never gets a credential into the log, /metrics, the status page or the state files', async () => {
    sim.apply({ fail_check: 'network' });
    await until(() => (log.match(/Notification given up/g) ?? []).length >= 6, 30_000);
    const metrics = await (await fetch(`${daemonUrl}/metrics`)).text();
    const status = await (await fetch(`${daemonUrl}/`)).text();
    const state = stateFiles(stateDir);

    // The echoes did carry every credential, and the errors did reach each place checked.
    const everyEcho = echoed.join('\n');
    for (const token of Object.values(TOKENS).filter((token) => token !== TOKENS.hmac)) expect(everyEcho).toContain(token);
    expect(log).toContain('HTTP 400: POST /hook/<redacted>');
    expect(status).toContain('HTTP 400');
    expect(metrics).toContain('avaxmon_notifications_total{receiver="telegram",outcome="rejected"} 1');

    const leaks = Object.entries(TOKENS).flatMap(([name, token]) =>
      Object.entries({ log, metrics, status, state })
        .filter(([, text]) => text.includes(token) || text.includes(encodeURIComponent(token)))
        .map(([where]) => `${name} in ${where}`),
    );
    expect(leaks).toEqual([]);
  }, 60_000);
});
