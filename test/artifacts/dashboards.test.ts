import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { catalogue } from '../../src/metrics/catalogue/index.js';
import { requireTool } from '../helpers/tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const DASHBOARDS = join(ROOT, 'dashboards');
const EXPECTED_UIDS = ['avaxmon-fleet', 'avaxmon-node', 'avaxmon-validators', 'avaxmon-chain-activity', 'avaxmon-self'];
const SHARED_TAGS = ['avaxmon', 'avalanche'];
/** Metric families a dashboard may use that the catalogue does not list: the process metrics of prom-client. */
const NON_CATALOGUE_PREFIXES = ['process_', 'nodejs_'];

interface Target {
  expr: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  type: string;
  title?: string;
  description?: string;
  links?: Array<{ title: string; url: string }>;
  datasource?: { type?: string; uid?: string };
  fieldConfig?: { defaults?: { unit?: string } };
  targets?: Target[];
  panels?: Panel[];
}
interface Variable {
  name: string;
  type: string;
  query: unknown;
  datasource?: { uid?: string };
}
interface Dashboard {
  uid: string;
  title: string;
  tags: string[];
  editable: boolean;
  panels: Panel[];
  templating: { list: Variable[] };
  annotations: { list: Array<{ name: string; expr?: string; enable?: boolean; datasource?: { uid?: string } }> };
}

const files = readdirSync(DASHBOARDS).filter((file) => file.endsWith('.json'));
const dashboards = files.map((file) => [file, JSON.parse(readFileSync(join(DASHBOARDS, file), 'utf8')) as Dashboard] as const);

/** The panels that show data: rows (and the panels collapsed into them) flattened away. */
function panelsOf(dashboard: Dashboard): Panel[] {
  return dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]).filter((panel) => panel.type !== 'row');
}

interface AlertRule {
  alert?: string;
  expr: string;
  annotations?: { runbook_url?: string };
}
const alertRules = (
  parse(readFileSync(join(ROOT, 'alerts/avaxmon.rules.yaml'), 'utf8')) as { groups: Array<{ rules: AlertRule[] }> }
).groups
  .flatMap((group) => group.rules)
  .filter((rule) => rule.alert);
const runbookAnchors = new Set(
  [...readFileSync(join(ROOT, 'docs/runbooks.md'), 'utf8').matchAll(/^## (\w+)$/gm)].map((match) => match[1].toLowerCase()),
);

/** The metrics an alert rule fires on: avaxmon's, and `up` for the rules on avaxmon's scrape. */
function ruleMetrics(expr: string): string[] {
  return [...metricNamesIn(expr), ...(/\bup\s*\{/.test(expr) ? ['up'] : [])];
}

function panelQueriesOf(dashboard: Dashboard): string[] {
  return panelsOf(dashboard).flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
}

function queriesOf(dashboard: Dashboard): string[] {
  const fromVariables = dashboard.templating.list.flatMap((variable) => {
    const query = variable.query as string | { query?: string };
    return variable.type === 'query' ? [typeof query === 'string' ? query : (query.query ?? '')] : [];
  });
  return [...panelQueriesOf(dashboard), ...fromVariables];
}

/** Metric names in PromQL: identifiers that are not functions, keywords, label names or strings. */
export function metricNamesIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const withoutMatchers = withoutStrings.replace(/\{[^}]*\}/g, '{}');
  const withoutGrouping = withoutMatchers.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...withoutGrouping.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map((match) => match[1])
    .filter((name) => /^(avaxmon_|process_|nodejs_)/.test(name));
}

/** The innermost call of rate() or increase() with its argument, for every occurrence. */
function rangeCalls(expr: string): string[] {
  return [...expr.matchAll(/\b(rate|increase|irate|deriv|delta)\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g)].map((match) => match[0]);
}

describe('dashboards', () => {
  it('are the five agreed dashboards with stable uids', () => {
    expect(dashboards.map(([, dashboard]) => dashboard.uid).sort()).toEqual([...EXPECTED_UIDS].sort());
  });

  it('are in sync with their sources in dashboards/src', async () => {
    const source = (await import(pathToFileURL(join(DASHBOARDS, 'src/index.mjs')).href)) as {
      dashboards: Record<string, unknown>;
      renderDashboard(dashboard: unknown): string;
    };
    expect(Object.keys(source.dashboards).sort()).toEqual([...files].sort());
    for (const [file, dashboard] of Object.entries(source.dashboards)) {
      expect(readFileSync(join(DASHBOARDS, file), 'utf8'), `${file}: run node scripts/generate-dashboards.mjs`).toBe(
        source.renderDashboard(dashboard),
      );
    }
  });

  it('are provisioned from dashboards/provisioning.yaml', () => {
    const provisioning = parse(readFileSync(join(DASHBOARDS, 'provisioning.yaml'), 'utf8')) as {
      apiVersion: number;
      providers: { type: string; options: { path: string } }[];
    };
    expect(provisioning.apiVersion).toBe(1);
    expect(provisioning.providers).toHaveLength(1);
    expect(provisioning.providers[0].type).toBe('file');
    expect(provisioning.providers[0].options.path).toMatch(/^\//);
  });

  describe.each(dashboards)('%s', (_file, dashboard) => {
    it('has shared tags, is not editable and has a title', () => {
      expect(dashboard.tags).toEqual(expect.arrayContaining(SHARED_TAGS));
      expect(dashboard.editable).toBe(false);
      expect(dashboard.title).toMatch(/^avaxmon \/ /);
    });

    it('has exactly one datasource variable, and job, instance and target variables', () => {
      const variables = dashboard.templating.list;
      const datasources = variables.filter((variable) => variable.type === 'datasource');
      expect(datasources).toHaveLength(1);
      expect(datasources[0]).toMatchObject({ name: 'datasource', query: 'prometheus' });
      for (const name of ['job', 'instance', 'target']) {
        const variable = variables.find((candidate) => candidate.name === name);
        expect(variable, name).toBeDefined();
        expect(variable!.type).toBe('query');
        expect(JSON.stringify(variable!.query)).toMatch(/label_values\(/);
        expect(variable!.datasource?.uid).toBe('${datasource}');
      }
    });

    it('uses the datasource variable in every panel and query', () => {
      for (const panel of panelsOf(dashboard)) {
        expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
        for (const target of panel.targets ?? []) expect(target.datasource?.uid ?? '${datasource}', panel.title).toBe('${datasource}');
      }
    });

    it('gives every panel a title, a description, a unit and a query', () => {
      for (const panel of panelsOf(dashboard)) {
        expect(panel.title, JSON.stringify(panel).slice(0, 80)).toMatch(/\S/);
        expect(panel.description, panel.title).toMatch(/\S/);
        expect(panel.fieldConfig?.defaults?.unit, panel.title).toMatch(/\S/);
        expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      }
    });

    it('uses $__rate_interval inside every rate() and increase()', () => {
      for (const expr of queriesOf(dashboard)) {
        for (const call of rangeCalls(expr)) expect(call, expr).toMatch(/\[\$__rate_interval\]\)$/);
      }
    });

    it('filters every metric by $job and $instance, and every target-labelled one by $target', () => {
      for (const expr of panelQueriesOf(dashboard)) {
        for (const [, name, matchers] of expr.matchAll(
          /\b(avaxmon_[a-z0-9_]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+|up)\b(?!\s*\()(\{[^}]*\})?/g,
        )) {
          expect(matchers ?? '', `${name} in ${expr}`).toContain('job=~"$job"');
          expect(matchers ?? '', `${name} in ${expr}`).toContain('instance=~"$instance"');
          if (catalogue.get(name)?.labels.includes('target')) expect(matchers ?? '', `${name} in ${expr}`).toContain('target=~"$target"');
        }
      }
    });

    it('groups its panels in rows, starting with one', () => {
      const rows = dashboard.panels.filter((panel) => panel.type === 'row');
      expect(dashboard.panels[0].type).toBe('row');
      expect(rows.length).toBeGreaterThanOrEqual(2);
      for (const row of rows) expect(row.title).toMatch(/\S/);
    });

    it("annotates firing alerts: the built-in engine's and Prometheus' from the shipped rules", () => {
      const annotations = dashboard.annotations.list;
      expect(annotations.map((annotation) => annotation.expr)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^avaxmon_alerts\{[^}]*state="firing"/),
          expect.stringMatching(/^ALERTS\{[^}]*alertstate="firing"/),
        ]),
      );
      for (const annotation of annotations) {
        expect(annotation.enable, annotation.name).toBe(true);
        expect(annotation.datasource?.uid, annotation.name).toBe('${datasource}');
      }
    });

    it('links every panel to the runbook of each alert rule that fires on a metric it shows', () => {
      for (const panel of panelsOf(dashboard)) {
        const shown = new Set((panel.targets ?? []).flatMap((target) => ruleMetrics(target.expr)));
        const expected = alertRules
          .filter((rule) => ruleMetrics(rule.expr).some((name) => shown.has(name)))
          .map((rule) => rule.annotations!.runbook_url!);
        expect((panel.links ?? []).map((link) => link.url).sort(), panel.title).toEqual([...new Set(expected)].sort());
        for (const link of panel.links ?? [])
          expect(runbookAnchors.has(link.url.split('#')[1]), `${link.url} has no section in docs/runbooks.md`).toBe(true);
      }
    });

    it('queries only metrics of the catalogue', () => {
      const names = queriesOf(dashboard).flatMap(metricNamesIn);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        if (NON_CATALOGUE_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
        expect(catalogue.has(name), `${name} is not in src/metrics/catalogue`).toBe(true);
      }
    });
  });
});

/** A panel query with Grafana's variables filled in as a user would see them. */
function withVariables(expr: string): string {
  return expr.replaceAll('$__rate_interval', '1m').replace(/\$(job|instance|target|chain_id)\b/g, '.*');
}

describe('dashboard queries', () => {
  it('are valid PromQL once the variables are filled in (promtool check rules)', () => {
    if (!requireTool('/usr/bin/promtool', 'prometheus')) return;
    const rules = dashboards
      .flatMap(([, dashboard]) => panelQueriesOf(dashboard))
      .map((expr, index) => ({ record: `dashboard:query_${index}`, expr: withVariables(expr) }));
    const directory = mkdtempSync(join(tmpdir(), 'avaxmon-dashboards-'));
    try {
      const file = join(directory, 'queries.yaml');
      writeFileSync(file, JSON.stringify({ groups: [{ name: 'dashboard-queries', rules }] }));
      const result = spawnSync('/usr/bin/promtool', ['check', 'rules', file], { encoding: 'utf8' });
      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('runbook links', () => {
  it('reach the runbook of every shipped alert rule from some panel', () => {
    const linked = new Set(
      dashboards.flatMap(([, dashboard]) => panelsOf(dashboard).flatMap((panel) => (panel.links ?? []).map((link) => link.url))),
    );
    expect(alertRules.map((rule) => rule.annotations?.runbook_url).filter((url) => !linked.has(url!))).toEqual([]);
  });
});

describe('metricNamesIn', () => {
  it('finds metric names and skips functions, label names and strings', () => {
    expect(metricNamesIn('sum by (avaxmon_x) (rate(avaxmon_rpc_requests_total{job=~"avaxmon_y"}[5m])) / avaxmon_node_peers')).toEqual([
      'avaxmon_rpc_requests_total',
      'avaxmon_node_peers',
    ]);
  });
});
