import { spawnSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '../helpers/tools.js';
import { startStack, type Stack } from '../helpers/stack.js';

const PROMTOOL = '/usr/bin/promtool';

describe('/metrics', () => {
  let stack: Stack;
  beforeAll(async () => {
    // Generous timeouts: this stack serves 2,000 peers, and CI machines are small.
    stack = await startStack({
      sim: { peers: 2000 },
      globalYaml: '{ interval: 5s, timeout: 4s }',
      targetYaml: 'health_tags: [11111111111111111111111111111111LpoYY]',
    });
    stack.sim.apply({ fail_check: 'network' });
  });
  afterAll(() => stack.close());

  it.skipIf(!requireTool(PROMTOOL, 'prometheus'))('passes promtool check metrics, lint included', async () => {
    const body = await (await fetch(`${stack.url}/metrics`)).text();
    expect(body).toContain('avaxmon_node_peers{target="node-a"} 2000');
    const result = spawnSync(PROMTOOL, ['check', 'metrics'], { input: body, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('serves the Prometheus text format by default, with process metrics appended', async () => {
    const response = await fetch(`${stack.url}/metrics`);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const body = await response.text();
    expect(body).toContain(
      '# HELP avaxmon_collector_success Whether the last scheduled run of the collector succeeded. Collection runs on a schedule, not on scrape.',
    );
    expect(body).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it('negotiates OpenMetrics and ends it with # EOF', async () => {
    const response = await fetch(`${stack.url}/metrics`, { headers: { accept: 'application/openmetrics-text; version=1.0.0' } });
    expect(response.headers.get('content-type')).toContain('application/openmetrics-text');
    const body = await response.text();
    expect(body.endsWith('# EOF\n')).toBe(true);
    expect(body.match(/# EOF/g)).toHaveLength(1);
    expect(body).toContain('# TYPE avaxmon_rpc_requests counter');
  });

  it('gzips when asked, as concatenated gzip members that decode to the whole exposition', async () => {
    // undici's request (unlike fetch) leaves the body as sent.
    const response = await request(`${stack.url}/metrics`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    const raw = Buffer.from(await response.body.arrayBuffer());
    const text = gunzipSync(raw).toString();
    expect(text).toContain('avaxmon_node_peers{target="node-a"} 2000');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });
});
