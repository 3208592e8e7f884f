import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_OUTCOMES } from '../../src/alerts/dispatch/notify/delivery.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/runtime/log.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { dashboardQueries, fillVariables, type DashboardQuery } from '../helpers/dashboards.js';
import { fullConfig } from '../helpers/full-config.js';
import {
  ALERTMANAGER,
  PROMETHEUS,
  hasData,
  promQuery,
  startRealSystem,
  startWebhookReceiver,
  type RealSystem,
  type WebhookReceiver,
} from '../helpers/real-systems.js';
import { captureStream, eventually } from '../helpers/stack.js';
import { requireTool } from '../helpers/tools.js';

const haveTools = requireTool(PROMETHEUS, 'prometheus') && requireTool(ALERTMANAGER, 'prometheus-alertmanager');

/**
 * The shipped rule file with every `for:` (and `keep_firing_for:`) set to 0s, so a flip fires on the
 * next evaluation instead of after the production hold of a minute or more. Names, expressions,
 * labels and annotations stay exactly as shipped.
 */
function rulesWithoutHoldTimes(): string {
  const rules = parse(readFileSync('alerts/avaxmon.rules.yaml', 'utf8')) as {
    groups: Array<{ interval?: string; rules: Array<Record<string, unknown>> }>;
  };
  for (const group of rules.groups) {
    delete group.interval;
    for (const rule of group.rules) {
      if ('for' in rule) rule.for = '0s';
      if ('keep_firing_for' in rule) rule.keep_firing_for = '0s';
    }
  }
  return stringify(rules);
}

function prometheusConfig(avaxmon: string, alertmanager: string): string {
  return `
global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }
rule_files: [avaxmon.rules.yaml]
alerting:
  alertmanagers:
    - static_configs: [{ targets: ['${alertmanager}'] }]
scrape_configs:
  - job_name: avaxmon
    static_configs: [{ targets: ['${avaxmon}'] }]
  # docs/scaling.md's sharding over /probe, two shards of one replica, under job names the rules ignore.
${[0, 1].map((shard) => probeShardJob(avaxmon, shard)).join('')}`;
}

function probeShardJob(avaxmon: string, shard: number): string {
  return `
  - job_name: probe-shard-${shard}
    metrics_path: /probe
    scrape_interval: 2s
    scrape_timeout: 2s
    static_configs: [{ targets: [node-a, node-b] }]
    relabel_configs:
      - { source_labels: [__address__], target_label: __param_target }
      - { source_labels: [__param_target], target_label: instance }
      - { source_labels: [__param_target], modulus: 2, target_label: __tmp_shard, action: hashmod }
      - { source_labels: [__tmp_shard], regex: '${shard}', action: keep }
      - { target_label: __address__, replacement: '${avaxmon}' }
`;
}

const alertmanagerConfig = (webhook: string) => `
route: { receiver: loopback, group_by: [alertname, target], group_wait: 0s, group_interval: 1s, repeat_interval: 1h }
receivers:
  - name: loopback
    webhook_configs: [{ url: '${webhook}', send_resolved: true }]
`;

interface WebhookAlert {
  status: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

describe.skipIf(!haveTools)('against a real Prometheus and Alertmanager', () => {
  let sim: Simulator;
  let daemon: Daemon;
  let receiver: WebhookReceiver;
  let builtInReceiver: WebhookReceiver;
  let alertmanager: RealSystem;
  let prometheus: RealSystem;

  beforeAll(async () => {
    sim = await startSimulator({ validators: 50 });
    receiver = await startWebhookReceiver();
    // The built-in engine gets its own receiver, so its notifications never pass for Alertmanager's.
    builtInReceiver = await startWebhookReceiver();
    daemon = new Daemon({
      config: fullConfig(sim.url, { webhookUrl: builtInReceiver.url }),
      logger: createLogger('warn', 'json', captureStream([])),
    });
    await daemon.app.listen({ host: '127.0.0.1', port: 0 });
    const avaxmon = `127.0.0.1:${(daemon.app.server.address() as { port: number }).port}`;
    alertmanager = await startRealSystem(ALERTMANAGER, { 'alertmanager.yml': alertmanagerConfig(receiver.url) }, (dir, listen) => [
      `--config.file=${dir}/alertmanager.yml`,
      `--storage.path=${dir}/data`,
      `--web.listen-address=${listen}`,
      '--cluster.listen-address=',
    ]);
    await daemon.start();
    prometheus = await startRealSystem(
      PROMETHEUS,
      { 'prometheus.yml': prometheusConfig(avaxmon, new URL(alertmanager.url).host), 'avaxmon.rules.yaml': rulesWithoutHoldTimes() },
      (dir, listen) => [`--config.file=${dir}/prometheus.yml`, `--storage.tsdb.path=${dir}/data`, `--web.listen-address=${listen}`],
    );
  }, 300_000);

  afterAll(async () => {
    await prometheus?.stop();
    await alertmanager?.stop();
    await daemon?.app.close();
    await daemon?.stop();
    await receiver?.close();
    await builtInReceiver?.close();
    await sim?.close();
  });

  it('scrapes avaxmon', async () => {
    const up = await eventually(
      () => promQuery(prometheus.url, 'avaxmon_node_healthy{job="avaxmon",target="node-a"}'),
      (data) => hasData(data),
      120_000,
    );
    expect((up.result as Array<{ value: [number, string] }>)[0].value[1]).toBe('1');
  });

  it('sees the notification counter of every receiver and outcome from the start, at 0 until it happens', async () => {
    const data = await eventually(
      () => promQuery(prometheus.url, 'avaxmon_notifications_total{job="avaxmon",receiver="ops-webhook"}'),
      (result) => (result.result as unknown[]).length === DELIVERY_OUTCOMES.length,
      120_000,
    );
    const byOutcome = Object.fromEntries(
      (data.result as Array<{ metric: Record<string, string>; value: [number, string] }>).map((sample) => [
        sample.metric.outcome,
        sample.value[1],
      ]),
    );
    expect(Object.keys(byOutcome).sort()).toEqual([...DELIVERY_OUTCOMES].sort());
    // Nothing here expires or drops a notification, so these two exist only because they start at 0.
    expect(byOutcome).toMatchObject({ expired: '0', dropped: '0' });
  });

  it('shards /probe with hashmod: every target is scraped by exactly one shard', async () => {
    const data = await eventually(
      () => promQuery(prometheus.url, 'count by (instance, job) (avaxmon_probe_success{job=~"probe-shard-.*"} == 1)'),
      (result) => (result.result as unknown[]).length === 2,
      120_000,
    );
    const shards = (data.result as Array<{ metric: Record<string, string> }>).map((sample) => [sample.metric.instance, sample.metric.job]);
    expect(shards.map(([instance]) => instance).sort()).toEqual(['node-a', 'node-b']);
    const targets = (await (await fetch(`${prometheus.url}/api/v1/targets`)).json()) as {
      data: { activeTargets: Array<{ labels: Record<string, string> }> };
    };
    const probed = targets.data.activeTargets
      .filter((target) => target.labels.job.startsWith('probe-shard-'))
      .map((target) => target.labels.instance);
    expect(probed.sort()).toEqual(['node-a', 'node-b']);
  });

  it('evaluates every rule of alerts/avaxmon.rules.yaml without error', async () => {
    type Rule = { name: string; health: string; lastError?: string; lastEvaluation: string };
    const rules = await eventually(
      async () => {
        const body = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as { data: { groups: Array<{ rules: Rule[] }> } };
        return body.data.groups.flatMap((group) => group.rules);
      },
      (list) => list.length > 0 && list.every((rule) => !rule.lastEvaluation.startsWith('0001')),
      120_000,
    );
    expect(rules.filter((rule) => rule.health !== 'ok').map((rule) => `${rule.name}: ${rule.lastError}`)).toEqual([]);
    expect(rules.map((rule) => rule.name)).toContain('AvalancheNodeUnhealthy');
  });

  it('fires AvalancheNodeUnhealthy on a health flip, through Alertmanager to the webhook, and resolves it', async () => {
    const unhealthy = (status: string) => () =>
      (receiver.bodies as Array<{ alerts: WebhookAlert[] }>)
        .flatMap((body) => body.alerts)
        .find(
          (alert) => alert.labels.alertname === 'AvalancheNodeUnhealthy' && alert.labels.target === 'node-a' && alert.status === status,
        );
    expect(unhealthy('firing')()).toBeUndefined();
    sim.apply({ fail_check: 'network' });
    const firing = await eventually(
      async () => unhealthy('firing')(),
      (alert) => alert !== undefined,
      120_000,
    );
    expect(firing!.labels).toMatchObject({ severity: 'critical', job: 'avaxmon' });
    expect(firing!.annotations.summary).toBe('Node node-a is unhealthy');
    // The templated description ran its query against Prometheus and named the failing check.
    expect(firing!.annotations.description).toContain('network');
    expect(firing!.annotations.runbook_url).toMatch(/docs\/runbooks\.md#avalanchenodeunhealthy$/);
    sim.apply({ recover_check: 'network' });
    await eventually(
      async () => unhealthy('resolved')(),
      (alert) => alert !== undefined,
      120_000,
    );
  }, 300_000);

  it('answers every query of every dashboard with data: every panel target and every annotation', async () => {
    // A failing check gives the alert and failure panels something to show, as on a bad day.
    sim.apply({ fail_check: 'network' });
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(0);
    const empty = await eventually(
      () => queriesWithoutData(prometheus.url, queries),
      (failing) => failing.length === 0,
      120_000,
    ).catch(async () => queriesWithoutData(prometheus.url, queries));
    expect(empty).toEqual([]);
  }, 300_000);
});

async function queriesWithoutData(prometheusUrl: string, queries: readonly DashboardQuery[]): Promise<string[]> {
  const failing: string[] = [];
  for (const query of queries) {
    try {
      const expr = await fillVariables(prometheusUrl, query);
      if (!hasData(await promQuery(prometheusUrl, expr))) failing.push(`${query.dashboard} / ${query.panel}: no data for ${expr}`);
    } catch (error) {
      failing.push(`${query.dashboard} / ${query.panel}: ${(error as Error).message}`);
    }
  }
  return failing;
}
