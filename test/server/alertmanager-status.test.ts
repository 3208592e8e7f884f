import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertmanagerStatus } from '../helpers/alertmanager-openapi.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';

const AMTOOL = '/usr/bin/amtool';

function amtool(url: string, ...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(AMTOOL, [`--alertmanager.url=${url}`, ...args], { encoding: 'utf8', timeout: 15_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr });
    });
  });
}

describe('GET /api/v2/status, as Alertmanager serves it', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-am-status-'));
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      extraYaml: `alerts:
  state_dir: ${stateDir}
  receivers:
    - { name: hook, type: webhook, url: "http://127.0.0.1:9/very-secret-path" }
`,
    });
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('reads as the routing of the config, with no receiver URL', async () => {
    const response = await fetch(`${stack.url}/api/v2/status`);
    const status = alertmanagerStatus.parse(await response.json());
    expect(status.cluster.status).toBe('disabled');
    expect(status.config.original).toContain('name: hook');
    expect(status.config.original).toContain('source_matchers:');
    expect(status.config.original).not.toContain('very-secret-path');
  });

  it('answers amtool config show and amtool cluster show', async () => {
    if (!requireTool(AMTOOL, 'prometheus-alertmanager')) return;
    const config = await amtool(stack.url, 'config', 'show');
    expect(config.status, config.stderr).toBe(0);
    expect(config.stdout).toContain('type: webhook');
    const cluster = await amtool(stack.url, 'cluster', 'show');
    expect(cluster.status, cluster.stderr).toBe(0);
    expect(cluster.stdout).toMatch(/Cluster Status:\s+disabled/);
  });
});
