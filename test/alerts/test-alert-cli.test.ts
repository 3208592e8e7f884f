import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder, type Recorder } from './recorder.js';

// Runs the built CLI (dist/main.js); `npm test` builds before running vitest.
const MAIN = new URL('../../dist/main.js', import.meta.url).pathname;
let hook: Recorder;
let configFile: string;

beforeAll(async () => {
  hook = await startRecorder();
  const dir = mkdtempSync(join(tmpdir(), 'avaxmon-test-alert-'));
  configFile = join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    `alerts:
  state_dir: ${join(dir, 'state')}
  receivers:
    - { name: ops-hook, type: webhook, url: "${hook.url}/hook/very-secret-token", severity: [warning] }
`,
  );
});
afterAll(() => hook.close());

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'close', not 'exit': on a loaded machine the last of stderr can arrive after the exit.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('avaxmon test-alert', () => {
  it('sends one test notification through the named receiver and exits 0', async () => {
    const result = await run(['test-alert', '--receiver', 'ops-hook', `--config.file=${configFile}`]);
    expect(result.stdout).toContain('receiver ops-hook: test notification delivered');
    expect(result.code).toBe(0);
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0].json).toMatchObject({ status: 'firing', commonLabels: { alertname: 'AvaxmonTestAlert', severity: 'warning' } });
    // The daemon's default URL, as its notifications carry it: this host and the default port.
    expect(hook.requests[0].json).toMatchObject({ externalURL: `http://${hostname()}:9683/` });
  });

  it('sends the externalURL --web.external-url gives, as the daemon would', async () => {
    const before = hook.requests.length;
    const result = await run([
      'test-alert',
      '--receiver',
      'ops-hook',
      `--config.file=${configFile}`,
      '--web.external-url=https://mon.example/',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(hook.requests[before].json).toMatchObject({ externalURL: 'https://mon.example/' });
  });

  it('sends through every integration of an Alertmanager-shaped receiver', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'avaxmon-test-alert-')), 'config.yaml');
    writeFileSync(
      file,
      `alerts:
  route: { receiver: team }
  receivers:
    - name: team
      webhook_configs: [{ url: "${hook.url}/hook/one" }, { url: "${hook.url}/hook/two" }]
`,
    );
    const before = hook.requests.length;
    const result = await run(['test-alert', '--receiver', 'team', `--config.file=${file}`]);
    expect(result.code).toBe(0);
    expect(hook.requests.slice(before).map((request) => request.path)).toEqual(['/hook/one', '/hook/two']);
    expect(hook.requests.slice(before).map((request) => (request.json as { receiver: string }).receiver)).toEqual(['team', 'team']);
  });

  it("needs only the receiver it tests: an unrelated target's and receiver's unset ${ENV} do not stop it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'avaxmon-test-alert-')), 'config.yaml');
    writeFileSync(
      file,
      `targets:
  - { name: node, url: "http://127.0.0.1:9650", headers: { Authorization: "Bearer \${AVAXMON_UNSET_NODE_TOKEN}" } }
alerts:
  receivers:
    - { name: ops-hook, type: webhook, url: "${hook.url}/hook/ok" }
    - { name: chat, type: slack, url: "\${AVAXMON_UNSET_SLACK_URL}" }
`,
    );
    const before = hook.requests.length;
    const result = await run(['test-alert', '--receiver', 'ops-hook', `--config.file=${file}`]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(hook.requests).toHaveLength(before + 1);
    // The receiver under test still gets its own variables checked, with its index in the file.
    const broken = await run(['test-alert', '--receiver', 'chat', `--config.file=${file}`]);
    expect(broken.code).toBe(2);
    expect(broken.stderr.trim()).toBe('alerts.receivers[1].url: environment variable AVAXMON_UNSET_SLACK_URL is not set');
  });

  it('exits 1 naming the known receivers when the name is wrong, and 1 with the URL redacted when delivery fails', async () => {
    const unknown = await run(['test-alert', '--receiver', 'nope', `--config.file=${configFile}`]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown receiver "nope" (known: ops-hook)');
    hook.respond = () => ({ status: 403, body: 'forbidden' });
    const failed = await run(['test-alert', '--receiver', 'ops-hook', `--config.file=${configFile}`]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('rejected: HTTP 403');
    expect(failed.stderr).not.toContain('very-secret-token');
  });
});
