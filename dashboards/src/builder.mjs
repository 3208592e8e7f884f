// Small builders for the Grafana dashboards, so every dashboard follows the same conventions:
// one `datasource` variable used by every panel, `job`, `instance` and `target` variables, panels grouped
// in rows, a unit, a title and a description on every panel, links from a panel to the runbook of every
// alert fired on what it shows, an annotation of firing alerts, and $__rate_interval in rate()/increase().
// The committed JSON in dashboards/ is generated from these files by scripts/generate-dashboards.mjs.
import { alertAnnotations, runbookLinks } from './alerts.mjs';
import { DATASOURCE } from './datasource.mjs';

export { DATASOURCE };

export const TAGS = ['avaxmon', 'avalanche'];
const GRID_WIDTH = 24;

/** The selector of avaxmon series scraped for the chosen job(s), instance(s) and target(s), plus extra matchers. */
export function sel(extra = '') {
  return `{job=~"$job",instance=~"$instance",target=~"$target"${extra ? `,${extra}` : ''}}`;
}

/** The selector for series that have no `target` label (public APIs, alerting, config). */
export function jobSel(extra = '') {
  return `{job=~"$job",instance=~"$instance"${extra ? `,${extra}` : ''}}`;
}

function queryVariable(name, label, query, { multi = true, includeAll = true } = {}) {
  return {
    name,
    label,
    type: 'query',
    datasource: DATASOURCE,
    query: { query, refId: `${name}-variable` },
    refresh: 2,
    sort: 1,
    multi,
    includeAll,
    allValue: '.*',
    options: [],
    hide: 0,
  };
}

export function variables(extra = []) {
  return [
    {
      name: 'datasource',
      label: 'Data source',
      type: 'datasource',
      query: 'prometheus',
      options: [],
      refresh: 1,
      hide: 0,
    },
    queryVariable('job', 'Job', 'label_values(avaxmon_build_info, job)'),
    queryVariable('instance', 'Instance', 'label_values(avaxmon_build_info{job=~"$job"}, instance)'),
    queryVariable('target', 'Target', 'label_values(avaxmon_target_up{job=~"$job",instance=~"$instance"}, target)'),
    ...extra.map((variable) => queryVariable(variable.name, variable.label, variable.query)),
  ];
}

function targets(queries, { instant = false, format = 'time_series' } = {}) {
  return queries.map(({ expr, legend }, index) => ({
    refId: String.fromCharCode(65 + index),
    datasource: DATASOURCE,
    expr,
    legendFormat: legend ?? '__auto',
    range: !instant,
    instant,
    format,
  }));
}

function fieldConfig(unit, { min, max, decimals, thresholds, mappings = [], custom = {} } = {}) {
  const defaults = { unit, mappings, custom };
  if (min !== undefined) defaults.min = min;
  if (max !== undefined) defaults.max = max;
  if (decimals !== undefined) defaults.decimals = decimals;
  defaults.thresholds = {
    mode: 'absolute',
    steps: thresholds ?? [{ color: 'green', value: null }],
  };
  defaults.color = { mode: thresholds ? 'thresholds' : 'palette-classic' };
  return { defaults, overrides: [] };
}

/** 1 as a green "OK" word and 0 as a red "FAIL" word, for the 0/1 gauges. */
export function boolMappings(ok = 'OK', fail = 'FAIL') {
  return [
    {
      type: 'value',
      options: {
        0: { text: fail, color: 'red', index: 0 },
        1: { text: ok, color: 'green', index: 1 },
      },
    },
  ];
}

const BOOL_THRESHOLDS = [
  { color: 'red', value: null },
  { color: 'green', value: 1 },
];

function panel(type, spec, options, extra = {}) {
  const links = runbookLinks(spec.queries.map((query) => query.expr));
  return {
    type,
    title: spec.title,
    description: spec.description,
    ...(links.length > 0 ? { links } : {}),
    datasource: DATASOURCE,
    size: { w: spec.w ?? 12, h: spec.h ?? 8 },
    fieldConfig: fieldConfig(spec.unit, { ...spec, ...extra.fieldConfig }),
    options,
    targets: targets(spec.queries, extra.targets),
    ...(extra.transformations ? { transformations: extra.transformations } : {}),
  };
}

export function timeseries(spec) {
  const custom = {
    drawStyle: 'line',
    lineWidth: 1,
    fillOpacity: 10,
    showPoints: 'never',
    spanNulls: false,
    thresholdsStyle: { mode: spec.thresholds ? 'line' : 'off' },
  };
  return panel(
    'timeseries',
    spec,
    { legend: { displayMode: 'list', placement: 'bottom', showLegend: true }, tooltip: { mode: 'multi', sort: 'desc' } },
    { fieldConfig: { custom } },
  );
}

export function stat(spec) {
  return panel(
    'stat',
    spec,
    {
      reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false },
      colorMode: spec.thresholds || spec.mappings ? 'background' : 'value',
      graphMode: 'none',
      textMode: 'auto',
      justifyMode: 'auto',
      orientation: 'auto',
    },
    { targets: { instant: true } },
  );
}

export function boolTimeline(spec) {
  return panel(
    'state-timeline',
    { unit: 'bool_yes_no', mappings: boolMappings(spec.ok, spec.fail), thresholds: BOOL_THRESHOLDS, min: 0, max: 1, ...spec },
    {
      showValue: 'never',
      mergeValues: true,
      alignValue: 'left',
      rowHeight: 0.9,
      legend: { displayMode: 'list', placement: 'bottom', showLegend: false },
    },
  );
}

export function bargauge(spec) {
  return panel(
    'bargauge',
    spec,
    {
      reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false },
      orientation: 'horizontal',
      displayMode: 'gradient',
      showUnfilled: true,
    },
    { targets: { instant: true } },
  );
}

/** A table of the current series, one row per label set, labels as columns. */
export function table(spec) {
  return panel(
    'table',
    spec,
    { showHeader: true, cellHeight: 'sm', footer: { show: false, reducer: ['sum'], fields: '' } },
    {
      targets: { instant: true, format: 'table' },
      transformations: [
        { id: 'merge', options: {} },
        {
          id: 'organize',
          options: { excludeByName: { Time: true, __name__: true, job: true, instance: true }, renameByName: spec.rename ?? {} },
        },
      ],
    },
  );
}

/** A row: a full-width heading that groups the panels after it, up to the next row. */
export function row(title) {
  return { type: 'row', title, collapsed: false, panels: [], size: { w: GRID_WIDTH, h: 1 } };
}

/** Lays the panels out left to right, wrapping at the grid width (and before every row), and numbers them. */
function layout(panels) {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  return panels.map(({ size, ...rest }, index) => {
    if (x + size.w > GRID_WIDTH || (rest.type === 'row' && x > 0)) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    const placed = { id: index + 1, gridPos: { h: size.h, w: size.w, x, y }, ...rest };
    x += size.w;
    rowHeight = Math.max(rowHeight, size.h);
    return placed;
  });
}

export function dashboard({ uid, title, description, panels, extraVariables = [], links = [] }) {
  return {
    uid,
    title,
    description,
    tags: TAGS,
    editable: false,
    graphTooltip: 1,
    schemaVersion: 39,
    version: 1,
    time: { from: 'now-6h', to: 'now' },
    refresh: '1m',
    timezone: 'browser',
    links: [
      {
        type: 'dashboards',
        title: 'avaxmon',
        tooltip: 'The other avaxmon dashboards',
        icon: 'external link',
        tags: TAGS,
        asDropdown: true,
        includeVars: true,
        keepTime: true,
        targetBlank: false,
      },
      ...links,
    ],
    annotations: { list: alertAnnotations() },
    templating: { list: variables(extraVariables) },
    panels: layout(panels),
  };
}
