import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ruleRegistry } from '../../src/alerts/evaluation/rules/index.js';
import { parseDuration } from '../../src/config/duration.js';
import { catalogue } from '../../src/metrics/catalogue/index.js';
import { requireTool } from '../helpers/tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const PROMTOOL = '/usr/bin/promtool';
const RUNBOOK_BASE = 'https://github.com/avaxmon/avaxmon/blob/main/docs/runbooks.md#';

/**
 * The AvalancheGo source the native rules were checked against, and every native metric they use
 * with its labels, as registered in that source (see the comment in alerts/avalanchego.rules.yaml).
 * A rename upstream must be checked again and recorded here before the rules change.
 */
const AVALANCHEGO_SOURCE = { version: 'v1.14.2', commit: '6e5acf909c7a16b991142d6b3979bac5699bdb68' } as const;
const CHECKED_NATIVE_METRICS: Readonly<Record<string, { type: 'counter' | 'gauge'; labels: readonly string[]; source: string }>> = {
  avalanche_snowman_polls_successful: { type: 'counter', labels: ['chain'], source: 'snow/consensus/snowman/metrics.go' },
  avalanche_snowman_polls_failed: { type: 'counter', labels: ['chain'], source: 'snow/consensus/snowman/metrics.go' },
  avalanche_snowman_blks_rejected_count: {
    type: 'counter',
    labels: ['chain'],
    source: 'snow/consensus/snowman/metrics.go + utils/metric/averager.go',
  },
  avalanche_snowman_blks_processing: { type: 'gauge', labels: ['chain'], source: 'snow/consensus/snowman/metrics.go' },
  avalanche_stake_percent_connected: { type: 'gauge', labels: ['chain'], source: 'snow/engine/common/tracker/peers.go' },
  avalanche_benchlist_benched_num: { type: 'gauge', labels: ['chain'], source: 'snow/networking/benchlist/benchlist.go' },
  avalanche_resource_tracker_disk_available_percentage: {
    type: 'gauge',
    labels: [],
    source: 'snow/networking/tracker/resource_tracker.go',
  },
  avalanche_health_checks_failing: { type: 'gauge', labels: ['check', 'tag'], source: 'api/health/health.go' },
};
/** Labels Prometheus itself attaches to every scraped series. */
const TARGET_LABELS = ['job', 'instance'];

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface RuleTest {
  alertname: string;
  exp_alerts?: { exp_labels?: Record<string, string>; exp_annotations?: Record<string, string> }[];
}

function rulesOf(file: string): Rule[] {
  const document = parse(readFileSync(join(ROOT, 'alerts', file), 'utf8')) as { groups: { rules: Rule[] }[] };
  return document.groups.flatMap((group) => group.rules);
}

const ruleFiles = ['avaxmon.rules.yaml', 'avalanchego.rules.yaml'];
const allRules = ruleFiles.flatMap(rulesOf);
const testFiles = readdirSync(join(ROOT, 'alerts/tests')).filter((file) => file.endsWith('.yaml'));
const ruleTests: RuleTest[] = testFiles.flatMap((file) => {
  const document = parse(readFileSync(join(ROOT, 'alerts/tests', file), 'utf8')) as { tests: { alert_rule_test?: RuleTest[] }[] };
  return document.tests.flatMap((test) => test.alert_rule_test ?? []);
});

/** Metric names in a PromQL expression: identifiers followed by a selector, a range or the end of a term. */
function metricNames(expr: string, prefix: string): string[] {
  return [...new Set([...expr.matchAll(new RegExp(`\\b(${prefix}[a-zA-Z0-9_]*)\\b`, 'g'))].map((match) => match[1]))];
}

function labelMatchers(expr: string, metric: string): string[] {
  return [...expr.matchAll(new RegExp(`\\b${metric}\\{([^}]*)\\}`, 'g'))].flatMap((match) =>
    match[1]
      .split(',')
      .map((matcher) => matcher.trim().split(/[=!~]/)[0])
      .filter(Boolean),
  );
}

describe('Prometheus rule files', () => {
  it('pass promtool check rules', () => {
    if (!requireTool(PROMTOOL, 'prometheus')) return;
    const result = spawnSync(PROMTOOL, ['check', 'rules', ...ruleFiles.map((file) => join(ROOT, 'alerts', file))], { encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS');
  });

  it('pass the promtool unit tests in alerts/tests', () => {
    if (!requireTool(PROMTOOL, 'prometheus')) return;
    const result = spawnSync(PROMTOOL, ['test', 'rules', ...testFiles], { cwd: join(ROOT, 'alerts/tests'), encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.match(/SUCCESS/g)).toHaveLength(testFiles.length);
  });

  it.each(allRules.map((rule) => [`${rule.alert} (${rule.labels?.severity})`, rule] as const))(
    '%s has for, severity, summary, templated description and runbook',
    (_name, rule) => {
      expect(rule.for).toMatch(/^\d+[smhd]$/);
      expect(['critical', 'warning', 'info']).toContain(rule.labels?.severity);
      expect(rule.alert).toMatch(/^(Avaxmon|Avalanche)[A-Z][A-Za-z0-9]+$/);
      expect(rule.annotations?.summary).toMatch(/\S/);
      expect(rule.annotations?.description).toMatch(/\{\{.+\}\}/);
      expect(rule.annotations?.runbook_url).toBe(RUNBOOK_BASE + rule.alert.toLowerCase());
    },
  );

  it('have one runbook section per alert, and no section without an alert', () => {
    const runbooks = readFileSync(join(ROOT, 'docs/runbooks.md'), 'utf8');
    const sections = [...runbooks.matchAll(/^## (\S+)$/gm)].map((match) => match[1]).filter((title) => /^(Avaxmon|Avalanche)/.test(title));
    expect(new Set(sections)).toEqual(new Set(allRules.map((rule) => rule.alert)));
  });

  it('are unit-tested firing at every severity and not firing, with labels and annotations', () => {
    for (const rule of allRules) {
      const tests = ruleTests.filter((test) => test.alertname === rule.alert);
      const firing = tests.flatMap((test) => test.exp_alerts ?? []).filter((alert) => alert.exp_labels?.severity === rule.labels?.severity);
      expect(firing.length, `${rule.alert} ${rule.labels?.severity} never expected to fire`).toBeGreaterThan(0);
      for (const alert of firing)
        expect(Object.keys(alert.exp_annotations ?? {}).sort()).toEqual(['description', 'runbook_url', 'summary']);
      expect(
        tests.some((test) => (test.exp_alerts ?? []).length === 0),
        `${rule.alert} never expected silent`,
      ).toBe(true);
    }
  });

  it('select every series by job, so alerts/settings.yaml can retarget them', () => {
    for (const [file, job] of [
      ['avaxmon.rules.yaml', 'job=~"avaxmon.*"'],
      ['avalanchego.rules.yaml', 'job=~"avalanchego.*"'],
    ] as const) {
      for (const rule of rulesOf(file)) {
        const selectors = [...rule.expr.matchAll(/\b(avaxmon_|avalanche_|up\b)[a-zA-Z0-9_]*(\{[^}]*\})?/g)];
        for (const selector of selectors) expect(selector[2] ?? '', `${rule.alert}: ${selector[0]}`).toContain(job);
      }
    }
  });

  it('are generated from alerts/src with alerts/settings.yaml, and checked in up to date', () => {
    const check = spawnSync(process.execPath, [join(ROOT, 'scripts/generate-rules.mjs'), '--check'], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
  });

  it("take an operator's own selectors and thresholds from a settings file, with nothing left unfilled", () => {
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-rules-'));
    const settings = join(dir, 'settings.yaml');
    const defaults = readFileSync(join(ROOT, 'alerts/settings.yaml'), 'utf8');
    writeFileSync(
      settings,
      defaults
        .replace(`avaxmon: 'job=~"avaxmon.*"'`, `avaxmon: 'job="validator-monitor"'`)
        .replace('disk_available_warning_percent: 10', 'disk_available_warning_percent: 15')
        .replace(/^rules:$/m, 'rules:\n  AvalancheRewardingStakeLow: { warning: 0.85, for: 30m }'),
    );
    const out = join(dir, 'rules');
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts/generate-rules.mjs'), '--settings', settings, '--out', out], {
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const avaxmon = readFileSync(join(out, 'avaxmon.rules.yaml'), 'utf8');
    const avalanchego = readFileSync(join(out, 'avalanchego.rules.yaml'), 'utf8');
    expect(avaxmon).not.toContain('job=~"avaxmon.*"');
    expect(avaxmon.match(/job="validator-monitor"/g)?.length).toBeGreaterThan(40);
    expect(avalanchego).toContain('avalanche_resource_tracker_disk_available_percentage{job=~"avalanchego.*"} < 15');
    expect(avalanchego).toContain('warning below 15%');
    expect(avaxmon).toContain('avaxmon_node_uptime_rewarding_stake_ratio{job="validator-monitor"} < 0.85');
    expect(avaxmon).toContain('Less than 85% of stake would vote to reward');
    expect(avaxmon).toMatch(/rewarding_stake_ratio\{job="validator-monitor"\} < 0\.85\n\s+for: 30m/);
    expect(avaxmon + avalanchego).not.toContain('%{');
    if (!requireTool(PROMTOOL, 'prometheus')) return;
    const promtool = spawnSync(PROMTOOL, ['check', 'rules', join(out, 'avaxmon.rules.yaml'), join(out, 'avalanchego.rules.yaml')], {
      encoding: 'utf8',
    });
    expect(promtool.status, promtool.stdout + promtool.stderr).toBe(0);
  });

  it("render the twins with an avaxmon config's rule settings, and refuse a key the daemon would refuse", () => {
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-rules-'));
    const config = join(dir, 'avaxmon.yaml');
    const generate = () =>
      spawnSync(process.execPath, [join(ROOT, 'scripts/generate-rules.mjs'), '--config', config, '--out', join(dir, 'rules')], {
        encoding: 'utf8',
      });
    writeFileSync(
      config,
      'alerts:\n  rules:\n    AvalanchePeersLow: { threshold: 30, for: 10m }\n    AvalancheUptimeDropping: { enabled: false }\n',
    );
    const ok = generate();
    expect(ok.status, ok.stderr).toBe(0);
    const peersLow = parse(readFileSync(join(dir, 'rules/avaxmon.rules.yaml'), 'utf8'))
      .groups.flatMap(
        (group: { rules: Array<{ alert: string; expr: string; for: string; annotations: { description: string } }> }) => group.rules,
      )
      .filter((rule: { alert: string }) => rule.alert === 'AvalanchePeersLow' || rule.alert === 'AvalancheUptimeDropping');
    expect(peersLow).toHaveLength(1);
    expect(peersLow[0].expr).toContain('< 30 unless');
    expect(peersLow[0].for).toBe('10m');
    expect(peersLow[0].annotations.description).toContain('for more than 10 minutes');
    writeFileSync(config, 'alerts:\n  rules:\n    AvalanchePeersLow: { treshold: 30 }\n');
    const refused = generate();
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('treshold');
  });

  it('refuse a placeholder the settings do not fill', () => {
    const dir = mkdtempSync(join(tmpdir(), 'avaxmon-rules-'));
    const settings = join(dir, 'settings.yaml');
    writeFileSync(settings, readFileSync(join(ROOT, 'alerts/settings.yaml'), 'utf8').replace(/^ {2}connected_stake: .*$/m, ''));
    const result = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts/generate-rules.mjs'), '--settings', settings, '--out', join(dir, 'rules')],
      { encoding: 'utf8' },
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('%{thresholds.connected_stake} has no value in thresholds.connected_stake');
  });
});

describe('alerts/avaxmon.rules.yaml: twins of the built-in rules', () => {
  const twins = rulesOf('avaxmon.rules.yaml');

  it('has a twin with the same name, for and severities for every built-in rule', () => {
    for (const builtIn of ruleRegistry.values()) {
      const matching = twins.filter((rule) => rule.alert === builtIn.name);
      expect(matching.length, `no Prometheus twin of ${builtIn.name}`).toBeGreaterThan(0);
      const severities = typeof builtIn.severity === 'string' ? [builtIn.severity] : builtIn.severity;
      expect(new Set(matching.map((rule) => rule.labels?.severity))).toEqual(new Set(severities));
      for (const rule of matching) expect(parseDuration(rule.for!), builtIn.name).toBe(parseDuration(builtIn.defaultFor));
    }
  });

  it('watches avaxmon itself: down and absent', () => {
    expect(twins.find((rule) => rule.alert === 'AvaxmonDown')?.expr).toMatch(/^up\{job=~"avaxmon\.\*"\} == 0$/);
    expect(twins.find((rule) => rule.alert === 'AvaxmonAbsent')?.expr).toMatch(/^absent\(up\{job=~"avaxmon\.\*"\}\)$/);
  });

  it('uses only metrics of the catalogue, with their labels', () => {
    for (const rule of twins) {
      for (const name of metricNames(rule.expr, 'avaxmon_')) {
        const desc = catalogue.get(name);
        expect(desc, `${rule.alert} uses ${name}, which is not in the catalogue`).toBeDefined();
        for (const label of labelMatchers(rule.expr, name))
          expect([...TARGET_LABELS, ...desc!.labels], `${rule.alert}: ${name}{${label}}`).toContain(label);
      }
    }
  });
});

describe(`alerts/avalanchego.rules.yaml: native metrics of AvalancheGo ${AVALANCHEGO_SOURCE.version}`, () => {
  const native = rulesOf('avalanchego.rules.yaml');

  it(`names the source version it was checked against (${AVALANCHEGO_SOURCE.version}, ${AVALANCHEGO_SOURCE.commit.slice(0, 12)})`, () => {
    const header = readFileSync(join(ROOT, 'alerts/avalanchego.rules.yaml'), 'utf8');
    expect(header).toContain(AVALANCHEGO_SOURCE.version);
    expect(header).toContain(AVALANCHEGO_SOURCE.commit);
  });

  it('uses only metric names and labels recorded from that source', () => {
    const used = new Set<string>();
    for (const rule of native) {
      for (const name of metricNames(rule.expr, 'avalanche_')) {
        used.add(name);
        const checked = CHECKED_NATIVE_METRICS[name];
        expect(checked, `${rule.alert} uses ${name}, not checked against AvalancheGo ${AVALANCHEGO_SOURCE.version}`).toBeDefined();
        for (const label of labelMatchers(rule.expr, name))
          expect([...TARGET_LABELS, ...checked.labels], `${rule.alert}: ${name}{${label}}`).toContain(label);
        if (checked.type === 'counter')
          expect(rule.expr, `${name} is a counter`).toMatch(new RegExp(`(rate|increase)\\(${name}\\{[^}]*\\}\\[`));
      }
    }
    expect([...used].sort()).toEqual(Object.keys(CHECKED_NATIVE_METRICS).sort());
  });

  it('covers the signals Avalanche recommends, at its thresholds', () => {
    const exprOf = (alert: string, severity: string) =>
      native
        .find((rule) => rule.alert === alert && rule.labels?.severity === severity)
        ?.expr.replace(/\s+/g, ' ')
        .trim();
    expect(exprOf('AvalancheQuerySuccessRateLow', 'warning')).toMatch(/< 0\.95$/);
    expect(exprOf('AvalancheQuerySuccessRateLow', 'critical')).toMatch(/< 0\.90?$/);
    expect(exprOf('AvalancheDiskSpaceLow', 'warning')).toMatch(/< 10$/);
    expect(exprOf('AvalancheDiskSpaceLow', 'critical')).toMatch(/< 5$/);
    expect(exprOf('AvalancheBlocksRejected', 'critical')).toMatch(/\[5m\]\) > 10$/);
    expect(exprOf('AvalancheConnectedStakeLow', 'critical')).toMatch(/< 0\.8$/);
    expect(exprOf('AvalancheProcessingBlocksHigh', 'warning')).toMatch(/> 6$/);
    expect(exprOf('AvalancheProcessingBlocksHigh', 'critical')).toMatch(/> 15$/);
    expect(exprOf('AvalancheValidatorsBenched', 'critical')).toMatch(/> 1$/);
    // One failing check makes the node unhealthy, so one is enough to page.
    expect(exprOf('AvalancheGoHealthChecksFailing', 'critical')).toMatch(/check="health".*> 0$/);
  });
});
