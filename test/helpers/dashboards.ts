import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const DASHBOARD_DIR = 'dashboards';

interface Variable {
  name: string;
  type: string;
  query?: string | { query?: string };
  definition?: string;
  options?: Array<{ value: string }>;
  current?: { value?: string | string[] };
}

interface Panel {
  title?: string;
  type?: string;
  panels?: Panel[];
  targets?: Array<{ expr?: string }>;
}

interface Dashboard {
  title: string;
  templating?: { list?: Variable[] };
  panels?: Panel[];
  annotations?: { list?: Array<{ name?: string; expr?: string }> };
}

export interface DashboardQuery {
  readonly dashboard: string;
  readonly panel: string;
  readonly expr: string;
  readonly variables: readonly Variable[];
}

/** Every PromQL expression of every dashboard: panel targets (rows included) and annotations. */
export function dashboardQueries(dir = DASHBOARD_DIR): DashboardQuery[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const dashboard = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Dashboard;
      const variables = dashboard.templating?.list ?? [];
      const query = (panel: string, expr: string): DashboardQuery => ({ dashboard: dashboard.title, panel, expr, variables });
      const fromPanels = flattenPanels(dashboard.panels ?? []).flatMap((panel) =>
        (panel.targets ?? []).filter((target) => target.expr).map((target) => query(panel.title ?? '(untitled)', target.expr!)),
      );
      const fromAnnotations = (dashboard.annotations?.list ?? [])
        .filter((annotation) => annotation.expr)
        .map((annotation) => query(`annotation ${annotation.name}`, annotation.expr!));
      return [...fromPanels, ...fromAnnotations];
    });
}

function flattenPanels(panels: Panel[]): Panel[] {
  return panels.flatMap((panel) => [panel, ...flattenPanels(panel.panels ?? [])]);
}

/**
 * Grafana's built-in variables at what they would be for a 1s scrape interval: $__rate_interval is
 * at least four scrape intervals; a little more keeps rate() fed when a scrape is late.
 */
const BUILT_INS: Record<string, string> = {
  __rate_interval: '10s',
  __interval: '2s',
  __interval_ms: '2000',
  __range: '5m',
  __range_s: '300',
  __range_ms: '300000',
};

/** Preferred values where a variable could pick any of several; the rest take their first value. */
const PREFERRED: Record<string, string> = { target: 'node-a', job: 'avaxmon' };

/**
 * Fills an expression's variables as Grafana would: built-ins, then each dashboard variable in
 * order, a query variable resolved against Prometheus (label_values) with earlier values filled in.
 */
export async function fillVariables(prometheusUrl: string, query: DashboardQuery): Promise<string> {
  const values: Record<string, string> = { ...BUILT_INS };
  for (const variable of query.variables) {
    if (variable.type === 'datasource' || variable.type === 'adhoc') continue;
    values[variable.name] = await variableValue(prometheusUrl, variable, values);
  }
  return substitute(query.expr, values);
}

export function substitute(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{(\w+)(?::[^}]*)?\}|\[\[(\w+)(?::[^\]]*)?\]\]|\$(\w+)/g, (whole, braced, bracketed, bare) => {
    const name = (braced ?? bracketed ?? bare) as string;
    return values[name] ?? whole;
  });
}

async function variableValue(prometheusUrl: string, variable: Variable, values: Record<string, string>): Promise<string> {
  const text = typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? variable.definition ?? '');
  if (variable.type === 'query') return choose(variable.name, await labelValues(prometheusUrl, substitute(text, values)));
  if (variable.type === 'custom' || variable.type === 'interval') {
    const options = variable.options?.map((option) => option.value).filter((value) => value !== '$__all') ?? [];
    return choose(variable.name, options.length > 0 ? options : text.split(',').map((part) => part.trim()));
  }
  const current = variable.current?.value;
  return (Array.isArray(current) ? current[0] : current) ?? text;
}

function choose(name: string, candidates: string[]): string {
  if (candidates.length === 0) throw new Error(`variable $${name} has no values`);
  return candidates.includes(PREFERRED[name]) ? PREFERRED[name] : candidates[0];
}

/** label_values(label) or label_values(selector, label), through Prometheus' label values API. */
async function labelValues(prometheusUrl: string, query: string): Promise<string[]> {
  const match = /^\s*label_values\(\s*(?:(.*?)\s*,\s*)?(\w+)\s*\)\s*$/.exec(query);
  if (!match) throw new Error(`unsupported variable query: ${query}`);
  const params = new URLSearchParams();
  if (match[1]) params.append('match[]', match[1]);
  const response = await fetch(`${prometheusUrl}/api/v1/label/${match[2]}/values?${params}`);
  const body = (await response.json()) as { status: string; data: string[]; error?: string };
  if (body.status !== 'success') throw new Error(`label_values ${query}: ${body.error}`);
  return body.data;
}
