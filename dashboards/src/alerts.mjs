// What the dashboards take from avaxmon's alert rules: the runbook of each rule linked from the panels
// that show a metric the rule fires on, and annotations marking when alerts fired. The rules file is the
// one source, so a new rule or runbook reaches the panels on the next generation.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { DATASOURCE } from './datasource.mjs';

const RULES = new URL('../../alerts/avaxmon.rules.yaml', import.meta.url);

/** Metric names in an expression: avaxmon's own, and Prometheus' `up` for the rules on avaxmon's scrape. */
export function metricsIn(expr) {
  const names = new Set(expr.match(/\bavaxmon_[a-z0-9_]+/g) ?? []);
  if (/\bup\s*\{/.test(expr)) names.add('up');
  return names;
}

function loadAlertRules() {
  const file = parse(readFileSync(RULES, 'utf8'));
  const byName = new Map();
  for (const rule of file.groups.flatMap((group) => group.rules).filter((candidate) => candidate.alert)) {
    const known = byName.get(rule.alert) ?? { alert: rule.alert, runbook: rule.annotations.runbook_url, metrics: new Set() };
    for (const name of metricsIn(rule.expr)) known.metrics.add(name);
    byName.set(rule.alert, known);
  }
  return [...byName.values()];
}

const ALERT_RULES = loadAlertRules();

/** Links to the runbook of every alert rule that fires on a metric these expressions show. */
export function runbookLinks(exprs) {
  const shown = new Set(exprs.flatMap((expr) => [...metricsIn(expr)]));
  return ALERT_RULES.filter((rule) => [...rule.metrics].some((name) => shown.has(name))).map((rule) => ({
    type: 'link',
    title: `Runbook: ${rule.alert}`,
    tooltip: `What to do when ${rule.alert} fires`,
    url: rule.runbook,
    icon: 'doc',
    tags: [],
    asDropdown: false,
    includeVars: false,
    keepTime: false,
    targetBlank: true,
  }));
}

/** Firing alerts as annotations: those of the built-in engine, and those Prometheus evaluates from the shipped rules. */
export function alertAnnotations() {
  const common = { datasource: DATASOURCE, enable: true, hide: false, step: '1m', useValueForTime: false };
  return [
    {
      ...common,
      name: 'avaxmon alerts (built-in engine)',
      iconColor: 'red',
      expr: 'avaxmon_alerts{job=~"$job",instance=~"$instance",state="firing"} > 0',
      titleFormat: '{{rule}}',
      textFormat: '{{rule}} firing ({{severity}})',
      tagKeys: 'severity',
    },
    {
      ...common,
      name: 'Prometheus alerts (shipped rules)',
      iconColor: 'orange',
      expr: 'ALERTS{alertstate="firing",alertname=~"Avaxmon.*|Avalanche.*"}',
      titleFormat: '{{alertname}}',
      textFormat: '{{alertname}} {{target}} ({{severity}})',
      tagKeys: 'severity,target',
    },
  ];
}
